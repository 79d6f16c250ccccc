package org.jmpi.examples.coll;

import java.util.Arrays;

/**
 * The reference values of {@link CollectiveSelfCheck}: what each rank contributes, the counts of the v-variants,
 * sums over ranks, and the checks that compare a result with them. Stateless; any thread.
 */
final class SelfCheckData
{
    /** What a collective must leave alone: the elements outside the blocks it writes start as this. */
    static final int SENTINEL = -7;

    private SelfCheckData()
    {
    }

    static int value(final int rank, final int i)
    {
        return (rank + 1) * 31 + i % 1013;
    }

    /** What {@code from} sends to {@code to} as element i in the all-to-all checks. */
    static int code(final int from, final int to, final int i)
    {
        return from * 1_000_003 + to * 1009 + i;
    }

    /** A count per rank for the v-variants: zero for ranks 1, 4, 7..., different for the others. */
    static int vcount(final int rank, final int count)
    {
        return rank % 3 == 1 ? 0 : count + rank;
    }

    /** A count per pair for alltoallv/w: some pairs exchange nothing. */
    static int pairCount(final int from, final int to, final int count)
    {
        return (from + 2 * to) % 3 == 0 ? 0 : count + from + to;
    }

    /** A symmetric count per pair (alltoallv with IN_PLACE needs what i sends j to be what j takes from i). */
    static int symmetricCount(final int a, final int b, final int count)
    {
        return (a + b) % 3 == 2 ? 0 : count + a + b;
    }

    static void check(final boolean ok, final String what)
    {
        if (!ok)
        {
            throw new IllegalStateException("collective check failed: " + what);
        }
    }

    static int[] own(final int rank, final int count)
    {
        final int[] v = new int[count];
        Arrays.setAll(v, i -> value(rank, i));
        return v;
    }

    static int[] filled(final int length)
    {
        final int[] v = new int[length];
        Arrays.fill(v, SENTINEL);
        return v;
    }

    /** Sum over ranks [from, to) of value(r, i). */
    static int sum(final int from, final int to, final int i)
    {
        int s = 0;
        for (int r = from; r < to; r++)
        {
            s += value(r, i);
        }
        return s;
    }

    /**
     * Displacements placing blocks of {@code counts} in reverse rank order with a gap of {@code gap} elements
     * after each; the total length is returned in {@code displs[counts.length]}.
     */
    static int[] reverseDispls(final int[] counts, final int gap)
    {
        final int[] displs = new int[counts.length + 1];
        int at = 0;
        for (int r = counts.length - 1; r >= 0; r--)
        {
            displs[r] = at;
            at += counts[r] + gap;
        }
        displs[counts.length] = at;
        return displs;
    }

    static int[] vcounts(final int size, final int count)
    {
        final int[] counts = new int[size];
        Arrays.setAll(counts, r -> vcount(r, count));
        return counts;
    }

    /** Checks that {@code buf} holds value(r, i) in each block and SENTINEL elsewhere. */
    static void checkBlocks(final int[] buf, final int[] counts, final int[] displs, final String what)
    {
        final boolean[] covered = new boolean[buf.length];
        for (int r = 0; r < counts.length; r++)
        {
            for (int i = 0; i < counts[r]; i++)
            {
                check(buf[displs[r] + i] == value(r, i), what + ": block of rank " + r + " element " + i);
                covered[displs[r] + i] = true;
            }
        }
        for (int k = 0; k < buf.length; k++)
        {
            check(covered[k] || buf[k] == SENTINEL, what + ": element " + k + " outside every block was written");
        }
    }
}
