package org.jmpi.bench;

import org.jmpi.Comm;
import org.jmpi.Mpi;

import org.HdrHistogram.Histogram;

import java.nio.ByteBuffer;

/**
 * OSU-style ping-pong latency between ranks 0 and 1 (the method of osu_latency): for each size, a
 * warm-up, then {@code iterations} round trips; one-way latency is half the mean round trip.
 * Bandwidth is size / one-way latency. A last column gives the median one-way latency of single round
 * trips: on a shared machine where ranks get preempted, the mean mixes in scheduling delays and the
 * median shows the cost of the path itself. Further columns give the distribution of single round
 * trips, halved, from an HdrHistogram ({@link Percentiles}): p90, p99, p99.9 and max. Before the first
 * size, {@link JitWarmup} runs {@code --jit-warmup} round trips (default 400,000) so the timed loops run
 * compiled code. Output, like osu_latency plus those columns:
 * <pre>
 * # jmpi ping-pong latency
 * # Size          Latency (us)   Bandwidth (MB/s)    p50 (us)    p90 (us)    p99 (us)  p99.9 (us)    max (us)
 * 8                      0.52              15.38          0.41        0.45        0.90        3.10       40.20
 * </pre>
 * Usage: {@code bin/jmpirun -np 2 -cp 'bench/target/classes:bench/target/lib/*' org.jmpi.bench.OsuLatency
 * [maxBytes] [--direct | --arena] [--from minBytes] [--jit-warmup N]} ({@code --direct}: direct ByteBuffers instead of
 * byte[]; {@code --arena}: the buffer from {@code mpi.allocMem}, in the node's arena when the arena transport is on
 * (docs/pvas.md); {@code --from}: the first size, a power of two). Ranks beyond 1 only join the barriers.
 */
public final class OsuLatency
{
    private static final int SMALL_ITERATIONS = 20_000;
    private static final int SMALL_WARMUP = 5_000;
    private static final int LARGE_ITERATIONS = 200;
    private static final int LARGE_WARMUP = 20;
    private static final int LARGE_SIZE = 64 * 1024;

    private OsuLatency()
    {
    }

    public static void main(final String[] args)
    {
        final BenchArgs parsed = BenchArgs.parse(args, "--jit-warmup", "--from", "--large-warmup", "--small-warmup");
        final int maxBytes = parsed.positionalInt(0, 4 << 20);
        final int fromBytes = parsed.intOption("--from", 0);
        final boolean direct = parsed.flag("--direct");
        final boolean arena = parsed.flag("--arena");
        final int jitWarmup = parsed.intOption("--jit-warmup", JitWarmup.DEFAULT_ROUND_TRIPS);
        final int largeWarmup = parsed.intOption("--large-warmup", LARGE_WARMUP);
        final int smallWarmup = parsed.intOption("--small-warmup", SMALL_WARMUP);
        try (Mpi mpi = Mpi.init(args))
        {
            final Comm world = mpi.world();
            final int rank = world.rank();
            if (world.size() < 2)
            {
                throw new IllegalStateException("OsuLatency needs 2 ranks");
            }
            final Object buf = arena ? mpi.allocMem(Math.max(1, maxBytes)) :
                direct ? ByteBuffer.allocateDirect(Math.max(1, maxBytes)) : new byte[Math.max(1, maxBytes)];
            if (rank == 0)
            {
                System.out.println("# jmpi ping-pong latency (" + (arena ? "allocMem buffer" : direct ? "direct ByteBuffer" : "byte[]") + ", " +
                    world.size() + " ranks)");
                System.out.printf("# %-12s %14s %18s %s%n", "Size", "Latency (us)", "Bandwidth (MB/s)", Percentiles.HEADER);
            }
            JitWarmup.run(world, buf, Math.max(1, maxBytes), jitWarmup);
            final Histogram roundTrips = Percentiles.newHistogram();
            for (int size = fromBytes; size <= maxBytes; size = size == 0 ? 1 : size * 2)
            {
                final boolean large = size > LARGE_SIZE;
                final int iterations = large ? LARGE_ITERATIONS : SMALL_ITERATIONS;
                final int warmup = large ? largeWarmup : smallWarmup;
                world.barrier();
                roundTrips.reset();
                double start = 0;
                long last = 0;
                for (int i = 0; i < iterations + warmup; i++)
                {
                    if (i == warmup)
                    {
                        start = Mpi.wtime();
                        last = System.nanoTime();
                    }
                    PingPong.roundTrip(world, buf, size, 1);
                    if (i >= warmup)
                    {
                        final long now = System.nanoTime();
                        roundTrips.recordValue(now - last);
                        last = now;
                    }
                }
                if (rank == 0)
                {
                    final double oneWayUs = (Mpi.wtime() - start) * 1e6 / (2.0 * iterations);
                    System.out.printf("%-14d %14.2f %18.2f %s%n", size, oneWayUs, size / oneWayUs, Percentiles.columns(roundTrips, 2.0));
                }
            }
        }
    }
}
