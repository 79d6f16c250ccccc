package org.jmpi.examples.ddt;

import org.jmpi.Datatype;

import java.util.Arrays;

/**
 * WRF halo exchange (DDTBench {@code WRF_{x,y}_{vec,sa}}): a face of 4 two-dimensional, 3 three-dimensional
 * and 2 four-dimensional {@code float} arrays (Fortran {@code (i,k,j)} order, i fastest), all combined into
 * one struct. The {@code vec} variant builds each face from vectors and hvectors, the {@code sa} variant
 * from subarrays over the whole arrays, as WRF does. Sizes: the em_b_wave case on 4x4 (middle) and 2x2
 * (largest) process grids.
 */
final class Wrf extends DdtPattern.OfFloat
{
    private static final int NUMBER_2D = 4;
    private static final int NUMBER_3D = 3;
    private static final int NUMBER_4D = 2;
    private static final int LIMIT_4D = 2;
    /** WRF's PARAM_FIRST_SCALAR (2), made 0-based. */
    private static final int FIRST_SCALAR = 1;

    private final int dim1;
    private final int dim2;
    private final int dim3;
    private final int is;
    private final int ie;
    private final int ks;
    private final int ke;
    private final int js;
    private final int je;
    private final int[] off2 = new int[NUMBER_2D];
    private final int[] off3 = new int[NUMBER_3D];
    private final int[] off4 = new int[NUMBER_4D];
    private final Datatype type;

    /** The domain bounds and the face bounds in WRF's 1-based inclusive form. */
    private Wrf(final String name, final DdtSize size, final boolean subarrays, final int[] memory, final int[] face)
    {
        super(name, size, length(memory));
        final int ims = memory[0];
        final int kms = memory[2];
        final int jms = memory[4];
        dim1 = memory[1] - ims + 1;
        dim2 = memory[3] - kms + 1;
        dim3 = memory[5] - jms + 1;
        is = face[0] - ims;
        ie = face[1] - ims;
        ks = face[2] - kms;
        ke = face[3] - kms;
        js = face[4] - jms;
        je = face[5] - jms;
        int at = 0;
        for (int m = 0; m < NUMBER_2D; m++, at += dim1 * dim3)
        {
            off2[m] = at;
        }
        for (int m = 0; m < NUMBER_3D; m++, at += dim1 * dim2 * dim3)
        {
            off3[m] = at;
        }
        for (int m = 0; m < NUMBER_4D; m++, at += dim1 * dim2 * dim3 * LIMIT_4D)
        {
            off4[m] = at;
        }
        type = subarrays ? subarrayType() : vectorType();
    }

    private static int length(final int[] memory)
    {
        final int d1 = memory[1] - memory[0] + 1;
        final int d2 = memory[3] - memory[2] + 1;
        final int d3 = memory[5] - memory[4] + 1;
        return NUMBER_2D * d1 * d3 + NUMBER_3D * d1 * d2 * d3 + NUMBER_4D * LIMIT_4D * d1 * d2 * d3;
    }

    static Wrf create(final String name, final DdtSize size)
    {
        final boolean x = name.startsWith("WRF_x");
        final boolean sa = name.endsWith("_sa");
        final boolean middle = size == DdtSize.MIDDLE;
        // {ims, ime, kms, kme, jms, jme} and {is, ie, ks, ke, js, je}, from DDTBench's em_b_wave cases
        final int[] memory = middle ? new int[] {4, 27, 1, 65, 14, 47} : new int[] {-4, 27, 1, 65, 34, 85};
        final int[] face;
        if (x)
        {
            face = middle ? new int[] {18, 20, 1, 65, 18, 43} : new int[] {18, 20, 1, 65, 38, 81};
        }
        else
        {
            face = middle ? new int[] {8, 23, 1, 65, 21, 23} : new int[] {1, 23, 1, 65, 41, 43};
        }
        return new Wrf(name, size, sa, memory, face);
    }

    private int idx2(final int x, final int y)
    {
        return x + dim1 * y;
    }

    private int idx3(final int x, final int y, final int z)
    {
        return x + dim1 * (y + z * dim2);
    }

    private int idx4(final int x, final int y, final int z, final int t)
    {
        return x + dim1 * (y + dim2 * (z + dim3 * t));
    }

