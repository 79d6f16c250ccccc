package org.jmpi.internal.datatype;

/**
 * A committed type compiled for cursors: the root {@link Op} (null when the type has no data) and
 * the lazily computed receive-overlap verdict.
 * <p>
 * Immutable apart from {@link #overlapFreeCount}, a monotonic cache written with benign races.
 */
public final class Program
{
    final Op root;
    /** Item counts up to this value are known to form a non-overlapping receive layout; -1 = known to overlap. */
    volatile long overlapFreeCount;
    /** The program of the last item count asked for ({@link #top}); racy by design, the pair is immutable. */
    private Top lastTop;

    /** The program of {@code count} items with {@code extent} between them, and that count. */
    private record Top(long count, Op op)
    {
    }

    Program(final Op root)
    {
        this.root = root;
    }

    /**
     * The program of {@code count} items {@code extent} apart ({@link Compiler#loop}), made once for the count a
     * caller last asked for: a type sent again and again with the same count makes no new program per message.
     * {@code extent} is the type's, the same on every call.
     */
    Op top(final long count, final long extent)
    {
        final Top last = lastTop;
        if (last != null && last.count == count)
        {
            return last.op;
        }
        final Op op = Compiler.loop(0, count, extent, root);
        lastTop = new Top(count, op);
        return op;
    }

    /** Contiguous runs in one item. */
    public long blocksPerItem()
    {
        return root == null ? 0 : root.blocks;
    }

    @Override
    public String toString()
    {
        return String.valueOf(root);
    }
}
