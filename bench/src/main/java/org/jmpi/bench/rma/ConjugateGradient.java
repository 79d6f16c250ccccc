package org.jmpi.bench.rma;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.ByteBuffer;
import java.nio.DoubleBuffer;
import java.util.Locale;
import java.util.function.ToDoubleBiFunction;

import org.jmpi.Comm;
import org.jmpi.Datatype;
import org.jmpi.Intracomm;
import org.jmpi.Mpi;
import org.jmpi.Op;
import org.jmpi.Win;
import org.jmpi.bench.BenchArgs;
import org.jmpi.bench.ThreadSwitches;
import org.jmpi.coarray.DoubleCoarray;
import org.jmpi.coarray.Team;

/**
 * A conjugate-gradient mini-app in the manner of NPB CG (issue 18, item 6): unpreconditioned CG, 25 iterations per
 * solve, on a sparse symmetric positive definite matrix (the 7-point Laplacian of an {@code n x n x n} grid plus
 * 0.1 on the diagonal, in CSR), rows distributed in blocks. Each iteration needs the whole search direction
 * {@code p} for the matrix-vector product, gathered four ways:
 * <ul>
 * <li>{@code two-sided}: {@code allgatherv} of every rank's block;</li>
 * <li>{@code rma}: get-based, as the paper's RMA version: each rank copies its block of {@code p} into its window
 * (made by {@code Win.allocate}: in the arena where it is on, so the gets between JVMs are direct copies), then inside
 * a fence epoch gets every other rank's block from theirs;</li>
 * <li>{@code coarray}: {@code p} is a coarray; after {@code syncAll} each image gets every other image's block;</li>
 * <li>{@code coarray-nb} (the paper's nonblocking variant): each image {@code putAsync}s its block into every other
 * image's copy, completed by one {@code syncAll}.</li>
 * <li>where the team's coarrays are in the PVAS arena (JVMs with the arena on: the local view is a buffer) {@code p}
 * stays an array beside the coarray of the same layout: {@code coarray} copies its own block into the coarray before
 * the {@code syncAll}, {@code coarray-nb} copies the other blocks out of it after.</li>
 * </ul>
 * The dot products are allreduces in every version. Unlike NPB's two-dimensional grid with a transpose exchange,
 * the distribution is one-dimensional (rows): every rank gathers all of {@code p}.
 * Steps per iteration: 1. gather p; 2. q = A p (local rows); 3. alpha = rho / (p . q); 4. z += alpha p,
 * r -= alpha q; 5. rho' = r . r; 6. p = r + (rho' / rho) p. The result, zeta, is the same in every version and at
 * every rank count (to rounding of the reductions).
 * Usage: {@code bin/jmpirun [--threads] -np 4 -cp 'bench/target/classes:bench/target/lib/*'
 * org.jmpi.bench.rma.ConjugateGradient [--n 32] [--solves 5] [--versions two-sided,rma,coarray,coarray-nb]}.
 */
public final class ConjugateGradient implements CgSolver
{
    /** Versions of the gather. */
    public enum Version
    {
        TWO_SIDED, RMA, COARRAY, COARRAY_NB;

        static Version of(final String name)
        {
            return valueOf(name.toUpperCase(Locale.ROOT).replace('-', '_'));
        }
    }

    private static final int ITERATIONS = 25;

    private final Intracomm comm;
    private final Version version;
    private final int rows;
    private final int first;
    private final int[] counts;
    private final int[] displs;
    private final int[] rowStart;
    private final int[] columns;
    private final double[] values;
    private final double[] p;
    private final double[] q;
    private final double[] r;
    private final double[] z;
    private final double[] x;
    private final Win win;
    /** The RMA version's window memory: my block of p. */
    private final DoubleBuffer stage;
    private final Team team;
    private final DoubleCoarray coarray;
    /** The coarray's memory where it is in the arena (p is then an array beside it), else null. */
    private final DoubleBuffer inArena;
    private long nonZeros;
    private double residual;

