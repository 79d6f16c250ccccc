package mpi;

/** A count that may exceed an int (MPI_Count), as Open MPI's Java API returns it from {@link Status#getElementsX}. */
public final class Count
{
    private final long count;

    /** A count of {@code count}. */
    public Count(final long count)
    {
        this.count = count;
    }

    /** The count. */
    public long getCount()
    {
        return count;
    }

    @Override
    public boolean equals(final Object o)
    {
        return o instanceof Count c && c.count == count;
    }

    @Override
    public int hashCode()
    {
        return Long.hashCode(count);
    }

    @Override
    public String toString()
    {
        return Long.toString(count);
    }
}
