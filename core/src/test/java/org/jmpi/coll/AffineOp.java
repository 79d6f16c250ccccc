package org.jmpi.coll;

import org.jmpi.Datatype;
import org.jmpi.Op;

/**
 * The non-commutative user op of the collective tests: an element is a pair of longs (m, c), the affine map
 * x -> m x + c, and combining composes in rank order, (a then b) = (a.m b.m, b.m a.c + b.c). Associative, not
 * commutative, so a result is right only if every rank's operand went in in rank order.
 */
final class AffineOp
{
    static final Op AFFINE = Op.create((in, inout, count, type) ->
    {
        for (int i = 0; i < count; i++)
        {
            final long am = in.getLong(16 * i);
            final long ac = in.getLong(16 * i + 8);
            final long bm = inout.getLong(16 * i);
            final long bc = inout.getLong(16 * i + 8);
            inout.putLong(16 * i, am * bm);
            inout.putLong(16 * i + 8, bm * ac + bc);
        }
    }, false);

    /** One element: the pair (m, c). */
    static final Datatype PAIR = Datatype.contiguous(2, Datatype.LONG).commit();

    private AffineOp()
    {
    }

    /** Rank {@code rank}'s operand of {@code count} elements: element i is (rank + 2 + i % 3, 5 rank + 1 + i). */
    static long[] operand(final int rank, final int count)
    {
        final long[] v = new long[2 * count];
        for (int i = 0; i < count; i++)
        {
            v[2 * i] = rank + 2 + i % 3;
            v[2 * i + 1] = rank * 5 + 1 + i;
        }
        return v;
    }

    /** The operands of {@code ranks} (at least one), composed in list order: the reference result. */
    static long[] fold(final int[] ranks, final int count)
    {
        long[] acc = operand(ranks[0], count);
        for (int k = 1; k < ranks.length; k++)
        {
            final long[] b = operand(ranks[k], count);
            final long[] next = new long[2 * count];
            for (int i = 0; i < count; i++)
            {
                next[2 * i] = acc[2 * i] * b[2 * i];
                next[2 * i + 1] = b[2 * i] * acc[2 * i + 1] + b[2 * i + 1];
            }
            acc = next;
        }
        return acc;
    }
}
