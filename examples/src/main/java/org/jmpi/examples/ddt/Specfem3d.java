package org.jmpi.examples.ddt;

import org.jmpi.Datatype;

/**
 * SPECFEM3D_GLOBE exchanges (DDTBench {@code SPECFEM3D_{oc,cm,mt}}).
 * <ul>
 *   <li>{@code oc}: scalars of the outer core at a list of mesh points: {@code indexed_block(icount, 1, list,
 *       FLOAT)}. Sizes: 1897 (middle) and 3225 (largest) points out of 38585 / 88881.</li>
 *   <li>{@code cm}: 3-vectors of the crust-mantle and the inner core at two lists: a struct of two
 *       {@code indexed_block(icount, 3, 3*list, FLOAT)}, one per array. Sizes: 7125 + 1729 (middle) and
 *       11797 + 3009 (largest) points.</li>
 *   <li>{@code mt}: a matrix transpose step: the send side is {@code vector(D3, 1, 2, contiguous(3, FLOAT))}
 *       (every other 12-byte group), the receive side {@code contiguous(3*D3, FLOAT)} into a separate array.
 *       Sizes: D3 = 6400 (middle) and 7600 (largest).</li>
 * </ul>
 */
final class Specfem3d extends DdtPattern.OfFloat
{
    private final char kind;
    private final int[] list;
    private final int[] list2;
    private final int secondArray;
    private final int mtCount;
    private final Datatype sendType;
    private final Datatype recvType;

    private Specfem3d(final String name, final DdtSize size, final int length, final int[] list, final int[] list2,
        final int secondArray, final int mtCount)
    {
        super(name, size, length);
        kind = name.endsWith("_oc") ? 'o' : name.endsWith("_cm") ? 'c' : 't';
        this.list = list;
        this.list2 = list2;
        this.secondArray = secondArray;
        this.mtCount = mtCount;
        switch (kind)
        {
            case 'o' ->
            {
                sendType = Datatype.indexedBlock(1, list, Datatype.FLOAT).commit();
                recvType = sendType;
            }
            case 'c' ->
            {
                final Datatype cm = Datatype.indexedBlock(3, times3(list), Datatype.FLOAT);
                final Datatype ic = Datatype.indexedBlock(3, times3(list2), Datatype.FLOAT);
                sendType = Datatype.struct(new int[] {1, 1}, new long[] {0, 4L * secondArray}, new Datatype[] {cm, ic})
                    .commit();
                recvType = sendType;
            }
            default ->
            {
                final Datatype point = Datatype.contiguous(3, Datatype.FLOAT);
                sendType = Datatype.vector(mtCount, 1, 2, point).commit();
                recvType = Datatype.contiguous(3 * mtCount, Datatype.FLOAT).commit();
            }
        }
    }

    private static int[] times3(final int[] list)
    {
        final int[] out = new int[list.length];
        for (int i = 0; i < list.length; i++)
        {
            out[i] = 3 * list[i];
        }
        return out;
    }

    static Specfem3d create(final String name, final DdtSize size)
    {
        final boolean middle = size == DdtSize.MIDDLE;
        if (name.endsWith("_oc"))
        {
            final int range = middle ? 38585 : 88881;
            final int count = middle ? 1897 : 3225;
            return new Specfem3d(name, size, range, IndexLists.sortedSample(count, range, 0x0c), null, 0, 0);
        }
        if (name.endsWith("_cm"))
        {
            final int rangeCm = middle ? 396849 : 834917;
            final int rangeIc = middle ? 22477 : 51153;
            final int countCm = middle ? 7125 : 11797;
            final int countIc = middle ? 1729 : 3009;
            return new Specfem3d(name, size, 3 * (rangeCm + rangeIc), IndexLists.sortedSample(countCm, rangeCm, 0xc1),
                IndexLists.sortedSample(countIc, rangeIc, 0xc2), 3 * rangeCm, 0);
        }
        final int d3 = middle ? 6400 : 7600;
        return new Specfem3d(name, size, 3 * 2 * d3 + 3 * d3, null, null, 0, d3);
    }

    @Override
    public Datatype sendType()
    {
        return sendType;
    }

    @Override
    public Datatype recvType()
    {
        return recvType;
    }

    @Override
    public long recvOffset()
    {
        return kind == 't' ? 6L * mtCount : 0;
    }

    @Override
    void pack(final float[] out)
    {
        final float[] a = this.a;
        switch (kind)
        {
            case 'o' ->
            {
                final int[] list = this.list;
                for (int k = 0; k < list.length; k++)
                {
                    out[k] = a[list[k]];
                }
            }
            case 'c' ->
            {
                int p = 0;
                for (final int i : list)
                {
                    out[p++] = a[3 * i];
                    out[p++] = a[3 * i + 1];
                    out[p++] = a[3 * i + 2];
                }
                final int ic = secondArray;
                for (final int i : list2)
                {
                    out[p++] = a[ic + 3 * i];
                    out[p++] = a[ic + 3 * i + 1];
                    out[p++] = a[ic + 3 * i + 2];
                }
            }
            default ->
            {
                for (int k = 0; k < mtCount; k++)
                {
                    out[3 * k] = a[6 * k];
                    out[3 * k + 1] = a[6 * k + 1];
                    out[3 * k + 2] = a[6 * k + 2];
                }
            }
        }
    }

    @Override
    void unpack(final float[] in)
    {
        final float[] a = this.a;
        switch (kind)
        {
            case 'o' ->
            {
                final int[] list = this.list;
                for (int k = 0; k < list.length; k++)
                {
                    a[list[k]] = in[k];
                }
            }
            case 'c' ->
            {
                int p = 0;
                for (final int i : list)
                {
                    a[3 * i] = in[p++];
                    a[3 * i + 1] = in[p++];
                    a[3 * i + 2] = in[p++];
                }
                final int ic = secondArray;
                for (final int i : list2)
                {
                    a[ic + 3 * i] = in[p++];
                    a[ic + 3 * i + 1] = in[p++];
                    a[ic + 3 * i + 2] = in[p++];
                }
            }
            default -> System.arraycopy(in, 0, a, 6 * mtCount, 3 * mtCount);
        }
    }
}
