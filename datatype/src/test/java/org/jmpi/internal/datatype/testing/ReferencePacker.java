package org.jmpi.internal.datatype.testing;

import java.util.Arrays;

import org.jmpi.Datatype;

/**
 * A deliberately naive packer: it expands a type's typemap from its {@link Datatype#contents()} (not
 * from the engine's layout or program), one basic element at a time, following the MPI standard's
 * definitions directly (subarray and darray by testing every index of the global array), and maps
 * every stream byte to the buffer byte it comes from.
 * <p>
 * Not thread-safe; allocation-heavy by design. Only for types of modest size.
 */
public final class ReferencePacker
{
    private long[] displacements = new long[64];
    private Datatype[] basics = new Datatype[64];
    private int entries;

    private ReferencePacker()
    {
    }

    /** The typemap of one item: displacement and predefined type of each basic element, in stream order. */
    public static Typemap typemap(final Datatype type)
    {
        final ReferencePacker p = new ReferencePacker();
        p.expand(type, 0);
        return new Typemap(Arrays.copyOf(p.displacements, p.entries), Arrays.copyOf(p.basics, p.entries));
    }

    /** Displacements and basic types of one item, in stream order. */
    public record Typemap(long[] displacements, Datatype[] basics)
    {
        /** Bytes of data. */
        public long size()
        {
            long s = 0;
            for (final Datatype b : basics)
            {
                s += b.size();
            }
            return s;
        }
    }

    /**
     * For each byte of the packed stream of {@code count} items at {@code byteOffset}, the buffer byte it
     * comes from. With {@code swap}, each component of each basic element is reversed (non-native-order
     * buffers, or external32 on a little-endian machine).
     */
    public static long[] byteMap(final Datatype type, final long count, final long byteOffset, final boolean swap)
    {
        final Typemap map = typemap(type);
        final long size = map.size();
        final long[] out = new long[Math.toIntExact(size * count)];
        int i = 0;
        for (long k = 0; k < count; k++)
        {
            final long origin = byteOffset + k * type.extent();
            for (int e = 0; e < map.basics.length; e++)
            {
                final int[] components = components(map.basics[e]);
                long at = origin + map.displacements[e];
                for (final int c : components)
                {
                    for (int b = 0; b < c; b++)
                    {
                        out[i++] = at + (swap ? c - 1 - b : b);
                    }
                    at += c;
                }
            }
        }
        return out;
    }

    /** Packs with a byte map: stream[i] = buffer[map[i]]. */
    public static byte[] pack(final byte[] buffer, final long[] map)
    {
        final byte[] stream = new byte[map.length];
        for (int i = 0; i < map.length; i++)
        {
            stream[i] = buffer[(int)map[i]];
        }
        return stream;
    }

    /** Unpacks stream bytes [from, to) with a byte map: buffer[map[i]] = stream[i]. */
    public static void unpack(final byte[] stream, final long[] map, final byte[] buffer, final int from, final int to)
    {
        for (int i = from; i < to; i++)
        {
            buffer[(int)map[i]] = stream[i];
        }
    }

    /** Byte sizes of the parts of a basic type that are byte-swapped on their own. */
    public static int[] components(final Datatype basic)
    {
        if (basic == Datatype.INT2 || basic == Datatype.FLOAT_INT || basic == Datatype.FLOAT2)
        {
            return new int[]{4, 4};
        }
        if (basic == Datatype.SHORT_INT)
        {
            return new int[]{2, 4};
        }
        if (basic == Datatype.LONG_INT || basic == Datatype.DOUBLE_INT)
        {
            return new int[]{8, 4};
        }
        if (basic == Datatype.LONG2 || basic == Datatype.DOUBLE2)
        {
            return new int[]{8, 8};
        }
        return new int[]{(int)basic.size()};
    }

    private void add(final long displacement, final Datatype basic)
    {
        if (entries == displacements.length)
        {
            displacements = Arrays.copyOf(displacements, entries * 2);
            basics = Arrays.copyOf(basics, entries * 2);
        }
        displacements[entries] = displacement;
        basics[entries] = basic;
        entries++;
    }

