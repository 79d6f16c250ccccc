package org.jmpi.bench.report;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The tables and plots of bench/threads-eval.sh (the offloading evaluation, docs/threads.md). Reads
 * {@code DIR/concurrent-{virtual,platform,single}-R.txt} (ConcurrentLatency: threads, round trips, round
 * trips/s, percentiles), {@code DIR/overlap-{virtual,platform}-R.txt} (Overlap: factor x 100, t_comm,
 * t_compute, t_both, comm while computing, hidden %) and {@code DIR/halo-{nonblocking-single,
 * nonblocking-multiple,virtual}-R.txt} (HaloApp: N, iteration, exchange, percentiles, checksum); prints
 * Markdown tables (medians over rounds) and writes {@code concurrent-latency.png},
 * {@code concurrent-rate.png}, {@code overlap.png} and {@code halo.png} into DIR.
 * <p>Usage: {@code java -cp 'bench/target/classes:bench/target/lib/*' org.jmpi.bench.report.ThreadsReport DIR ROUNDS}
 */
public final class ThreadsReport
{
    static final String[] CONCURRENT = {"virtual", "platform", "single"};
    static final String[] OVERLAP = {"virtual", "platform"};
    static final String[] HALO = {"nonblocking-single", "nonblocking-multiple", "virtual"};
    private static final int CONC_RATE = 2;
    private static final int CONC_P50 = 3;
    private static final int CONC_P99 = 5;
    private static final int OVL_T_COMM = 1;
    private static final int OVL_T_COMPUTE = 2;
    private static final int OVL_T_BOTH = 3;
    private static final int OVL_COMM_DURING = 4;
    private static final int OVL_HIDDEN = 5;
    private static final int HALO_ITERATION = 1;
    private static final int HALO_EXCHANGE = 2;
    private static final int HALO_P50 = 3;
    private static final int HALO_P99 = 5;
    private static final int HALO_CHECKSUM = 8;

    private final Runs runs;
    private final int rounds;

    ThreadsReport(final Runs runs, final int rounds)
    {
        this.runs = runs;
        this.rounds = rounds;
    }

    public static void main(final String[] args) throws IOException
    {
        if (args.length != 2)
        {
            throw new IllegalArgumentException("usage: ThreadsReport DIR ROUNDS");
        }
        final int rounds = Integer.parseInt(args[1]);
        final ThreadsReport report = new ThreadsReport(new Runs(Path.of(args[0]), rounds), rounds);
        System.out.print(report.concurrent());
        System.out.print(report.overlap());
        System.out.print(report.halo());
        report.plots();
    }

    String concurrent() throws IOException
    {
        final List<String> headers = new ArrayList<>(List.of("threads per rank"));
        for (final String mode : CONCURRENT)
        {
            headers.add(mode + " round trips/s");
            headers.add(mode + " p50 µs");
            headers.add(mode + " p99 µs");
        }
        final MarkdownTable t = new MarkdownTable(headers.toArray(String[]::new));
        for (final long n : runs.keys(labels("concurrent", CONCURRENT)))
        {
            final List<String> cells = new ArrayList<>(List.of(Long.toString(n)));
            for (final String mode : CONCURRENT)
            {
                for (final int column : new int[] {CONC_RATE, CONC_P50, CONC_P99})
                {
                    cells.add(Stats.format(runs.median("concurrent-" + mode, n, column)));
                }
            }
            t.row(cells.toArray(String[]::new));
        }
        return "\nconcurrent ping-pongs, 8 B, one per thread and tag (one-way latency of single round trips; medians over "
            + rounds + " rounds)\n\n" + t;
    }

    String overlap() throws IOException
    {
        final MarkdownTable t = new MarkdownTable("compute / t_comm", "comm thread", "t_comm µs", "t_compute µs", "t_both µs",
            "comm while computing µs", "hidden %");
        for (final long factor : runs.keys(labels("overlap", OVERLAP)))
        {
            for (final String kind : OVERLAP)
            {
                final String label = "overlap-" + kind;
                t.row(Stats.format(factor / 100.0), kind, Stats.format(runs.median(label, factor, OVL_T_COMM)),
                    Stats.format(runs.median(label, factor, OVL_T_COMPUTE)), Stats.format(runs.median(label, factor, OVL_T_BOTH)),
                    Stats.format(runs.median(label, factor, OVL_COMM_DURING)), Stats.format(runs.median(label, factor, OVL_HIDDEN)));
            }
        }
        return "\noverlap of a blocking ping-pong thread with computing threads (medians over " + rounds + " rounds)\n\n" + t;
    }

