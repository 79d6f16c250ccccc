package org.jmpi.bench.coll;

import java.util.Locale;

import org.jmpi.Comm;
import org.jmpi.Datatype;
import org.jmpi.Mpi;
import org.jmpi.Op;
import org.jmpi.Request;

/**
 * OSU-style collective latency (the method of osu_allreduce and friends): for each message size, a
 * warm-up, then {@code iterations} calls separated by nothing; each rank times its own loop and rank 0
 * prints the average, minimum and maximum over ranks of the mean time per call.
 * <pre>
 * # jmpi allreduce (blocking, 8 ranks)
 * # Size       Avg Latency(us)   Min Latency(us)   Max Latency(us)  Iterations
 * 4                      3.10              2.95              3.30       10000
 * </pre>
 * Usage: {@code bin/jmpirun -np 8 [--threads] -cp bench/target/classes org.jmpi.bench.coll.OsuCollective
 * <barrier|bcast|reduce|allreduce|allgather|alltoall|gather|scatter|reduce_scatter> [maxBytes] [--persistent] [--warmup N]}.
 * Sizes are bytes per rank (per block for allgather, alltoall, gather, scatter, reduce_scatter), doubled from
 * 4. {@code --persistent} (bcast, allreduce): the same loop with a persistent request started each time,
 * for the persistent-vs-blocking comparison. {@code --warmup N}: calls before each size up to 64 KiB (default 1000,
 * OSU's; above 64 KiB N / 50, at least 20), as bench/c/osu_coll.c takes it. Force an algorithm with
 * {@code --param coll.<op>.algorithm=...}.
 */
public final class OsuCollective
{
    private static final int SMALL_ITERATIONS = 10_000;
    private static final int SMALL_WARMUP = 1_000;
    private static final int LARGE_ITERATIONS = 200;
    private static final int LARGE_WARMUP = 20;
    private static final int LARGE_SIZE = 64 * 1024;
    /** Warm-up calls between two passes of the harness's own barrier and reductions ({@link #report}). */
    private static final int WARMUP_CHUNK = 1_000;

    private OsuCollective()
    {
    }

    public static void main(final String[] args)
    {
        String op = "allreduce";
        int maxBytes = 1 << 20;
        boolean persistent = false;
        int smallWarmup = SMALL_WARMUP;
        int positional = 0;
        for (int k = 0; k < args.length; k++)
        {
            final String a = args[k];
            if (a.equals("--persistent"))
            {
                persistent = true;
            }
            else if (a.equals("--warmup") && k + 1 < args.length)
            {
                smallWarmup = Integer.parseInt(args[++k]);
            }
            else if (!a.startsWith("-") && (k == 0 || !args[k - 1].equals("--param")))
            {
                if (positional++ == 0)
                {
                    op = a.toLowerCase(Locale.ROOT);
                }
                else
                {
                    maxBytes = Integer.parseInt(a);
                }
            }
        }
        try (Mpi mpi = Mpi.init(args))
        {
            final Comm world = mpi.world();
            final int size = world.size();
            if (world.rank() == 0)
            {
                System.out.println("# jmpi " + op + " (" + (persistent ? "persistent" : "blocking") + ", " + size + " ranks)");
                System.out.printf("# %-10s %17s %17s %17s %11s%n", "Size", "Avg Latency(us)", "Min Latency(us)", "Max Latency(us)",
                    "Iterations");
            }
            final int first = op.equals("barrier") ? 0 : 4;
            final int last = op.equals("barrier") ? 0 : maxBytes;
            for (int bytes = first; bytes <= last; bytes = bytes == 0 ? 1 : bytes * 2)
            {
                final int iterations = bytes > LARGE_SIZE ? LARGE_ITERATIONS : SMALL_ITERATIONS;
                final int warmup = bytes > LARGE_SIZE ? Math.max(LARGE_WARMUP, smallWarmup / 50) : smallWarmup;
                final Runnable call = call(world, op, bytes, persistent);
                for (int done = 0; done < warmup; done += WARMUP_CHUNK)
                {
                    loop(call, Math.min(WARMUP_CHUNK, warmup - done));
                    world.barrier();
                    report(world, 0);
                }
                world.barrier();
                final double us = loop(call, iterations) / 1e3 / iterations;
                final double[] stats = report(world, us);
                if (world.rank() == 0)
                {
                    System.out.printf("%-12d %17.2f %17.2f %17.2f %11d%n", bytes, stats[0] / size, stats[1], stats[2], iterations);
                }
            }
        }
    }

