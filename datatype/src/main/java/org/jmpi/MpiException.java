package org.jmpi;

/**
 * The one exception jmpi throws for MPI errors. Unchecked; carries the MPI {@link ErrorClass} and a
 * message naming what failed and the values involved, for example
 * {@code recv truncated: received=8192 bytes, buffer=4096 bytes, source=1, tag=7}.
 */
public class MpiException extends RuntimeException
{
    private static final long serialVersionUID = 1L;

    private final ErrorClass errorClass;

    public MpiException(final ErrorClass errorClass, final String message)
    {
        super(errorClass.name() + ": " + message);
        this.errorClass = errorClass;
    }

    public MpiException(final ErrorClass errorClass, final String message, final Throwable cause)
    {
        super(errorClass.name() + ": " + message, cause);
        this.errorClass = errorClass;
    }

    /** The MPI error class. */
    public ErrorClass errorClass()
    {
        return errorClass;
    }

    /** The numeric MPI error class ({@code errorClass().code()}). */
    public int errorCode()
    {
        return errorClass.code();
    }
}