    /** One rank's rows of the {@code n^3} matrix (collective for the RMA and coarray versions). */
    public ConjugateGradient(final Intracomm comm, final Version version, final int n)
    {
        this.comm = comm;
        this.version = version;
        final int size = comm.size();
        final int total = n * n * n;
        counts = new int[size];
        displs = new int[size];
        for (int k = 0; k < size; k++)
        {
            counts[k] = total / size + (k < total % size ? 1 : 0);
            displs[k] = k == 0 ? 0 : displs[k - 1] + counts[k - 1];
        }
        rows = counts[comm.rank()];
        first = displs[comm.rank()];
        rowStart = new int[rows + 1];
        columns = new int[7 * rows];
        values = new double[7 * rows];
        for (int i = 0; i < rows; i++)
        {
            final int g = first + i;
            final int gx = g % n;
            final int gy = (g / n) % n;
            final int gz = g / (n * n);
            int at = rowStart[i];
            at = entry(at, g, 6.1);
            at = gx > 0 ? entry(at, g - 1, -1) : at;
            at = gx < n - 1 ? entry(at, g + 1, -1) : at;
            at = gy > 0 ? entry(at, g - n, -1) : at;
            at = gy < n - 1 ? entry(at, g + n, -1) : at;
            at = gz > 0 ? entry(at, g - n * n, -1) : at;
            at = gz < n - 1 ? entry(at, g + n * n, -1) : at;
            rowStart[i + 1] = at;
        }
        q = new double[rows];
        r = new double[rows];
        z = new double[rows];
        x = new double[rows];
        if (version == Version.COARRAY || version == Version.COARRAY_NB)
        {
            team = Team.of(comm);
            coarray = DoubleCoarray.allocate(team, total);
            p = coarray.hasArray() ? coarray.local() : new double[total];
            inArena = coarray.hasArray() ? null : coarray.localBuffer();
            win = null;
        }
        else
        {
            team = null;
            coarray = null;
            inArena = null;
            p = new double[total];
            win = version == Version.RMA ? Win.allocate((long)rows * Double.BYTES, Double.BYTES, null, comm) : null;
        }
        stage = win == null ? null : ((ByteBuffer)win.base()).asDoubleBuffer();
    }

    private int entry(final int at, final int column, final double value)
    {
        columns[at] = column;
        values[at] = value;
        nonZeros++;
        return at + 1;
    }

    /**
     * Solves A z = x {@code solves} times (x = 1, then the normalised previous z: NPB's power iteration) and returns
     * zeta = 1 / (x . z) of the last solve, which converges to the smallest eigenvalue of A (NPB's check value, less
     * its shift). The residual of each solve is in {@link #residual()}.
     */
    @Override
    public double run(final int solves)
    {
        return powerIteration(solves, x, z, this::solve, this::dot);
    }

    /**
     * NPB CG's outer loop, shared by {@link ConjugateGradient2D}: x = 1; {@code solves} times: solve A z = x (which
     * also sets the residual), zeta = 1 / (x . z), x = z / ||z||. Returns the last zeta.
     */
    static double powerIteration(final int solves, final double[] x, final double[] z, final Runnable solve,
        final ToDoubleBiFunction<double[], double[]> dot)
    {
        java.util.Arrays.fill(x, 1.0);
        double zeta = 0;
        for (int s = 0; s < solves; s++)
        {
            solve.run();
            zeta = 1 / dot.applyAsDouble(x, z);
            final double norm = Math.sqrt(dot.applyAsDouble(z, z));
            for (int i = 0; i < x.length; i++)
            {
                x[i] = z[i] / norm;
            }
        }
        return zeta;
    }

    /** ||x - A z|| after the last solve. */
    @Override
    public double residual()
    {
        return residual;
    }

    private void solve()
    {
        java.util.Arrays.fill(z, 0);
        System.arraycopy(x, 0, r, 0, rows);
        System.arraycopy(x, 0, p, first, rows);
        double rho = dot(r, r);
        for (int it = 0; it < ITERATIONS; it++)
        {
            gather();
            multiply(p, q);
            final double alpha = rho / dotWithP(q);
            for (int i = 0; i < rows; i++)
            {
                z[i] += alpha * p[first + i];
                r[i] -= alpha * q[i];
            }
            final double next = dot(r, r);
            final double beta = next / rho;
            rho = next;
            for (int i = 0; i < rows; i++)
            {
                p[first + i] = r[i] + beta * p[first + i];
            }
        }
        // ||x - A z||
        gatherZ();
        multiply(p, q);
        double sum = 0;
        for (int i = 0; i < rows; i++)
        {
            final double d = x[i] - q[i];
            sum += d * d;
        }
        residual = Math.sqrt(allreduce(sum));
    }

