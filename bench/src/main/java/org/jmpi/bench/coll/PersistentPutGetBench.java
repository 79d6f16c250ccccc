package org.jmpi.bench.coll;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
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
import org.jmpi.internal.bootstrap.LocalJob;

/**
 * Persistent collectives with the put-based, get-based and point-to-point schedules forced in turn, in an
 * in-JVM job (ranks as threads), over a grid of rank counts and sizes; prints the cost model's predicted
 * winner (put or get, from the calibration at each P) next to the measured one, as a markdown table.
 * <ol>
 * <li>Calibrate at each P (or load {@code --calibration FILE}; what it lacks is measured and added).</li>
 * <li>Repeat {@code --rounds} times: for each P and schedule, one {@link LocalJob} with
 * {@code jmpi.coll.persistent.schedule} forced; in it, for each size and call, a persistent request is started
 * and awaited {@code warmup} times, then {@code iterations} times after a barrier; the cell's time is the
 * maximum over ranks of the mean time per start. The rounds interleave the schedules, so that a change of the
 * machine's load during the run hits put and get alike.</li>
 * <li>Per cell: the median over rounds of each schedule's time, and its noise (the scaled median absolute
 * deviation over rounds).
 * The measured winner is the faster of put and get; it is a tie ("within noise") when the two differ by less
 * than the sum of their noises.</li>
 * <li>Print the table, and the agreement count: cells where the model picks the measured winner, and cells
 * where it does not but the two are within noise.</li>
 * </ol>
 * Usage: {@code java --add-exports java.base/jdk.internal.misc=ALL-UNNAMED -cp <bench classpath>
 * org.jmpi.bench.coll.PersistentPutGetBench [--ranks 2,3,4,8] [--max-bytes 1048576] [--budget-mb 1]
 * [--iterations 200] [--rounds 5] [--calls bcast,allreduce] [--calibration FILE]}. Calls: bcast, allreduce,
 * reduce, barrier, gather, scatter, allgather. Iterations per cell: budget / size, between 5 and {@code --iterations}.
 */
public final class PersistentPutGetBench
{
    private static final String[] SCHEDULES = {"put", "get", "p2p"};

    private PersistentPutGetBench()
    {
    }

