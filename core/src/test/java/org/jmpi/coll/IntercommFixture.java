package org.jmpi.coll;

import java.util.List;
import java.util.function.IntPredicate;
import java.util.stream.IntStream;

import org.jmpi.Comm;
import org.jmpi.Datatype;
import org.jmpi.Intercomm;
import org.jmpi.Op;
import org.jmpi.Request;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * What the intercommunicator collective tests share: one process's view of the job ({@link Ctx}: its intercommunicator
 * over two groups of uneven sizes, split "mod3" or "last"), its set-up, and the sequential reference data the
 * scenarios check against (values, sums, affine folds, guarded buffers with gaps).
 */
final class IntercommFixture
{
    static final Op AFFINE = AffineOp.AFFINE;

    static final Datatype PAIR = AffineOp.PAIR;
    static final long GUARD = -7;
    /** Alltoall blocks above 32 KiB go pairwise: 5000 longs are 40000 bytes. */
    static final int LARGE = 5000;

    /** One process's view of the job: its intercommunicator and both groups' world ranks in local rank order. */
    record Ctx(Intercomm inter, boolean inA, int world, int rank, int[] local, int[] remote)
    {
        int[] group(final boolean a)
        {
            return a == inA ? local : remote;
        }
    }

    private IntercommFixture()
    {
    }

    static Ctx setUp(final Comm world, final String split)
    {
        final int size = world.size();
        final int rank = world.rank();
        final IntPredicate inA = split.equals("mod3") ? r -> r % 3 == 0 : r -> r == size - 1;
        final int[] a = IntStream.range(0, size).filter(inA).toArray();
        final int[] b = IntStream.range(0, size).filter(inA.negate()).toArray();
        final boolean mine = inA.test(rank);
        final Comm half = world.split(mine ? 0 : 1, rank);
        final Intercomm inter = Intercomm.create(half, 0, world, mine ? b[0] : a[0], 77);
        final int[] local = mine ? a : b;
        final int[] remote = mine ? b : a;
        assertEquals(local.length, inter.size());
        assertEquals(remote.length, inter.remoteSize());
        assertEquals(rank, local[inter.rank()]);
        return new Ctx(inter, mine, rank, inter.rank(), local, remote);
    }

    // ------------------------------------------------------------------------------------------ reference data

    static long value(final int world, final int i)
    {
        return world * 1_000_003L + i * 7L + 1;
    }

    static long pairValue(final int from, final int to, final int i)
    {
        return from * 10_000_000L + to * 100_000L + i;
    }

    static long[] values(final int world, final int count)
    {
        final long[] v = new long[count];
        for (int i = 0; i < count; i++)
        {
            v[i] = value(world, i);
        }
        return v;
    }

    static long[] sums(final int[] ranks, final int count)
    {
        final long[] v = new long[count];
        for (final int r : ranks)
        {
            for (int i = 0; i < count; i++)
            {
                v[i] += value(r, i);
            }
        }
        return v;
    }

    static long[] affine(final int world, final int count)
    {
        return AffineOp.operand(world, count);
    }

    /** The affine maps of {@code ranks}, composed in list order. */
    static long[] affineFold(final int[] ranks, final int count)
    {
        return AffineOp.fold(ranks, count);
    }

    /** A buffer of {@code length} guards. */
    static long[] guarded(final int length)
    {
        final long[] b = new long[length];
        java.util.Arrays.fill(b, GUARD);
        return b;
    }

    /** Displacements placing blocks of {@code counts} in reverse order with one guard element between them (from 1). */
    static int[] reversedDispls(final int[] counts)
    {
        final int[] displs = new int[counts.length];
        int pos = 1;
        for (int j = counts.length - 1; j >= 0; j--)
        {
            displs[j] = pos;
            pos += counts[j] + 1;
        }
        return displs;
    }

    static int span(final int[] counts)
    {
        int n = 2;
        for (final int k : counts)
        {
            n += k + 1;
        }
        return n;
    }

    /** Checks that {@code buf} holds {@code expected} at {@code displs[j]} for each block and guards everywhere else. */
    static void assertBlocks(final String what, final long[] buf, final int[] displs, final long[][] expected)
    {
        final long[] want = guarded(buf.length);
        for (int j = 0; j < expected.length; j++)
        {
            System.arraycopy(expected[j], 0, want, displs[j], expected[j].length);
        }
        assertArrayEquals(want, buf, what);
    }

    static void assertGuarded(final String what, final long[] buf)
    {
        assertArrayEquals(guarded(buf.length), buf, what + ": buffer must be untouched");
    }

    static Request post(final boolean nonblocking, final List<Request> pending, final Runnable blocking,
        final java.util.function.Supplier<Request> nb)
    {
        if (nonblocking)
        {
            final Request r = nb.get();
            pending.add(r);
            return r;
        }
        blocking.run();
        return null;
    }
}
