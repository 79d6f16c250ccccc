package org.jmpi.examples.ddt;

import org.jmpi.Datatype;

/**
 * MILC {@code su3_zdown} (DDTBench {@code MILC_su3_zd}): su3 vectors (6 floats) of a 4-D lattice, the z-down
 * half sites of every t slice, in both halves of the even/odd ordered lattice: {@code contiguous(6, FLOAT)},
 * {@code vector(D5, D2*D3/2, D2*D3*D4/2)} of it, {@code hvector(2, 1, half the lattice)} of that. Sizes:
 * lattice 16x16x16x8 (middle, 49152 bytes) and 16^4 (largest, 98304 bytes).
 */
final class Milc extends DdtPattern.OfFloat
{
    private final int blockFloats;
    private final int strideFloats;
    private final int halfFloats;
    private final int blocks;
    private final Datatype type;

    private Milc(final DdtSize size, final int d2, final int d3, final int d4, final int d5)
    {
        super("MILC_su3_zd", size, 6 * d2 * d3 * d4 * d5);
        blocks = d5;
        blockFloats = 6 * d2 * d3 / 2;
        strideFloats = 6 * d2 * d3 * d4 / 2;
        halfFloats = 6 * d2 * d3 * d4 * d5 / 2;
        final Datatype su3Vector = Datatype.contiguous(6, Datatype.FLOAT);
        final Datatype zdown = Datatype.vector(d5, d2 * d3 / 2, d2 * d3 * d4 / 2, su3Vector);
        type = Datatype.hvector(2, 1, su3Vector.size() * d2 * d3 * d4 * d5 / 2, zdown).commit();
    }

    static Milc create(final DdtSize size)
    {
        return size == DdtSize.MIDDLE ? new Milc(size, 16, 16, 16, 8) : new Milc(size, 16, 16, 16, 16);
    }

    @Override
    public Datatype sendType()
    {
        return type;
    }

    @Override
    void pack(final float[] out)
    {
        final float[] a = this.a;
        int p = 0;
        for (int h = 0; h < 2; h++)
        {
            for (int k = 0; k < blocks; k++)
            {
                final int from = h * halfFloats + k * strideFloats;
                for (int o = 0; o < blockFloats; o++)
                {
                    out[p++] = a[from + o];
                }
            }
        }
    }

    @Override
    void unpack(final float[] in)
    {
        final float[] a = this.a;
        int p = 0;
        for (int h = 0; h < 2; h++)
        {
            for (int k = 0; k < blocks; k++)
            {
                final int to = h * halfFloats + k * strideFloats;
                for (int o = 0; o < blockFloats; o++)
                {
                    a[to + o] = in[p++];
                }
            }
        }
    }
}
