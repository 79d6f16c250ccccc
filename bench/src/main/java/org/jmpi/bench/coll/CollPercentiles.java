package org.jmpi.bench.coll;

import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.jmpi.Datatype;
import org.jmpi.Mpi;
import org.jmpi.Op;
import org.jmpi.internal.bootstrap.LocalJob;

/**
 * Per-call latency distribution of a blocking barrier or allreduce between ranks as threads of one JVM, with
 * one algorithm forced ({@code jmpi.coll.<op>.algorithm}), for comparing the node collectives with the
 * point-to-point algorithms in the same minute of a loaded machine, where OSU-style means are dominated by
 * scheduling delays. Each rank times every call after as many warm-up calls; rank 0 prints its mean, p50, p90
 * and p99 in microseconds.
 * <p>
 * Usage: {@code java --add-exports java.base/jdk.internal.misc=ALL-UNNAMED -cp ... org.jmpi.bench.coll.CollPercentiles
 * <barrier|allreduce> <algorithm> <ranks> [ints per rank, default 2]} (20,000 calls; 400 above 10,000 ints).
 */
public final class CollPercentiles
{
    private CollPercentiles()
    {
    }

    public static void main(final String[] args)
    {
        final String op = args[0];
        final String algorithm = args[1];
        final int ranks = Integer.parseInt(args[2]);
        final int ints = args.length > 3 ? Integer.parseInt(args[3]) : 2;
        final int calls = ints > 10_000 ? 400 : 20_000;
        final LocalJob job = LocalJob.create(ranks, Map.of("jmpi.coll." + op + ".algorithm", algorithm));
        final LocalJob.Outcome outcome = job.run(rank ->
        {
            try (Mpi mpi = Mpi.init(new String[0]))
            {
                final var world = mpi.world();
                final int[] send = new int[ints];
                final int[] recv = new int[ints];
                final Runnable call = op.equals("barrier") ? world::barrier :
                    () -> world.allreduce(send, 0, recv, 0, ints, Datatype.INT, Op.SUM);
                for (int i = 0; i < calls; i++)
                {
                    call.run();
                }
                final long[] ns = new long[calls];
                world.barrier();
                final long begin = System.nanoTime();
                for (int i = 0; i < calls; i++)
                {
                    final long t = System.nanoTime();
                    call.run();
                    ns[i] = System.nanoTime() - t;
                }
                final double mean = (System.nanoTime() - begin) / 1e3 / calls;
                Arrays.sort(ns);
                if (world.rank() == 0)
                {
                    System.out.printf("%s %d B %s P=%d mean %.2f p50 %.2f p90 %.2f p99 %.2f us%n", op, 4 * ints, algorithm, ranks, mean,
                        ns[calls / 2] / 1e3, ns[calls * 9 / 10] / 1e3, ns[calls * 99 / 100] / 1e3);
                }
            }
        }, TimeUnit.SECONDS.toNanos(600));
        if (outcome.firstFailure() != null)
        {
            System.out.println("failed: " + outcome.firstFailure().failure());
            System.exit(1);
        }
    }
}
