package org.jmpi.bench;

import org.jmpi.Comm;
import org.jmpi.Datatype;
import org.jmpi.Mpi;

import java.nio.ByteBuffer;

/**
 * OSU-style ping-pong latency between ranks 0 and 1 (the method of osu_latency): for each size, a
 * warm-up, then {@code iterations} round trips; one-way latency is half the mean round trip.
 * Bandwidth is size / one-way latency. A last column gives the median one-way latency of single round
 * trips: on a shared machine where ranks get preempted, the mean mixes in scheduling delays and the
 * median shows the cost of the path itself. Output, like osu_latency plus that column:
 * <pre>
 * # jmpi ping-pong latency
 * # Size          Latency (us)   Bandwidth (MB/s)   Median (us)
 * 8                      0.52              15.38          0.41
 * </pre>
 * Usage: {@code bin/jmpirun -np 2 -cp bench/target/classes org.jmpi.bench.OsuLatency [maxBytes] [--direct] [--from minBytes]}
 * ({@code --direct}: direct ByteBuffers instead of byte[]; {@code --from}: the first size, a power of two). Ranks beyond 1 only join the barriers.
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
        int maxBytes = 4 << 20;
        int fromBytes = 0;
        boolean direct = false;
        for (int i = 0; i < args.length; i++)
        {
            if (args[i].equals("--direct"))
            {
                direct = true;
            }
            else if (args[i].equals("--from") && i + 1 < args.length)
            {
                fromBytes = Integer.parseInt(args[++i]);
            }
            else if (!args[i].startsWith("-"))
            {
                maxBytes = Integer.parseInt(args[i]);
            }
        }
        try (Mpi mpi = Mpi.init(args))
        {
            final Comm world = mpi.world();
            final int rank = world.rank();
            if (world.size() < 2)
            {
                throw new IllegalStateException("OsuLatency needs 2 ranks");
            }
            final Object buf = direct ? ByteBuffer.allocateDirect(Math.max(1, maxBytes)) : new byte[Math.max(1, maxBytes)];
            if (rank == 0)
            {
                System.out.println("# jmpi ping-pong latency (" + (direct ? "direct ByteBuffer" : "byte[]") + ", " + world.size() + " ranks)");
                System.out.printf("# %-12s %14s %18s %13s%n", "Size", "Latency (us)", "Bandwidth (MB/s)", "Median (us)");
            }
            for (int size = fromBytes; size <= maxBytes; size = size == 0 ? 1 : size * 2)
            {
                final boolean large = size > LARGE_SIZE;
                final int iterations = large ? LARGE_ITERATIONS : SMALL_ITERATIONS;
                final int warmup = large ? LARGE_WARMUP : SMALL_WARMUP;
                world.barrier();
                final long[] roundTripNs = new long[iterations];
                double start = 0;
                long last = 0;
                for (int i = 0; i < iterations + warmup; i++)
                {
                    if (i == warmup)
                    {
                        start = Mpi.wtime();
                        last = System.nanoTime();
                    }
                    if (rank == 0)
                    {
                        world.send(buf, 0, size, Datatype.BYTE, 1, 1);
                        world.recv(buf, 0, size, Datatype.BYTE, 1, 1);
                    }
                    else if (rank == 1)
                    {
                        world.recv(buf, 0, size, Datatype.BYTE, 0, 1);
                        world.send(buf, 0, size, Datatype.BYTE, 0, 1);
                    }
                    if (i >= warmup)
                    {
                        final long now = System.nanoTime();
                        roundTripNs[i - warmup] = now - last;
                        last = now;
                    }
                }
                if (rank == 0)
                {
                    final double oneWayUs = (Mpi.wtime() - start) * 1e6 / (2.0 * iterations);
                    java.util.Arrays.sort(roundTripNs);
                    final double medianUs = roundTripNs[iterations / 2] / 2000.0;
                    System.out.printf("%-14d %14.2f %18.2f %13.2f%n", size, oneWayUs, size / oneWayUs, medianUs);
                }
            }
        }
    }
}
