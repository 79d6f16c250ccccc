package org.jmpi.bench.report;

import java.util.ArrayList;
import java.util.List;

/**
 * A Markdown (GitHub) table built row by row: {@code new MarkdownTable("size", "C", "jmpi").row("8 B",
 * "0.25", "0.86").toString()}. A row with fewer cells than headers is padded with "-".
 *
 * <p>Threading: confined to the caller.
 */
public final class MarkdownTable
{
    private final List<String> headers;
    private final List<List<String>> rows = new ArrayList<>();

    public MarkdownTable(final String... headers)
    {
        this.headers = List.of(headers);
    }

    /**
     * Adds a row.
     *
     * @throws IllegalArgumentException when it has more cells than there are headers.
     */
    public MarkdownTable row(final String... cells)
    {
        if (cells.length > headers.size())
        {
            throw new IllegalArgumentException("row has " + cells.length + " cells, table has " + headers.size() + " columns");
        }
        final List<String> row = new ArrayList<>(List.of(cells));
        while (row.size() < headers.size())
        {
            row.add("-");
        }
        rows.add(row);
        return this;
    }

    @Override
    public String toString()
    {
        final StringBuilder sb = new StringBuilder();
        sb.append("| ").append(String.join(" | ", headers)).append(" |\n|");
        sb.append("---|".repeat(headers.size())).append('\n');
        for (final List<String> row : rows)
        {
            sb.append("| ").append(String.join(" | ", row)).append(" |\n");
        }
        return sb.toString();
    }
}
