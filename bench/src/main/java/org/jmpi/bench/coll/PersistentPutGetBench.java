package org.jmpi.bench.coll;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

import org.jmpi.Comm;
import org.jmpi.Datatype;
import org.jmpi.Mpi;
import org.jmpi.Op;
import org.jmpi.Request;
import org.jmpi.internal.coll.PersistentCostModel;
import org.jmpi.internal.runtime.LocalJob;

/**
 * Persistent bcast and allreduce with the put-based, get-based and point-to-point schedules forced in turn, in
 * an in-JVM job (ranks as threads), over a grid of rank counts and sizes; prints the cost model's predicted
 * winner (put or get, from the calibration) next to the measured one.
 * <ol>
 * <li>Calibrate (or load {@code --calibration FILE}; a missing file is measured and written).</li>
 * <li>For each P and schedule, one {@link LocalJob} with {@code jmpi.coll.persistent.schedule} forced; in it,
 * for each size and call, a persistent request is started and awaited {@code warmup} times, then
 * {@code iterations} times between two barriers; the time per start is the maximum over ranks.</li>
 * <li>Print one row per (call, P, size): the three times, the measured and the predicted winner among put
 * and get, and whether p2p beat both.</li>
 * </ol>
 * Usage: {@code java --add-exports java.base/jdk.internal.misc=ALL-UNNAMED -cp <bench classpath>
 * org.jmpi.bench.coll.PersistentPutGetBench [--ranks 2,4,8] [--max-bytes 1048576] [--budget-mb 1]
 * [--iterations 500] [--calibration FILE]}. Iterations per cell: budget / size, between 5 and
 * {@code --iterations}; {@code --budget-mb 1 --iterations 200} keeps the full grid under a minute on a
 * shared 2-core machine.
 */
public final class PersistentPutGetBench
{
    private static final String[] SCHEDULES = {"put", "get", "p2p"};
    private static final String[] CALLS = {"bcast", "allreduce"};

    private PersistentPutGetBench()
    {
    }

    public static void main(final String[] args) throws Exception
    {
        int[] ranks = {2, 4, 8};
        long maxBytes = 1 << 20;
        long budgetBytes = 1L << 20;
        String calibrationFile = "";
        int maxIterations = 500;
        for (int i = 0; i < args.length; i++)
        {
            switch (args[i])
            {
                case "--ranks" -> ranks = java.util.Arrays.stream(args[++i].split(",")).mapToInt(Integer::parseInt).toArray();
                case "--max-bytes" -> maxBytes = Long.parseLong(args[++i]);
                case "--budget-mb" -> budgetBytes = Long.parseLong(args[++i]) << 20;
                case "--calibration" -> calibrationFile = args[++i];
                case "--iterations" -> maxIterations = Integer.parseInt(args[++i]);
                default -> throw new IllegalArgumentException("unknown argument " + args[i]);
            }
        }
        final List<Integer> sizes = new ArrayList<>();
        for (long b = 8; b <= maxBytes; b *= 8)
        {
            sizes.add((int)b);
        }
        if (sizes.get(sizes.size() - 1) != maxBytes && maxBytes >= 8)
        {
            sizes.add((int)maxBytes);
        }
        final PersistentCostModel.Calibration calibration = PersistentCostModel.calibration(calibrationFile);
        System.out.println("# calibration: " + calibration);
        final Map<String, Double> us = new ConcurrentHashMap<>();
        for (final int p : ranks)
        {
            for (final String schedule : SCHEDULES)
            {
                runJob(p, schedule, sizes, budgetBytes, maxIterations, us);
            }
        }
        System.out.printf("# %-9s %3s %9s %11s %11s %11s %9s %10s %6s%n", "call", "P", "bytes", "put(us)", "get(us)", "p2p(us)", "measured",
            "predicted", "agree");
        int agree = 0;
        int cells = 0;
        for (final String call : CALLS)
        {
            for (final int p : ranks)
            {
                for (final int bytes : sizes)
                {
                    final double put = us.get(key(call, p, bytes, "put"));
                    final double get = us.get(key(call, p, bytes, "get"));
                    final double p2p = us.get(key(call, p, bytes, "p2p"));
                    final String measured = put < get ? "put" : "get";
                    final String predicted = PersistentCostModel.choose(call, p, bytes, calibration);
                    final boolean same = measured.equals(predicted);
                    agree += same ? 1 : 0;
                    cells++;
                    System.out.printf(Locale.ROOT, "  %-9s %3d %9d %11.2f %11.2f %11.2f %9s %10s %6s%s%n", call, p, bytes, put, get, p2p,
                        measured, predicted, same ? "yes" : "no", p2p < Math.min(put, get) ? "  (p2p fastest)" : "");
                }
            }
        }
        System.out.printf("# model agrees with measurement in %d of %d cells%n", agree, cells);
    }

    private static String key(final String call, final int p, final int bytes, final String schedule)
    {
        return call + "/" + p + "/" + bytes + "/" + schedule;
    }

    private static void runJob(final int p, final String schedule, final List<Integer> sizes, final long budgetBytes,
        final int maxIterations, final Map<String, Double> us)
    {
        final LocalJob job = LocalJob.create(p, Map.of("jmpi.coll.persistent.schedule", schedule));
        final LocalJob.Outcome outcome = job.run(rank ->
        {
            try (Mpi mpi = Mpi.init(new String[0]))
            {
                final Comm world = mpi.world();
                for (final int bytes : sizes)
                {
                    final int iterations = (int)Math.max(5, Math.min(maxIterations, budgetBytes / bytes));
                    final int warmup = Math.max(2, iterations / 10);
                    final byte[] bcastBuf = new byte[bytes];
                    final int doubles = Math.max(1, bytes / Double.BYTES);
                    final double[] in = new double[doubles];
                    final double[] out = new double[doubles];
                    for (final String call : CALLS)
                    {
                        final Request r = call.equals("bcast") ? world.bcastInit(bcastBuf, 0, bytes, Datatype.BYTE, 0) :
                            world.allreduceInit(in, 0, out, 0, doubles, Datatype.DOUBLE, Op.SUM);
                        for (int i = 0; i < warmup; i++)
                        {
                            r.start();
                            r.await();
                        }
                        world.barrier();
                        final long start = System.nanoTime();
                        for (int i = 0; i < iterations; i++)
                        {
                            r.start();
                            r.await();
                        }
                        final double[] mine = {(System.nanoTime() - start) / 1e3 / iterations};
                        final double[] max = new double[1];
                        world.reduce(mine, 0, max, 0, 1, Datatype.DOUBLE, Op.MAX, 0);
                        r.free();
                        if (world.rank() == 0)
                        {
                            us.put(key(call, p, bytes, schedule), max[0]);
                        }
                    }
                }
            }
        }, TimeUnit.MINUTES.toNanos(5));
        final LocalJob.RankOutcome failed = outcome.firstFailure();
        if (failed != null)
        {
            throw new IllegalStateException("rank " + failed.rank() + " of the " + schedule + " job at P=" + p + " failed",
                failed.failure());
        }
    }
}
