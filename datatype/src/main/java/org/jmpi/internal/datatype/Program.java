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

    Program(final Op root)
    {
        this.root = root;
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
