package org.jmpi.launcher;

/** A command line jmpirun cannot run; the message says what is wrong. */
final class UsageException extends Exception
{
    private static final long serialVersionUID = 1L;

    UsageException(final String message)
    {
        super(message);
    }
}
