package org.jmpi.transport.verbs.ibv;

/**
 * A libibverbs call failed: which call, on what, and the errno it left. Unchecked; the transport turns it
 * into an {@code MpiException} naming the rank.
 */
public final class VerbsException extends RuntimeException
{
    private static final long serialVersionUID = 1L;

    private final int errno;

    public VerbsException(final String what, final int errno)
    {
        super(what + " (errno " + errno + ")");
        this.errno = errno;
    }

    public int errno()
    {
        return errno;
    }
}