    /**
     * Times {@code count} calls back to back; returns the loop's nanoseconds. The warm-up runs through this method
     * too, so the timed loop is compiled code from its first call (OSU's C runs warm-up and timed calls in one loop).
     */
    private static long loop(final Runnable call, final int count)
    {
        final long start = System.nanoTime();
        for (int i = 0; i < count; i++)
        {
            call.run();
        }
        return System.nanoTime() - start;
    }

    /**
     * The sum, minimum and maximum over ranks of {@code us} at rank 0 (three reduces of one double, as
     * bench/c/osu_coll.c). The warm-up calls it too, with the barrier before the timed loop, every
     * {@link #WARMUP_CHUNK} calls: the JIT compiler then has seen every path the run takes (the barrier's and
     * these reductions' through the same node collective code as the measured call) before the timer starts;
     * otherwise the first timed size deoptimises and recompiles that code under the timer (session 10: the
     * "4 B" column was the job's first size at 3-10 us per call where the next sizes took 0.2-1 us).
     */
    private static double[] report(final Comm world, final double us)
    {
        final double[] mine = {us, us, us};
        final double[] out = new double[3];
        world.reduce(mine, 0, out, 0, 1, Datatype.DOUBLE, Op.SUM, 0);
        world.reduce(mine, 1, out, 1, 1, Datatype.DOUBLE, Op.MIN, 0);
        world.reduce(mine, 2, out, 2, 1, Datatype.DOUBLE, Op.MAX, 0);
        return out;
    }

    /** One call of {@code op} with {@code bytes} per rank (or per block), as a runnable. */
    static Runnable call(final Comm world, final String op, final int bytes, final boolean persistent)
    {
        final int size = world.size();
        final int ints = Math.max(1, bytes / 4);
        final int[] send = new int[ints * size];
        final int[] recv = new int[ints * size];
        if (persistent)
        {
            final Request r = switch (op)
            {
                case "bcast" -> world.bcastInit(send, 0, ints, Datatype.INT, 0);
                case "allreduce" -> world.allreduceInit(send, 0, recv, 0, ints, Datatype.INT, Op.SUM);
                case "barrier" -> world.barrierInit();
                default -> throw new IllegalArgumentException("--persistent is for bcast, allreduce and barrier, not " + op);
            };
            return () ->
            {
                r.start();
                r.await();
            };
        }
        final int[] counts = new int[size];
        java.util.Arrays.fill(counts, ints);
        return switch (op)
        {
            case "barrier" -> world::barrier;
            case "bcast" -> () -> world.bcast(send, 0, ints, Datatype.INT, 0);
            case "reduce" -> () -> world.reduce(send, 0, recv, 0, ints, Datatype.INT, Op.SUM, 0);
            case "allreduce" -> () -> world.allreduce(send, 0, recv, 0, ints, Datatype.INT, Op.SUM);
            case "allgather" -> () -> world.allgather(send, 0, ints, Datatype.INT, recv, 0, ints, Datatype.INT);
            case "alltoall" -> () -> world.alltoall(send, 0, ints, Datatype.INT, recv, 0, ints, Datatype.INT);
            case "gather" -> () -> world.gather(send, 0, ints, Datatype.INT, recv, 0, ints, Datatype.INT, 0);
            case "scatter" -> () -> world.scatter(send, 0, ints, Datatype.INT, recv, 0, ints, Datatype.INT, 0);
            case "reduce_scatter" -> () -> world.reduceScatter(send, 0, recv, 0, counts, Datatype.INT, Op.SUM);
            default -> throw new IllegalArgumentException("unknown collective " + op);
        };
    }
}
