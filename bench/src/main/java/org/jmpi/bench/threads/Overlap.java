package org.jmpi.bench.threads;

import org.jmpi.Comm;
import org.jmpi.Datatype;
import org.jmpi.Mpi;
import org.jmpi.ThreadLevel;
import org.jmpi.bench.BenchArgs;
import org.jmpi.bench.PingPong;
import org.jmpi.bench.report.Stats;

import java.util.Arrays;
import java.util.Locale;

/**
 * Overlap of blocking communication with computation under {@link ThreadLevel#MULTIPLE} (issue 12,
 * item 6; docs/threads.md): on ranks 0 and 1, one thread (virtual or platform, {@code --comm}) makes
 * {@code --messages} blocking ping-pongs of {@code --size} bytes while {@code --compute-threads} platform
 * threads compute. Steps:
 * <ol>
 * <li>Calibrate: time one unit of the compute kernel (a dependent multiply-add chain over a 1,024-double
 *     array, cache-resident) alone; rank 0's unit time and its communication time alone, {@code t_comm},
 *     are shared, so both ranks compute the same number of units.</li>
 * <li>For each factor f of {@code --factors}: the compute alone ({@code t_compute}, about f x t_comm),
 *     then communication and compute started together ({@code t_both}: until both have finished).</li>
 * <li>hidden = t_comm + t_compute - t_both: the communication time that ran under the computation;
 *     printed as a percentage of t_comm (100% = fully hidden; 0% = serialised; below 0 = running both
 *     costs more than running them one after the other). Also the communication's own time while
 *     the compute runs, against t_comm.</li>
 * </ol>
 * Every time is the median of {@code --repeats} runs (default 3), each between barriers.
 * <pre>
 * # jmpi overlap: comm virtual, 65536 B x 200 round trips, 1 compute thread(s), 2 ranks
 * # Factor(%)  t_comm (us)  t_compute (us)  t_both (us)  comm while computing (us)  hidden (%)
 * 100              4100.0          4090.0       6100.0                     5800.0        51.0
 * </pre>
 * (the first column is f x 100, so the table's key stays a whole number). Usage: {@code bin/jmpirun -np 2
 * -cp 'bench/target/classes:bench/target/lib/*' org.jmpi.bench.threads.Overlap [--comm virtual|platform]
 * [--size 65536] [--messages 200] [--compute-threads 1] [--factors 0.25,0.5,1,2,4] [--repeats 3]}.
 */
public final class Overlap
{
    private static final int TAG = 7;
    private static final int KERNEL_DOUBLES = 1024;

    private final Comm world;
    private final boolean virtualComm;
    private final int size;
    private final int messages;
    private final int computeThreads;
    private final byte[] buf;
    private volatile double sink;

    private Overlap(final Comm world, final boolean virtualComm, final int size, final int messages, final int computeThreads)
    {
        this.world = world;
        this.virtualComm = virtualComm;
        this.size = size;
        this.messages = messages;
        this.computeThreads = computeThreads;
        this.buf = new byte[Math.max(1, size)];
    }

    public static void main(final String[] args) throws InterruptedException
    {
        final BenchArgs parsed = BenchArgs.parse(args, "--comm", "--size", "--messages", "--compute-threads", "--factors", "--repeats");
        final String comm = parsed.option("--comm", "virtual");
        if (!comm.equals("virtual") && !comm.equals("platform"))
        {
            throw new IllegalArgumentException("--comm must be virtual or platform, got '" + comm + "'");
        }
        final double[] factors = parseFactors(parsed.option("--factors", "0.25,0.5,1,2,4"));
        final int repeats = Math.max(1, parsed.intOption("--repeats", 3));
        try (Mpi mpi = Mpi.init(args, ThreadLevel.MULTIPLE))
        {
            final Comm world = mpi.world();
            if (world.size() < 2)
            {
                throw new IllegalStateException("Overlap needs 2 ranks");
            }
            final Overlap bench = new Overlap(world, comm.equals("virtual"), parsed.intOption("--size", 65536),
                parsed.intOption("--messages", 200), Math.max(1, parsed.intOption("--compute-threads", 1)));
            bench.run(factors, repeats);
        }
    }

    /** Parses {@code 0.25,0.5,1}: positive numbers. */
    static double[] parseFactors(final String text)
    {
        return Arrays.stream(text.split(",")).mapToDouble(part ->
        {
            final double f;
            try
            {
                f = Double.parseDouble(part.trim());
            }
            catch (final NumberFormatException ex)
            {
                throw new IllegalArgumentException("--factors: not a number: '" + part + "'", ex);
            }
            if (!(f > 0))
            {
                throw new IllegalArgumentException("--factors: must be positive, got " + part);
            }
            return f;
        }).toArray();
    }

