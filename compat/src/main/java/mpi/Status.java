package mpi;

import org.jmpi.ErrorClass;
import org.jmpi.MpiException;

/**
 * The status of a completed receive, probe or request (Open MPI Java API), over a jmpi
 * {@link org.jmpi.Status}. {@link #getCount} and {@link #getElements} count in units of the datatype
 * passed, as MPI_Get_count and MPI_Get_elements do.
 */
public final class Status
{
    private org.jmpi.Status status;
    private final int index;
    private boolean cancelled;

    /** An empty status: source ANY_SOURCE, tag ANY_TAG, no data. */
    public Status()
    {
        this(new org.jmpi.Status(MPI.ANY_SOURCE, MPI.ANY_TAG, ErrorClass.SUCCESS, false, 0), MPI.UNDEFINED);
    }

    Status(final org.jmpi.Status status, final int index)
    {
        this.status = status;
        this.index = index;
        this.cancelled = status.isCancelled();
    }

    org.jmpi.Status core()
    {
        return status;
    }

    /** The compat status of a jmpi status, or null. */
    static Status of(final org.jmpi.Status status)
    {
        return status == null ? null : new Status(status, MPI.UNDEFINED);
    }

    /** MPI_Get_count: whole items of {@code datatype} received, or {@link MPI#UNDEFINED}. */
    public int getCount(final Datatype datatype) throws MPIException
    {
        try
        {
            return status.count(Datatype.core(datatype));
        }
        catch (final MpiException ex)
        {
            throw MPIException.of(ex);
        }
    }

    /** MPI_Test_cancelled. */
    public boolean isCancelled() throws MPIException
    {
        return cancelled;
    }

    /** MPI_Get_elements: basic elements received, or {@link MPI#UNDEFINED} when it does not fit an int. */
    public int getElements(final Datatype datatype) throws MPIException
    {
        final long n = elements(datatype);
        return n > Integer.MAX_VALUE ? MPI.UNDEFINED : (int)n;
    }

    /** MPI_Get_elements_x. */
    public Count getElementsX(final Datatype datatype) throws MPIException
    {
        return new Count(elements(datatype));
    }

    private long elements(final Datatype datatype) throws MPIException
    {
        try
        {
            return status.elements(Datatype.core(datatype));
        }
        catch (final MpiException ex)
        {
            throw MPIException.of(ex);
        }
    }

    /** MPI_Status_set_elements: {@code count} basic elements of {@code datatype}. */
    public void setElements(final Datatype datatype, final int count) throws MPIException
    {
        setBytes(datatype, count);
    }

    /** MPI_Status_set_elements_x. */
    public void setElementsX(final Datatype datatype, final Count count) throws MPIException
    {
        setBytes(datatype, count.getCount());
    }

    private void setBytes(final Datatype datatype, final long elements) throws MPIException
    {
        final org.jmpi.Datatype t = Datatype.core(datatype);
        final long perElement = t.elementCount() == 0 ? 0 : t.size() / t.elementCount();
        status = new org.jmpi.Status(status.source(), status.tag(), status.error(), cancelled, elements * perElement);
    }

    /** MPI_Status_set_cancelled. */
    public void setCancelled(final boolean flag) throws MPIException
    {
        cancelled = flag;
    }

    /** The source rank (MPI_SOURCE). */
    public int getSource()
    {
        return status.source();
    }

    /** The tag (MPI_TAG). */
    public int getTag()
    {
        return status.tag();
    }

    /** The error class (MPI_ERROR), {@link MPI#SUCCESS} when the operation succeeded. */
    public int getError()
    {
        return status.error().code();
    }

    /** The index of the request this status belongs to, from {@link Request#waitAnyStatus} and {@link Request#testAnyStatus}. */
    public int getIndex()
    {
        return index;
    }

    @Override
    public String toString()
    {
        return "Status{source=" + getSource() + ", tag=" + getTag() + ", error=" + getError() + ", bytes=" + status.countBytes() + "}";
    }
}
