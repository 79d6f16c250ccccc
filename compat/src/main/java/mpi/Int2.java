package mpi;

/**
 * The {@link MPI#INT2} pair (two ints, for MINLOC and MAXLOC) as a struct in a {@code ByteBuffer}, laid
 * out as in C: value at byte 0, index at byte 4, extent 8. Use {@link MPI#int2}:
 * {@code MPI.int2.getData(buffer, i).putValue(v)}.
 */
public final class Int2 extends Struct
{
    private final int valueOffset;
    private final int indexOffset;

    /** The accessor {@link MPI#int2} is one of these. */
    Int2()
    {
        valueOffset = addInt();
        setOffset(4);
        indexOffset = addInt();
        setOffset(8);
    }

    @Override
    Datatype predefinedType()
    {
        return MPI.INT2;
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
        public int getValue()
        {
            return getInt(valueOffset);
        }

        /** The index. */
        public int getIndex()
        {
            return getInt(indexOffset);
        }

        /** Sets the value. */
        public void putValue(final int value)
        {
            putInt(valueOffset, value);
        }

        /** Sets the index. */
        public void putIndex(final int index)
        {
            putInt(indexOffset, index);
        }
    }
}
