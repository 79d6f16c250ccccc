package org.jmpi.bench.report;

import java.util.Arrays;
import java.util.Locale;

/**
 * Small statistics and number formats for the comparison reports: medians that ignore missing values
 * (NaN) and a compact format with about three significant digits.
 *
 * <p>Threading: static and pure.
 */
public final class Stats
{
    private Stats()
    {
    }

    /** The median of the values that are not NaN (the mean of the middle two for an even count), or NaN when none is. */
    public static double median(final double... values)
    {
        final double[] present = Arrays.stream(values).filter(v -> !Double.isNaN(v)).sorted().toArray();
        if (present.length == 0)
        {
            return Double.NaN;
        }
        final int mid = present.length / 2;
        return present.length % 2 == 1 ? present[mid] : (present[mid - 1] + present[mid]) / 2;
    }

    /** Element-wise {@code a[i] / b[i]}; NaN where either is NaN or {@code b[i]} is 0. */
    public static double[] ratios(final double[] a, final double[] b)
    {
        final double[] r = new double[Math.min(a.length, b.length)];
        for (int i = 0; i < r.length; i++)
        {
            r[i] = b[i] == 0 ? Double.NaN : a[i] / b[i];
        }
        return r;
    }

    /**
     * About three significant digits: {@code 0.046}, {@code 0.52}, {@code 12.3}, and from 1,000 up
     * whole numbers with thousands separated by commas ({@code 24,000,000}); "-" for NaN.
     */
    public static String format(final double value)
    {
        if (Double.isNaN(value))
        {
            return "-";
        }
        final double abs = Math.abs(value);
        if (abs >= 1000)
        {
            return String.format(Locale.ROOT, "%,.0f", value);
        }
        if (abs >= 100)
        {
            return String.format(Locale.ROOT, "%.0f", value);
        }
        if (abs >= 10)
        {
            return String.format(Locale.ROOT, "%.1f", value);
        }
        if (abs >= 0.1 || abs == 0)
        {
            return String.format(Locale.ROOT, "%.2f", value);
        }
        return String.format(Locale.ROOT, "%.3f", value);
    }

    /** A size in bytes as the docs write it: {@code 0 B}, {@code 8 B}, {@code 4 KiB}, {@code 1 MiB}. */
    public static String formatSize(final long bytes)
    {
        if (bytes >= (1L << 20) && bytes % (1L << 20) == 0)
        {
            return (bytes >> 20) + " MiB";
        }
        if (bytes >= 1024 && bytes % 1024 == 0)
        {
            return (bytes >> 10) + " KiB";
        }
        return bytes + " B";
    }
}
