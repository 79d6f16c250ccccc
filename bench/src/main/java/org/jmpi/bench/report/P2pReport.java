package org.jmpi.bench.report;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The tables and plots of bench/p2p-vs-c.sh: reads {@code DIR/{c,jmpi}-{bench}-{round}.txt} for the
 * ping-pong ({@code latency}: size, mean, MB/s, p50, p90, p99, p99.9, max) and the windowed benchmarks
 * ({@code bw}, {@code bibw}, {@code mbw_mr}: size, MB/s, messages/s, percentiles), prints Markdown
 * tables to stdout and writes {@code latency.png}, {@code bandwidth.png} and {@code message-rate.png}
 * into DIR.
 * <p>Every figure is the median over rounds; every ratio is jmpi / C (each table's heading says whether
 * lower or higher is better) and is the median of the per-round ratios, because only ratios from one
 * round are measured under the same load and CPU placement (../shared/baseline/README.md).
 * <p>Usage: {@code java -cp 'bench/target/classes:bench/target/lib/*' org.jmpi.bench.report.P2pReport DIR ROUNDS}
 */
public final class P2pReport
{
    static final int LAT_MEAN = 1;
    static final int LAT_P50 = 3;
    static final int LAT_P99 = 5;
    static final int BW_MBS = 1;
    static final int BW_RATE = 2;
    static final int BW_P50 = 3;
    static final int BW_P99 = 5;

    private final Runs runs;

    P2pReport(final Runs runs)
    {
        this.runs = runs;
    }

    public static void main(final String[] args) throws IOException
    {
        if (args.length != 2)
        {
            throw new IllegalArgumentException("usage: P2pReport DIR ROUNDS");
        }
        final P2pReport report = new P2pReport(new Runs(Path.of(args[0]), Integer.parseInt(args[1])));
        System.out.print(report.latency());
        System.out.print(report.windowed("bw", BW_MBS, "bandwidth, MB/s (higher is better)"));
        System.out.print(report.windowed("bibw", BW_MBS, "bidirectional bandwidth, MB/s (higher is better)"));
        System.out.print(report.windowed("mbw_mr", BW_RATE, "message rate, messages/s (higher is better)"));
        report.plots();
    }

    /** The ping-pong table: one-way µs, p50, p99 and mean, C against jmpi, ratio jmpi / C. */
    String latency() throws IOException
    {
        final MarkdownTable t = new MarkdownTable("size", "C p50", "jmpi p50", "ratio", "C p99", "jmpi p99", "ratio",
            "C mean", "jmpi mean", "ratio", "per-round p50 ratios");
        for (final long size : runs.keys("c-latency", "jmpi-latency"))
        {
            final List<String> cells = new ArrayList<>(List.of(Stats.formatSize(size)));
            String perRoundP50 = "";
            for (final int column : new int[] {LAT_P50, LAT_P99, LAT_MEAN})
            {
                final double[] c = runs.perRound("c-latency", size, column);
                final double[] j = runs.perRound("jmpi-latency", size, column);
                final double[] ratios = Stats.ratios(j, c);
                cells.add(Stats.format(Stats.median(c)));
                cells.add(Stats.format(Stats.median(j)));
                cells.add("**" + Stats.format(Stats.median(ratios)) + "**");
                if (column == LAT_P50)
                {
                    perRoundP50 = Runs.joined(ratios);
                }
            }
            cells.add(perRoundP50);
            t.row(cells.toArray(String[]::new));
        }
        return "\nping-pong, one-way latency in µs (lower is better); ratio = jmpi / C, median of per-round ratios\n\n" + t;
    }

    /** A windowed benchmark's table for {@code column} (MB/s or messages/s), ratio jmpi / C. */
    String windowed(final String bench, final int column, final String what) throws IOException
    {
        final MarkdownTable t = new MarkdownTable("size", "C", "jmpi", "jmpi / C", "per-round ratios", "C p50 µs/msg",
            "jmpi p50 µs/msg", "C p99 µs/msg", "jmpi p99 µs/msg");
        final String c = "c-" + bench;
        final String j = "jmpi-" + bench;
        for (final long size : runs.keys(c, j))
        {
            final double[] ratios = Stats.ratios(runs.perRound(j, size, column), runs.perRound(c, size, column));
            t.row(Stats.formatSize(size), Stats.format(runs.median(c, size, column)), Stats.format(runs.median(j, size, column)),
                "**" + Stats.format(Stats.median(ratios)) + "**", Runs.joined(ratios),
                Stats.format(runs.median(c, size, BW_P50)), Stats.format(runs.median(j, size, BW_P50)),
                Stats.format(runs.median(c, size, BW_P99)), Stats.format(runs.median(j, size, BW_P99)));
        }
        return "\n" + bench + " (window 64): " + what + "; ratio = jmpi / C, median of per-round ratios\n\n" + t;
    }

    private void plots() throws IOException
    {
        final LineChart latency = new LineChart("Ping-pong one-way latency (median over rounds)", "message size (bytes)", true,
            "latency (µs)", true);
        runs.addSeries(latency, "C Open MPI p50", "c-latency", LAT_P50, 1, 0, false);
        runs.addSeries(latency, "jmpi p50", "jmpi-latency", LAT_P50, 1, 1, false);
        runs.addSeries(latency, "C Open MPI p99", "c-latency", LAT_P99, 1, 0, true);
        runs.addSeries(latency, "jmpi p99", "jmpi-latency", LAT_P99, 1, 1, true);
        latency.write(runs.dir().resolve("latency.png"), 900, 560);
        final LineChart bandwidth = new LineChart("Bandwidth, window 64 (median over rounds)", "message size (bytes)", true,
            "MB/s", true);
        runs.addSeries(bandwidth, "C Open MPI bw", "c-bw", BW_MBS, 1, 0, false);
        runs.addSeries(bandwidth, "jmpi bw", "jmpi-bw", BW_MBS, 1, 1, false);
        runs.addSeries(bandwidth, "C Open MPI bibw", "c-bibw", BW_MBS, 1, 0, true);
        runs.addSeries(bandwidth, "jmpi bibw", "jmpi-bibw", BW_MBS, 1, 1, true);
        bandwidth.write(runs.dir().resolve("bandwidth.png"), 900, 560);
        final LineChart rate = new LineChart("Message rate, window 64, one pair (median over rounds)", "message size (bytes)",
            true, "messages/s", true);
        runs.addSeries(rate, "C Open MPI", "c-mbw_mr", BW_RATE, 1, 0, false);
        runs.addSeries(rate, "jmpi", "jmpi-mbw_mr", BW_RATE, 1, 1, false);
        rate.write(runs.dir().resolve("message-rate.png"), 900, 560);
    }
}
