package mpi;

import org.jmpi.ErrorHandler;

/**
 * An error handler (Open MPI Java API): {@link MPI#ERRORS_ARE_FATAL} (the job aborts with the error class as
 * exit code) or {@link MPI#ERRORS_RETURN} (the call throws {@link MPIException}). Immutable.
 */
public final class Errhandler implements Freeable
{
    final ErrorHandler handler;

    Errhandler(final ErrorHandler handler)
    {
        this.handler = handler;
    }

    static Errhandler of(final ErrorHandler handler)
    {
        return switch (handler)
        {
            case ERRORS_RETURN -> MPI.ERRORS_RETURN;
            case ERRORS_ARE_FATAL -> MPI.ERRORS_ARE_FATAL;
            case ERRORS_ABORT -> new Errhandler(handler);
        };
    }

    /** Predefined handlers cannot be freed; this does nothing (as MPI_Errhandler_free on them returns them). */
    @Override
    public void free() throws MPIException
    {
    }

    /** Whether this is a null handle: never, jmpi has only the predefined handlers. */
    public boolean isNull()
    {
        return false;
    }

    @Override
    public boolean equals(final Object o)
    {
        return o instanceof Errhandler e && e.handler == handler;
    }

    @Override
    public int hashCode()
    {
        return handler.hashCode();
    }

    @Override
    public String toString()
    {
        return handler.name();
    }
}