    /** Every rank's block of p into this rank's copy. */
    private void gather()
    {
        switch (version)
        {
            case TWO_SIDED -> gatherTwoSided();
            case RMA -> gatherRma();
            case COARRAY -> gatherCoarray();
            default -> gatherCoarrayNb();
        }
    }

    private void gatherTwoSided()
    {
        comm.allgatherv(Comm.IN_PLACE, 0, 0, Datatype.DOUBLE, p, 0, counts, displs, Datatype.DOUBLE);
    }

    private void gatherRma()
    {
        stage.put(0, p, displs[comm.rank()], rows);
        win.fence(Win.MODE_NOPRECEDE);
        for (int k = 0; k < comm.size(); k++)
        {
            if (k != comm.rank())
            {
                win.get(p, displs[k], counts[k], Datatype.DOUBLE, k, 0, counts[k], Datatype.DOUBLE);
            }
        }
        win.fence(Win.MODE_NOSUCCEED);
    }

    private void gatherCoarray()
    {
        if (inArena != null)
        {
            inArena.put(first, p, first, rows);
        }
        team.syncAll();
        for (int k = 0; k < comm.size(); k++)
        {
            if (k != comm.rank())
            {
                coarray.get(k, displs[k], p, displs[k], counts[k]);
            }
        }
        team.syncAll();
    }

    /**
     * The nonblocking variant: this rank's block into every other rank's copy, completed by one {@code syncAll}. No sync
     * is needed before the puts: every rank finished reading its copy (the product) before the dot products' allreduces,
     * which this rank has passed.
     */
    private void gatherCoarrayNb()
    {
        for (int k = 0; k < comm.size(); k++)
        {
            if (k != comm.rank())
            {
                coarray.putAsync(k, first, p, first, rows);
            }
        }
        team.syncAll();
        for (int k = 0; inArena != null && k < comm.size(); k++)
        {
            if (k != comm.rank())
            {
                inArena.get(displs[k], p, displs[k], counts[k]);
            }
        }
    }

    private void gatherZ()
    {
        System.arraycopy(z, 0, p, first, rows);
        gather();
    }

    private void multiply(final double[] vector, final double[] out)
    {
        for (int i = 0; i < rows; i++)
        {
            double sum = 0;
            for (int k = rowStart[i]; k < rowStart[i + 1]; k++)
            {
                sum += values[k] * vector[columns[k]];
            }
            out[i] = sum;
        }
    }

    private double dot(final double[] a, final double[] b)
    {
        double sum = 0;
        for (int i = 0; i < rows; i++)
        {
            sum += a[i] * b[i];
        }
        return allreduce(sum);
    }

    private double dotWithP(final double[] a)
    {
        double sum = 0;
        for (int i = 0; i < rows; i++)
        {
            sum += a[i] * p[first + i];
        }
        return allreduce(sum);
    }

    private double allreduce(final double value)
    {
        final double[] v = {value};
        comm.allreduce(Comm.IN_PLACE, 0, v, 0, 1, Datatype.DOUBLE, Op.SUM);
        return v[0];
    }

    /** Flops of one solve on this rank (2 per non-zero in the products, 10 per row in the vector updates). */
    @Override
    public long flopsPerSolve()
    {
        return (ITERATIONS + 1) * (2 * nonZeros + 10L * rows);
    }

    /** Frees the window or coarray (collective). */
    @Override
    public void close()
    {
        Himeno.free(win, coarray, team);
    }

    /**
     * Runs one solve to warm up, then times {@code solves} solves and closes {@code cg} (collective); rank 0 prints the
     * version's row: time, MFLOPS over every rank, zeta, residual.
     */
    static void timeAndPrint(final Intracomm world, final String name, final int solves, final CgSolver cg)
    {
        timeAndPrint(world, name, solves, cg, false);
    }

