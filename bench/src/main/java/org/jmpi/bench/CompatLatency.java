package org.jmpi.bench;

import java.nio.ByteBuffer;
import java.util.Arrays;

import mpi.MPI;
import mpi.MPIException;

/**
 * {@link OsuLatency} written against the Open MPI Java API (jmpi-compat), as OMB-J's osu_latency is: the
 * same method, sizes, iteration counts and output, so the two can be compared run for run and the cost of
 * the compat layer read off. {@code -a buffer} (the default, OMB-J's) uses direct ByteBuffers from
 * {@link MPI#newByteBuffer}; {@code -a arrays} uses byte[].
 * Usage: {@code bin/jmpirun -np 2 -cp bench/target/classes:compat/target/classes org.jmpi.bench.CompatLatency [maxBytes] [-a buffer|arrays] [--from minBytes] [--small-warmup N] [--large-warmup N]}
 * ({@code --small-warmup}, {@code --large-warmup}: untimed round trips before each size up to 64 KiB and above it,
 * 5,000 and 20 by default as OsuLatency's)
 */
public final class CompatLatency
{
    private static final int SMALL_ITERATIONS = 20_000;
    private static final int SMALL_WARMUP = 5_000;
    private static final int LARGE_ITERATIONS = 200;
    private static final int LARGE_WARMUP = 20;
    private static final int LARGE_SIZE = 64 * 1024;

    private CompatLatency()
    {
    }

    public static void main(final String[] args) throws MPIException
    {
        int maxBytes = 4 << 20;
        int fromBytes = 0;
        boolean arrays = false;
        int largeWarmup = LARGE_WARMUP;
        int smallWarmup = SMALL_WARMUP;
        for (int i = 0; i < args.length; i++)
        {
            if (args[i].equals("-a") && i + 1 < args.length)
            {
                arrays = args[++i].equals("arrays");
            }
            else if (args[i].equals("--from") && i + 1 < args.length)
            {
                fromBytes = Integer.parseInt(args[++i]);
            }
            else if (args[i].equals("--large-warmup") && i + 1 < args.length)
            {
                largeWarmup = Integer.parseInt(args[++i]);
            }
            else if (args[i].equals("--small-warmup") && i + 1 < args.length)
            {
                smallWarmup = Integer.parseInt(args[++i]);
            }
            else if (!args[i].startsWith("-"))
            {
                maxBytes = Integer.parseInt(args[i]);
            }
        }
        MPI.Init(args);
        final int rank = MPI.COMM_WORLD.getRank();
        if (MPI.COMM_WORLD.getSize() < 2)
        {
            throw new IllegalStateException("CompatLatency needs 2 ranks");
        }
        final Object buf = arrays ? new byte[Math.max(1, maxBytes)] : MPI.newByteBuffer(Math.max(1, maxBytes));
        if (rank == 0)
        {
            System.out.println("# jmpi-compat ping-pong latency (" + (arrays ? "byte[]" : "direct ByteBuffer") + ", " + MPI.COMM_WORLD.getSize() + " ranks)");
            System.out.printf("# %-12s %14s %18s %13s%n", "Size", "Latency (us)", "Bandwidth (MB/s)", "Median (us)");
        }
        for (int size = fromBytes; size <= maxBytes; size = size == 0 ? 1 : size * 2)
        {
            final boolean large = size > LARGE_SIZE;
            final int iterations = large ? LARGE_ITERATIONS : SMALL_ITERATIONS;
            final int warmup = large ? largeWarmup : smallWarmup;
            MPI.COMM_WORLD.barrier();
            final long[] roundTripNs = new long[iterations];
            double start = 0;
            long last = 0;
            for (int i = 0; i < iterations + warmup; i++)
            {
                if (i == warmup)
                {
                    start = MPI.wtime();
                    last = System.nanoTime();
                }
                if (rank == 0)
                {
                    MPI.COMM_WORLD.send(buf, size, MPI.BYTE, 1, 1);
                    MPI.COMM_WORLD.recv(buf, size, MPI.BYTE, 1, 1);
                }
                else if (rank == 1)
                {
                    MPI.COMM_WORLD.recv(buf, size, MPI.BYTE, 0, 1);
                    MPI.COMM_WORLD.send(buf, size, MPI.BYTE, 0, 1);
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
                final double oneWayUs = (MPI.wtime() - start) * 1e6 / (2.0 * iterations);
                Arrays.sort(roundTripNs);
                final double medianUs = roundTripNs[iterations / 2] / 2000.0;
                System.out.printf("%-14d %14.2f %18.2f %13.2f%n", size, oneWayUs, size / oneWayUs, medianUs);
            }
        }
        MPI.Finalize();
    }
}
