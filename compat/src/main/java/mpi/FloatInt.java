package mpi;

/**
 * The {@link MPI#FLOAT_INT} pair (a float value and an int index, for MINLOC and MAXLOC) as a struct in a {@code ByteBuffer}, laid
 * out as in C: value at byte 0, index at byte 4, extent 8. Use {@link MPI#floatInt}:
 * {@code MPI.floatInt.getData(buffer, i).putValue(v)}.
 */
public final class FloatInt extends Struct
{
    private final int valueOffset;
    private final int indexOffset;

    /** The accessor {@link MPI#floatInt} is one of these. */
    FloatInt()
    {
        valueOffset = addFloat();
        setOffset(4);
        indexOffset = addInt();
        setOffset(8);
    }

    @Override
    Datatype predefinedType()
    {
        return MPI.FLOAT_INT;
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
        public float getValue()
        {
            return getFloat(valueOffset);
        }

        /** The index. */
        public int getIndex()
        {
            return getInt(indexOffset);
        }

        /** Sets the value. */
        public void putValue(final float value)
        {
            putFloat(valueOffset, value);
        }

        /** Sets the index. */
        public void putIndex(final int index)
        {
            putInt(indexOffset, index);
        }
    }
}
