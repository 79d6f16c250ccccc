package org.jmpi.bench.coll;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import org.jmpi.bench.report.LineChart;
import org.jmpi.bench.report.Runs;

/**
 * Issue 16's plots from a {@code bench/coll-osu.sh --targets} run: per collective, the average latency by size
 * (OSU method, median over rounds) of jmpi as JVMs and as threads against C Open MPI, at 2 and at 4 ranks, with
 * the long warm-up ({@code coll-<op>.png}); and the barrier by rank count ({@code coll-barrier.png}).
 *
 * <p>Usage: {@code java -cp 'bench/target/classes:bench/target/lib/*' org.jmpi.bench.coll.CollReport DIR ROUNDS OUT},
 * DIR the run's {@code bench/target/coll-targets} (subdirectories {@code <np>-jvm-long}, {@code <np>-threads-long},
 * each with {@code c-<op>-<round>.txt} and {@code jmpi-<op>-<round>.txt}), OUT the directory the PNGs go to.
 * The C series of a rank count is the one run beside the JVMs (each configuration ran its own C rounds).
 *
 * <p>Threading: a main program.
 */
public final class CollReport
{
    /** Column of the average latency in the OSU-style outputs (0 is the size). */
    private static final int AVG = 1;
    private static final String[] SIZED = {"bcast", "reduce", "allreduce", "gather", "scatter", "allgather", "alltoall"};

    private CollReport()
    {
    }

    public static void main(final String[] args) throws IOException
    {
        if (args.length != 3)
        {
            throw new IllegalArgumentException("usage: CollReport DIR ROUNDS OUT");
        }
        final Path dir = Path.of(args[0]);
        final int rounds = Integer.parseInt(args[1]);
        final Path out = Path.of(args[2]);
        Files.createDirectories(out);
        for (final String op : SIZED)
        {
            final LineChart chart = new LineChart(op + ": average latency by size, long warm-up (median over rounds)",
                "bytes per rank (per block for gather, scatter, allgather, alltoall)", true, "µs per call", true);
            int colour = 0;
            for (final int np : new int[] {2, 4})
            {
                final Runs jvm = new Runs(dir.resolve(np + "-jvm-long"), rounds);
                final Runs threads = new Runs(dir.resolve(np + "-threads-long"), rounds);
                jvm.addSeries(chart, "C Open MPI, " + np + " processes", "c-" + op, AVG, 1, colour, true);
                jvm.addSeries(chart, "jmpi, " + np + " JVMs", "jmpi-" + op, AVG, 1, colour + 1, false);
                threads.addSeries(chart, "jmpi, " + np + " threads", "jmpi-" + op, AVG, 1, colour + 2, false);
                colour += 3;
            }
            chart.write(out.resolve("coll-" + op + ".png"), 900, 560);
        }
        barrier(dir, rounds, out);
    }

    /** The barrier has no size: latency by rank count, C (beside the threads) against jmpi as JVMs and as threads. */
    private static void barrier(final Path dir, final int rounds, final Path out) throws IOException
    {
        final int[] counts = {2, 4, 8};
        final double[] xs = new double[counts.length];
        final double[] c = new double[counts.length];
        final double[] jvms = new double[counts.length];
        final double[] threads = new double[counts.length];
        for (int i = 0; i < counts.length; i++)
        {
            xs[i] = counts[i];
            final Runs t = new Runs(dir.resolve(counts[i] + "-threads-long"), rounds);
            final Runs j = new Runs(dir.resolve(counts[i] + "-jvm-long"), rounds);
            c[i] = t.median("c-barrier", 0, AVG);
            threads[i] = t.median("jmpi-barrier", 0, AVG);
            jvms[i] = j.median("jmpi-barrier", 0, AVG);
        }
        new LineChart("barrier: average latency by rank count, long warm-up (median over rounds)", "ranks", false, "µs per call", true)
            .series("C Open MPI", xs, c, 0, true)
            .series("jmpi, JVMs", xs, jvms, 1, false)
            .series("jmpi, threads", xs, threads, 2, false)
            .write(out.resolve("coll-barrier.png"), 900, 560);
    }
}
