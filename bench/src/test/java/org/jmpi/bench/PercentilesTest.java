package org.jmpi.bench;

import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

class PercentilesTest
{
    private static double[] parse(final String columns)
    {
        final String[] parts = columns.trim().split("\\s+");
        final double[] values = new double[parts.length];
        for (int i = 0; i < parts.length; i++)
        {
            values[i] = Double.parseDouble(parts[i]);
        }
        return values;
    }

    @Test
    void shouldGiveNearestRankPercentilesInMicroseconds()
    {
        final Histogram h = Percentiles.newHistogram();
        for (int i = 1; i <= 1000; i++)
        {
            h.recordValue(i * 1000L); // 1..1000 us
        }
        final double[] v = parse(Percentiles.columns(h, 1.0));
        assertEquals(5, v.length);
        // within HdrHistogram's 3 significant digits of the nearest-rank values 500, 900, 990, 999 and 1000
        assertEquals(500, v[0], 0.5);
        assertEquals(900, v[1], 0.9);
        assertEquals(990, v[2], 1.0);
        assertEquals(999, v[3], 1.0);
        assertEquals(1000, v[4], 1.0);
    }

    @Test
    void shouldDivideRoundTripsIntoOneWayTimes()
    {
        final Histogram h = Percentiles.newHistogram();
        h.recordValueWithCount(2_000, 99);
        h.recordValue(400_000);
        final double[] v = parse(Percentiles.columns(h, 2.0));
        assertEquals(1.0, v[0], 0.01);
        assertEquals(1.0, v[2], 0.01); // 99 of 100 samples are 2 us round trips
        assertEquals(200.0, v[3], 0.3);
        assertEquals(200.0, v[4], 0.3);
    }

    @Test
    void shouldLineColumnsUpUnderTheHeader()
    {
        final Histogram h = Percentiles.newHistogram();
        h.recordValue(1234);
        assertEquals(Percentiles.HEADER.length(), Percentiles.columns(h, 1.0).length());
        assertEquals(5, Percentiles.HEADER.trim().split("\\)\\s+").length);
    }

    @Test
    void shouldGrowForLongStalls()
    {
        final Histogram h = Percentiles.newHistogram();
        h.recordValue(5_000_000_000L); // a 5 s preemption
        assertEquals(5_000_000, parse(Percentiles.columns(h, 1.0))[4], 5_000);
    }
}