    private void run(final double[] factors, final int repeats) throws InterruptedException
    {
        final boolean active = world.rank() < 2;
        // Warm the communication and the kernel (JIT), then calibrate.
        for (int i = 0; i < 20 && active; i++)
        {
            communicate();
            compute(100);
        }
        world.barrier();
        final double[] shared = new double[2];
        if (world.rank() == 0)
        {
            shared[0] = medianNs(repeats, () -> compute(1000)) / 1000.0;
        }
        final double[] commAlone = new double[repeats];
        for (int r = 0; r < repeats; r++)
        {
            commAlone[r] = timed(active, () -> communicate());
        }
        shared[1] = Stats.median(commAlone);
        world.bcast(shared, 0, 2, Datatype.DOUBLE, 0);
        final double unitNs = shared[0];
        final double tComm = shared[1];
        if (world.rank() == 0)
        {
            System.out.printf("# jmpi overlap: comm %s, %d B x %d round trips, %d compute thread(s), %d ranks; kernel unit %.0f ns%n",
                virtualComm ? "virtual" : "platform", size, messages, computeThreads, world.size(), unitNs);
            System.out.printf("# %-9s %12s %15s %12s %26s %11s%n", "Factor(%)", "t_comm (us)", "t_compute (us)", "t_both (us)",
                "comm while computing (us)", "hidden (%)");
        }
        for (final double f : factors)
        {
            final long units = Math.max(1, Math.round(f * tComm / unitNs));
            final double[] computeAlone = new double[repeats];
            final double[] both = new double[repeats];
            final double[] commDuring = new double[repeats];
            for (int r = 0; r < repeats; r++)
            {
                computeAlone[r] = timed(active, () -> computeInThreads(units));
                final long[] commNs = new long[1];
                both[r] = timed(active, () -> together(units, commNs));
                commDuring[r] = commNs[0];
            }
            if (world.rank() == 0)
            {
                final double tCompute = Stats.median(computeAlone);
                final double tBoth = Stats.median(both);
                final double hidden = tComm + tCompute - tBoth;
                System.out.printf(Locale.ROOT, "%-11d %12.1f %15.1f %12.1f %26.1f %11.1f%n", Math.round(f * 100), tComm / 1e3,
                    tCompute / 1e3, tBoth / 1e3, Stats.median(commDuring) / 1e3, 100 * hidden / tComm);
            }
        }
    }

    /** Communication and compute started at once; {@code commNs[0]} gets the communication's own time. */
    private void together(final long units, final long[] commNs)
    {
        final Throwable[] failure = new Throwable[1];
        final Thread comm = (virtualComm ? Thread.ofVirtual() : Thread.ofPlatform()).start(() ->
        {
            final long t0 = System.nanoTime();
            try
            {
                communicate();
            }
            catch (final RuntimeException | Error ex)
            {
                failure[0] = ex;
            }
            commNs[0] = System.nanoTime() - t0;
        });
        computeInThreads(units);
        joinQuietly(comm);
        if (failure[0] != null)
        {
            throw new IllegalStateException("the communication thread failed", failure[0]);
        }
    }

    private void computeInThreads(final long units)
    {
        final Thread[] threads = new Thread[computeThreads - 1];
        for (int i = 0; i < threads.length; i++)
        {
            threads[i] = Thread.ofPlatform().start(() -> compute(units));
        }
        compute(units);
        for (final Thread t : threads)
        {
            joinQuietly(t);
        }
    }

    private void communicate()
    {
        for (int i = 0; i < messages; i++)
        {
            PingPong.roundTrip(world, buf, size, TAG);
        }
    }

    /** {@code units} passes of a multiply-add chain over a small array: compute-bound, no allocation, not removable. */
    private void compute(final long units)
    {
        final double[] a = new double[KERNEL_DOUBLES];
        Arrays.fill(a, 1.0);
        double acc = 0;
        for (long u = 0; u < units; u++)
        {
            for (int i = 0; i < KERNEL_DOUBLES; i++)
            {
                acc = acc * 0.999999 + a[i];
                a[i] = acc * 1e-6;
            }
        }
        sink = acc;
    }

    /** The time of {@code body} on this rank between two barriers, in ns (0 on inactive ranks). */
    private double timed(final boolean active, final Runnable body)
    {
        world.barrier();
        final long t0 = System.nanoTime();
        if (active)
        {
            body.run();
        }
        final long t = System.nanoTime() - t0;
        world.barrier();
        return t;
    }

    private static double medianNs(final int repeats, final Runnable body)
    {
        final double[] t = new double[repeats];
        for (int r = 0; r < repeats; r++)
        {
            final long t0 = System.nanoTime();
            body.run();
            t[r] = System.nanoTime() - t0;
        }
        return Stats.median(t);
    }

    private static void joinQuietly(final Thread t)
    {
        try
        {
            t.join();
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while joining " + t, ex);
        }
    }
}
