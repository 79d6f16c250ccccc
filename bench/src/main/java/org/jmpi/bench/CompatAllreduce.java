package org.jmpi.bench;

import mpi.MPI;
import mpi.MPIException;

/**
 * {@code OsuCollective allreduce} written against the Open MPI Java API (jmpi-compat), as OMB-J's osu_allreduce is:
 * per size (bytes per rank, doubled from 4) a warm-up, then timed calls; rank 0 prints the average, minimum and
 * maximum over ranks of the mean time per call, in OsuCollective's columns (same iterations: 10,000 up to 64 KiB,
 * 200 above; warm-up 1,000 and 20, or {@code --warmup N} and N / 50, at least 20). {@code -a buffer} (default) uses direct IntBuffers from {@link MPI#newIntBuffer};
 * {@code -a arrays} int[].
 * Usage: {@code bin/jmpirun -np N -cp 'bench/target/classes:bench/target/lib/*:compat/target/classes'
 * org.jmpi.bench.CompatAllreduce [maxBytes] [-a buffer|arrays]}
 */
public final class CompatAllreduce
{
    private static final int SMALL_ITERATIONS = 10_000;
    private static final int SMALL_WARMUP = 1_000;
    private static final int LARGE_ITERATIONS = 200;
    private static final int LARGE_WARMUP = 20;
    private static final int LARGE_SIZE = 64 * 1024;

    private CompatAllreduce()
    {
    }

    public static void main(final String[] args) throws MPIException
    {
        final BenchArgs parsed = BenchArgs.parse(args, "-a", "--warmup");
        final int maxBytes = parsed.positionalInt(0, 1 << 20);
        final boolean arrays = parsed.option("-a", "buffer").equals("arrays");
        final int smallWarmup = parsed.intOption("--warmup", SMALL_WARMUP);
        MPI.Init(args);
        final int rank = MPI.COMM_WORLD.getRank();
        final int size = MPI.COMM_WORLD.getSize();
        if (rank == 0)
        {
            System.out.println("# jmpi-compat allreduce (" + (arrays ? "int[]" : "direct IntBuffer") + ", " + size + " ranks)");
            System.out.printf("# %-10s %17s %17s %17s %11s%n", "Size", "Avg Latency(us)", "Min Latency(us)", "Max Latency(us)",
                "Iterations");
        }
        for (int bytes = 4; bytes <= maxBytes; bytes *= 2)
        {
            final int ints = Math.max(1, bytes / 4);
            final Object send = arrays ? new int[ints] : MPI.newIntBuffer(ints);
            final Object recv = arrays ? new int[ints] : MPI.newIntBuffer(ints);
            final int iterations = bytes > LARGE_SIZE ? LARGE_ITERATIONS : SMALL_ITERATIONS;
            final int warmup = bytes > LARGE_SIZE ? Math.max(LARGE_WARMUP, smallWarmup / 50) : smallWarmup;
            for (int i = 0; i < warmup; i++)
            {
                MPI.COMM_WORLD.allReduce(send, recv, ints, MPI.INT, MPI.SUM);
            }
            MPI.COMM_WORLD.barrier();
            final long start = System.nanoTime();
            for (int i = 0; i < iterations; i++)
            {
                MPI.COMM_WORLD.allReduce(send, recv, ints, MPI.INT, MPI.SUM);
            }
            final double us = (System.nanoTime() - start) / 1e3 / iterations;
            final double[] sum = new double[1];
            final double[] min = new double[1];
            final double[] max = new double[1];
            MPI.COMM_WORLD.reduce(new double[] {us}, sum, 1, MPI.DOUBLE, MPI.SUM, 0);
            MPI.COMM_WORLD.reduce(new double[] {us}, min, 1, MPI.DOUBLE, MPI.MIN, 0);
            MPI.COMM_WORLD.reduce(new double[] {us}, max, 1, MPI.DOUBLE, MPI.MAX, 0);
            if (rank == 0)
            {
                System.out.printf("%-12d %17.2f %17.2f %17.2f %11d%n", bytes, sum[0] / size, min[0], max[0], iterations);
            }
        }
        MPI.Finalize();
    }
}
