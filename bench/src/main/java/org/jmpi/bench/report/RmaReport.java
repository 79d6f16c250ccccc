package org.jmpi.bench.report;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The tables and plots of bench/rma-eval.sh (issue 18, docs/rma.md "Figures"), from the outputs in DIR:
 * <ul>
 * <li>{@code APP-SIZE-FORM-NP.txt} (APP = himeno, cg, cg2d; FORM = threads, arena, heap): the mini-app's rows
 * {@code version time(s) MFLOPS check...}, once per round in round order. Per layout, the median time and MFLOPS over
 * the rounds of every version and the median of the per-round ratios of each version's MFLOPS to two-sided's (only a
 * ratio from one round is measured under one load), with the smallest and largest per-round ratio beside it, against
 * the target: at least 1.00 where ranks share an address space (threads, arena), the paper's ratio elsewhere (Himeno
 * 0.85 blocking, 0.89 nonblocking; CG 0.97);</li>
 * <li>{@code costs-threads-NP.txt} (ExchangeCost): per measurement the medians over rounds of its mean and p50;</li>
 * <li>{@code targets-FORM-NP.txt} (RmaTargets): its {@code ratios} lines, one per round;</li>
 * <li>lines of code of each version's exchange, counted in the mini-apps' sources (run from the repository root).</li>
 * </ul>
 * PNGs in PLOTS: {@code rma-APP-SIZE.png}, MFLOPS by rank count per version (threads solid, arena JVMs dashed).
 * <p>Usage: {@code java -cp 'bench/target/classes:bench/target/lib/*' org.jmpi.bench.report.RmaReport DIR [PLOTS]}
 */
public final class RmaReport
{
    static final String[] APPS = {"himeno", "cg", "cg2d"};
    static final String[] VERSIONS = {"two-sided", "rma", "coarray", "coarray-nb"};
    static final String[] FORMS = {"threads", "arena", "heap"};
    private static final String[] SIZES = {"XS", "S", "W", "M", "A", "B", "L", "C"};
    private static final Pattern RUN = Pattern.compile("(himeno|cg|cg2d)-(\\w+)-(threads|arena|heap)-(\\d+)\\.txt");
    private static final Pattern TARGETS = Pattern.compile("targets-(threads|arena|heap)-(\\d+)\\.txt");
    private static final Pattern COSTS = Pattern.compile("costs-threads-(\\d+)\\.txt");
    /** Width of ExchangeCost's name column. */
    private static final int COST_NAME = 22;
    private static final String SOURCES = "bench/src/main/java/org/jmpi/bench/rma/";

    private final Path dir;

    RmaReport(final Path dir)
    {
        this.dir = dir;
    }

    public static void main(final String[] args) throws IOException
    {
        if (args.length < 1 || args.length > 2)
        {
            throw new IllegalArgumentException("usage: RmaReport DIR [PLOTS]");
        }
        final RmaReport report = new RmaReport(Path.of(args[0]));
        for (final String app : APPS)
        {
            for (final String size : report.sizes(app))
            {
                System.out.print(report.table(app, size));
            }
        }
        System.out.print(report.costs());
        System.out.print(report.targets());
        System.out.print(linesOfCode(Path.of(SOURCES)));
        final Path plots = Path.of(args.length == 2 ? args[1] : args[0]);
        for (final String app : APPS)
        {
            for (final String size : report.sizes(app))
            {
                report.plot(app, size, plots.resolve("rma-" + app + "-" + size + ".png"));
            }
        }
    }

    /** One layout of a run: form and rank count. */
    record Layout(String form, int ranks)
    {
    }

    /** Per version, its (time, MFLOPS) in each round, in round order. */
    static Map<String, List<double[]>> parse(final List<String> lines)
    {
        final Map<String, List<double[]>> rows = new LinkedHashMap<>();
        for (final String raw : lines)
        {
            final String line = raw.replaceFirst("^\\[\\d+\\]\\s*", "").trim();
            final String[] parts = line.split("\\s+");
            if (line.startsWith("#") || parts.length < 3 || !List.of(VERSIONS).contains(parts[0]))
            {
                continue;
            }
            try
            {
                rows.computeIfAbsent(parts[0], v -> new ArrayList<>()).add(new double[] {Double.parseDouble(parts[1]),
                    Double.parseDouble(parts[2])});
            }
            catch (final NumberFormatException ex)
            {
                // a line a rank printed that only starts like a result
            }
        }
        return rows;
    }