    String halo() throws IOException
    {
        final MarkdownTable t = new MarkdownTable("N (block N x N per rank)", "variant", "iteration µs", "exchange µs",
            "exchange p50 µs", "exchange p99 µs", "checksum");
        boolean agree = true;
        for (final long n : runs.keys(labels("halo", HALO)))
        {
            Double first = null;
            for (final String variant : HALO)
            {
                final String label = "halo-" + variant;
                for (final double c : runs.perRound(label, n, HALO_CHECKSUM))
                {
                    if (Double.isNaN(c))
                    {
                        continue;
                    }
                    if (first == null)
                    {
                        first = c;
                    }
                    agree &= c == first;
                }
                t.row(Long.toString(n), variant, Stats.format(runs.median(label, n, HALO_ITERATION)),
                    Stats.format(runs.median(label, n, HALO_EXCHANGE)), Stats.format(runs.median(label, n, HALO_P50)),
                    Stats.format(runs.median(label, n, HALO_P99)), String.format(Locale.ROOT, "%.9e",
                        runs.median(label, n, HALO_CHECKSUM)));
            }
        }
        return "\nhalo-exchange mini-app, µs per iteration (medians over " + rounds + " rounds); checksums "
            + (agree ? "agree across variants and rounds" : "DIFFER: a variant computed something else") + "\n\n" + t;
    }

    private static String[] labels(final String bench, final String[] variants)
    {
        final String[] labels = new String[variants.length];
        for (int i = 0; i < variants.length; i++)
        {
            labels[i] = bench + "-" + variants[i];
        }
        return labels;
    }

    private void plots() throws IOException
    {
        final LineChart latency = new LineChart("Concurrent ping-pongs: one-way latency, 8 B (median over rounds)",
            "conversations (threads) per rank", true, "latency (µs)", true);
        final LineChart rate = new LineChart("Concurrent ping-pongs: aggregate rate, 8 B (median over rounds)",
            "conversations (threads) per rank", true, "round trips/s", true);
        for (int i = 0; i < CONCURRENT.length; i++)
        {
            final String label = "concurrent-" + CONCURRENT[i];
            runs.addSeries(latency, CONCURRENT[i] + " p50", label, CONC_P50, 1, i, false);
            runs.addSeries(latency, CONCURRENT[i] + " p99", label, CONC_P99, 1, i, true);
            runs.addSeries(rate, CONCURRENT[i], label, CONC_RATE, 1, i, false);
        }
        latency.write(runs.dir().resolve("concurrent-latency.png"), 900, 560);
        rate.write(runs.dir().resolve("concurrent-rate.png"), 900, 560);
        final LineChart overlap = new LineChart("Communication hidden under computation (median over rounds)",
            "compute time / communication time", true, "hidden (% of communication time)", false);
        for (int i = 0; i < OVERLAP.length; i++)
        {
            runs.addSeries(overlap, OVERLAP[i] + " comm thread", "overlap-" + OVERLAP[i], OVL_HIDDEN, 100, i, false);
        }
        overlap.write(runs.dir().resolve("overlap.png"), 900, 560);
        final LineChart halo = new LineChart("Halo mini-app: exchange time per iteration, p50 and p99 (median over rounds)",
            "block N (N x N doubles per rank)", true, "µs", true);
        for (int i = 0; i < HALO.length; i++)
        {
            runs.addSeries(halo, HALO[i] + " p50", "halo-" + HALO[i], HALO_P50, 1, i, false);
            runs.addSeries(halo, HALO[i] + " p99", "halo-" + HALO[i], HALO_P99, 1, i, true);
        }
        halo.write(runs.dir().resolve("halo.png"), 900, 560);
    }
}
