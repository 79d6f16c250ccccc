package org.jmpi.internal.datatype;

import org.jmpi.Datatype;
import org.jmpi.ErrorClass;
import org.jmpi.MpiException;

import java.util.Arrays;
import java.util.function.Supplier;

/**
 * The layouts of {@link Datatype#subarray} and {@link Datatype#darray}: their arguments checked, and
 * the part of the array they select built from the plain constructors (nested hvectors and hindexeds,
 * resized to the whole array). {@code Datatype} then records the constructor and its arguments.
 *
 * <p>Stateless; any thread.
 */
public final class ArrayTypes
{
    private ArrayTypes()
    {
    }

    /** The layout of a subarray: a {@code subSizes} block at {@code starts} of a {@code sizes} array of {@code old}. */
    public static Datatype subarray(final int[] sizes, final int[] subSizes, final int[] starts, final Datatype.Order order,
        final Datatype old)
    {
        if (sizes == null || subSizes == null || starts == null || order == null || sizes.length == 0 ||
            subSizes.length != sizes.length || starts.length != sizes.length)
        {
            throw new MpiException(ErrorClass.ERR_ARG, "subarray: sizes, subSizes and starts must be non-empty arrays" +
                " of one length and order non-null, got sizes=" + Arrays.toString(sizes) + " subSizes=" +
                Arrays.toString(subSizes) + " starts=" + Arrays.toString(starts) + " order=" + order);
        }
        final int n = sizes.length;
        for (int i = 0; i < n; i++)
        {
            if (sizes[i] < 1 || subSizes[i] < 1 || subSizes[i] > sizes[i] || starts[i] < 0 ||
                starts[i] > sizes[i] - subSizes[i])
            {
                throw new MpiException(ErrorClass.ERR_ARG, "subarray: dimension " + i + " needs sizes >= 1, " +
                    "1 <= subSizes <= sizes, 0 <= starts <= sizes - subSizes; got sizes=" + sizes[i] + " subSizes=" +
                    subSizes[i] + " starts=" + starts[i]);
            }
        }
        final int[] sz = cOrder(sizes, order);
        final int[] sub = cOrder(subSizes, order);
        final int[] st = cOrder(starts, order);
        return exact("subarray", () ->
        {
            final long ext = old.extent();
            Datatype t = Datatype.contiguous(sub[n - 1], old);
            long stride = Math.multiplyExact(sz[n - 1], ext);
            for (int i = n - 2; i >= 0; i--)
            {
                t = Datatype.hvector(sub[i], 1, stride, t);
                stride = Math.multiplyExact(stride, sz[i]);
            }
            long disp = 0;
            long unit = ext;
            for (int i = n - 1; i >= 0; i--)
            {
                disp = Math.addExact(disp, Math.multiplyExact(st[i], unit));
                unit = Math.multiplyExact(unit, sz[i]);
            }
            return Datatype.resized(Datatype.hindexedBlock(1, new long[]{disp}, t), 0, stride);
        });
    }

