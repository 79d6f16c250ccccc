package org.jmpi.bench.threads;

import org.jmpi.CartComm;
import org.jmpi.Datatype;
import org.jmpi.Intracomm;
import org.jmpi.Mpi;
import org.jmpi.Op;
import org.jmpi.Request;
import org.jmpi.ThreadLevel;
import org.jmpi.bench.BenchArgs;
import org.jmpi.bench.Percentiles;

import org.HdrHistogram.Histogram;

import java.util.Locale;
import java.util.concurrent.Phaser;

/**
 * A halo-exchange mini-app for the offloading evaluation (issue 12, item 6; docs/threads.md): a Jacobi
 * sweep on an {@code n x n} block per rank of a periodic 2-D grid of ranks ({@link CartComm#dimsCreate}),
 * exchanging the four faces (rows contiguous, columns as a vector type) before every sweep, two ways:
 * <ul>
 * <li>{@code nonblocking}: one thread posts four irecv and four isend and waits for all (the usual MPI
 *     code), at {@link ThreadLevel#SINGLE} unless {@code --level multiple};</li>
 * <li>{@code virtual}: one virtual thread per neighbour, each a blocking {@code sendrecv} of its face,
 *     at {@link ThreadLevel#MULTIPLE}; a {@link Phaser} lines them up with the main thread, which sweeps
 *     once all four have their halo and releases them when the sweep is done.</li>
 * </ul>
 * Steps per iteration: 1. exchange (timed: from its start until the four halos are in), 2. sweep into
 * the second array, 3. swap. After {@code --warmup} untimed iterations, {@code --iterations} timed ones.
 * Printed on rank 0: the mean iteration and exchange time, the exchange's {@link Percentiles}, and a
 * checksum (the sum of the grid over all ranks) that must be the same in both modes: the same sweeps in
 * the same order, so a halo that arrived late or wrong shows as a different checksum.
 * <pre>
 * # jmpi halo mini-app: virtual, MULTIPLE, 2 ranks (2 x 1), 2000 iterations after 500
 * # N   iteration (us)  exchange (us)    p50 (us)  ...  checksum
 * 256           120.0           40.0       38.10  ...  3.2767851e+04
 * </pre>
 * Usage: {@code bin/jmpirun -np 2 -cp 'bench/target/classes:bench/target/lib/*' org.jmpi.bench.threads.HaloApp
 * nonblocking|virtual [--n 64,256] [--iterations 2000] [--warmup 500] [--level single|multiple]}.
 */
public final class HaloApp
{
    private static final int NORTH = 0;
    private static final int SOUTH = 1;
    private static final int WEST = 2;
    private static final int EAST = 3;
    private static final int DIRECTIONS = 4;
    private static final int TAG_BASE = 300;

    private final CartComm cart;
    private final int n;
    private final int stride;
    private final Datatype column;
    private final int[] dest = new int[DIRECTIONS];
    private final int[] source = new int[DIRECTIONS];
    private final int[] sendOffset = new int[DIRECTIONS];
    private final int[] recvOffset = new int[DIRECTIONS];
    private final Request[] requests = new Request[2 * DIRECTIONS];
    private double[] current;
    private double[] next;

    HaloApp(final CartComm cart, final int n)
    {
        this.cart = cart;
        this.n = n;
        this.stride = n + 2;
        this.column = Datatype.vector(n, 1, stride, Datatype.DOUBLE).commit();
        final int[] ns = cart.shift(0, 1);
        final int[] we = cart.shift(1, 1);
        // Direction d sends the face on side d to the neighbour on that side, with tag d, and receives
        // the opposite halo from the opposite neighbour, who sends its own side-d face.
        dest[NORTH] = ns[0];
        source[NORTH] = ns[1];
        sendOffset[NORTH] = stride + 1;
        recvOffset[NORTH] = (n + 1) * stride + 1;
        dest[SOUTH] = ns[1];
        source[SOUTH] = ns[0];
        sendOffset[SOUTH] = n * stride + 1;
        recvOffset[SOUTH] = 1;
        dest[WEST] = we[0];
        source[WEST] = we[1];
        sendOffset[WEST] = stride + 1;
        recvOffset[WEST] = stride + n + 1;
        dest[EAST] = we[1];
        source[EAST] = we[0];
        sendOffset[EAST] = stride + n;
        recvOffset[EAST] = stride;
        current = new double[stride * stride];
        next = new double[stride * stride];
        final int[] coords = cart.coords();
        for (int i = 1; i <= n; i++)
        {
            for (int j = 1; j <= n; j++)
            {
                final long gy = (long)coords[0] * n + i - 1;
                final long gx = (long)coords[1] * n + j - 1;
                current[i * stride + j] = ((gy * 31 + gx * 17) % 101) / 101.0;
            }
        }
    }

