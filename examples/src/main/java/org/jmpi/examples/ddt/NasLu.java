package org.jmpi.examples.ddt;

import org.jmpi.Datatype;

/**
 * NAS LU faces of a {@code double[5][D2+2][D3+2]} grid (the 5 unknowns fastest; DDTBench
 * {@code NAS_LU_{x,y}}). x: {@code contiguous(5*D2)}, a whole interior row; y: {@code contiguous(5)} then
 * {@code vector(D3, 1, D2+2)} of it, one 40-byte block per row. Sizes: D2 = D3 = 102 (middle, 4080 bytes)
 * and 1020 (largest, 40800 bytes).
 */
final class NasLu extends DdtPattern.OfDouble
{
    private static final int DIM1 = 5;

    private final boolean x;
    private final int d2;
    private final int d3;
    private final long sendOffset;
    private final long recvOffset;
    private final Datatype type;

    private NasLu(final String name, final DdtSize size, final int d2, final int d3)
    {
        super(name, size, DIM1 * (d2 + 2) * (d3 + 2));
        x = name.endsWith("_x");
        this.d2 = d2;
        this.d3 = d3;
        if (x)
        {
            type = Datatype.contiguous(DIM1 * d2, Datatype.DOUBLE).commit();
            sendOffset = idx(0, 1, d3);
            recvOffset = idx(0, 1, 0);
        }
        else
        {
            final Datatype point = Datatype.contiguous(DIM1, Datatype.DOUBLE);
            type = Datatype.vector(d3, 1, d2 + 2, point).commit();
            sendOffset = idx(0, d2, 1);
            recvOffset = idx(0, 0, 1);
        }
    }

    static NasLu create(final String name, final DdtSize size)
    {
        final int dim = size == DdtSize.MIDDLE ? 102 : 1020;
        return new NasLu(name, size, dim, dim);
    }

    private int idx(final int xi, final int y, final int z)
    {
        return xi + DIM1 * (y + z * (d2 + 2));
    }

    @Override
    public Datatype sendType()
    {
        return type;
    }

    @Override
    public long sendOffset()
    {
        return sendOffset;
    }

    @Override
    public long recvOffset()
    {
        return recvOffset;
    }

    @Override
    void pack(final double[] out)
    {
        final double[] a = this.a;
        int p = 0;
        if (x)
        {
            for (int k = 1; k <= d2; k++)
            {
                final int at = idx(0, k, d3);
                for (int l = 0; l < DIM1; l++)
                {
                    out[p++] = a[at + l];
                }
            }
        }
        else
        {
            for (int k = 1; k <= d3; k++)
            {
                final int at = idx(0, d2, k);
                for (int l = 0; l < DIM1; l++)
                {
                    out[p++] = a[at + l];
                }
            }
        }
    }

    @Override
    void unpack(final double[] in)
    {
        final double[] a = this.a;
        int p = 0;
        if (x)
        {
            for (int k = 1; k <= d2; k++)
            {
                final int at = idx(0, k, 0);
                for (int l = 0; l < DIM1; l++)
                {
                    a[at + l] = in[p++];
                }
            }
        }
        else
        {
            for (int k = 1; k <= d3; k++)
            {
                final int at = idx(0, 0, k);
                for (int l = 0; l < DIM1; l++)
                {
                    a[at + l] = in[p++];
                }
            }
        }
    }
}
