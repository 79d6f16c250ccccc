package org.jmpi.bench.report;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * The outputs of one comparison script's rounds: {@code DIR/{label}-{round}.txt} for rounds 1..R, read
 * once each. {@link #perRound} gives one value per round (NaN where a run failed or lacks the row), so
 * a report can take medians over rounds and medians of per-round ratios.
 *
 * <p>Threading: confined to the caller.
 */
public final class Runs
{
    private final Path dir;
    private final int rounds;
    private final Map<String, ResultTable> cache = new HashMap<>();

    public Runs(final Path dir, final int rounds)
    {
        if (rounds < 1)
        {
            throw new IllegalArgumentException("rounds must be at least 1, got " + rounds);
        }
        this.dir = dir;
        this.rounds = rounds;
    }

    /** The directory the runs are in. */
    public Path dir()
    {
        return dir;
    }

    /** The table of {@code label} in round {@code round} (1-based); empty when the file is missing. */
    public ResultTable table(final String label, final int round) throws IOException
    {
        final String name = label + "-" + round + ".txt";
        ResultTable t = cache.get(name);
        if (t == null)
        {
            t = ResultTable.read(dir.resolve(name));
            cache.put(name, t);
        }
        return t;
    }

    /** Column {@code column} of the row {@code key} of {@code label}, one value per round. */
    public double[] perRound(final String label, final long key, final int column) throws IOException
    {
        final double[] values = new double[rounds];
        for (int r = 0; r < rounds; r++)
        {
            values[r] = table(label, r + 1).value(key, column);
        }
        return values;
    }

    /** The median over rounds of {@link #perRound}. */
    public double median(final String label, final long key, final int column) throws IOException
    {
        return Stats.median(perRound(label, key, column));
    }

    /** Every key any round of any of {@code labels} has, ascending. */
    public List<Long> keys(final String... labels) throws IOException
    {
        final TreeSet<Long> keys = new TreeSet<>();
        for (final String label : labels)
        {
            for (int r = 1; r <= rounds; r++)
            {
                keys.addAll(table(label, r).keys());
            }
        }
        return new ArrayList<>(keys);
    }

    /** Adds the series "median over rounds of {@code column} by key" of {@code label} to {@code chart}; x = key / xDivisor. */
    public void addSeries(final LineChart chart, final String name, final String label, final int column, final double xDivisor,
        final int colour, final boolean dash) throws IOException
    {
        final List<Long> keys = keys(label);
        final double[] xs = new double[keys.size()];
        final double[] ys = new double[keys.size()];
        for (int i = 0; i < xs.length; i++)
        {
            xs[i] = keys.get(i) / xDivisor;
            ys[i] = median(label, keys.get(i), column);
        }
        chart.series(name, xs, ys, colour, dash);
    }

    /** The values formatted and joined by spaces ("1.20 0.95 1.31"), for a per-round column. */
    public static String joined(final double[] values)
    {
        final StringBuilder sb = new StringBuilder();
        for (final double v : values)
        {
            sb.append(sb.isEmpty() ? "" : " ").append(Stats.format(v));
        }
        return sb.toString();
    }
}