    private void expand(final Datatype type, final long base)
    {
        final Datatype.Contents c = type.contents();
        final int[] in = c.integers();
        final long[] ad = c.addresses();
        final Datatype[] ty = c.datatypes();
        switch (c.combiner())
        {
            case NAMED -> add(base, type);
            case DUP, RESIZED -> expand(ty[0], base);
            case CONTIGUOUS ->
            {
                for (int i = 0; i < in[0]; i++)
                {
                    expand(ty[0], base + i * ty[0].extent());
                }
            }
            case VECTOR ->
            {
                for (int i = 0; i < in[0]; i++)
                {
                    for (int j = 0; j < in[1]; j++)
                    {
                        expand(ty[0], base + ((long)i * in[2] + j) * ty[0].extent());
                    }
                }
            }
            case HVECTOR ->
            {
                for (int i = 0; i < in[0]; i++)
                {
                    for (int j = 0; j < in[1]; j++)
                    {
                        expand(ty[0], base + i * ad[0] + j * ty[0].extent());
                    }
                }
            }
            case INDEXED ->
            {
                final int n = in[0];
                for (int i = 0; i < n; i++)
                {
                    for (int j = 0; j < in[1 + i]; j++)
                    {
                        expand(ty[0], base + ((long)in[1 + n + i] + j) * ty[0].extent());
                    }
                }
            }
            case HINDEXED ->
            {
                for (int i = 0; i < in[0]; i++)
                {
                    for (int j = 0; j < in[1 + i]; j++)
                    {
                        expand(ty[0], base + ad[i] + j * ty[0].extent());
                    }
                }
            }
            case INDEXED_BLOCK ->
            {
                for (int i = 0; i < in[0]; i++)
                {
                    for (int j = 0; j < in[1]; j++)
                    {
                        expand(ty[0], base + ((long)in[2 + i] + j) * ty[0].extent());
                    }
                }
            }
            case HINDEXED_BLOCK ->
            {
                for (int i = 0; i < in[0]; i++)
                {
                    for (int j = 0; j < in[1]; j++)
                    {
                        expand(ty[0], base + ad[i] + j * ty[0].extent());
                    }
                }
            }
            case STRUCT ->
            {
                for (int i = 0; i < in[0]; i++)
                {
                    for (int j = 0; j < in[1 + i]; j++)
                    {
                        expand(ty[i], base + ad[i] + j * ty[i].extent());
                    }
                }
            }
            case SUBARRAY ->
            {
                final int n = in[0];
                final int[] sizes = Arrays.copyOfRange(in, 1, 1 + n);
                final int[] subs = Arrays.copyOfRange(in, 1 + n, 1 + 2 * n);
                final int[] starts = Arrays.copyOfRange(in, 1 + 2 * n, 1 + 3 * n);
                final boolean fortran = in[1 + 3 * n] == Datatype.Order.FORTRAN.ordinal();
                forEachIndex(sizes, fortran, (index, linear) ->
                {
                    for (int d = 0; d < n; d++)
                    {
                        if (index[d] < starts[d] || index[d] >= starts[d] + subs[d])
                        {
                            return;
                        }
                    }
                    expand(ty[0], base + linear * ty[0].extent());
                });
            }
            case DARRAY ->
            {
                final int size = in[0];
                final int rank = in[1];
                final int n = in[2];
                final int[] gsizes = Arrays.copyOfRange(in, 3, 3 + n);
                final int[] distribs = Arrays.copyOfRange(in, 3 + n, 3 + 2 * n);
                final int[] dargs = Arrays.copyOfRange(in, 3 + 2 * n, 3 + 3 * n);
                final int[] psizes = Arrays.copyOfRange(in, 3 + 3 * n, 3 + 4 * n);
                final boolean fortran = in[3 + 4 * n] == Datatype.Order.FORTRAN.ordinal();
                final int[] coords = new int[n];
                int r = rank;
                int remaining = size;
                for (int d = 0; d < n; d++)
                {
                    remaining /= psizes[d];
                    coords[d] = r / remaining;
                    r %= remaining;
                }
                forEachIndex(gsizes, fortran, (index, linear) ->
                {
                    for (int d = 0; d < n; d++)
                    {
                        if (owner(index[d], gsizes[d], Datatype.Distribution.values()[distribs[d]], dargs[d], psizes[d]) !=
                            coords[d])
                        {
                            return;
                        }
                    }
                    expand(ty[0], base + linear * ty[0].extent());
                });
            }
        }
    }

    private static int owner(final int index, final int gsize, final Datatype.Distribution d, final int darg,
        final int procs)
    {
        return switch (d)
        {
            case NONE -> 0;
            case BLOCK -> index / (darg == Datatype.DFLT_DARG ? (gsize + procs - 1) / procs : darg);
            case CYCLIC -> (index / (darg == Datatype.DFLT_DARG ? 1 : darg)) % procs;
        };
    }

    private interface IndexVisitor
    {
        void visit(int[] index, long linear);
    }

    /** Visits every index of an array in memory order, with its linear element index. */
    private static void forEachIndex(final int[] sizes, final boolean fortran, final IndexVisitor visitor)
    {
        final int n = sizes.length;
        long total = 1;
        for (final int s : sizes)
        {
            total *= s;
        }
        final int[] index = new int[n];
        for (long linear = 0; linear < total; linear++)
        {
            long rest = linear;
            if (fortran)
            {
                for (int d = 0; d < n; d++)
                {
                    index[d] = (int)(rest % sizes[d]);
                    rest /= sizes[d];
                }
            }
            else
            {
                for (int d = n - 1; d >= 0; d--)
                {
                    index[d] = (int)(rest % sizes[d]);
                    rest /= sizes[d];
                }
            }
            visitor.visit(index, linear);
        }
    }
}
