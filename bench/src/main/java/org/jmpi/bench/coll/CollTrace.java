package org.jmpi.bench.coll;

import java.lang.management.CompilationMXBean;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.util.Arrays;
import java.util.Locale;

import org.jmpi.Comm;
import org.jmpi.Mpi;
import org.jmpi.bench.ThreadSwitches;

/**
 * Where a small collective's time goes, block by block: after a warm-up, {@code blocks} blocks of
 * {@code calls} calls each, every call timed on its own; rank 0 prints per block the mean, p50, p99 and
 * maximum per call, how many calls took over 20 us and their share of the block's time, and what its JVM and
 * thread did meanwhile: compilation ms, collections and their ms, and the thread's voluntary context switches
 * (parks: waits that fell through spinning and yielding) and involuntary ones (preemptions). An OSU mean far above
 * the p50 is a few stalls, and these columns say whose. {@code --warm-harness}: a barrier after every 1,000
 * warm-up calls, as {@code OsuCollective} does, so that the compiled code has seen the barrier before the timed
 * blocks (without it the first block shows the deoptimisation the barrier causes). With {@code --param
 * coll.trace=true} every rank also prints which path each call takes ({@code jmpi.coll.trace}).
 * <p>
 * Usage: {@code bin/jmpirun -np 2 -cp bench/target/classes org.jmpi.bench.coll.CollTrace <op> [bytes] [warmup]
 * [blocks] [calls] [--warm-harness]} (defaults: 4 bytes, 20,000 warm-up calls, 10 blocks of 10,000 calls).
 */
public final class CollTrace
{
    private static final long SLOW_NS = 20_000;
    /** Warm-up calls between two of the harness's own barriers ({@code --warm-harness}). */
    private static final int WARMUP_CHUNK = 1_000;

    private CollTrace()
    {
    }

    public static void main(final String[] args)
    {
        final String[] pos = Arrays.stream(args).filter(a -> !a.startsWith("-")).toArray(String[]::new);
        final String op = pos.length > 0 ? pos[0].toLowerCase(Locale.ROOT) : "allreduce";
        final int bytes = pos.length > 1 ? Integer.parseInt(pos[1]) : 4;
        final int warmup = pos.length > 2 ? Integer.parseInt(pos[2]) : 20_000;
        final int blocks = pos.length > 3 ? Integer.parseInt(pos[3]) : 10;
        final int calls = pos.length > 4 ? Integer.parseInt(pos[4]) : 10_000;
        try (Mpi mpi = Mpi.init(args))
        {
            final Comm world = mpi.world();
            final Runnable call = OsuCollective.call(world, op, bytes, false);
            final CompilationMXBean jit = ManagementFactory.getCompilationMXBean();
            if (world.rank() == 0)
            {
                System.out.printf("# %s %d B, %d ranks, %d warm-up calls; per block of %d calls, us per call%n", op, bytes, world.size(),
                    warmup, calls);
                System.out.printf("# %5s %8s %8s %8s %9s %6s %6s %7s %4s %6s %9s %6s %6s%n", "block", "mean", "p50", "p99", "max", ">20us",
                    "share", "jit-ms", "gcs", "gc-ms", "uptime-ms", "vcsw", "nvcsw");
            }
            final long[] ns = new long[calls];
            final boolean warmHarness = Arrays.asList(args).contains("--warm-harness");
            for (int i = 0; i < warmup; i += WARMUP_CHUNK)
            {
                timeBlock(call, ns, Math.min(WARMUP_CHUNK, warmup - i));
                if (warmHarness)
                {
                    world.barrier();
                }
            }
            final StringBuilder report = new StringBuilder();
            for (int b = 0; b < blocks; b++)
            {
                world.barrier();
                final long jit0 = jit.getTotalCompilationTime();
                final long[] gc0 = gc();
                final long[] cs0 = ThreadSwitches.read();
                final long total = timeBlock(call, ns, calls);
                final long[] cs1 = ThreadSwitches.read();
                final long[] gc1 = gc();
                long slow = 0;
                long slowNs = 0;
                for (final long n : ns)
                {
                    if (n > SLOW_NS)
                    {
                        slow++;
                        slowNs += n;
                    }
                }
                Arrays.sort(ns);
                report.append(String.format("  %5d %8.2f %8.2f %8.2f %9.1f %6d %5.0f%% %7d %4d %6d %9d %6d %6d%n", b, total / 1e3 / calls,
                    ns[calls / 2] / 1e3, ns[calls * 99 / 100] / 1e3, ns[calls - 1] / 1e3, slow, 100.0 * slowNs / total,
                    jit.getTotalCompilationTime() - jit0, gc1[0] - gc0[0], gc1[1] - gc0[1], ManagementFactory.getRuntimeMXBean().getUptime(),
                    cs1[0] - cs0[0], cs1[1] - cs0[1]));
            }
            if (world.rank() == 0)
            {
                System.out.print(report);
            }
            System.out.flush();
        }
    }

    /**
     * Times {@code count} calls one by one into {@code ns}; returns the whole loop's time. The warm-up runs through
     * this method too, so that the timed loop is compiled code before the first timed call (as in OSU's C, where the
     * warm-up and the timed calls are one loop).
     */
    private static long timeBlock(final Runnable call, final long[] ns, final int count)
    {
        final long begin = System.nanoTime();
        for (int i = 0; i < count; i++)
        {
            final long t = System.nanoTime();
            call.run();
            ns[i] = System.nanoTime() - t;
        }
        return System.nanoTime() - begin;
    }

    /** Collections so far and their milliseconds, over every collector. */
    private static long[] gc()
    {
        long count = 0;
        long ms = 0;
        for (final GarbageCollectorMXBean b : ManagementFactory.getGarbageCollectorMXBeans())
        {
            count += Math.max(0, b.getCollectionCount());
            ms += Math.max(0, b.getCollectionTime());
        }
        return new long[] {count, ms};
    }
}
