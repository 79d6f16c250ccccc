package org.jmpi.examples.ddt;

import org.jmpi.Datatype;

import java.util.Arrays;

/**
 * LAMMPS ghost-atom exchange (DDTBench {@code LAMMPS_{full,atomic}}): per listed atom, its position
 * {@code x[3]} and the per-atom scalars (full: tag, type, mask, q, molecule; atomic: tag, type, mask). The
 * send side is a struct of {@code indexed_block(icount, 3, 3*list, DOUBLE)} over {@code x} and
 * {@code indexed_block(icount, 1, list, DOUBLE)} over each scalar array; the receive side appends the atoms
 * after the {@code DIM1} local ones: a struct of {@code contiguous(3*icount)} and {@code contiguous(icount)}.
 * As in DDTBench every array holds doubles, so all of them live in one {@code double[]} and the struct
 * displacements are the arrays' byte offsets in it. Sizes: full 2243 of 2597 atoms (middle) and 3062 of 3534
 * (largest); atomic 145 of 2157 and 243 of 4084.
 */
final class Lammps extends DdtPattern.OfDouble
{
    private final int dim1;
    private final int scalars;
    private final int[] list;
    private final int atoms;
    private final Datatype sendType;
    private final Datatype recvType;

    private Lammps(final String name, final DdtSize size, final int dim1, final int icount, final int scalars)
    {
        super(name, size, (3 + scalars) * (dim1 + icount));
        this.dim1 = dim1;
        this.scalars = scalars;
        this.atoms = dim1 + icount;
        list = IndexLists.sortedSample(icount, dim1, 0x1a + scalars);
        final int arrays = 1 + scalars;
        final int[] blockLengths = new int[arrays];
        Arrays.fill(blockLengths, 1);
        final long[] sendDisplacements = new long[arrays];
        final long[] recvDisplacements = new long[arrays];
        final Datatype[] sendTypes = new Datatype[arrays];
        final Datatype[] recvTypes = new Datatype[arrays];
        final int[] list3 = new int[icount];
        for (int i = 0; i < icount; i++)
        {
            list3[i] = 3 * list[i];
        }
        sendTypes[0] = Datatype.indexedBlock(3, list3, Datatype.DOUBLE);
        recvTypes[0] = Datatype.contiguous(3 * icount, Datatype.DOUBLE);
        recvDisplacements[0] = 8L * 3 * dim1;
        final Datatype indexed1 = Datatype.indexedBlock(1, list, Datatype.DOUBLE);
        final Datatype contiguous1 = Datatype.contiguous(icount, Datatype.DOUBLE);
        for (int s = 1; s < arrays; s++)
        {
            sendDisplacements[s] = 8L * scalarArray(s - 1);
            recvDisplacements[s] = 8L * (scalarArray(s - 1) + dim1);
            sendTypes[s] = indexed1;
            recvTypes[s] = contiguous1;
        }
        sendType = Datatype.struct(blockLengths, sendDisplacements, sendTypes).commit();
        recvType = Datatype.struct(blockLengths, recvDisplacements, recvTypes).commit();
    }

    static Lammps create(final String name, final DdtSize size)
    {
        final boolean middle = size == DdtSize.MIDDLE;
        if (name.endsWith("_full"))
        {
            return middle ? new Lammps(name, size, 2597, 2243, 5) : new Lammps(name, size, 3534, 3062, 5);
        }
        return middle ? new Lammps(name, size, 2157, 145, 3) : new Lammps(name, size, 4084, 243, 3);
    }

    /** Element offset of scalar array {@code s} (x comes first, 3 doubles per atom). */
    private int scalarArray(final int s)
    {
        return (3 + s) * atoms;
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
    void pack(final double[] out)
    {
        final double[] a = this.a;
        final int[] list = this.list;
        int p = 0;
        for (final int l : list)
        {
            out[p++] = a[3 * l];
            out[p++] = a[3 * l + 1];
            out[p++] = a[3 * l + 2];
        }
        for (int s = 0; s < scalars; s++)
        {
            final int array = scalarArray(s);
            for (final int l : list)
            {
                out[p++] = a[array + l];
            }
        }
    }

    @Override
    void unpack(final double[] in)
    {
        final double[] a = this.a;
        final int icount = list.length;
        int p = 0;
        for (int k = 0; k < icount; k++)
        {
            final int l = dim1 + k;
            a[3 * l] = in[p++];
            a[3 * l + 1] = in[p++];
            a[3 * l + 2] = in[p++];
        }
        for (int s = 0; s < scalars; s++)
        {
            final int array = scalarArray(s) + dim1;
            for (int k = 0; k < icount; k++)
            {
                a[array + k] = in[p++];
            }
        }
    }
}
