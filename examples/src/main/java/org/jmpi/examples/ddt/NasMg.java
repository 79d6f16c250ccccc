package org.jmpi.examples.ddt;

import org.jmpi.Datatype;

/**
 * NAS MG halo faces of a {@code double[D1][D2][D3]} grid (x fastest), interior only (DDTBench
 * {@code NAS_MG_{x,y,z}}). x: {@code vector(D2-2, 1, D1)} of single doubles, then {@code hvector(D3-2, 1,
 * D1*D2*8)}; y: {@code vector(D3-2, D1-2, D1*D2)}; z: {@code vector(D2-2, D1-2, D1)}. The send face and the
 * receive (ghost) face are neighbouring planes of the same grid. Sizes: 258x130x130 (middle) and
 * 514x258x258 (largest).
 */
final class NasMg extends DdtPattern.OfDouble
{
    private final char axis;
    private final int d1;
    private final int d2;
    private final int d3;
    private final long sendOffset;
    private final long recvOffset;
    private final Datatype type;

    private NasMg(final String name, final DdtSize size, final int d1, final int d2, final int d3)
    {
        super(name, size, d1 * d2 * d3);
        this.axis = name.charAt(name.length() - 1);
        this.d1 = d1;
        this.d2 = d2;
        this.d3 = d3;
        switch (axis)
        {
            case 'x' ->
            {
                final Datatype column = Datatype.vector(d2 - 2, 1, d1, Datatype.DOUBLE);
                type = Datatype.hvector(d3 - 2, 1, 8L * d1 * d2, column).commit();
                sendOffset = idx(d1 - 2, 1, 1);
                recvOffset = idx(d1 - 1, 1, 1);
            }
            case 'y' ->
            {
                type = Datatype.vector(d3 - 2, d1 - 2, d1 * d2, Datatype.DOUBLE).commit();
                sendOffset = idx(1, d2 - 2, 1);
                recvOffset = idx(1, d2 - 1, 1);
            }
            default ->
            {
                type = Datatype.vector(d2 - 2, d1 - 2, d1, Datatype.DOUBLE).commit();
                sendOffset = idx(1, 1, 1);
                recvOffset = idx(1, 1, 0);
            }
        }
    }

    static NasMg create(final String name, final DdtSize size)
    {
        return size == DdtSize.MIDDLE ? new NasMg(name, size, 258, 130, 130) : new NasMg(name, size, 514, 258, 258);
    }

    private int idx(final int x, final int y, final int z)
    {
        return x + d1 * (y + z * d2);
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
        final int d1 = this.d1;
        final int d2 = this.d2;
        final int d3 = this.d3;
        int p = 0;
        switch (axis)
        {
            case 'x' ->
            {
                for (int k = 1; k < d3 - 1; k++)
                {
                    for (int l = 1; l < d2 - 1; l++)
                    {
                        out[p++] = a[d1 - 2 + d1 * (l + k * d2)];
                    }
                }
            }
            case 'y' ->
            {
                for (int k = 1; k < d3 - 1; k++)
                {
                    final int row = d1 * (d2 - 2 + k * d2);
                    for (int l = 1; l < d1 - 1; l++)
                    {
                        out[p++] = a[row + l];
                    }
                }
            }
            default ->
            {
                for (int k = 1; k < d2 - 1; k++)
                {
                    final int row = d1 * (k + d2);
                    for (int l = 1; l < d1 - 1; l++)
                    {
                        out[p++] = a[row + l];
                    }
                }
            }
        }
    }

    @Override
    void unpack(final double[] in)
    {
        final double[] a = this.a;
        final int d1 = this.d1;
        final int d2 = this.d2;
        final int d3 = this.d3;
        int p = 0;
        switch (axis)
        {
            case 'x' ->
            {
                for (int k = 1; k < d3 - 1; k++)
                {
                    for (int l = 1; l < d2 - 1; l++)
                    {
                        a[d1 - 1 + d1 * (l + k * d2)] = in[p++];
                    }
                }
            }
            case 'y' ->
            {
                for (int k = 1; k < d3 - 1; k++)
                {
                    final int row = d1 * (d2 - 1 + k * d2);
                    for (int l = 1; l < d1 - 1; l++)
                    {
                        a[row + l] = in[p++];
                    }
                }
            }
            default ->
            {
                for (int k = 1; k < d2 - 1; k++)
                {
                    final int row = d1 * k;
                    for (int l = 1; l < d1 - 1; l++)
                    {
                        a[row + l] = in[p++];
                    }
                }
            }
        }
    }
}
