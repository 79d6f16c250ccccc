package org.jmpi.examples.coll;

import java.nio.ByteBuffer;

import org.jmpi.Datatype;
import org.jmpi.Op;

/**
 * The non-commutative user op of {@link CollectiveSelfCheck}: a product of 2x2 integer matrices, and its
 * sequential reference. Stateless; any thread.
 */
final class MatrixProduct
{
    /** A 2x2 int matrix, row-major. */
    static final Datatype MATRIX = Datatype.contiguous(4, Datatype.INT).commit();

    /** Matrix product, {@code inout = in x inout} ({@code in} holds the lower ranks): associative, not commutative. */
    static final Op MATMUL = Op.create(MatrixProduct::multiply, false);

    private MatrixProduct()
    {
    }

    private static void multiply(final ByteBuffer in, final ByteBuffer inout, final int count, final Datatype type)
    {
        for (int m = 0; m < count; m++)
        {
            final int at = m * 16;
            final int a = in.getInt(at);
            final int b = in.getInt(at + 4);
            final int c = in.getInt(at + 8);
            final int d = in.getInt(at + 12);
            final int e = inout.getInt(at);
            final int f = inout.getInt(at + 4);
            final int g = inout.getInt(at + 8);
            final int h = inout.getInt(at + 12);
            inout.putInt(at, a * e + b * g);
            inout.putInt(at + 4, a * f + b * h);
            inout.putInt(at + 8, c * e + d * g);
            inout.putInt(at + 12, c * f + d * h);
        }
    }

    /** count matrices of rank r: [[r + 2, i mod 5 + 1], [1, r + 1]] (no two ranks' matrices commute). */
    static int[] matrices(final int rank, final int count)
    {
        final int[] v = new int[4 * count];
        for (int m = 0; m < count; m++)
        {
            v[4 * m] = rank + 2;
            v[4 * m + 1] = m % 5 + 1;
            v[4 * m + 2] = 1;
            v[4 * m + 3] = rank + 1;
        }
        return v;
    }

    /** The product of the matrices of ranks [from, to), in rank order; null for an empty range. */
    static int[] product(final int from, final int to, final int count)
    {
        if (from >= to)
        {
            return null;
        }
        int[] acc = matrices(to - 1, count);
        for (int r = to - 2; r >= from; r--)
        {
            final int[] left = matrices(r, count);
            final ByteBuffer in = ByteBuffer.allocate(16 * count).order(java.nio.ByteOrder.nativeOrder());
            final ByteBuffer inout = ByteBuffer.allocate(16 * count).order(java.nio.ByteOrder.nativeOrder());
            in.asIntBuffer().put(left);
            inout.asIntBuffer().put(acc);
            multiply(in, inout, count, MATRIX);
            acc = new int[4 * count];
            inout.asIntBuffer().get(acc);
        }
        return acc;
    }
}
