package org.jmpi;

/**
 * The outcome of a completed receive (or probe): who sent it, with which tag, how much arrived, and
 * whether it failed or was cancelled. Immutable.
 */
public final class Status
{
    private final int source;
    private final int tag;
    private final ErrorClass error;
    private final boolean cancelled;
    private final long countBytes;

    /** Made by jmpi; public so that the compat layer and tests can build expected values. */
    public Status(final int source, final int tag, final ErrorClass error, final boolean cancelled, final long countBytes)
    {
        this.source = source;
        this.tag = tag;
        this.error = error;
        this.cancelled = cancelled;
        this.countBytes = countBytes;
    }

    /** The sender's rank in the communicator ({@link Comm#PROC_NULL} for a receive from PROC_NULL). */
    public int source()
    {
        return source;
    }

    /** The message's tag ({@link Comm#ANY_TAG} for a receive from PROC_NULL). */
    public int tag()
    {
        return tag;
    }

    /** {@link ErrorClass#SUCCESS}, or why the operation failed (for example ERR_TRUNCATE). */
    public ErrorClass error()
    {
        return error;
    }

    /** Whether the request was cancelled before it matched. */
    public boolean isCancelled()
    {
        return cancelled;
    }

    /**
     * Bytes of the message: what the sender sent. On ERR_TRUNCATE this is larger than what the receive
     * buffer took.
     */
    public long countBytes()
    {
        return countBytes;
    }

    /**
     * Number of whole {@code type} items in the message (MPI_Get_count), or {@link Datatype#UNDEFINED}
     * when the byte count is not a multiple of the type's size.
     */
    public int count(final Datatype type)
    {
        if (type == null)
        {
            throw new MpiException(ErrorClass.ERR_TYPE, "count: datatype is null");
        }
        final long size = type.size();
        if (size == 0)
        {
            return countBytes == 0 ? 0 : Datatype.UNDEFINED;
        }
        if (countBytes % size != 0 || countBytes / size > Integer.MAX_VALUE)
        {
            return Datatype.UNDEFINED;
        }
        return (int)(countBytes / size);
    }

    /** Number of basic elements in the message (MPI_Get_elements), counting partial items. */
    public long elements(final Datatype type)
    {
        if (type == null)
        {
            throw new MpiException(ErrorClass.ERR_TYPE, "elements: datatype is null");
        }
        return type.elementsIn(countBytes);
    }

    @Override
    public String toString()
    {
        return "Status{source=" + source + ", tag=" + tag + ", error=" + error + ", cancelled=" + cancelled +
            ", countBytes=" + countBytes + "}";
    }
}
