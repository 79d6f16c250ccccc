package org.jmpi.bench.rma;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.Locale;
import java.util.concurrent.BrokenBarrierException;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

import org.HdrHistogram.Histogram;
import org.jmpi.Comm;
import org.jmpi.Datatype;
import org.jmpi.Intracomm;
import org.jmpi.Mpi;
import org.jmpi.Op;
import org.jmpi.Request;
import org.jmpi.Win;
import org.jmpi.bench.BenchArgs;
import org.jmpi.bench.Percentiles;
import org.jmpi.bench.PingPong;

/**
 * Issue 18's benchmark targets for windows, each against its baseline in the same run (docs/rma.md, "Figures"):
 * <ol>
 * <li>8-byte put and get latency (an operation and a flush inside lock_all) against the two-sided 8-byte one-way
 * latency (half a ping-pong round trip); target: at most 1x between threads.</li>
 * <li>A 1 MiB put and flush against {@code System.arraycopy} of 1 MiB; target: at least 0.8x its speed between
 * threads.</li>
 * <li>fetch_and_op (SUM on a long) on rank 0 from every rank against an {@code AtomicLong} incremented by as many
 * threads, as many increments per thread as fetch_and_ops per rank ({@code --adds}), both timed from the
 * first thread's (rank's) start to the last one's end; target: at least 0.5x its rate. Where the ranks are threads of
 * one JVM the baseline runs on the rank threads themselves, started and timed as the fetch_and_ops are; across JVMs on
 * as many new threads of rank 0's JVM. Each round also prints both loops' overlap (summed busy time over the span): a
 * contended counter is only contended while its threads run side by side. A round's fetch_and_op
 * measurements and the baseline run twice untimed before the first round ({@code --warmup} operations per rank,
 * default {@code --adds}), so that no round times the JIT compiling them (see {@code fetchRates}). The counter and the 1 MiB target of 1 and 2 are
 * {@code allocMem} memory, so across JVMs with {@code --param pvas.partition.size=...} they are in the arena and reached
 * directly.</li>
 * </ol>
 * Rank 0 measures 1 and 2 against rank 1; every rank takes part in 3. A rank that waits for the others in 3 (done
 * early, or while rank 0 runs the AtomicLong baseline) sleeps 50 µs between tests of a nonblocking collective
 * rather than spinning, so that with more ranks than cores it does not take a core from those still counting. Rounds alternate the measurement and its
 * baseline so that load changes hit both alike. Prints means and percentiles (µs) and the ratios.
 * Usage: {@code bin/jmpirun [--threads] -np 2 -cp 'bench/target/classes:bench/target/lib/*' org.jmpi.bench.rma.RmaTargets
 * [--iterations 20000] [--rounds 3] [--adds 200000] [--warmup ADDS]}.
 */
public final class RmaTargets
{
    private static final int MIB = 1 << 20;

    private RmaTargets()
    {
    }

