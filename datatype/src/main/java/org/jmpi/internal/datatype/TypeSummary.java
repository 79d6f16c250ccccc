package org.jmpi.internal.datatype;

import org.jmpi.Datatype;

/**
 * The queries of a layout, derived from its children's. Bounds are valid when {@code hasEntries}
 * (data or explicit bounds), true bounds when {@code size > 0}; {@code code} is -1 for no data,
 * 0 for mixed; {@code dense} means the data is one run in stream order. {@link Datatype} computes one
 * when a type is made and keeps its fields.
 *
 * <p>Immutable; any thread.
 */
public record TypeSummary(long size, long elements, int code, int align, boolean sticky, boolean hasEntries, long lb,
                          long ub, long tlb, long tub, boolean dense)
{
    static final TypeSummary EMPTY = new TypeSummary(0, 0, -1, 1, false, false, 0, 0, 0, 0, true);

    /** The summary of a layout from its children's summaries. @throws ArithmeticException on 64-bit overflow. */
    public static TypeSummary of(final Layout layout)
    {
        return switch (layout)
        {
            case Layout.Basic b -> new TypeSummary(b.type().size(), 1, b.type().code(), b.type().alignment(), false, true, 0,
                b.type().extent(), 0, b.type().size(), true);
            case Layout.Contiguous c -> q(c.old()).repeat(c.count(), c.old().extent());
            case Layout.HVector h -> q(h.old()).repeat(h.blockLength(), h.old().extent()).repeat(h.count(), h.strideBytes());
            case Layout.HIndexedBlock h ->
            {
                final TypeSummary block = q(h.old()).repeat(h.blockLength(), h.old().extent());
                TypeSummary acc = EMPTY;
                for (final long d : h.displacements())
                {
                    acc = acc.then(block.shift(d));
                }
                yield acc;
            }
            case Layout.HIndexed h ->
            {
                final TypeSummary old = q(h.old());
                TypeSummary acc = EMPTY;
                for (int i = 0; i < h.displacements().length; i++)
                {
                    acc = acc.then(old.repeat(h.blockLengths()[i], h.old().extent()).shift(h.displacements()[i]));
                }
                yield acc;
            }
            case Layout.Struct s ->
            {
                TypeSummary acc = EMPTY;
                for (int i = 0; i < s.displacements().length; i++)
                {
                    final Datatype t = s.types()[i];
                    acc = acc.then(q(t).repeat(s.blockLengths()[i], t.extent()).shift(s.displacements()[i]));
                }
                yield acc.padded();
            }
            case Layout.Resized r ->
            {
                final TypeSummary old = q(r.old());
                yield new TypeSummary(old.size, old.elements, old.code, old.align, true, true, r.lb(),
                    Math.addExact(r.lb(), r.extent()), old.tlb, old.tub, old.dense);
            }
        };
    }

    static TypeSummary q(final Datatype t)
    {
        return TypeAccess.get().summary(t);
    }

    /** n copies, each {@code stride} bytes after the previous. */
    TypeSummary repeat(final long n, final long stride)
    {
        if (n == 0 || !hasEntries)
        {
            return n == 0 ? EMPTY : this;
        }
        if (n == 1)
        {
            return this;
        }
        final long span = Math.multiplyExact(n - 1, stride);
        final long lo = Math.min(0, span);
        final long hi = Math.max(0, span);
        return new TypeSummary(Math.multiplyExact(n, size), Math.multiplyExact(n, elements), code, align, sticky, true,
            Math.addExact(lb, lo), Math.addExact(ub, hi), Math.addExact(tlb, lo), Math.addExact(tub, hi),
            size == 0 || (dense && stride == size));
    }

    TypeSummary shift(final long d)
    {
        if (!hasEntries)
        {
            return this;
        }
        return new TypeSummary(size, elements, code, align, sticky, true, Math.addExact(lb, d), Math.addExact(ub, d),
            Math.addExact(tlb, d), Math.addExact(tub, d), dense);
    }

    /** This, followed in the stream by {@code next}. */
    TypeSummary then(final TypeSummary next)
    {
        if (!next.hasEntries)
        {
            return this;
        }
        if (!hasEntries)
        {
            return next;
        }
        final boolean bothData = size > 0 && next.size > 0;
        final int c = code == -1 ? next.code : next.code == -1 ? code : code == next.code ? code : 0;
        return new TypeSummary(Math.addExact(size, next.size), Math.addExact(elements, next.elements), c,
            Math.max(align, next.align), sticky || next.sticky, true, Math.min(lb, next.lb), Math.max(ub, next.ub),
            size == 0 ? next.tlb : next.size == 0 ? tlb : Math.min(tlb, next.tlb),
            size == 0 ? next.tub : next.size == 0 ? tub : Math.max(tub, next.tub),
            dense && next.dense && (!bothData || next.tlb == tub));
    }

    /** MPI's epsilon: round the extent up to the alignment unless bounds are explicit. */
    TypeSummary padded()
    {
        if (sticky || !hasEntries)
        {
            return this;
        }
        final long extent = ub - lb;
        final long rounded = Math.multiplyExact((extent + align - 1) / align, (long)align);
        return new TypeSummary(size, elements, code, align, sticky, true, lb, lb + rounded, tlb, tub, dense);
    }
}
