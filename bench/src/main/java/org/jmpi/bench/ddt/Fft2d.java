package org.jmpi.bench.ddt;

import org.jmpi.Comm;
import org.jmpi.Datatype;
import org.jmpi.Mpi;
import org.jmpi.bench.BenchArgs;

import java.util.Locale;

/**
 * A fft2d_datatype-like mini-app (issue 11; DDTBench's FFT pattern in a whole program): a 2-D FFT of an N x N
 * complex matrix distributed by rows, whose transpose is one all-to-all with derived datatypes of different block
 * sizes on the two sides.
 * <ol>
 * <li>Each rank holds N/P rows (complex numbers as interleaved doubles) and transforms them (radix-2, in place).</li>
 * <li>Transpose: block q of the send side is this rank's rows times columns [q N/P, (q+1) N/P), a vector of N/P
 * blocks of N/P complex numbers (2 N/P doubles) at the stride of a row; the receive side scatters the block's
 * stream into columns of the work matrix, one complex number (2 doubles) per block at the stride of a row. The
 * types are resized to N/P complex numbers so that block q of each lies at column q N/P.</li>
 * <li>Each rank transforms its rows of the transposed matrix: the 2-D transform, transposed.</li>
 * </ol>
 * Usage: {@code bin/jmpirun -np 2 [--param pvas.mode=...] -cp 'bench/target/classes:bench/target/lib/*'
 * org.jmpi.bench.ddt.Fft2d [--n 512,1024] [--iterations 20] [--warmup 3]}; rank 0 prints, per N, µs per 2-D FFT and
 * per transpose (mean and median) and a checksum of the result (equal across modes). bench/pvas-eval.sh runs it per
 * {@code jmpi.pvas.mode}.
 *
 * <p>Not thread-safe: one instance per rank; it owns its matrices.
 */
public final class Fft2d
{
    private final Comm world;
    private final int n;
    private final int rows;
    private final int firstRow;
    private final double[] data;
    private final double[] work;
    private final Datatype sendType;
    private final Datatype recvType;

    /**
     * @throws IllegalArgumentException unless N is a power of two that the communicator's size divides
     */
    public Fft2d(final Comm world, final int n)
    {
        final int p = world.size();
        if (n < 2 || Integer.bitCount(n) != 1 || n % p != 0)
        {
            throw new IllegalArgumentException("fft2d: N=" + n + " must be a power of two divisible by the " + p + " ranks");
        }
        this.world = world;
        this.n = n;
        this.rows = n / p;
        this.firstRow = world.rank() * rows;
        this.data = new double[2 * rows * n];
        this.work = new double[2 * rows * n];
        final Datatype complex = Datatype.contiguous(2, Datatype.DOUBLE);
        sendType = Datatype.resized(Datatype.vector(rows, 2 * rows, 2 * n, Datatype.DOUBLE), 0, 16L * rows).commit();
        final Datatype column = Datatype.hvector(rows, 1, 16L * n, complex);
        recvType = Datatype.resized(Datatype.hvector(rows, 1, 16, column), 0, 16L * rows).commit();
    }

    /** The input value of global element (row, col): real and imaginary parts. */
    static double re(final int row, final int col)
    {
        return Math.sin(0.37 * row + 0.11 * col) + 0.01 * ((row * 7 + col * 3) % 13);
    }

    static double im(final int row, final int col)
    {
        return Math.cos(0.23 * row - 0.19 * col);
    }

    /** Sets this rank's rows to the input. */
    public void fill()
    {
        for (int r = 0; r < rows; r++)
        {
            for (int c = 0; c < n; c++)
            {
                data[2 * (r * n + c)] = re(firstRow + r, c);
                data[2 * (r * n + c) + 1] = im(firstRow + r, c);
            }
        }
    }

    /** The 2-D transform of the input, transposed, in {@link #result()}; returns the ns the transpose took. */
    public long forward()
    {
        fill();
        for (int r = 0; r < rows; r++)
        {
            fft(data, 2 * r * n, n);
        }
        final long t0 = System.nanoTime();
        world.alltoall(data, 0, 1, sendType, work, 0, 1, recvType);
        final long transposeNs = System.nanoTime() - t0;
        for (int r = 0; r < rows; r++)
        {
            fft(work, 2 * r * n, n);
        }
        return transposeNs;
    }