    public static void main(final String[] args)
    {
        final BenchArgs parsed = BenchArgs.parse(args, "--iterations", "--rounds", "--adds", "--warmup");
        final int iterations = parsed.intOption("--iterations", 20_000);
        final int rounds = parsed.intOption("--rounds", 3);
        final int adds = parsed.intOption("--adds", 200_000);
        final int warmup = parsed.intOption("--warmup", adds);
        try (Mpi mpi = Mpi.init(args))
        {
            final Intracomm world = mpi.world();
            final int rank = world.rank();
            // allocMem: in the arena where the PVAS transport is on, so the targets are reached directly across JVMs too
            final ByteBuffer memory = mpi.allocMem(MIB);
            final ByteBuffer counter = mpi.allocMem(Long.BYTES);
            // ranks that are threads of one JVM run the AtomicLong baseline on their own threads (see atomicOnRanks)
            final long[] pids = {ProcessHandle.current().pid(), -ProcessHandle.current().pid()};
            world.allreduce(Comm.IN_PLACE, 0, pids, 0, 2, Datatype.LONG, Op.MAX);
            final boolean oneJvm = pids[0] == -pids[1];
            try (Win bytes = Win.create(memory, 1, null, world); Win counters = Win.create(counter, 8, null, world))
            {
                bytes.lockAll(Win.MODE_NOCHECK);
                counters.lockAll(Win.MODE_NOCHECK);
                if (rank == 0)
                {
                    System.out.printf(Locale.ROOT, "# jmpi RMA targets: %d ranks, %d iterations x %d rounds (load %s)%n", world.size(),
                        iterations, rounds, load());
                    System.out.printf(Locale.ROOT, "# %-26s %10s %s%n", "measure", "mean (us)", Percentiles.HEADER);
                }
                final byte[] eight = new byte[8];
                final byte[] big = new byte[MIB];
                final byte[] copyTarget = new byte[MIB];
                // Warm-up, untimed: the fetch_and_op measurements and the AtomicLong baseline exactly as a round runs them,
                // twice, so that round 1 times code compiled for what it runs (see fetchRates)
                for (int w = 0; w < 2; w++)
                {
                    fetchRates(counters, warmup, world, oneJvm);
                }
                for (int round = 0; round < rounds; round++)
                {
                    final Histogram pingPong = Percentiles.newHistogram();
                    final Histogram put = Percentiles.newHistogram();
                    final Histogram get = Percentiles.newHistogram();
                    world.barrier();
                    for (int i = 0; i < iterations; i++)
                    {
                        final long t0 = System.nanoTime();
                        PingPong.roundTrip(world, eight, 8, 7);
                        pingPong.recordValue(System.nanoTime() - t0);
                    }
                    world.barrier();
                    if (rank == 0)
                    {
                        for (int i = 0; i < iterations; i++)
                        {
                            final long t0 = System.nanoTime();
                            bytes.put(eight, 0, 8, Datatype.BYTE, 1, 0, 8, Datatype.BYTE);
                            bytes.flush(1);
                            final long t1 = System.nanoTime();
                            bytes.get(eight, 0, 8, Datatype.BYTE, 1, 8, 8, Datatype.BYTE);
                            bytes.flush(1);
                            get.recordValue(System.nanoTime() - t1);
                            put.recordValue(t1 - t0);
                        }
                    }
                    world.barrier();
                    // 2,000 at the default: on a JVM bound to one CPU its own threads (JIT, GC) take that CPU for a
                    // scheduler tick (4 ms) a few times a second; among 100 copies of 20 µs one such tick in either
                    // loop moved a round's ratio of means from 1.0 to 0.4 or 3.8 (session 11, quiet)
                    final int copies = Math.max(10, iterations / 10);
                    final Histogram bigPut = Percentiles.newHistogram();
                    final Histogram arraycopy = Percentiles.newHistogram();
                    if (rank == 0)
                    {
                        for (int i = 0; i < copies; i++)
                        {
                            final long t0 = System.nanoTime();
                            bytes.put(big, 0, MIB, Datatype.BYTE, 1, 0, MIB, Datatype.BYTE);
                            bytes.flush(1);
                            final long t1 = System.nanoTime();
                            System.arraycopy(big, 0, copyTarget, 0, MIB);
                            arraycopy.recordValue(System.nanoTime() - t1);
                            bigPut.recordValue(t1 - t0);
                        }
                    }
                    world.barrier();
                    final double[] rates = fetchRates(counters, adds, world, oneJvm);
                    final double fetchRate = rates[0];
                    final double generalRate = rates[1];
                    final double atomicRate = rates[2];
                    if (rank == 0)
                    {
                        row("two-sided 8 B one-way", pingPong, 2);
                        row("put 8 B + flush", put, 1);
                        row("get 8 B + flush", get, 1);
                        row("put 1 MiB + flush", bigPut, 1);
                        row("System.arraycopy 1 MiB", arraycopy, 1);
                        final double oneWay = pingPong.getMean() / 2;
                        System.out.printf(Locale.ROOT, "round %d: put/two-sided %.2f (target <= 1), get/two-sided %.2f (<= 1), " +
                            "1 MiB put speed/arraycopy %.2f (>= 0.8; by medians %.2f), fetch_and_op %.3g/s vs AtomicLong %.3g/s = %.3f (>= 0.5); " +
                            "with nio buffers (general path) %.3g/s = %.3f; overlap (busy / span) fetch_and_op %.2f, AtomicLong %.2f; " +
                            "CPU ns per operation fetch_and_op %.1f, AtomicLong %.1f (%s)%n",
                            round + 1, put.getMean() / oneWay, get.getMean() / oneWay, arraycopy.getMean() / bigPut.getMean(),
                            (double)arraycopy.getValueAtPercentile(50) / bigPut.getValueAtPercentile(50), fetchRate, atomicRate, fetchRate / atomicRate, generalRate, generalRate / atomicRate, rates[3], rates[4], rates[5], rates[6],
                            oneJvm ? "AtomicLong on the rank threads" : "AtomicLong on threads of rank 0's JVM");
                        // the same for bench's RmaReport: round, the four ratios, the two rates
                        System.out.printf(Locale.ROOT, "ratios %d %.4f %.4f %.4f %.4f %.6g %.6g%n", round + 1, put.getMean() / oneWay,
                            get.getMean() / oneWay, arraycopy.getMean() / bigPut.getMean(), fetchRate / atomicRate, fetchRate, atomicRate);
                    }
                }
                counters.unlockAll();
                bytes.unlockAll();
            }
            mpi.freeMem(counter);
            mpi.freeMem(memory);
        }
    }

