package mpi;

/**
 * The {@link MPI#DOUBLE_INT} pair (a double value and an int index, for MINLOC and MAXLOC) as a struct in a {@code ByteBuffer}, laid
 * out as in C: value at byte 0, index at byte 8, extent 16. Use {@link MPI#doubleInt}:
 * {@code MPI.doubleInt.getData(buffer, i).putValue(v)}.
 */
public final class DoubleInt extends Struct
{
    private final int valueOffset;
    private final int indexOffset;

    /** The accessor {@link MPI#doubleInt} is one of these. */
    DoubleInt()
    {
        valueOffset = addDouble();
        setOffset(8);
        indexOffset = addInt();
        setOffset(16);
    }

    @Override
    Datatype predefinedType()
    {
        return MPI.DOUBLE_INT;
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
        public double getValue()
        {
            return getDouble(valueOffset);
        }

        /** The index. */
        public int getIndex()
        {
            return getInt(indexOffset);
        }

        /** Sets the value. */
        public void putValue(final double value)
        {
            putDouble(valueOffset, value);
        }

        /** Sets the index. */
        public void putIndex(final int index)
        {
            putInt(indexOffset, index);
        }
    }
}