    public static void main(final String[] args) throws InterruptedException
    {
        final BenchArgs parsed = BenchArgs.parse(args, "--n", "--iterations", "--warmup", "--level");
        final String mode = parsed.positionalCount() > 0 ? parsed.positional(0) : "nonblocking";
        if (!mode.equals("nonblocking") && !mode.equals("virtual"))
        {
            throw new IllegalArgumentException("mode must be nonblocking or virtual, got '" + mode + "'");
        }
        final String levelName = parsed.option("--level", mode.equals("virtual") ? "multiple" : "single");
        final ThreadLevel level = switch (levelName)
        {
            case "single" -> ThreadLevel.SINGLE;
            case "multiple" -> ThreadLevel.MULTIPLE;
            default -> throw new IllegalArgumentException("--level must be single or multiple, got '" + levelName + "'");
        };
        if (mode.equals("virtual") && level != ThreadLevel.MULTIPLE)
        {
            throw new IllegalArgumentException("virtual needs --level multiple: four threads call MPI at once");
        }
        final int[] sizes = parsed.intListOption("--n", 64, 256);
        final int iterations = Math.max(1, parsed.intOption("--iterations", 2000));
        final int warmup = parsed.intOption("--warmup", 500);
        try (Mpi mpi = Mpi.init(args, level))
        {
            final Intracomm world = mpi.world();
            final int[] dims = CartComm.dimsCreate(world.size(), new int[2]);
            final CartComm cart = world.cartCreate(dims, new boolean[] {true, true}, false);
            if (world.rank() == 0)
            {
                System.out.printf("# jmpi halo mini-app: %s, %s, %d ranks (%d x %d), %d iterations after %d%n", mode, level,
                    world.size(), dims[0], dims[1], iterations, warmup);
                System.out.printf("# %-6s %15s %14s %s %16s%n", "N", "iteration (us)", "exchange (us)", Percentiles.HEADER, "checksum");
            }
            for (final int n : sizes)
            {
                final HaloApp app = new HaloApp(cart, n);
                final Histogram exchanges = Percentiles.newHistogram();
                world.barrier();
                final long[] sums = mode.equals("virtual") ? app.runVirtual(warmup, iterations, exchanges) :
                    app.runNonblocking(warmup, iterations, exchanges);
                final double checksum = app.checksum();
                if (world.rank() == 0)
                {
                    System.out.printf(Locale.ROOT, "%-8d %15.2f %14.2f %s %16.9e%n", n, sums[0] / 1e3 / iterations,
                        sums[1] / 1e3 / iterations, Percentiles.columns(exchanges, 1.0), checksum);
                }
            }
        }
    }

    /** Runs the iterations with nonblocking calls from this thread; returns {total ns, exchange ns} of the timed ones. */
    long[] runNonblocking(final int warmup, final int iterations, final Histogram exchanges)
    {
        final long[] sums = new long[2];
        for (int it = 0; it < warmup + iterations; it++)
        {
            final long t0 = System.nanoTime();
            for (int d = 0; d < DIRECTIONS; d++)
            {
                requests[d] = recv(d);
            }
            for (int d = 0; d < DIRECTIONS; d++)
            {
                requests[DIRECTIONS + d] = send(d);
            }
            Request.waitAll(requests);
            final long t1 = System.nanoTime();
            sweep();
            record(it - warmup, t0, t1, System.nanoTime(), sums, exchanges);
        }
        return sums;
    }

