package org.jmpi.bench.report;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The rows a bench harness or its C twin printed: lines starting with {@code #} are comments, every
 * other non-blank line is whitespace-separated numbers keyed by its first column (the message size,
 * the thread count...). A {@code [rank] } prefix, as a launcher may add, is dropped; a line with a word
 * that is not a number is skipped, so a warning a rank printed does not end the parse.
 *
 * <p>Threading: immutable once read.
 */
public final class ResultTable
{
    private final TreeMap<Long, double[]> rows;

    private ResultTable(final TreeMap<Long, double[]> rows)
    {
        this.rows = rows;
    }

    /** Parses the lines of one run's output. */
    public static ResultTable parse(final List<String> lines)
    {
        final TreeMap<Long, double[]> rows = new TreeMap<>();
        for (final String raw : lines)
        {
            final String line = raw.replaceFirst("^\\[\\d+\\]\\s*", "").trim();
            if (line.isEmpty() || line.startsWith("#"))
            {
                continue;
            }
            final String[] parts = line.split("\\s+");
            final double[] values = new double[parts.length];
            boolean numeric = true;
            for (int i = 0; i < parts.length && numeric; i++)
            {
                try
                {
                    values[i] = Double.parseDouble(parts[i]);
                }
                catch (final NumberFormatException ex)
                {
                    numeric = false;
                }
            }
            if (numeric)
            {
                rows.put((long)values[0], values);
            }
        }
        return new ResultTable(rows);
    }

    /** Reads {@code file}; a missing file gives an empty table (a run that failed shows as gaps). */
    public static ResultTable read(final Path file) throws IOException
    {
        return Files.exists(file) ? parse(Files.readAllLines(file)) : new ResultTable(new TreeMap<>());
    }

    /** The keys (first column), ascending. */
    public List<Long> keys()
    {
        return new ArrayList<>(rows.keySet());
    }

    /** Column {@code column} (0 is the key) of the row keyed {@code key}, or NaN when either is missing. */
    public double value(final long key, final int column)
    {
        final double[] row = rows.get(key);
        return row == null || column >= row.length ? Double.NaN : row[column];
    }

    /** Whether no row was read. */
    public boolean isEmpty()
    {
        return rows.isEmpty();
    }

    /** The rows, for iteration: key to all columns. */
    public Map<Long, double[]> rows()
    {
        return Collections.unmodifiableMap(rows);
    }
}