    /** The sizes (or classes) of {@code app} that DIR has runs of, in size order. */
    List<String> sizes(final String app) throws IOException
    {
        final List<String> found = new ArrayList<>();
        for (final Path p : files())
        {
            final Matcher m = RUN.matcher(p.getFileName().toString());
            if (m.matches() && m.group(1).equals(app) && !found.contains(m.group(2)))
            {
                found.add(m.group(2));
            }
        }
        found.sort((a, b) -> Integer.compare(List.of(SIZES).indexOf(a), List.of(SIZES).indexOf(b)));
        return found;
    }

    /** The layouts of {@code app} at {@code size} with their parsed rows, threads first, then by rank count. */
    TreeMap<Layout, Map<String, List<double[]>>> runs(final String app, final String size) throws IOException
    {
        final Comparator<Layout> order = Comparator.comparingInt((Layout l) -> List.of(FORMS).indexOf(l.form())).thenComparingInt(Layout::ranks);
        final TreeMap<Layout, Map<String, List<double[]>>> runs = new TreeMap<>(order);
        for (final Path p : files())
        {
            final Matcher m = RUN.matcher(p.getFileName().toString());
            if (m.matches() && m.group(1).equals(app) && m.group(2).equals(size))
            {
                runs.put(new Layout(m.group(3), Integer.parseInt(m.group(4))), parse(Files.readAllLines(p)));
            }
        }
        return runs;
    }

    /** The paper's ratio to two-sided for {@code version} of {@code app} (NaN where the paper has none). */
    static double paper(final String app, final String version)
    {
        if (version.equals("two-sided"))
        {
            return Double.NaN;
        }
        if (app.equals("himeno"))
        {
            return version.equals("coarray-nb") ? 0.89 : 0.85;
        }
        return 0.97;
    }

    /** The Markdown table of {@code app} at {@code size}. */
    String table(final String app, final String size) throws IOException
    {
        final List<String> headers = new ArrayList<>(List.of("form", "ranks", "two-sided s", "two-sided MFLOPS"));
        for (int v = 1; v < VERSIONS.length; v++)
        {
            headers.add(VERSIONS[v] + " MFLOPS");
            headers.add(VERSIONS[v] + " / two-sided (min-max)");
        }
        final MarkdownTable t = new MarkdownTable(headers.toArray(String[]::new));
        int met = 0;
        int points = 0;
        for (final Map.Entry<Layout, Map<String, List<double[]>>> e : runs(app, size).entrySet())
        {
            final Layout layout = e.getKey();
            final Map<String, List<double[]>> rows = e.getValue();
            final List<String> cells = new ArrayList<>(List.of(layout.form(), Integer.toString(layout.ranks()),
                Stats.format(median(rows.get("two-sided"), 0)), Stats.format(median(rows.get("two-sided"), 1))));
            for (int v = 1; v < VERSIONS.length; v++)
            {
                final List<double[]> mine = rows.get(VERSIONS[v]);
                cells.add(Stats.format(median(mine, 1)));
                final double[] ratios = ratios(mine, rows.get("two-sided"));
                final double ratio = Stats.median(ratios);
                if (Double.isNaN(ratio))
                {
                    cells.add("-");
                    continue;
                }
                final double target = layout.form().equals("heap") ? paper(app, VERSIONS[v]) : 1.0;
                points++;
                met += ratio >= target ? 1 : 0;
                cells.add(Stats.format(ratio) + " (" + Stats.format(min(ratios)) + "-" + Stats.format(max(ratios)) + ") " +
                    (ratio >= target ? "✓" : "✗"));
            }
            t.row(cells.toArray(String[]::new));
        }
        final String what = switch (app)
        {
            case "himeno" -> "Himeno " + size;
            case "cg" -> "CG (rows in blocks) class " + size;
            default -> "CG (2-D process grid) class " + size;
        };
        return String.format(Locale.ROOT, "%n%s: median over rounds; ratio = median of the per-round MFLOPS ratios. Target: at least " +
            "1.00 for threads and arena, the paper's ratio for heap (%s); met at %d of %d points%n%n%s", what,
            app.equals("himeno") ? "coarray and rma 0.85, coarray-nb 0.89" : "0.97", met, points, t);
    }