    /** Runs the iterations with one virtual thread per neighbour; returns {total ns, exchange ns} of the timed ones. */
    long[] runVirtual(final int warmup, final int iterations, final Histogram exchanges) throws InterruptedException
    {
        final int total = warmup + iterations;
        final Phaser phaser = new Phaser(DIRECTIONS + 1);
        final Throwable[] failure = new Throwable[1];
        final Thread[] neighbours = new Thread[DIRECTIONS];
        for (int d = 0; d < DIRECTIONS; d++)
        {
            final int direction = d;
            neighbours[d] = Thread.ofVirtual().name("halo-" + d).start(() ->
            {
                try
                {
                    for (int it = 0; it < total; it++)
                    {
                        // The phaser's advance orders this read after the main thread's swap.
                        final double[] grid = current;
                        final boolean row = direction == NORTH || direction == SOUTH;
                        cart.sendrecv(grid, sendOffset[direction], row ? n : 1, row ? Datatype.DOUBLE : column, dest[direction],
                            TAG_BASE + direction, grid, recvOffset[direction], row ? n : 1, row ? Datatype.DOUBLE : column,
                            source[direction], TAG_BASE + direction);
                        phaser.arriveAndAwaitAdvance(); // halo in
                        phaser.arriveAndAwaitAdvance(); // sweep done
                    }
                }
                catch (final RuntimeException | Error ex)
                {
                    failure[0] = ex;
                    phaser.forceTermination();
                }
            });
        }
        final long[] sums = new long[2];
        for (int it = 0; it < total && !phaser.isTerminated(); it++)
        {
            final long t0 = System.nanoTime();
            phaser.arriveAndAwaitAdvance();
            final long t1 = System.nanoTime();
            if (phaser.isTerminated())
            {
                break;
            }
            sweep();
            final long t2 = System.nanoTime();
            record(it - warmup, t0, t1, t2, sums, exchanges);
            phaser.arriveAndAwaitAdvance();
        }
        for (final Thread t : neighbours)
        {
            t.join();
        }
        if (failure[0] != null)
        {
            throw new IllegalStateException("a neighbour thread failed", failure[0]);
        }
        return sums;
    }

    private Request recv(final int d)
    {
        final boolean row = d == NORTH || d == SOUTH;
        return cart.irecv(current, recvOffset[d], row ? n : 1, row ? Datatype.DOUBLE : column, source[d], TAG_BASE + d);
    }

    private Request send(final int d)
    {
        final boolean row = d == NORTH || d == SOUTH;
        return cart.isend(current, sendOffset[d], row ? n : 1, row ? Datatype.DOUBLE : column, dest[d], TAG_BASE + d);
    }

    private static void record(final int timedIndex, final long t0, final long t1, final long t2, final long[] sums,
        final Histogram exchanges)
    {
        if (timedIndex >= 0)
        {
            sums[0] += t2 - t0;
            sums[1] += t1 - t0;
            exchanges.recordValue(t1 - t0);
        }
    }

    /** One Jacobi sweep of the interior from {@code current} into {@code next}, then the swap. */
    private void sweep()
    {
        final double[] c = current;
        final double[] x = next;
        for (int i = 1; i <= n; i++)
        {
            final int row = i * stride;
            for (int j = 1; j <= n; j++)
            {
                final int k = row + j;
                x[k] = 0.25 * (c[k - stride] + c[k + stride] + c[k - 1] + c[k + 1]);
            }
        }
        next = c;
        current = x;
    }

    /** The sum of the interior over all ranks (a collective). */
    double checksum()
    {
        double local = 0;
        for (int i = 1; i <= n; i++)
        {
            for (int j = 1; j <= n; j++)
            {
                local += current[i * stride + j];
            }
        }
        final double[] in = {local};
        final double[] out = new double[1];
        cart.allreduce(in, 0, out, 0, 1, Datatype.DOUBLE, Op.SUM);
        return out[0];
    }
}