    /**
     * One round's fetch_and_op measurements: the hot path ({@code long[]} operand and result), the general path (nio
     * buffers, a tenth as many) and, on rank 0, the {@code AtomicLong} baseline, the other ranks sleeping meanwhile
     * (spinning in a barrier they would take cores from the baseline's threads). Returns the three rates (the baseline
     * 0 on other ranks).
     *
     * <p>The warm-up runs this whole method twice before round 1. With a warm-up of the hot loop alone (once), the quiet
     * runs' first rounds fell short (session 9: 0.41-0.49 of the baseline, then 0.57-0.69): {@code -XX:+PrintCompilation}
     * shows the loops of the warm-up compiled on stack replacement only, with an uncommon trap where the loop exits
     * (never taken while it was profiled), so each loop's compiled code was thrown away when the warm-up's loop ended
     * ("made not entrant: uncommon trap") and round 1's timed loops ran interpreted and in tier 3 until C2 compiled them
     * again; and round 1's general-path call then deoptimised the hot path (a type check on the operand) for round 2.
     * Now the timed loops are methods of their own, one per operand type, and the warm-up takes every exit and type.
     */
    private static double[] fetchRates(final Win counters, final int adds, final Intracomm world, final boolean oneJvm)
    {
        final double[][] fetch = new double[3][PAIRS];
        final double[][] atomic = new double[3][PAIRS];
        for (int pair = 0; pair < PAIRS; pair++)
        {
            final double[] f = fetchRate(counters, new long[] {1}, new long[1], adds, world);
            final double[] a;
            if (oneJvm)
            {
                a = atomicOnRanks(adds, world);
            }
            else
            {
                a = world.rank() == 0 ? atomicLongRate(world.size(), adds) : new double[3];
                sleepUntil(world.ibarrier());
            }
            for (int q = 0; q < 3; q++)
            {
                fetch[q][pair] = f[q];
                atomic[q][pair] = a[q];
            }
        }
        final double generalRate = fetchRate(counters, ByteBuffer.allocate(Long.BYTES).order(ByteOrder.nativeOrder()).putLong(0, 1),
            ByteBuffer.allocate(Long.BYTES).order(ByteOrder.nativeOrder()), Math.max(1, adds / 10), world)[0];
        return new double[] {median(fetch[0]), generalRate, median(atomic[0]), median(fetch[1]), median(atomic[1]), median(fetch[2]),
            median(atomic[2])};
    }