    /** The RmaTargets table: one row per run and round. */
    String targets() throws IOException
    {
        final MarkdownTable t = new MarkdownTable("form", "ranks", "round", "put 8 B / two-sided (<= 1)", "get 8 B / two-sided (<= 1)",
            "1 MiB put speed / arraycopy (>= 0.8)", "fetch_and_op / AtomicLong (>= 0.5)", "fetch_and_op /s", "AtomicLong /s");
        boolean any = false;
        for (final Path p : files())
        {
            final Matcher m = TARGETS.matcher(p.getFileName().toString());
            if (!m.matches())
            {
                continue;
            }
            for (final String raw : Files.readAllLines(p))
            {
                final String[] parts = raw.replaceFirst("^\\[\\d+\\]\\s*", "").trim().split("\\s+");
                if (parts.length == 8 && parts[0].equals("ratios"))
                {
                    any = true;
                    t.row(m.group(1), m.group(2), parts[1], mark(parts[2], 1, true), mark(parts[3], 1, true), mark(parts[4], 0.8, false),
                        mark(parts[5], 0.5, false), Stats.format(Double.parseDouble(parts[6])), Stats.format(Double.parseDouble(parts[7])));
                }
            }
        }
        return any ? "\nRmaTargets, every round (the first round follows an untimed warm-up)\n\n" + t : "";
    }

    /** The ExchangeCost table: per run and measurement, the medians over rounds of the mean and the p50 (µs). */
    String costs() throws IOException
    {
        final MarkdownTable t = new MarkdownTable("ranks (threads)", "measure", "mean µs", "p50 µs");
        boolean any = false;
        for (final Path p : files())
        {
            final Matcher m = COSTS.matcher(p.getFileName().toString());
            if (!m.matches())
            {
                continue;
            }
            final Map<String, List<double[]>> byName = new LinkedHashMap<>();
            for (final String raw : Files.readAllLines(p))
            {
                final String line = raw.replaceFirst("^\\[\\d+\\]\\s*", "");
                if (line.startsWith("#") || line.length() <= COST_NAME)
                {
                    continue;
                }
                final String[] parts = line.substring(COST_NAME).trim().split("\\s+");
                try
                {
                    byName.computeIfAbsent(line.substring(0, COST_NAME).trim(), n -> new ArrayList<>()).add(new double[] {
                        Double.parseDouble(parts[1]), Double.parseDouble(parts[2])});
                }
                catch (final NumberFormatException | ArrayIndexOutOfBoundsException ex)
                {
                    // not a result line
                }
            }
            for (final Map.Entry<String, List<double[]>> e : byName.entrySet())
            {
                any = true;
                t.row(m.group(1), e.getKey(), Stats.format(median(e.getValue(), 0)), Stats.format(median(e.getValue(), 1)));
            }
        }
        return any ? "\nExchangeCost: one halo step per version, rank 0 (medians over rounds)\n\n" + t : "";
    }

    private static String mark(final String value, final double target, final boolean atMost)
    {
        final double v = Double.parseDouble(value);
        return Stats.format(v) + ((atMost ? v <= target : v >= target) ? " ✓" : " ✗");
    }

