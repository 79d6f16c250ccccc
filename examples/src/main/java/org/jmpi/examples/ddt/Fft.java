package org.jmpi.examples.ddt;

import org.jmpi.Datatype;

/**
 * The 2-D FFT transpose (DDTBench {@code FFT}): each of {@code procs} ranks holds {@code n = N/procs} rows
 * of an N x N complex matrix. The send type {@code gather} is an n x n block ({@code vector(n, n, N)} of
 * complex, resized to n complexes), sent {@code procs} times; the receive type {@code scatter} writes the
 * stream transposed: {@code contiguous(n, resized(vector(n, 1, N) of complex, extent 16))}, received
 * {@code procs} times. Here rank 0's whole all-to-all contribution goes to one peer, so {@code procs} = 2.
 * The matrix and the receive matrix share the buffer. Sizes: N = 768 (middle) and 1536 (largest).
 */
final class Fft extends DdtPattern.OfDouble
{
    private static final int PROCS = 2;

    private final int dim;
    private final int n;
    private final Datatype gather;
    private final Datatype scatter;

    private Fft(final DdtSize size, final int dim)
    {
        super("FFT", size, 2 * (2 * dim * (dim / PROCS)));
        this.dim = dim;
        n = dim / PROCS;
        final Datatype complex = Datatype.contiguous(2, Datatype.DOUBLE);
        final Datatype column = Datatype.vector(n, 1, dim, complex);
        scatter = Datatype.contiguous(n, Datatype.resized(column, 0, 2 * Double.BYTES)).commit();
        final Datatype block = Datatype.vector(n, n, dim, complex);
        gather = Datatype.resized(block, 0, (long)n * 2 * Double.BYTES).commit();
    }

    static Fft create(final DdtSize size)
    {
        return new Fft(size, size == DdtSize.MIDDLE ? 768 : 1536);
    }

    @Override
    public Datatype sendType()
    {
        return gather;
    }

    @Override
    public int sendCount()
    {
        return PROCS;
    }

    @Override
    public Datatype recvType()
    {
        return scatter;
    }

    @Override
    public long recvOffset()
    {
        return 2L * dim * n;
    }

    @Override
    void pack(final double[] out)
    {
        for (int k = 0; k < PROCS; k++)
        {
            for (int l = 0; l < n; l++)
            {
                System.arraycopy(a, 2 * (k * n + l * dim), out, 2 * (k * n * n + l * n), 2 * n);
            }
        }
    }

    @Override
    void unpack(final double[] in)
    {
        final double[] a = this.a;
        final int n = this.n;
        final int dim = this.dim;
        final int recv = 2 * dim * n;
        int p = 0;
        for (int column = 0; column < dim; column++)
        {
            for (int row = 0; row < n; row++, p += 2)
            {
                final int at = recv + 2 * (row * dim + column);
                a[at] = in[p];
                a[at + 1] = in[p + 1];
            }
        }
    }
}
