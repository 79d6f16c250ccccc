package org.jmpi.bench.report;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The tables and plots of bench/pvas-eval.sh (issue 11, docs/pvas.md), from the DdtPingPong outputs in DIR:
 * <ul>
 * <li>{@code exchange-FORM-R.txt} (FORM = threads, arena, heap): per pattern and size, the datatype and the manual
 * method's median µs per iteration and their ratio;</li>
 * <li>{@code fig5-FORM-R.txt} (DdtPingPong {@code --modes}: every VARIANT = staged-4k ... staged-64k, direct, auto
 * alternated in one job, the method column naming it) or else {@code fig5-FORM-VARIANT-R.txt} (one job per variant):
 * the Figure 5 sweep, with the auto rule checked per point (auto at most 1.05x the best of direct and every staged
 * size), on the medians and on the means;</li>
 * <li>{@code fig15-FORM-VARIANT-R.txt} (VARIANT = eager, direct): Figure 15, direct against eager;</li>
 * <li>{@code fft2d-FORM-MODE-R.txt} (Fft2d, MODE = auto, direct, staged): median µs per 2-D FFT and per transpose;</li>
 * <li>{@code latency-VARIANT-R.txt} (OsuLatency or the C pingpong, {@link #LATENCY}): one-way p50 at 1-4 MiB, C Open MPI
 * against two JVMs with arena buffers and two threads, receiver-only and split copy, with the issue's targets as
 * per-round ratios (their median).</li>
 * </ul>
 * Every figure is the median over the R rounds of the harness's median column; a point missing in a round (a
 * failed run) is left out of the median. PNGs: {@code exchange.png} (datatype/manual by message size, a series
 * per form) and {@code fig5-FORM.png} (auto / best by message size, a series per pattern).
 * <p>Usage: {@code java -cp 'bench/target/classes:bench/target/lib/*' org.jmpi.bench.report.PvasReport DIR ROUNDS}
 */
public final class PvasReport
{
    static final String[] FORMS = {"threads", "arena", "heap"};
    static final String[] FIG5 = {"staged-4k", "staged-8k", "staged-16k", "staged-32k", "staged-64k", "direct", "auto"};
    static final String[] FIG15 = {"eager", "direct"};
    /** The latency variants of bench/pvas-eval.sh: C Open MPI, arena across 2 JVMs, threads, and both with the split copy. */
    static final String[] LATENCY = {"c", "arena", "threads", "threads-split", "arena-split"};
    /** The issue's targets: arena / C, arena / threads, threads split / threads receiver-only. */
    static final double[] LATENCY_TARGETS = {0.67, 1.2, 0.7};
    /** The auto rule of issue 11, point 5. */
    static final double AUTO_TOLERANCE = 1.05;
    private static final int MEAN_COLUMN = 4;
    private static final int MEDIAN_COLUMN = 5;

    private final Path dir;
    private final int rounds;

    PvasReport(final Path dir, final int rounds)
    {
        this.dir = dir;
        this.rounds = rounds;
    }

    public static void main(final String[] args) throws IOException
    {
        if (args.length != 2)
        {
            throw new IllegalArgumentException("usage: PvasReport DIR ROUNDS");
        }
        final PvasReport report = new PvasReport(Path.of(args[0]), Integer.parseInt(args[1]));
        System.out.print(report.exchange());
        for (final String form : FORMS)
        {
            System.out.print(report.figure5(form));
            System.out.print(report.figure15(form));
        }
        System.out.print(report.fft2d());
        System.out.print(report.latency());
        report.plots();
    }

    /** One harness line: pattern, size, bytes, method. */
    record Key(String pattern, String size, long bytes, String method)
    {
    }

    /** Median µs per key of {@code label}-R.txt over the rounds (keys in first-seen order). */
    Map<Key, Double> medians(final String label) throws IOException
    {
        return overRounds(label, MEDIAN_COLUMN);
    }

    /**
     * Figure 5's {@code variant} in {@code form}, keyed as a per-variant file's lines are (method {@code datatype}): from
     * the alternated file {@code fig5-FORM-R.txt} when it has the variant, else from {@code fig5-FORM-VARIANT-R.txt};
     * the harness's median column, or its mean column with {@code means}.
     */
    Map<Key, Double> figure5Variant(final String form, final String variant, final boolean means) throws IOException
    {
        final int column = means ? MEAN_COLUMN : MEDIAN_COLUMN;
        final Map<Key, Double> alternated = new LinkedHashMap<>();
        overRounds("fig5-" + form, column).forEach((k, v) ->
        {
            if (k.method().equals(variant))
            {
                alternated.put(new Key(k.pattern(), k.size(), k.bytes(), "datatype"), v);
            }
        });
        return alternated.isEmpty() ? overRounds("fig5-" + form + "-" + variant, column) : alternated;
    }

    /** The median over the rounds of {@code column} per key of {@code label}-R.txt (keys in first-seen order). */
    private Map<Key, Double> overRounds(final String label, final int column) throws IOException
    {
        final Map<Key, List<Double>> values = new LinkedHashMap<>();
        for (int r = 1; r <= rounds; r++)
        {
            final Path file = dir.resolve(label + "-" + r + ".txt");
            if (!Files.exists(file))
            {
                continue;
            }
            for (final Map.Entry<Key, Double> e : parse(Files.readAllLines(file), column).entrySet())
            {
                values.computeIfAbsent(e.getKey(), k -> new ArrayList<>()).add(e.getValue());
            }
        }
        final Map<Key, Double> medians = new LinkedHashMap<>();
        values.forEach((k, v) -> medians.put(k, Stats.median(v.stream().mapToDouble(Double::doubleValue).toArray())));
        return medians;
    }

    /** The harness's lines (not comments): pattern size bytes method mean median min [p90 max]; the medians. */
    static Map<Key, Double> parse(final List<String> lines)
    {
        return parse(lines, MEDIAN_COLUMN);
    }

    private static Map<Key, Double> parse(final List<String> lines, final int column)
    {
        final Map<Key, Double> rows = new LinkedHashMap<>();
        for (final String line : lines)
        {
            final String[] f = line.trim().split("\\s+");
            if (line.trim().startsWith("#") || (f.length != 7 && f.length != 9))
            {
                continue;
            }
            try
            {
                rows.put(new Key(f[0], f[1], Long.parseLong(f[2]), f[3]), Double.parseDouble(f[column]));
            }
            catch (final NumberFormatException ex)
            {
                // not a result line (a rank's diagnostic)
            }
        }
        return rows;
    }

    String exchange() throws IOException
    {
        final StringBuilder sb = new StringBuilder();
        for (final String form : FORMS)
        {
            final Map<Key, Double> m = medians("exchange-" + form);
            if (m.isEmpty())
            {
                continue;
            }
            final MarkdownTable t = new MarkdownTable("pattern", "size", "bytes", "datatype µs", "manual µs", "datatype / manual");
            for (final Key k : m.keySet())
            {
                if (k.method().equals("datatype"))
                {
                    final double d = m.get(k);
                    final double manual = m.getOrDefault(new Key(k.pattern(), k.size(), k.bytes(), "manual"), Double.NaN);
                    t.row(k.pattern(), k.size().toLowerCase(Locale.ROOT), Long.toString(k.bytes()), Stats.format(d), Stats.format(manual),
                        Stats.format(d / manual));
                }
            }
            sb.append("\nDDTBench exchange, ").append(form).append(": µs per iteration (ping-pong), medians over ").append(rounds)
                .append(" rounds\n\n").append(t);
        }
        return sb.toString();
    }

    String figure5(final String form) throws IOException
    {
        final List<Map<Key, Double>> variants = new ArrayList<>();
        final List<Map<Key, Double>> variantMeans = new ArrayList<>();
        for (final String v : FIG5)
        {
            variants.add(figure5Variant(form, v, false));
            variantMeans.add(figure5Variant(form, v, true));
        }
        final Set<Key> keys = keys(variants);
        if (keys.isEmpty())
        {
            return "";
        }
        final List<String> headers = new ArrayList<>(List.of("pattern", "bytes"));
        for (final String v : FIG5)
        {
            headers.add(v + " µs");
        }
        headers.add("auto / best");
        headers.add("auto / best, means");
        final MarkdownTable t = new MarkdownTable(headers.toArray(String[]::new));
        int held = 0;
        int heldMeans = 0;
        int points = 0;
        for (final Key k : keys)
        {
            final List<String> cells = new ArrayList<>(List.of(k.pattern(), Stats.formatSize(k.bytes())));
            for (int i = 0; i < FIG5.length; i++)
            {
                cells.add(Stats.format(variants.get(i).getOrDefault(k, Double.NaN)));
            }
            final double ratio = autoOverBest(variants, k);
            final double ratioMeans = autoOverBest(variantMeans, k);
            if (!Double.isNaN(ratio))
            {
                points++;
                held += ratio <= AUTO_TOLERANCE ? 1 : 0;
                heldMeans += ratioMeans <= AUTO_TOLERANCE ? 1 : 0;
            }
            cells.add(Stats.format(ratio) + (ratio > AUTO_TOLERANCE ? " ✗" : ""));
            cells.add(Stats.format(ratioMeans) + (ratioMeans > AUTO_TOLERANCE ? " ✗" : ""));
            t.row(cells.toArray(String[]::new));
        }
        return "\nFigure 5, " + form + ": eager limit 0, staged by fragment size vs direct vs auto, µs per ping-pong (medians over " +
            rounds + " rounds); the auto rule (auto <= " + AUTO_TOLERANCE + "x the best) holds at " + held + " of " + points +
            " points on the medians, " + heldMeans + " of " + points + " on the means\n\n" + t;
    }

    /** Auto (the last of {@link #FIG5}) over the least of the others at {@code k}; NaN when auto or all others are missing. */
    static double autoOverBest(final List<Map<Key, Double>> variants, final Key k)
    {
        double best = Double.NaN;
        for (int i = 0; i < FIG5.length - 1; i++)
        {
            final double v = variants.get(i).getOrDefault(k, Double.NaN);
            best = Double.isNaN(best) ? v : Double.isNaN(v) ? best : Math.min(best, v);
        }
        return variants.get(FIG5.length - 1).getOrDefault(k, Double.NaN) / best;
    }

    String figure15(final String form) throws IOException
    {
        final Map<Key, Double> eager = medians("fig15-" + form + "-eager");
        final Map<Key, Double> direct = medians("fig15-" + form + "-direct");
        final Set<Key> keys = keys(List.of(eager, direct));
        if (keys.isEmpty())
        {
            return "";
        }
        final MarkdownTable t = new MarkdownTable("pattern", "bytes", "eager µs", "direct µs", "direct / eager");
        for (final Key k : keys)
        {
            final double e = eager.getOrDefault(k, Double.NaN);
            final double d = direct.getOrDefault(k, Double.NaN);
            t.row(k.pattern(), Stats.formatSize(k.bytes()), Stats.format(e), Stats.format(d), Stats.format(d / e));
        }
        return "\nFigure 15, " + form + ": direct vs eager, µs per ping-pong (medians over " + rounds + " rounds)\n\n" + t;
    }

    String fft2d() throws IOException
    {
        final MarkdownTable t = new MarkdownTable("form", "N", "mode", "2-D FFT µs", "transpose µs", "checksum");
        boolean any = false;
        for (final String form : new String[] {"threads", "heap"})
        {
            for (final String mode : new String[] {"auto", "direct", "staged"})
            {
                final Map<Long, List<double[]>> byN = new LinkedHashMap<>();
                for (int r = 1; r <= rounds; r++)
                {
                    final Path file = dir.resolve("fft2d-" + form + "-" + mode + "-" + r + ".txt");
                    if (!Files.exists(file))
                    {
                        continue;
                    }
                    for (final String line : Files.readAllLines(file))
                    {
                        final String[] f = line.trim().split("\\s+");
                        if (line.trim().startsWith("#") || f.length != 6)
                        {
                            continue;
                        }
                        try
                        {
                            byN.computeIfAbsent(Long.parseLong(f[0]), k -> new ArrayList<>()).add(new double[] {
                                Double.parseDouble(f[2]), Double.parseDouble(f[4]), Double.parseDouble(f[5])});
                        }
                        catch (final NumberFormatException ex)
                        {
                            // not a result line
                        }
                    }
                }
                for (final Map.Entry<Long, List<double[]>> e : byN.entrySet())
                {
                    any = true;
                    t.row(form, Long.toString(e.getKey()), mode, Stats.format(Stats.median(e.getValue().stream().mapToDouble(v -> v[0]).toArray())),
                        Stats.format(Stats.median(e.getValue().stream().mapToDouble(v -> v[1]).toArray())),
                        String.format(Locale.ROOT, "%.6e", e.getValue().get(0)[2]));
                }
            }
        }
        return any ? "\nfft2d mini-app, 2 ranks: median µs per 2-D FFT and per transpose (medians over " + rounds + " rounds)\n\n" + t : "";
    }

    /** Per round, per variant: size to one-way p50 µs (column 4 of OsuLatency's and the C pingpong's lines). */
    private List<Map<Long, Double>> latencyRounds(final String variant) throws IOException
    {
        final List<Map<Long, Double>> perRound = new ArrayList<>();
        for (int r = 1; r <= rounds; r++)
        {
            final Path file = dir.resolve("latency-" + variant + "-" + r + ".txt");
            final Map<Long, Double> rows = new LinkedHashMap<>();
            if (Files.exists(file))
            {
                for (final String line : Files.readAllLines(file))
                {
                    final String[] f = line.trim().split("\\s+");
                    if (line.trim().startsWith("#") || f.length < 4)
                    {
                        continue;
                    }
                    try
                    {
                        rows.put(Long.parseLong(f[0]), Double.parseDouble(f[3]));
                    }
                    catch (final NumberFormatException ex)
                    {
                        // not a result line
                    }
                }
            }
            perRound.add(rows);
        }
        return perRound;
    }

    String latency() throws IOException
    {
        final List<List<Map<Long, Double>>> variants = new ArrayList<>();
        final Set<Long> sizes = new java.util.TreeSet<>();
        for (final String v : LATENCY)
        {
            final List<Map<Long, Double>> perRound = latencyRounds(v);
            perRound.forEach(m -> sizes.addAll(m.keySet()));
            variants.add(perRound);
        }
        if (sizes.isEmpty())
        {
            return "";
        }
        final List<String> headers = new ArrayList<>(List.of("bytes"));
        for (final String v : LATENCY)
        {
            headers.add(v + " p50 µs");
        }
        headers.addAll(List.of("arena / C (<= 0.67)", "arena / threads (<= 1.2)", "threads split / threads (<= 0.7)"));
        final MarkdownTable t = new MarkdownTable(headers.toArray(String[]::new));
        final int[][] ratioOf = {{1, 0}, {1, 2}, {3, 2}};
        for (final long size : sizes)
        {
            final List<String> cells = new ArrayList<>(List.of(Stats.formatSize(size)));
            for (final List<Map<Long, Double>> perRound : variants)
            {
                cells.add(Stats.format(Stats.median(perRound.stream().filter(m -> m.containsKey(size)).mapToDouble(m -> m.get(size)).toArray())));
            }
            for (int k = 0; k < ratioOf.length; k++)
            {
                final List<Double> ratios = new ArrayList<>();
                for (int r = 0; r < rounds; r++)
                {
                    final Double a = variants.get(ratioOf[k][0]).get(r).get(size);
                    final Double b = variants.get(ratioOf[k][1]).get(r).get(size);
                    if (a != null && b != null)
                    {
                        ratios.add(a / b);
                    }
                }
                final double ratio = Stats.median(ratios.stream().mapToDouble(Double::doubleValue).toArray());
                cells.add(Stats.format(ratio) + (ratio > LATENCY_TARGETS[k] ? " ✗" : ""));
            }
            t.row(cells.toArray(String[]::new));
        }
        return "\nLarge messages, one-way p50 in µs (medians over " + rounds + " rounds; ratios: the median of per-round ratios, ✗ where " +
            "the issue's target is missed)\n\n" + t;
    }

    private static Set<Key> keys(final List<Map<Key, Double>> maps)
    {
        final Set<Key> keys = new LinkedHashSet<>();
        for (final Map<Key, Double> m : maps)
        {
            keys.addAll(m.keySet());
        }
        return keys;
    }

    private void plots() throws IOException
    {
        final LineChart exchange = new LineChart("DDTBench exchange: datatype / manual (median over rounds)", "message (bytes)", true,
            "datatype / manual", true);
        int colour = 0;
        boolean any = false;
        for (final String form : FORMS)
        {
            final Map<Key, Double> m = medians("exchange-" + form);
            final List<double[]> points = new ArrayList<>();
            for (final Key k : m.keySet())
            {
                if (k.method().equals("datatype"))
                {
                    points.add(new double[] {k.bytes(), m.get(k) / m.getOrDefault(new Key(k.pattern(), k.size(), k.bytes(), "manual"),
                        Double.NaN)});
                }
            }
            any |= !points.isEmpty();
            addSorted(exchange, form, points, colour++);
        }
        if (any)
        {
            exchange.write(dir.resolve("exchange.png"), 900, 560);
        }
        for (final String form : FORMS)
        {
            final List<Map<Key, Double>> variants = new ArrayList<>();
            for (final String v : FIG5)
            {
                variants.add(figure5Variant(form, v, false));
            }
            final Map<Key, Double> auto = variants.get(FIG5.length - 1);
            if (auto.isEmpty())
            {
                continue;
            }
            final LineChart chart = new LineChart("Figure 5, " + form + ": auto / best of direct and staged", "message (bytes)", true,
                "auto / best", false);
            final Map<String, List<double[]>> byPattern = new LinkedHashMap<>();
            for (final Key k : auto.keySet())
            {
                byPattern.computeIfAbsent(k.pattern(), p -> new ArrayList<>()).add(new double[] {k.bytes(), autoOverBest(variants, k)});
            }
            int c = 0;
            for (final Map.Entry<String, List<double[]>> e : byPattern.entrySet())
            {
                addSorted(chart, e.getKey(), e.getValue(), c++);
            }
            chart.write(dir.resolve("fig5-" + form + ".png"), 1000, 620);
        }
    }

    private static void addSorted(final LineChart chart, final String name, final List<double[]> points, final int colour)
    {
        points.sort((a, b) -> Double.compare(a[0], b[0]));
        final double[] xs = new double[points.size()];
        final double[] ys = new double[points.size()];
        for (int i = 0; i < xs.length; i++)
        {
            xs[i] = points.get(i)[0];
            ys[i] = points.get(i)[1];
        }
        chart.series(name, xs, ys, colour, colour >= 6);
    }
}
