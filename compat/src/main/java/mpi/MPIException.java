package mpi;

import org.jmpi.ErrorClass;
import org.jmpi.MpiException;

/**
 * An MPI call failed (Open MPI Java API). Thrown when the communicator's error handler is
 * {@link MPI#ERRORS_RETURN}; under {@link MPI#ERRORS_ARE_FATAL} (the default on {@link MPI#COMM_WORLD}) the
 * job aborts instead. {@link #getErrorClass()} is one of the {@code MPI.ERR_*} constants; the message is
 * jmpi's, naming the call and the values involved (MPI_Error_string).
 *
 * <p>A checked exception, as in Open MPI: every method that may fail declares it.
 */
public final class MPIException extends Exception
{
    private static final long serialVersionUID = 1L;

    private final int errorCode;
    private final int errorClass;

    /** An exception with an error code and class, as the library raises them. */
    protected MPIException(final int code, final int clazz, final String message)
    {
        super(message);
        this.errorCode = code;
        this.errorClass = clazz;
    }

    /** An exception with a message and error class {@link MPI#ERR_OTHER}. */
    public MPIException(final String message)
    {
        this(MPI.ERR_OTHER, MPI.ERR_OTHER, message);
    }

    /** An exception caused by another, error class {@link MPI#ERR_OTHER}. */
    public MPIException(final Throwable cause)
    {
        super(cause);
        setStackTrace(cause.getStackTrace());
        this.errorCode = MPI.ERR_OTHER;
        this.errorClass = MPI.ERR_OTHER;
    }

    /** The MPI error code (jmpi's codes are the error classes). */
    public int getErrorCode()
    {
        return errorCode;
    }

    /** The MPI error class: one of the {@code MPI.ERR_*} constants. */
    public int getErrorClass()
    {
        return errorClass;
    }

    /** MPI_Error_string: the message describing this error. */
    public String getErrorString()
    {
        return getMessage();
    }

    /** The compat form of a core error: same class, message and stack. */
    static MPIException of(final MpiException ex)
    {
        final int code = ex.errorClass().code();
        final MPIException converted = new MPIException(code, code, ex.getMessage());
        converted.initCause(ex);
        converted.setStackTrace(ex.getStackTrace());
        return converted;
    }

    /** An error raised by the compat layer itself. */
    static MPIException of(final ErrorClass errorClass, final String message)
    {
        return new MPIException(errorClass.code(), errorClass.code(), message);
    }
}
