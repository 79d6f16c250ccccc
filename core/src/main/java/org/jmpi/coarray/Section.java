package org.jmpi.coarray;

import java.util.Arrays;

import org.jmpi.Datatype;
import org.jmpi.ErrorClass;
import org.jmpi.MpiException;

/**
 * A regular section of an array laid out in row-major order (the last index varies fastest): per dimension a start,
 * a length and a stride, Fortran's {@code a(lo:hi:stride, ...)} with {@code len} elements and indices from 0. Used on
 * either side of a coarray transfer: the coarray's section at the image, and the local array's.
 *
 * <pre>
 *   shape {4, 6}, lo {1, 0}, len {2, 3}, stride {2, 2}:    . . . . . .
 *                                                          # . # . # .   row 1
 *                                                          . . . . . .
 *                                                          # . # . # .   row 3
 * </pre>
 * Immutable; any thread. The datatype that walks it is built once per element type and kept.
 */
public final class Section
{
    private final int[] shape;
    private final int[] lo;
    private final int[] len;
    private final int[] stride;
    private final int count;
    private final long offset;
    private volatile Datatype type;
    private volatile Datatype typeElement;

    private Section(final int[] shape, final int[] lo, final int[] len, final int[] stride)
    {
        this.shape = shape;
        this.lo = lo;
        this.len = len;
        this.stride = stride;
        long elements = 1;
        long at = 0;
        long pitch = 1;
        for (int d = shape.length - 1; d >= 0; d--)
        {
            if (lo[d] < 0 || len[d] < 0 || stride[d] < 1 || (shape[d] >= 0 && len[d] > 0 && lo[d] + (long)(len[d] - 1) * stride[d] >= shape[d]))
            {
                throw new MpiException(ErrorClass.ERR_ARG, "Section: dimension " + d + " lo=" + lo[d] + " len=" + len[d] + " stride=" +
                    stride[d] + " does not fit an extent of " + shape[d] + " (lo >= 0, len >= 0, stride >= 1)");
            }
            elements *= len[d];
            at += lo[d] * pitch;
            pitch *= Math.max(shape[d], 1);
        }
        if (elements > Integer.MAX_VALUE)
        {
            throw new MpiException(ErrorClass.ERR_COUNT, "Section: " + elements + " elements is more than a transfer takes");
        }
        this.count = (int)elements;
        this.offset = at;
    }

    /** {@code a(lo : lo + (len - 1) * stride : stride)} of a one-dimensional array. */
    public static Section of(final int lo, final int len, final int stride)
    {
        return new Section(new int[] {-1}, new int[] {lo}, new int[] {len}, new int[] {stride});
    }

    /** A contiguous run {@code a(lo : lo + len - 1)}. */
    public static Section range(final int lo, final int len)
    {
        return of(lo, len, 1);
    }

    /**
     * A section of an array of {@code shape} (row-major; the last dimension is contiguous).
     *
     * @throws MpiException ERR_ARG when the arrays' lengths differ or a dimension does not fit.
     */
    public static Section of(final int[] shape, final int[] lo, final int[] len, final int[] stride)
    {
        final int dims = shape.length;
        if (dims == 0 || lo.length != dims || len.length != dims || stride.length != dims)
        {
            throw new MpiException(ErrorClass.ERR_ARG, "Section: shape, lo, len and stride need one entry per dimension (" + dims + ")");
        }
        for (final int extent : shape)
        {
            if (extent < 1)
            {
                throw new MpiException(ErrorClass.ERR_ARG, "Section: extents must be positive: " + Arrays.toString(shape));
            }
        }
        return new Section(shape.clone(), lo.clone(), len.clone(), stride.clone());
    }

    /** Elements in the section. */
    public int count()
    {
        return count;
    }

    /** Element offset of the section's first element from element 0 of the array. */
    public long offset()
    {
        return offset;
    }

    /** The committed datatype of one item covering the section from its first element, for {@code element}s. */
    Datatype type(final Datatype element)
    {
        Datatype t = type;
        if (t != null && typeElement == element)
        {
            return t;
        }
        final long size = element.size();
        final int last = shape.length - 1;
        t = Datatype.vector(len[last], 1, stride[last], element);
        long pitch = Math.max(shape[last], 1);
        for (int d = last - 1; d >= 0; d--)
        {
            t = Datatype.hvector(len[d], 1, stride[d] * pitch * size, t);
            pitch *= shape[d];
        }
        t = t.commit();
        typeElement = element;
        type = t;
        return t;
    }

    @Override
    public String toString()
    {
        return "Section[shape=" + Arrays.toString(shape) + ", lo=" + Arrays.toString(lo) + ", len=" + Arrays.toString(len) + ", stride=" +
            Arrays.toString(stride) + "]";
    }
}