    /**
     * The fetch_and_op loop and its baseline alternate this many times a round, and the round takes the median of each:
     * on 2 cores one short disturbance (a compiler thread, another process) takes one rank off its core for part of a
     * loop of a few tens of milliseconds, which turns a contended counter into an uncontended one for the other (see the
     * overlap printed per round) and moved single measurements by 2-3x on the loaded machine.
     */
    private static final int PAIRS = 3;

    private static double median(final double[] values)
    {
        final double[] sorted = values.clone();
        Arrays.sort(sorted);
        return sorted[sorted.length / 2];
    }

    /** The AtomicLong every rank increments in {@link #atomicOnRanks} (ranks that are threads of one JVM share it). */
    private static final AtomicLong SHARED = sharedByTheJvm();

    /**
     * One AtomicLong for the whole JVM. Ranks that are threads each load the application's classes through a class
     * loader of their own (as separate processes would), so a plain static field here is one counter per rank and its
     * "contended" loop is uncontended: session 11's quiet run measured 424 M/s at 2 threads that way, where one counter
     * really shared by two threads on the two CPUs does 126 M/s. The JVM's system properties are one map for every
     * loader, and AtomicLong is the JDK's class, the same for all of them.
     */
    private static AtomicLong sharedByTheJvm()
    {
        return (AtomicLong)System.getProperties().computeIfAbsent("org.jmpi.bench.rma.RmaTargets.counter", key -> new AtomicLong());
    }

    /**
     * The AtomicLong baseline where the ranks are threads of one JVM: the rank threads themselves increment one AtomicLong,
     * started and timed exactly as {@link #fetchRate} (a barrier, then the earliest start to the latest end), so the two
     * loops meet the same threads, the same start skew and the same scheduling. Returns the rate and the overlap.
     */
    private static double[] atomicOnRanks(final int count, final Intracomm world)
    {
        world.barrier();
        final long cpu0 = CPU.getCurrentThreadCpuTime();
        final long t0 = System.nanoTime();
        atomicLoop(SHARED, count);
        return span(t0, cpu0, count, world);
    }

    private static void atomicLoop(final AtomicLong counter, final int count)
    {
        for (int i = 0; i < count; i++)
        {
            counter.getAndIncrement();
        }
    }

    /**
     * fetch_and_op SUM + flush on rank 0 per second, {@code count} by every rank, from {@code one} into {@code old}: as the
     * AtomicLong baseline, from the earliest rank's start to the latest rank's end (one clock: ranks as threads share
     * it, JVMs of one node read the same monotonic clock), so the barriers around the loop are not timed.
     */
    private static double[] fetchRate(final Win counters, final Object one, final Object old, final int count, final Intracomm world)
    {
        world.barrier();
        final long cpu0 = CPU.getCurrentThreadCpuTime();
        final long t0 = System.nanoTime();
        if (one instanceof long[] array)
        {
            fetchLoop(counters, array, (long[])old, count);
        }
        else
        {
            fetchLoop(counters, (ByteBuffer)one, (ByteBuffer)old, count);
        }
        return span(t0, cpu0, count, world);
    }

    private static final java.lang.management.ThreadMXBean CPU = java.lang.management.ManagementFactory.getThreadMXBean();

    /**
     * The rate of {@code count} operations by every rank from {@code t0} to now, from the earliest rank's start to the latest
     * rank's end, and the overlap: the ranks' summed busy times over that span (the rank count when they all ran side by
     * side the whole time, 1 when they ran one after another, which makes a contended counter an uncontended one),
     * and the ranks' mean CPU nanoseconds per operation (from {@code cpu0}, this thread's CPU time at the start), which
     * the scheduling changes little.
     */
    private static double[] span(final long t0, final long cpu0, final int count, final Intracomm world)
    {
        final long t1 = System.nanoTime();
        final long[] span = {-t0, t1};
        final long[] busy = {t1 - t0, CPU.getCurrentThreadCpuTime() - cpu0};
        // A rank done early sleeps while the others finish, as a finished AtomicLong thread exits: one spinning in the
        // reduction would take a core from the ranks still counting (4 ranks on 2 cores).
        sleepUntil(world.iallreduce(Comm.IN_PLACE, 0, span, 0, 2, Datatype.LONG, Op.MAX));
        sleepUntil(world.iallreduce(Comm.IN_PLACE, 0, busy, 0, 2, Datatype.LONG, Op.SUM));
        final double spanNs = span[1] + span[0];
        return new double[] {(double)count * world.size() / (spanNs / 1e9), busy[0] / spanNs, (double)busy[1] / count / world.size()};
    }

