package mpi;

/**
 * The {@link MPI#LONG_INT} pair (a long value and an int index, for MINLOC and MAXLOC) as a struct in a {@code ByteBuffer}, laid
 * out as in C: value at byte 0, index at byte 8, extent 16. Use {@link MPI#longInt}:
 * {@code MPI.longInt.getData(buffer, i).putValue(v)}.
 */
public final class LongInt extends Struct
{
    private final int valueOffset;
    private final int indexOffset;

    /** The accessor {@link MPI#longInt} is one of these. */
    LongInt()
    {
        valueOffset = addLong();
        setOffset(8);
        indexOffset = addInt();
        setOffset(16);
    }

    @Override
    Datatype predefinedType()
    {
        return MPI.LONG_INT;
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
        public long getValue()
        {
            return getLong(valueOffset);
        }

        /** The index. */
        public int getIndex()
        {
            return getInt(indexOffset);
        }

        /** Sets the value. */
        public void putValue(final long value)
        {
            putLong(valueOffset, value);
        }

        /** Sets the index. */
        public void putIndex(final int index)
        {
            putInt(indexOffset, index);
        }
    }
}
