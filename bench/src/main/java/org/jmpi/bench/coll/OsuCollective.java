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
                for (int i = 0; i < warmup; i++)
                {
                    call.run();
                }
                world.barrier();
                final long start = System.nanoTime();
                for (int i = 0; i < iterations; i++)
                {
                    call.run();
                }
                final double us = (System.nanoTime() - start) / 1e3 / iterations;
                final double[] mine = {us, us, us};
                final double[] sum = new double[1];
                final double[] min = new double[1];
                final double[] max = new double[1];
                world.reduce(mine, 0, sum, 0, 1, Datatype.DOUBLE, Op.SUM, 0);
                world.reduce(mine, 1, min, 0, 1, Datatype.DOUBLE, Op.MIN, 0);
                world.reduce(mine, 2, max, 0, 1, Datatype.DOUBLE, Op.MAX, 0);
                if (world.rank() == 0)
                {
                    System.out.printf("%-12d %17.2f %17.2f %17.2f %11d%n", bytes, sum[0] / size, min[0], max[0], iterations);
                }
            }
        }
    }

    /** One call of {@code op} with {@code bytes} per rank (or per block), as a runnable. */
    private static Runnable call(final Comm world, final String op, final int bytes, final boolean persistent)
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