    /** The layout of the part of a distributed array that process {@code rank} owns (see {@link Datatype#darray}). */
    public static Datatype darray(final int size, final int rank, final int[] gsizes, final Datatype.Distribution[] distribs,
        final int[] dargs, final int[] psizes, final Datatype.Order order, final Datatype old)
    {
        if (gsizes == null || distribs == null || dargs == null || psizes == null || order == null ||
            gsizes.length == 0 || distribs.length != gsizes.length || dargs.length != gsizes.length ||
            psizes.length != gsizes.length)
        {
            throw new MpiException(ErrorClass.ERR_ARG, "darray: gsizes, distribs, dargs, psizes must be non-empty arrays " +
                "of one length and order non-null");
        }
        if (size < 1 || rank < 0 || rank >= size)
        {
            throw new MpiException(ErrorClass.ERR_ARG, "darray: need size >= 1 and 0 <= rank < size, got size=" + size +
                " rank=" + rank);
        }
        final int n = gsizes.length;
        long procs = 1;
        for (int i = 0; i < n; i++)
        {
            if (gsizes[i] < 1 || psizes[i] < 1 || distribs[i] == null)
            {
                throw new MpiException(ErrorClass.ERR_ARG, "darray: dimension " + i + " needs gsizes >= 1, psizes >= 1 and " +
                    "a distribution, got gsizes=" + gsizes[i] + " psizes=" + psizes[i] + " distrib=" + distribs[i]);
            }
            if (distribs[i] == Datatype.Distribution.NONE && psizes[i] != 1)
            {
                throw new MpiException(ErrorClass.ERR_ARG, "darray: dimension " + i + " is NONE but psizes=" + psizes[i]);
            }
            if (dargs[i] != Datatype.DFLT_DARG && dargs[i] < 1)
            {
                throw new MpiException(ErrorClass.ERR_ARG, "darray: dimension " + i + " darg=" + dargs[i] +
                    " must be >= 1 or Datatype.DFLT_DARG");
            }
            if (distribs[i] == Datatype.Distribution.BLOCK && dargs[i] != Datatype.DFLT_DARG && (long)dargs[i] * psizes[i] < gsizes[i])
            {
                throw new MpiException(ErrorClass.ERR_ARG, "darray: dimension " + i + " block darg=" + dargs[i] +
                    " * psizes=" + psizes[i] + " < gsizes=" + gsizes[i]);
            }
            procs *= psizes[i];
            if (procs > size)
            {
                break;
            }
        }
        if (procs != size)
        {
            throw new MpiException(ErrorClass.ERR_ARG, "darray: product of psizes=" + Arrays.toString(psizes) +
                " != size=" + size);
        }
        final int[] coords = new int[n];
        int remaining = size;
        int r = rank;
        for (int i = 0; i < n; i++)
        {
            remaining /= psizes[i];
            coords[i] = r / remaining;
            r %= remaining;
        }
        final int[] g = cOrder(gsizes, order);
        final int[] p = cOrder(psizes, order);
        final int[] c = cOrder(coords, order);
        final int[] a = cOrder(dargs, order);
        final Datatype.Distribution[] d = distribs.clone();
        if (order == Datatype.Order.FORTRAN)
        {
            for (int i = 0; i < n / 2; i++)
            {
                final Datatype.Distribution tmp = d[i];
                d[i] = d[n - 1 - i];
                d[n - 1 - i] = tmp;
            }
        }
        return exact("darray", () ->
        {
            final long ext = old.extent();
            long stride = ext;
            Datatype t = old;
            for (int i = n - 1; i >= 0; i--)
            {
                final Datatype inner = i == n - 1 ? old : Datatype.resized(t, 0, stride);
                final int[][] blocks = darrayBlocks(d[i], g[i], p[i], c[i], a[i]);
                final long[] disps = new long[blocks[0].length];
                for (int b = 0; b < disps.length; b++)
                {
                    disps[b] = Math.multiplyExact(blocks[0][b], stride);
                }
                t = Datatype.hindexed(blocks[1], disps, inner);
                stride = Math.multiplyExact(stride, g[i]);
            }
            return Datatype.resized(t, 0, stride);
        });
    }

    /** {starts[], lengths[]} of the index blocks a process at {@code coord} owns in one dimension. */
    private static int[][] darrayBlocks(final Datatype.Distribution d, final int gsize, final int procs, final int coord,
        final int darg)
    {
        switch (d)
        {
            case NONE:
                return new int[][]{{0}, {gsize}};
            case BLOCK:
            {
                final long blockSize = darg == Datatype.DFLT_DARG ? (gsize + (long)procs - 1) / procs : darg;
                final long start = blockSize * coord;
                final long length = Math.max(0, Math.min(blockSize, gsize - start));
                return length == 0 ? new int[][]{{}, {}} : new int[][]{{(int)start}, {(int)length}};
            }
            default:
            {
                final long blockSize = darg == Datatype.DFLT_DARG ? 1 : darg;
                final long step = blockSize * procs;
                final long first = blockSize * coord;
                final int blocks = first >= gsize ? 0 : (int)((gsize - first + step - 1) / step);
                final int[][] out = new int[2][blocks];
                for (int b = 0; b < blocks; b++)
                {
                    final long start = first + b * step;
                    out[0][b] = (int)start;
                    out[1][b] = (int)Math.min(blockSize, gsize - start);
                }
                return out;
            }
        }
    }

    private static int[] cOrder(final int[] values, final Datatype.Order order)
    {
        final int[] out = values.clone();
        if (order == Datatype.Order.FORTRAN)
        {
            for (int i = 0; i < out.length / 2; i++)
            {
                final int tmp = out[i];
                out[i] = out[out.length - 1 - i];
                out[out.length - 1 - i] = tmp;
            }
        }
        return out;
    }

    private static <T> T exact(final String what, final Supplier<T> f)
    {
        try
        {
            return f.get();
        }
        catch (final ArithmeticException ex)
        {
            throw new MpiException(ErrorClass.ERR_ARG, what + ": type too large, sizes or bounds overflow 64 bits", ex);
        }
    }
}
