package org.jmpi.bench.jacobi;

import org.jmpi.Comm;
import org.jmpi.Datatype;
import org.jmpi.Mpi;
import org.jmpi.Op;
import org.jmpi.Request;

/**
 * A 2-D Jacobi solver of Laplace's equation, the small-message issue's "real code": an {@code n x n}
 * interior with the top boundary held at 1 and the other three at 0, decomposed by columns (rank r
 * owns a block of consecutive columns, the first {@code n % p} ranks one more), the halo columns
 * exchanged every sweep as a vector type (irecv both, isend both, await all), and the residual (the
 * 2-norm of the last sweep's change) reduced by an allreduce every {@link #RESIDUAL_EVERY} sweeps.
 * bench/c/jacobi.c is its C twin: same decomposition, same datatype, same order of operations, same
 * output line, so the residuals agree to the last printed digit.
 * <pre>
 * jacobi n=512 sweeps=2000 ranks=2 time=0.812345 s sweep=0.000406 s residual=1.2345678901e-03
 * </pre>
 * The time runs from a barrier after set-up to the last allreduce, on rank 0: the whole solve,
 * first messages included (no warm-up: a short job's cold start is what it measures).
 * {@code --sweep-only} times the same sweeps on one rank with no communication, the Java-against-C
 * floor of the compute part.
 * Usage: {@code bin/jmpirun -np 2 -cp 'bench/target/classes:bench/target/lib/*'
 * org.jmpi.bench.jacobi.Jacobi2d [n] [sweeps] [--sweep-only] [--breakdown]}
 * ({@code --breakdown}: each rank also prints where its time went, halo exchanges, sweeps and allreduces).
 */
public final class Jacobi2d
{
    /** Sweeps between two residual allreduces (the last sweep always has one). */
    public static final int RESIDUAL_EVERY = 10;

    private static final int TAG_LEFT = 11;
    private static final int TAG_RIGHT = 12;

    private final Comm comm;
    private final int n;
    private final int cols;
    private final int first;
    private final int stride;
    private final int left;
    private final int right;
    private final Datatype column;
    private double[] u;
    private double[] next;
    private final double[] localSum = new double[1];
    private long exchangeNs;
    private long sweepNs;
    private long reduceNs;
    private final double[] globalSum = new double[1];

    /**
     * Sets up this rank's block of an {@code n x n} interior.
     *
     * @param comm the communicator the columns are spread over ({@code null}: one rank, no communication)
     * @param n interior points per side
     */
    public Jacobi2d(final Comm comm, final int n)
    {
        this.comm = comm;
        this.n = n;
        final int p = comm == null ? 1 : comm.size();
        final int r = comm == null ? 0 : comm.rank();
        if (n < p)
        {
            throw new IllegalArgumentException("n=" + n + " is smaller than the " + p + " ranks");
        }
        this.cols = n / p + (r < n % p ? 1 : 0);
        this.first = r * (n / p) + Math.min(r, n % p);
        this.stride = cols + 2;
        this.left = r > 0 ? r - 1 : -1;
        this.right = r < p - 1 ? r + 1 : -1;
        this.column = comm == null ? null : Datatype.vector(n, 1, stride, Datatype.DOUBLE).commit();
        this.u = new double[(n + 2) * stride];
        this.next = new double[(n + 2) * stride];
        for (int j = 0; j < stride; j++)
        {
            u[j] = 1.0;
            next[j] = 1.0;
        }
    }

    /**
     * Runs {@code sweeps} sweeps and returns the residual of the last one.
     *
     * @param sweeps how many Jacobi sweeps
     * @return the 2-norm of the change in the last sweep, over the whole grid
     */
    public double solve(final int sweeps)
    {
        double residual = Double.NaN;
        for (int s = 1; s <= sweeps; s++)
        {
            final long t0 = System.nanoTime();
            if (comm != null)
            {
                exchangeHalos();
            }
            final long t1 = System.nanoTime();
            final boolean reduce = s % RESIDUAL_EVERY == 0 || s == sweeps;
            final double change = sweep(reduce);
            final long t2 = System.nanoTime();
            if (reduce)
            {
                residual = Math.sqrt(sum(change));
            }
            final long t3 = System.nanoTime();
            exchangeNs += t1 - t0;
            sweepNs += t2 - t1;
            reduceNs += t3 - t2;
            final double[] t = u;
            u = next;
            next = t;
        }
        return residual;
    }

