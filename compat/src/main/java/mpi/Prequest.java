package mpi;

import org.jmpi.ErrorClass;
import org.jmpi.MpiException;

/**
 * A persistent request (Open MPI Java API): made by {@code sendInit}, {@code recvInit}...; {@link #start()}
 * begins it again after each completion. It does not become null when it completes.
 */
public final class Prequest extends Request
{
    Prequest(final org.jmpi.Request request)
    {
        super(request);
    }

    @Override
    void completed()
    {
        // a persistent request stays allocated until freed
    }

    /** MPI_Start. */
    public void start() throws MPIException
    {
        MPI.check();
        final org.jmpi.Request r = request;
        if (r == null)
        {
            throw MPIException.of(ErrorClass.ERR_REQUEST, "start: the persistent request was freed");
        }
        try
        {
            r.start();
        }
        catch (final MpiException ex)
        {
            throw MPIException.of(ex);
        }
    }

    /** MPI_Startall. */
    public static void startAll(final Prequest[] requests) throws MPIException
    {
        MPI.check();
        if (requests == null)
        {
            throw MPIException.of(ErrorClass.ERR_ARG, "startAll: the request array is null");
        }
        for (final Prequest p : requests)
        {
            if (p != null)
            {
                p.start();
            }
        }
    }
}