    /**
     * The timed loop of the hot path, a method of its own (and one per operand type): its compiled code does not share
     * the fate of the code around it (a deoptimisation in the waits after the loop, whose branches depend on timing, or
     * on the general path's first run, would otherwise throw the loop's code away too).
     */
    private static void fetchLoop(final Win counters, final long[] one, final long[] old, final int count)
    {
        for (int i = 0; i < count; i++)
        {
            counters.fetchAndOp(one, 0, old, 0, Datatype.LONG, 0, 0, Op.SUM);
            counters.flush(0);
        }
    }

    /** As {@link #fetchLoop(Win, long[], long[], int)} with nio buffers (the general path). */
    private static void fetchLoop(final Win counters, final ByteBuffer one, final ByteBuffer old, final int count)
    {
        for (int i = 0; i < count; i++)
        {
            counters.fetchAndOp(one, 0, old, 0, Datatype.LONG, 0, 0, Op.SUM);
            counters.flush(0);
        }
    }

    /** Waits for {@code request} sleeping 50 µs between tests, so that a waiting rank leaves the cores to the others. */
    private static void sleepUntil(final Request request)
    {
        while (!request.test())
        {
            LockSupport.parkNanos(50_000);
        }
    }

    /**
     * Increments per second of one AtomicLong by {@code threads} threads doing {@code each} increments each: the threads
     * start together (a barrier), and the time runs from the earliest start to the latest end.
     */
    private static double[] atomicLongRate(final int threads, final int each)
    {
        final AtomicLong shared = new AtomicLong();
        final Thread[] workers = new Thread[threads];
        final long[] starts = new long[threads];
        final long[] ends = new long[threads];
        final long[] cpus = new long[threads];
        final CyclicBarrier together = new CyclicBarrier(threads);
        for (int t = 0; t < threads; t++)
        {
            final int me = t;
            workers[t] = new Thread(() ->
            {
                try
                {
                    together.await();
                }
                catch (final InterruptedException | BrokenBarrierException ex)
                {
                    throw new IllegalStateException(ex);
                }
                final long cpu0 = CPU.getCurrentThreadCpuTime();
                starts[me] = System.nanoTime();
                atomicLoop(shared, each);
                ends[me] = System.nanoTime();
                cpus[me] = CPU.getCurrentThreadCpuTime() - cpu0;
            });
            workers[t].start();
        }
        for (final Thread w : workers)
        {
            try
            {
                w.join();
            }
            catch (final InterruptedException ex)
            {
                Thread.currentThread().interrupt();
            }
        }
        final double spanNs = Arrays.stream(ends).max().orElseThrow() - Arrays.stream(starts).min().orElseThrow();
        long busy = 0;
        long cpu = 0;
        for (int t = 0; t < threads; t++)
        {
            busy += ends[t] - starts[t];
            cpu += cpus[t];
        }
        return new double[] {threads * (double)each / (spanNs / 1e9), busy / spanNs, (double)cpu / each / threads};
    }

    private static void row(final String name, final Histogram h, final double divisor)
    {
        System.out.printf(Locale.ROOT, "%-28s %10.2f %s%n", name, h.getMean() / divisor / 1000, Percentiles.columns(h, divisor));
    }

    private static String load()
    {
        try
        {
            return new String(java.nio.file.Files.readAllBytes(java.nio.file.Path.of("/proc/loadavg"))).trim();
        }
        catch (final java.io.IOException ex)
        {
            return "unknown";
        }
    }
}