    /** This rank's rows of the transposed transform: row j is global column {@code rank * N/P + j}. */
    public double[] result()
    {
        return work;
    }

    /** Sum of |x| over the whole transform (all ranks). */
    public double checksum()
    {
        double local = 0;
        for (int i = 0; i < work.length; i += 2)
        {
            local += Math.hypot(work[i], work[i + 1]);
        }
        final double[] sum = new double[1];
        world.allreduce(new double[] {local}, 0, sum, 0, 1, Datatype.DOUBLE, org.jmpi.Op.SUM);
        return sum[0];
    }

    /** In-place iterative radix-2 FFT of {@code length} complex numbers at {@code offset} (doubles) of {@code a}. */
    static void fft(final double[] a, final int offset, final int length)
    {
        for (int i = 1, j = 0; i < length; i++)
        {
            int bit = length >> 1;
            for (; (j & bit) != 0; bit >>= 1)
            {
                j ^= bit;
            }
            j ^= bit;
            if (i < j)
            {
                swap(a, offset + 2 * i, offset + 2 * j);
            }
        }
        for (int len = 2; len <= length; len <<= 1)
        {
            final double angle = -2 * Math.PI / len;
            final double wRe = Math.cos(angle);
            final double wIm = Math.sin(angle);
            for (int start = 0; start < length; start += len)
            {
                double uRe = 1;
                double uIm = 0;
                for (int k = 0; k < len / 2; k++)
                {
                    final int x = offset + 2 * (start + k);
                    final int y = offset + 2 * (start + k + len / 2);
                    final double tRe = a[y] * uRe - a[y + 1] * uIm;
                    final double tIm = a[y] * uIm + a[y + 1] * uRe;
                    a[y] = a[x] - tRe;
                    a[y + 1] = a[x + 1] - tIm;
                    a[x] += tRe;
                    a[x + 1] += tIm;
                    final double next = uRe * wRe - uIm * wIm;
                    uIm = uRe * wIm + uIm * wRe;
                    uRe = next;
                }
            }
        }
    }

    private static void swap(final double[] a, final int x, final int y)
    {
        final double re = a[x];
        final double im = a[x + 1];
        a[x] = a[y];
        a[x + 1] = a[y + 1];
        a[y] = re;
        a[y + 1] = im;
    }

    public static void main(final String[] args)
    {
        final BenchArgs a = BenchArgs.parse(args, "--n", "--iterations", "--warmup");
        final int[] sizes = a.intListOption("--n", 512, 1024);
        final int iterations = a.intOption("--iterations", 20);
        final int warmup = a.intOption("--warmup", 3);
        try (Mpi mpi = Mpi.init(args))
        {
            final Comm world = mpi.world();
            if (world.rank() == 0)
            {
                System.out.println("# fft2d (issue 11): " + world.size() + " ranks, iterations=" + iterations + ", warmup=" + warmup);
                System.out.println(String.format(Locale.ROOT, "# %6s %12s %12s %14s %14s %18s", "N", "fft mean(us)", "fft median",
                    "transpose mean", "transpose med", "checksum"));
            }
            for (final int n : sizes)
            {
                final Fft2d fft = new Fft2d(world, n);
                for (int i = 0; i < warmup; i++)
                {
                    fft.forward();
                }
                final long[] total = new long[Math.max(1, iterations)];
                final long[] transpose = new long[total.length];
                for (int i = 0; i < total.length; i++)
                {
                    world.barrier();
                    final long t0 = System.nanoTime();
                    transpose[i] = fft.forward();
                    total[i] = System.nanoTime() - t0;
                }
                final double checksum = fft.checksum();
                if (world.rank() == 0)
                {
                    System.out.println(String.format(Locale.ROOT, "  %6d %12.1f %12.1f %14.1f %14.1f %18.9e", n,
                        DdtPingPong.mean(total) / 1e3, DdtPingPong.median(total) / 1e3, DdtPingPong.mean(transpose) / 1e3,
                        DdtPingPong.median(transpose) / 1e3, checksum));
                }
            }
        }
    }
}
