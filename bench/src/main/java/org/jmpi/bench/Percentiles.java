package org.jmpi.bench;

import org.HdrHistogram.Histogram;

import java.util.Locale;

/**
 * Latency percentiles in the columns every bench harness prints after its OSU-style figures: p50, p90,
 * p99, p99.9 and max, in microseconds. The values come from an HdrHistogram of nanoseconds with three
 * significant digits (0.1% resolution), so a reported percentile is within 0.1% of the recorded value at
 * that rank. The C twins in bench/c print the same columns from a sorted array with the same rank rule
 * (nearest rank: the smallest value with at least {@code ceil(p/100 * count)} values at or below it).
 *
 * <p>Threading: static helpers; a {@link Histogram} is not thread-safe, so each recording thread has its
 * own and they are {@link Histogram#add added} together.
 */
public final class Percentiles
{
    /** The percentiles reported, in order. */
    static final double[] PERCENTILES = {50.0, 90.0, 99.0, 99.9};

    /** The column headers matching {@link #columns}: {@code p50 (us) p90 (us) p99 (us) p99.9 (us) max (us)}. */
    public static final String HEADER = String.format(Locale.ROOT, "%11s %11s %11s %11s %11s", "p50 (us)", "p90 (us)", "p99 (us)",
        "p99.9 (us)", "max (us)");

    private Percentiles()
    {
    }

    /** A histogram of nanoseconds from 1 ns up, three significant digits, growing as needed. */
    public static Histogram newHistogram()
    {
        final Histogram h = new Histogram(3);
        h.setAutoResize(true);
        return h;
    }

    /**
     * The five columns for {@code histogram} (values in ns) divided by {@code divisor} (2 turns a
     * round trip into one-way latency), in µs with two decimals, each 11 characters wide.
     */
    public static String columns(final Histogram histogram, final double divisor)
    {
        final StringBuilder sb = new StringBuilder();
        for (final double p : PERCENTILES)
        {
            sb.append(String.format(Locale.ROOT, "%11.2f ", histogram.getValueAtPercentile(p) / 1e3 / divisor));
        }
        sb.append(String.format(Locale.ROOT, "%11.2f", histogram.getMaxValue() / 1e3 / divisor));
        return sb.toString();
    }
}
