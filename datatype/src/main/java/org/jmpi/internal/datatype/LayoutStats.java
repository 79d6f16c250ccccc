package org.jmpi.internal.datatype;

import org.jmpi.Datatype;
import org.jmpi.ErrorClass;
import org.jmpi.MpiException;

/**
 * What a transport needs to choose a copy strategy for one side of a transfer: how many contiguous
 * runs the whole message touches in its buffer, and how long they are. Immutable value; any thread.
 *
 * @param blockCount    contiguous runs over all {@code count} items (0 for an empty message)
 * @param meanRunBytes  total bytes / blockCount (0 for an empty message)
 * @param minRunBytes   the shortest run (0 for an empty message)
 */
public record LayoutStats(long blockCount, double meanRunBytes, long minRunBytes)
{
    /** The statistics of one contiguous run of {@code bytes} (none for 0). */
    public static LayoutStats contiguous(final long bytes)
    {
        return bytes <= 0 ? new LayoutStats(0, 0, 0) : new LayoutStats(1, bytes, bytes);
    }

    /**
     * The statistics of {@code count} items of a committed {@code type}, without a buffer (what a peer's RTS
     * describes): the same as {@link Convertor#stats()} of a cursor over them.
     *
     * @throws MpiException ERR_TYPE for a type not committed, ERR_COUNT for a negative count
     */
    public static LayoutStats of(final Datatype type, final long count)
    {
        if (!type.isCommitted())
        {
            throw new MpiException(ErrorClass.ERR_TYPE, "datatype not committed: " + type.name());
        }
        if (count < 0)
        {
            throw new MpiException(ErrorClass.ERR_COUNT, "count=" + count + " must be >= 0");
        }
        final Op top = Compiler.loop(0, count, type.extent(), TypeAccess.get().program(type, false).root);
        if (top == null || top.size == 0)
        {
            return new LayoutStats(0, 0, 0);
        }
        return new LayoutStats(top.blocks, (double)top.size / top.blocks, top.minRun);
    }
}