    public static void main(final String[] args) throws Exception
    {
        int[] ranks = {2, 3, 4, 8};
        long maxBytes = 1 << 20;
        long budgetBytes = 1L << 20;
        String calibrationFile = "";
        int maxIterations = 200;
        int rounds = 5;
        String[] calls = {"bcast", "allreduce"};
        for (int i = 0; i < args.length; i++)
        {
            switch (args[i])
            {
                case "--ranks" -> ranks = Arrays.stream(args[++i].split(",")).mapToInt(Integer::parseInt).toArray();
                case "--max-bytes" -> maxBytes = Long.parseLong(args[++i]);
                case "--budget-mb" -> budgetBytes = Long.parseLong(args[++i]) << 20;
                case "--calibration" -> calibrationFile = args[++i];
                case "--iterations" -> maxIterations = Integer.parseInt(args[++i]);
                case "--rounds" -> rounds = Integer.parseInt(args[++i]);
                case "--calls" -> calls = args[++i].split(",");
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
        System.out.println("# load before: " + load() + "; " + Runtime.getRuntime().availableProcessors() + " CPUs; JDK " +
            Runtime.version());
        final Map<Integer, PersistentCostModel.Calibration> calibrations = new LinkedHashMap<>();
        for (final int p : ranks)
        {
            final PersistentCostModel.Calibration c = PersistentCostModel.calibration(calibrationFile, p);
            calibrations.put(p, c);
            System.out.println("# calibration " + c);
        }
        final Map<String, double[]> us = new ConcurrentHashMap<>();
        final long start = System.nanoTime();
        for (int round = 0; round < rounds; round++)
        {
            for (final int p : ranks)
            {
                for (final String schedule : SCHEDULES)
                {
                    runJob(p, schedule, calls, sizes, budgetBytes, maxIterations, round, rounds, us);
                }
            }
        }
        System.out.printf(Locale.ROOT, "# load after: %s; grid took %.0f s (%d rounds)%n", load(), (System.nanoTime() - start) / 1e9, rounds);
        System.out.println();
        System.out.println("| call | P | bytes | put (us) | get (us) | p2p (us) | model put | model get | measured | predicted | agree |");
        System.out.println("|---|---|---|---|---|---|---|---|---|---|---|");
        int agree = 0;
        int tiesMissed = 0;
        int cells = 0;
        for (final String call : calls)
        {
            for (final int p : ranks)
            {
                final PersistentCostModel.Calibration c = calibrations.get(p);
                for (final int bytes : call.equals("barrier") ? List.of(0) : sizes)
                {
                    final double[] put = us.get(key(call, p, bytes, "put"));
                    final double[] get = us.get(key(call, p, bytes, "get"));
                    final double[] p2p = us.get(key(call, p, bytes, "p2p"));
                    final double putUs = median(put);
                    final double getUs = median(get);
                    final boolean tie = Math.abs(putUs - getUs) <= noise(put) + noise(get);
                    final String measured = putUs < getUs ? "put" : "get";
                    final boolean commutative = true;
                    final String predicted = PersistentCostModel.choose(call, p, bytes, commutative, c);
                    final boolean same = measured.equals(predicted);
                    agree += same ? 1 : 0;
                    tiesMissed += !same && tie ? 1 : 0;
                    cells++;
                    System.out.printf(Locale.ROOT, "| %s | %d | %d | %s | %s | %s | %.1f | %.1f | %s%s | %s | %s |%n", call, p, bytes,
                        cell(put), cell(get), cell(p2p), PersistentCostModel.costNs(call, true, p, bytes, commutative, c) / 1e3,
                        PersistentCostModel.costNs(call, false, p, bytes, commutative, c) / 1e3, measured, tie ? " (within noise)" : "",
                        predicted, same ? "yes" : tie ? "no (within noise)" : "no");
                }
            }
        }
        System.out.println();
        System.out.printf("model picks the measured winner in %d of %d cells; of the %d others, %d are within noise%n", agree, cells,
            cells - agree, tiesMissed);
    }

    private static String cell(final double[] rounds)
    {
        return String.format(Locale.ROOT, "%.1f &plusmn; %.1f", median(rounds), noise(rounds));
    }

    private static double median(final double[] values)
    {
        final double[] v = values.clone();
        Arrays.sort(v);
        return v.length % 2 == 1 ? v[v.length / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
    }

    /**
     * The spread over the rounds, robust to a round or two hit by a preemption: the median absolute deviation
     * from the median, scaled by 1.4826 (a standard deviation, for normal noise).
     */
    private static double noise(final double[] values)
    {
        final double m = median(values);
        return 1.4826 * median(Arrays.stream(values).map(v -> Math.abs(v - m)).toArray());
    }

    private static String load()
    {
        try
        {
            return Files.readString(Path.of("/proc/loadavg")).trim();
        }
        catch (final IOException ex)
        {
            return "unknown";
        }
    }

    private static String key(final String call, final int p, final int bytes, final String schedule)
    {
        return call + "/" + p + "/" + bytes + "/" + schedule;
    }

    private static void runJob(final int p, final String schedule, final String[] calls, final List<Integer> sizes, final long budgetBytes,
        final int maxIterations, final int round, final int rounds, final Map<String, double[]> us)
    {
        final LocalJob job = LocalJob.create(p, Map.of("jmpi.coll.persistent.schedule", schedule));
        final LocalJob.Outcome outcome = job.run(rank ->
        {
            try (Mpi mpi = Mpi.init(new String[0]))
            {
                final Comm world = mpi.world();
                for (final String call : calls)
                {
                    for (final int bytes : call.equals("barrier") ? List.of(0) : sizes)
                    {
                        final int iterations = (int)Math.max(5, Math.min(maxIterations, budgetBytes / Math.max(8, bytes)));
                        final int warmup = Math.max(2, iterations / 10);
                        final Request r = request(world, call, bytes);
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
                            us.computeIfAbsent(key(call, p, bytes, schedule), k -> new double[rounds])[round] = max[0];
                        }
                    }
                }
            }
        }, TimeUnit.MINUTES.toNanos(10));
        final LocalJob.RankOutcome failed = outcome.firstFailure();
        if (failed != null)
        {
            throw new IllegalStateException("rank " + failed.rank() + " of the " + schedule + " job at P=" + p + " failed",
                failed.failure());
        }
    }

    /**
     * The persistent request of one cell: bcast of BYTE, reduce (to rank 0) and allreduce of DOUBLE with SUM,
     * barrier, gather and scatter (root 0) and allgather of BYTE blocks of {@code bytes}.
     */
    private static Request request(final Comm world, final String call, final int bytes)
    {
        final int doubles = Math.max(1, bytes / Double.BYTES);
        return switch (call)
        {
            case "bcast" -> world.bcastInit(new byte[bytes], 0, bytes, Datatype.BYTE, 0);
            case "allreduce" -> world.allreduceInit(new double[doubles], 0, new double[doubles], 0, doubles, Datatype.DOUBLE, Op.SUM);
            case "reduce" -> world.reduceInit(new double[doubles], 0, new double[doubles], 0, doubles, Datatype.DOUBLE, Op.SUM, 0);
            case "barrier" -> world.barrierInit();
            case "gather" -> world.gatherInit(new byte[bytes], 0, bytes, Datatype.BYTE, new byte[world.rank() == 0 ? bytes * world.size() : 0], 0,
                bytes, Datatype.BYTE, 0);
            case "allgather" -> world.allgatherInit(new byte[bytes], 0, bytes, Datatype.BYTE, new byte[bytes * world.size()], 0, bytes,
                Datatype.BYTE);
            case "scatter" -> world.scatterInit(new byte[world.rank() == 0 ? bytes * world.size() : 0], 0, bytes, Datatype.BYTE, new byte[bytes], 0,
                bytes, Datatype.BYTE, 0);
            default -> throw new IllegalArgumentException("unknown call " + call);
        };
    }
}