    /**
     * As above; with {@code phases} each rank's wall time per phase of the solves ({@link CgSolver#phaseNs()}) and its
     * main thread's context switches (voluntary: it blocked, parked; involuntary: preempted, or yielded to another
     * thread) follow as {@code #}-lines.
     */
    static void timeAndPrint(final Intracomm world, final String name, final int solves, final CgSolver cg, final boolean phases)
    {
        cg.run(1);
        world.barrier();
        final ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        final long[] switches0 = phases ? ThreadSwitches.read() : null;
        if (phases)
        {
            cg.timePhases();
        }
        final long cpu0 = threads.getCurrentThreadCpuTime();
        final long t0 = System.nanoTime();
        final double zeta = cg.run(solves);
        final double seconds = (System.nanoTime() - t0) / 1e9;
        final long[] cpu = new long[world.size()];
        cpu[world.rank()] = threads.getCurrentThreadCpuTime() - cpu0;
        world.allgather(Comm.IN_PLACE, 0, 0, Datatype.LONG, cpu, 0, 1, Datatype.LONG);
        if (phases)
        {
            printPhases(world, name, cg.phaseNs(), switches0);
        }
        final long[] flops = {cg.flopsPerSolve() * solves};
        world.allreduce(Comm.IN_PLACE, 0, flops, 0, 1, Datatype.LONG, Op.SUM);
        cg.close();
        if (world.rank() == 0)
        {
            final StringBuilder perRank = new StringBuilder();
            for (final long ns : cpu)
            {
                perRank.append(perRank.isEmpty() ? "" : ",").append(String.format(Locale.ROOT, "%.3f", ns / 1e9));
            }
            System.out.printf(Locale.ROOT, "%-14s %10.3f %10.1f %18.12e %10.2e %s%n", name, seconds, flops[0] / seconds / 1e6, zeta,
                cg.residual(), perRank);
        }
    }

    /** Gathers and prints (rank 0) each rank's phase times and context switches since {@code switches0}. */
    private static void printPhases(final Intracomm world, final String name, final long[] phaseNs, final long[] switches0)
    {
        final int names = 2 * ConjugateGradient2D.PHASES.length;
        final long[] mine = new long[names + 2];
        if (phaseNs != null)
        {
            System.arraycopy(phaseNs, 0, mine, 0, names);
        }
        final long[] switches = ThreadSwitches.read();
        mine[names] = switches[0] - switches0[0];
        mine[names + 1] = switches[1] - switches0[1];
        final long[] all = new long[mine.length * world.size()];
        world.allgather(mine, 0, mine.length, Datatype.LONG, all, 0, mine.length, Datatype.LONG);
        if (world.rank() == 0)
        {
            for (int r = 0; r < world.size(); r++)
            {
                final StringBuilder line = new StringBuilder(String.format(Locale.ROOT, "# phases %-10s rank %d ms wall/cpu:", name, r));
                final int phases = names / 2;
                for (int p = 0; p < phases; p++)
                {
                    if (all[r * mine.length + p] != 0)
                    {
                        line.append(String.format(Locale.ROOT, " %s=%.1f/%.1f", ConjugateGradient2D.PHASES[p], all[r * mine.length + p] / 1e6,
                            all[r * mine.length + phases + p] / 1e6));
                    }
                }
                line.append(String.format(Locale.ROOT, " | switches voluntary=%d involuntary=%d", all[r * mine.length + names],
                    all[r * mine.length + names + 1]));
                System.out.println(line);
            }
        }
    }

    public static void main(final String[] args)
    {
        final BenchArgs parsed = BenchArgs.parse(args, "--n", "--solves", "--versions", "--rounds");
        final int n = parsed.intOption("--n", 32);
        final int solves = parsed.intOption("--solves", 5);
        final int rounds = parsed.intOption("--rounds", 2);
        try (Mpi mpi = Mpi.init(args))
        {
            final Intracomm world = mpi.world();
            if (world.rank() == 0)
            {
                System.out.printf(Locale.ROOT, "# jmpi CG: %d^3 rows, %d ranks, %d solves of %d iterations%n", n, world.size(), solves,
                    ITERATIONS);
                System.out.printf(Locale.ROOT, "# %-12s %10s %10s %18s %10s %s%n", "version", "time (s)", "MFLOPS", "zeta", "residual",
                    "cpu s per rank (main thread)");
            }
            for (int round = 1; round <= rounds; round++)
            {
                for (final String name : parsed.option("--versions", "two-sided,rma,coarray,coarray-nb").split(","))
                {
                    timeAndPrint(world, name.trim(), solves, new ConjugateGradient(world, Version.of(name.trim()), n));
                }
            }
        }
    }
}
