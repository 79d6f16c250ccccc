package mpi;

/**
 * The {@link MPI#SHORT_INT} pair (a short value and an int index, for MINLOC and MAXLOC) as a struct in a {@code ByteBuffer}, laid
 * out as in C: value at byte 0, index at byte 4, extent 8. Use {@link MPI#shortInt}:
 * {@code MPI.shortInt.getData(buffer, i).putValue(v)}.
 */
public final class ShortInt extends Struct
{
    private final int valueOffset;
    private final int indexOffset;

    /** The accessor {@link MPI#shortInt} is one of these. */
    ShortInt()
    {
        valueOffset = addShort();
        setOffset(4);
        indexOffset = addInt();
        setOffset(8);
    }

    @Override
    Datatype predefinedType()
    {
        return MPI.SHORT_INT;
    }

    @Override
    protected Data newData()
    {
        return new Data();
    }

    /** One {value, index} pair. */
    public final class Data extends Struct.Data
    {
        /** The value. */
        public short getValue()
        {
            return getShort(valueOffset);
        }

        /** The index. */
        public int getIndex()
        {
            return getInt(indexOffset);
        }

        /** Sets the value. */
        public void putValue(final short value)
        {
            putShort(valueOffset, value);
        }

        /** Sets the index. */
        public void putIndex(final int index)
        {
            putInt(indexOffset, index);
        }
    }
}
