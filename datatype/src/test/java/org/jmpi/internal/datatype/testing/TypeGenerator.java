package org.jmpi.internal.datatype.testing;

import java.util.SplittableRandom;

import org.jmpi.Datatype;

/**
 * Seeded random derived types: every constructor, nested to a bounded depth, with zero counts,
 * negative displacements and strides, resized bounds (including interleaving extents smaller than
 * the true extent) and empty types. {@link #mixed} draws from every predefined type, for
 * byte-addressed buffers; {@link #homogeneous} uses one basic type and displacements that are
 * multiples of its array element size, so the types suit that array.
 * <p>
 * Not thread-safe. Types are bounded (size, true extent and bounds a few KiB) so that the naive
 * {@link ReferencePacker} stays fast.
 */
public final class TypeGenerator
{
    private static final Datatype[] ALL = {
        Datatype.BYTE, Datatype.CHAR, Datatype.SHORT, Datatype.INT, Datatype.LONG, Datatype.FLOAT, Datatype.DOUBLE,
        Datatype.BOOLEAN, Datatype.PACKED, Datatype.INT2, Datatype.SHORT_INT, Datatype.LONG_INT, Datatype.FLOAT_INT,
        Datatype.DOUBLE_INT, Datatype.LONG2, Datatype.FLOAT2, Datatype.DOUBLE2};

    private static final long MAX_SIZE = 1536;
    private static final long MAX_SPAN = 6144;

    private final SplittableRandom random;
    private final Datatype[] leaves;
    private final int unit;
    private final int maxDepth;

    private TypeGenerator(final long seed, final Datatype[] leaves, final int unit, final int maxDepth)
    {
        this.random = new SplittableRandom(seed);
        this.leaves = leaves;
        this.unit = unit;
        this.maxDepth = maxDepth;
    }

    /** Types mixing every predefined type, for ByteBuffers. */
    public static TypeGenerator mixed(final long seed)
    {
        return new TypeGenerator(seed, ALL, 1, 3);
    }

    /** Types of one basic type whose displacements suit an array of {@code arrayElementSize}-byte elements. */
    public static TypeGenerator homogeneous(final long seed, final Datatype basic, final int arrayElementSize)
    {
        return new TypeGenerator(seed, new Datatype[]{basic}, arrayElementSize, 3);
    }

    /** The random source, for callers that draw counts and offsets from the same seed. */
    public SplittableRandom random()
    {
        return random;
    }

    /** A committed random type within the size bounds. */
    public Datatype next()
    {
        for (;;)
        {
            final Datatype t = generate(1 + random.nextInt(maxDepth));
            if (fits(t))
            {
                return t.commit();
            }
        }
    }

    private boolean fits(final Datatype t)
    {
        return t.size() <= MAX_SIZE && t.trueExtent() <= MAX_SPAN && Math.abs(t.lb()) <= MAX_SPAN &&
            Math.abs(t.ub()) <= MAX_SPAN && Math.abs(t.trueLb()) <= MAX_SPAN && Math.abs(t.extent()) <= MAX_SPAN;
    }

    private Datatype leaf()
    {
        return leaves[random.nextInt(leaves.length)];
    }

    private int between(final int lo, final int hi)
    {
        return lo + random.nextInt(hi - lo + 1);
    }

