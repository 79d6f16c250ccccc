package org.jmpi.bench;

import org.jmpi.Comm;
import org.jmpi.Datatype;
import org.jmpi.Mpi;
import org.jmpi.Request;

import org.HdrHistogram.Histogram;

/**
 * How fast a job gets warm: a halo exchange between ranks 0 and 1 (each posts irecv, isend, then awaits
 * both) timed in blocks of exchanges from the job's first message, so the first block shows what a
 * short job pays before the JIT has compiled the hot paths. The small-message issue's target: the first
 * 20,000 exchanges at most 1.5x the third 20,000.
 * <pre>
 * # jmpi halo warm-up: 128 doubles contiguous, 3 blocks of 20000 exchanges
 * # block  first   mean (us)    p50 (us)    p90 (us)    p99 (us)  p99.9 (us)    max (us)
 * 0        0       24.10       21.93       ...
 * </pre>
 * The percentile columns come from an HdrHistogram of single exchanges ({@link Percentiles}). There is no
 * warm-up: the first block is what this harness measures.
 * Usage: {@code bin/jmpirun -np 2 -cp bench/target/classes org.jmpi.bench.HaloWarmup [doubles] [blocks] [perBlock] [--vector]}
 * ({@code --vector}: the halo is every other double of a twice-as-long array, sent as a vector type, as a
 * column of a row-major grid is).
 */
public final class HaloWarmup
{
    private HaloWarmup()
    {
    }

    public static void main(final String[] args)
    {
        int doubles = 128;
        int blocks = 3;
        int perBlock = 20_000;
        boolean vector = false;
        int positional = 0;
        for (final String a : args)
        {
            if (a.equals("--vector"))
            {
                vector = true;
            }
            else if (!a.startsWith("-"))
            {
                final int v = Integer.parseInt(a);
                switch (positional++)
                {
                    case 0 -> doubles = v;
                    case 1 -> blocks = v;
                    default -> perBlock = v;
                }
            }
        }
        try (Mpi mpi = Mpi.init(args))
        {
            final Comm world = mpi.world();
            final int rank = world.rank();
            if (world.size() < 2)
            {
                throw new IllegalStateException("HaloWarmup needs 2 ranks");
            }
            final Datatype type = vector ? Datatype.vector(doubles, 1, 2, Datatype.DOUBLE).commit() : Datatype.DOUBLE;
            final int count = vector ? 1 : doubles;
            final double[] out = new double[vector ? 2 * doubles : doubles];
            final double[] in = new double[out.length];
            final int peer = 1 - rank;
            final Histogram exchanges = Percentiles.newHistogram();
            if (rank == 0)
            {
                System.out.printf("# jmpi halo warm-up: %d doubles %s, %d blocks of %d exchanges%n", doubles,
                    vector ? "as a vector type" : "contiguous", blocks, perBlock);
                System.out.printf("# %-6s %8s %11s %s%n", "block", "first", "mean (us)", Percentiles.HEADER);
            }
            for (int b = 0; b < blocks; b++)
            {
                exchanges.reset();
                final long blockStart = System.nanoTime();
                for (int i = 0; i < perBlock && rank < 2; i++)
                {
                    final long t0 = System.nanoTime();
                    out[0] = i;
                    final Request r = world.irecv(in, 0, count, type, peer, 5);
                    final Request s = world.isend(out, 0, count, type, peer, 5);
                    r.await();
                    s.await();
                    exchanges.recordValue(System.nanoTime() - t0);
                }
                final double meanUs = (System.nanoTime() - blockStart) / 1e3 / perBlock;
                if (rank == 0)
                {
                    System.out.printf("%-8d %8d %11.2f %s%n", b, b * perBlock, meanUs, Percentiles.columns(exchanges, 1.0));
                }
            }
        }
    }
}