    private void exchangeHalos()
    {
        // Column 0 and column cols + 1 are the halos; rows 1..n travel (the boundary rows are constant).
        Request fromLeft = null;
        Request fromRight = null;
        Request toLeft = null;
        Request toRight = null;
        if (left >= 0)
        {
            fromLeft = comm.irecv(u, stride, 1, column, left, TAG_RIGHT);
        }
        if (right >= 0)
        {
            fromRight = comm.irecv(u, stride + cols + 1, 1, column, right, TAG_LEFT);
        }
        if (left >= 0)
        {
            toLeft = comm.isend(u, stride + 1, 1, column, left, TAG_LEFT);
        }
        if (right >= 0)
        {
            toRight = comm.isend(u, stride + cols, 1, column, right, TAG_RIGHT);
        }
        await(fromLeft);
        await(fromRight);
        await(toLeft);
        await(toRight);
    }

    private static void await(final Request r)
    {
        if (r != null)
        {
            r.await();
        }
    }

    /**
     * One sweep from {@code u} into {@code next}; the sum of squared changes when asked, else 0. Two loops, so
     * the sweeps without a residual (nine in ten) carry no reduction (the C twin has the same two).
     */
    private double sweep(final boolean withChange)
    {
        final double[] a = u;
        final double[] b = next;
        double change = 0;
        for (int i = 1; i <= n; i++)
        {
            final int row = i * stride;
            if (withChange)
            {
                for (int j = row + 1; j <= row + cols; j++)
                {
                    final double v = 0.25 * (a[j - stride] + a[j + stride] + a[j - 1] + a[j + 1]);
                    b[j] = v;
                    final double d = v - a[j];
                    change += d * d;
                }
            }
            else
            {
                for (int j = row + 1; j <= row + cols; j++)
                {
                    b[j] = 0.25 * (a[j - stride] + a[j + stride] + a[j - 1] + a[j + 1]);
                }
            }
        }
        return change;
    }

    /** Where this rank's time in {@link #solve} went: halo exchanges, sweeps, residual allreduces (seconds). */
    public String breakdown()
    {
        return String.format("exchange=%.6f s sweep=%.6f s allreduce=%.6f s", exchangeNs / 1e9, sweepNs / 1e9, reduceNs / 1e9);
    }

    /**
     * A position-weighted sum of the whole interior (collective): equal to one rank's only if every
     * halo reached the right neighbour, side and sweep.
     *
     * @return the sum over the interior of u(i, j) * (1 + i + 7 j), j the global column
     */
    public double checksum()
    {
        double local = 0;
        for (int i = 1; i <= n; i++)
        {
            for (int j = 1; j <= cols; j++)
            {
                local += u[i * stride + j] * (1 + i + 7.0 * (first + j));
            }
        }
        return sum(local);
    }

    private double sum(final double local)
    {
        if (comm == null)
        {
            return local;
        }
        localSum[0] = local;
        comm.allreduce(localSum, 0, globalSum, 0, 1, Datatype.DOUBLE, Op.SUM);
        return globalSum[0];
    }

    public static void main(final String[] args)
    {
        int n = 512;
        int sweeps = 2000;
        boolean sweepOnly = false;
        boolean breakdown = false;
        int positional = 0;
        for (final String a : args)
        {
            if (a.equals("--sweep-only"))
            {
                sweepOnly = true;
            }
            else if (a.equals("--breakdown"))
            {
                breakdown = true;
            }
            else if (!a.startsWith("-"))
            {
                if (positional++ == 0)
                {
                    n = Integer.parseInt(a);
                }
                else
                {
                    sweeps = Integer.parseInt(a);
                }
            }
        }
        try (Mpi mpi = Mpi.init(args))
        {
            final Comm world = mpi.world();
            if (sweepOnly)
            {
                if (world.rank() == 0)
                {
                    final Jacobi2d solver = new Jacobi2d(null, n);
                    final double t0 = Mpi.wtime();
                    final double residual = solver.solve(sweeps);
                    report("jacobi-sweep", n, sweeps, 1, Mpi.wtime() - t0, residual);
                }
                return;
            }
            final Jacobi2d solver = new Jacobi2d(world, n);
            world.barrier();
            final double t0 = Mpi.wtime();
            final double residual = solver.solve(sweeps);
            final double elapsed = Mpi.wtime() - t0;
            if (world.rank() == 0)
            {
                report("jacobi", n, sweeps, world.size(), elapsed, residual);
            }
            if (breakdown)
            {
                System.out.printf("rank %d: %s%n", world.rank(), solver.breakdown());
            }
        }
    }

    private static void report(final String what, final int n, final int sweeps, final int ranks, final double seconds, final double residual)
    {
        System.out.printf("%s n=%d sweeps=%d ranks=%d time=%.6f s sweep=%.6f s residual=%.10e%n",
            what, n, sweeps, ranks, seconds, seconds / sweeps, residual);
    }
}