    /**
     * Lines of code of each version's exchange: the non-blank lines of the methods that make it, less lone braces.
     * Empty when the sources are not there.
     */
    static String linesOfCode(final Path sources) throws IOException
    {
        final Map<String, String[][]> methods = new LinkedHashMap<>();
        methods.put("Himeno.java", new String[][] {{"twoSided"}, {"rmaGet"}, {"coarrayPut", "put"}, {"coarrayPut", "put"}});
        methods.put("ConjugateGradient.java", new String[][] {{"gatherTwoSided"}, {"gatherRma"}, {"gatherCoarray"}, {"gatherCoarrayNb"}});
        methods.put("ConjugateGradient2D.java", new String[][] {{"exchangeTwoSided"}, {"exchangeRma", "sumColumnBlock"},
            {"exchangeCoarray", "sumColumnBlock"}, {"exchangeCoarrayNb", "sumColumnBlock"}});
        final MarkdownTable t = new MarkdownTable("mini-app", VERSIONS[0], VERSIONS[1], VERSIONS[2], VERSIONS[3]);
        for (final Map.Entry<String, String[][]> e : methods.entrySet())
        {
            final Path file = sources.resolve(e.getKey());
            if (!Files.exists(file))
            {
                return "";
            }
            final List<String> lines = Files.readAllLines(file);
            final List<String> cells = new ArrayList<>(List.of(e.getKey().replace(".java", "")));
            for (final String[] names : e.getValue())
            {
                int count = 0;
                for (final String name : names)
                {
                    count += methodLines(lines, name);
                }
                cells.add(Integer.toString(count));
            }
            t.row(cells.toArray(String[]::new));
        }
        return "\nlines of code of the exchange per version (non-blank lines of its methods, less lone braces; "
            + "the one-sided counts in the 2-D CG include the sum they share, sumColumnBlock)\n\n" + t;
    }

    /**
     * Non-blank lines, less lone braces and the 2-D CG's phase timer calls ({@code lap(...)}: instrumentation, not
     * exchange code), of every method named {@code name} (a line {@code    private ... name(}).
     */
    static int methodLines(final List<String> lines, final String name)
    {
        final Pattern start = Pattern.compile("^    (private|public|static|final| )+[\\w<>\\[\\]]+ " + name + "\\(.*");
        int count = 0;
        for (int i = 0; i < lines.size(); i++)
        {
            if (!start.matcher(lines.get(i)).matches())
            {
                continue;
            }
            for (int j = i + 1; j < lines.size() && !lines.get(j).equals("    }"); j++)
            {
                final String l = lines.get(j).trim();
                count += l.isEmpty() || l.equals("{") || l.equals("}") || l.startsWith("lap(") ? 0 : 1;
            }
        }
        return count;
    }

    void plot(final String app, final String size, final Path file) throws IOException
    {
        final TreeMap<Layout, Map<String, List<double[]>>> runs = runs(app, size);
        final LineChart chart = new LineChart("rma-eval " + app + " " + size + ": MFLOPS by ranks (threads solid, arena JVMs dashed)",
            "ranks", true, "MFLOPS", true);
        for (int v = 0; v < VERSIONS.length; v++)
        {
            for (final String form : new String[] {"threads", "arena"})
            {
                final List<Double> xs = new ArrayList<>();
                final List<Double> ys = new ArrayList<>();
                for (final Map.Entry<Layout, Map<String, List<double[]>>> e : runs.entrySet())
                {
                    if (e.getKey().form().equals(form))
                    {
                        xs.add((double)e.getKey().ranks());
                        ys.add(median(e.getValue().get(VERSIONS[v]), 1));
                    }
                }
                if (!xs.isEmpty())
                {
                    chart.series(VERSIONS[v] + " " + form, xs.stream().mapToDouble(Double::doubleValue).toArray(),
                        ys.stream().mapToDouble(Double::doubleValue).toArray(), v, form.equals("arena"));
                }
            }
        }
        chart.write(file, 900, 560);
    }

    private List<Path> files() throws IOException
    {
        try (Stream<Path> s = Files.list(dir))
        {
            return s.sorted().toList();
        }
    }

    /** The median of column {@code column} over the rounds, NaN for no rows. */
    private static double median(final List<double[]> rows, final int column)
    {
        return rows == null ? Double.NaN : Stats.median(rows.stream().mapToDouble(r -> r[column]).toArray());
    }

    /** Per round, MFLOPS of {@code mine} over {@code base}'s. */
    private static double[] ratios(final List<double[]> mine, final List<double[]> base)
    {
        if (mine == null || base == null)
        {
            return new double[0];
        }
        return Stats.ratios(mine.stream().mapToDouble(r -> r[1]).toArray(), base.stream().mapToDouble(r -> r[1]).toArray());
    }

    private static double min(final double[] values)
    {
        return java.util.Arrays.stream(values).filter(v -> !Double.isNaN(v)).min().orElse(Double.NaN);
    }

    private static double max(final double[] values)
    {
        return java.util.Arrays.stream(values).filter(v -> !Double.isNaN(v)).max().orElse(Double.NaN);
    }
}