    private Datatype generate(final int depth)
    {
        if (depth == 0 || random.nextInt(5) == 0)
        {
            return leaf();
        }
        final Datatype old = generate(depth - 1);
        if (!fits(old))
        {
            return leaf();
        }
        return switch (random.nextInt(13))
        {
            case 0 -> Datatype.contiguous(between(0, 4), old);
            case 1 -> Datatype.vector(between(0, 4), between(0, 3), between(-4, 6), old);
            case 2 -> Datatype.hvector(between(0, 4), between(0, 3), (long)unit * between(-24, 40), old);
            case 3 ->
            {
                final int n = between(0, 4);
                final int[] lengths = new int[n];
                final int[] disps = new int[n];
                for (int i = 0; i < n; i++)
                {
                    lengths[i] = between(0, 3);
                    disps[i] = between(-5, 8);
                }
                yield Datatype.indexed(lengths, disps, old);
            }
            case 4 ->
            {
                final int n = between(0, 4);
                final int[] lengths = new int[n];
                final long[] disps = new long[n];
                for (int i = 0; i < n; i++)
                {
                    lengths[i] = between(0, 3);
                    disps[i] = (long)unit * between(-30, 60);
                }
                yield Datatype.hindexed(lengths, disps, old);
            }
            case 5 ->
            {
                final int n = between(0, 4);
                final int[] disps = new int[n];
                for (int i = 0; i < n; i++)
                {
                    disps[i] = between(-5, 8);
                }
                yield Datatype.indexedBlock(between(0, 3), disps, old);
            }
            case 6 ->
            {
                final int n = between(0, 4);
                final long[] disps = new long[n];
                for (int i = 0; i < n; i++)
                {
                    disps[i] = (long)unit * between(-30, 60);
                }
                yield Datatype.hindexedBlock(between(0, 3), disps, old);
            }
            case 7 ->
            {
                final int n = between(1, 4);
                final int[] lengths = new int[n];
                final long[] disps = new long[n];
                final Datatype[] types = new Datatype[n];
                for (int i = 0; i < n; i++)
                {
                    lengths[i] = between(0, 3);
                    disps[i] = (long)unit * between(-30, 60);
                    types[i] = i == 0 ? old : generate(depth - 1);
                    if (!fits(types[i]))
                    {
                        types[i] = leaf();
                    }
                }
                yield Datatype.struct(lengths, disps, types);
            }
            case 8 ->
            {
                final int n = between(1, 3);
                final int[] sizes = new int[n];
                final int[] subs = new int[n];
                final int[] starts = new int[n];
                for (int i = 0; i < n; i++)
                {
                    sizes[i] = between(1, 5);
                    subs[i] = between(1, sizes[i]);
                    starts[i] = between(0, sizes[i] - subs[i]);
                }
                yield Datatype.subarray(sizes, subs, starts, random.nextBoolean() ? Datatype.Order.C : Datatype.Order.FORTRAN,
                    old);
            }
            case 9 -> darray(old);
            case 10 -> Datatype.resized(old, (long)unit * between(-8, 8),
                Math.max(0, old.extent() + (long)unit * between(-6, 8)));
            case 11 -> Datatype.resized(old, old.lb(), old.extent() == 0 ? unit : (long)unit * between(0, 3));
            default -> old.dup();
        };
    }

    private Datatype darray(final Datatype old)
    {
        final int n = between(1, 3);
        final int[] gsizes = new int[n];
        final Datatype.Distribution[] distribs = new Datatype.Distribution[n];
        final int[] dargs = new int[n];
        final int[] psizes = new int[n];
        int size = 1;
        for (int i = 0; i < n; i++)
        {
            gsizes[i] = between(1, 6);
            distribs[i] = Datatype.Distribution.values()[random.nextInt(3)];
            psizes[i] = distribs[i] == Datatype.Distribution.NONE ? 1 : between(1, 3);
            size *= psizes[i];
            if (distribs[i] == Datatype.Distribution.BLOCK)
            {
                final int min = (gsizes[i] + psizes[i] - 1) / psizes[i];
                dargs[i] = random.nextBoolean() ? Datatype.DFLT_DARG : between(min, min + 2);
            }
            else
            {
                dargs[i] = random.nextBoolean() ? Datatype.DFLT_DARG : between(1, 3);
            }
        }
        return Datatype.darray(size, random.nextInt(size), gsizes, distribs, dargs, psizes,
            random.nextBoolean() ? Datatype.Order.C : Datatype.Order.FORTRAN, old);
    }
}