    private Datatype vectorType()
    {
        final int sub1 = ie - is + 1;
        final int sub2 = ke - ks + 1;
        final int sub3 = je - js + 1;
        final int count = NUMBER_2D + NUMBER_3D + NUMBER_4D;
        final int[] blockLengths = new int[count];
        final long[] displacements = new long[count];
        final Datatype[] types = new Datatype[count];
        Arrays.fill(blockLengths, 1);
        int c = 0;
        final Datatype face2 = Datatype.vector(sub3, sub1, dim1, Datatype.FLOAT);
        for (int m = 0; m < NUMBER_2D; m++, c++)
        {
            displacements[c] = 4L * (off2[m] + idx2(is, js));
            types[c] = face2;
        }
        final Datatype plane = Datatype.vector(sub2, sub1, dim1, Datatype.FLOAT);
        final long stride = 4L * dim1 * dim2;
        final Datatype face3 = Datatype.hvector(sub3, 1, stride, plane);
        for (int m = 0; m < NUMBER_3D; m++, c++)
        {
            displacements[c] = 4L * (off3[m] + idx3(is, ks, js));
            types[c] = face3;
        }
        for (int m = 0; m < NUMBER_4D; m++, c++)
        {
            displacements[c] = 4L * (off4[m] + idx4(is, ks, js, FIRST_SCALAR));
            types[c] = Datatype.hvector(LIMIT_4D - FIRST_SCALAR, 1, stride * dim3, face3);
        }
        return Datatype.struct(blockLengths, displacements, types).commit();
    }

    private Datatype subarrayType()
    {
        final int sub1 = ie - is + 1;
        final int sub2 = ke - ks + 1;
        final int sub3 = je - js + 1;
        final int count = NUMBER_2D + NUMBER_3D + NUMBER_4D;
        final int[] blockLengths = new int[count];
        final long[] displacements = new long[count];
        final Datatype[] types = new Datatype[count];
        Arrays.fill(blockLengths, 1);
        int c = 0;
        final Datatype face2 = Datatype.subarray(new int[] {dim3, dim1}, new int[] {sub3, sub1}, new int[] {js, is},
            Datatype.Order.C, Datatype.FLOAT);
        for (int m = 0; m < NUMBER_2D; m++, c++)
        {
            displacements[c] = 4L * off2[m];
            types[c] = face2;
        }
        final Datatype face3 = Datatype.subarray(new int[] {dim3, dim2, dim1}, new int[] {sub3, sub2, sub1},
            new int[] {js, ks, is}, Datatype.Order.C, Datatype.FLOAT);
        for (int m = 0; m < NUMBER_3D; m++, c++)
        {
            displacements[c] = 4L * off3[m];
            types[c] = face3;
        }
        for (int m = 0; m < NUMBER_4D; m++, c++)
        {
            displacements[c] = 4L * off4[m];
            types[c] = Datatype.subarray(new int[] {LIMIT_4D, dim3, dim2, dim1},
                new int[] {LIMIT_4D - FIRST_SCALAR, sub3, sub2, sub1}, new int[] {FIRST_SCALAR, js, ks, is},
                Datatype.Order.C, Datatype.FLOAT);
        }
        return Datatype.struct(blockLengths, displacements, types).commit();
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
        for (int m = 0; m < NUMBER_2D; m++)
        {
            for (int k = js; k <= je; k++)
            {
                final int row = off2[m] + idx2(0, k);
                for (int l = is; l <= ie; l++)
                {
                    out[p++] = a[row + l];
                }
            }
        }
        for (int m = 0; m < NUMBER_3D; m++)
        {
            for (int k = js; k <= je; k++)
            {
                for (int l = ks; l <= ke; l++)
                {
                    final int row = off3[m] + idx3(0, l, k);
                    for (int n = is; n <= ie; n++)
                    {
                        out[p++] = a[row + n];
                    }
                }
            }
        }
        for (int m = 0; m < NUMBER_4D; m++)
        {
            for (int t = FIRST_SCALAR; t < LIMIT_4D; t++)
            {
                for (int k = js; k <= je; k++)
                {
                    for (int l = ks; l <= ke; l++)
                    {
                        final int row = off4[m] + idx4(0, l, k, t);
                        for (int n = is; n <= ie; n++)
                        {
                            out[p++] = a[row + n];
                        }
                    }
                }
            }
        }
    }

    @Override
    void unpack(final float[] in)
    {
        final float[] a = this.a;
        int p = 0;
        for (int m = 0; m < NUMBER_2D; m++)
        {
            for (int k = js; k <= je; k++)
            {
                final int row = off2[m] + idx2(0, k);
                for (int l = is; l <= ie; l++)
                {
                    a[row + l] = in[p++];
                }
            }
        }
        for (int m = 0; m < NUMBER_3D; m++)
        {
            for (int k = js; k <= je; k++)
            {
                for (int l = ks; l <= ke; l++)
                {
                    final int row = off3[m] + idx3(0, l, k);
                    for (int n = is; n <= ie; n++)
                    {
                        a[row + n] = in[p++];
                    }
                }
            }
        }
        for (int m = 0; m < NUMBER_4D; m++)
        {
            for (int t = FIRST_SCALAR; t < LIMIT_4D; t++)
            {
                for (int k = js; k <= je; k++)
                {
                    for (int l = ks; l <= ke; l++)
                    {
                        final int row = off4[m] + idx4(0, l, k, t);
                        for (int n = is; n <= ie; n++)
                        {
                            a[row + n] = in[p++];
                        }
                    }
                }
            }
        }
    }
}
