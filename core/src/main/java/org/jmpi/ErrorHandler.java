package org.jmpi;

/**
 * What a communicator does when a call on it fails (MPI 4.1 §9.3). Errors are always
 * {@link MpiException}s; the handler decides whether the program sees them.
 */
public enum ErrorHandler
{
    /** Print the error and abort the whole job with the error class as exit code. The default on world. */
    ERRORS_ARE_FATAL,
    /** Abort only the processes of this communicator; jmpi aborts the job, as ERRORS_ARE_FATAL. */
    ERRORS_ABORT,
    /** Throw the {@link MpiException} to the caller ("return the error code", in Java). */
    ERRORS_RETURN
}
