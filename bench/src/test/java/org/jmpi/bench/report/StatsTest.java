package org.jmpi.bench.report;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class StatsTest
{
    @Test
    void shouldTakeMediansIgnoringMissingValues()
    {
        assertEquals(2.0, Stats.median(3, 1, 2));
        assertEquals(2.5, Stats.median(4, 1, 3, 2));
        assertEquals(2.0, Stats.median(Double.NaN, 1, 3));
        assertTrue(Double.isNaN(Stats.median(Double.NaN)));
        assertTrue(Double.isNaN(Stats.median()));
    }

    @Test
    void shouldDivideElementWise()
    {
        final double[] r = Stats.ratios(new double[] {2, 3, Double.NaN, 1}, new double[] {1, 6, 1, 0});
        assertArrayEquals(new double[] {2, 0.5, Double.NaN, Double.NaN}, r);
    }

    @Test
    void shouldFormatAboutThreeSignificantDigits()
    {
        assertEquals("0.046", Stats.format(0.0456));
        assertEquals("0.52", Stats.format(0.5249));
        assertEquals("0.00", Stats.format(0));
        assertEquals("12.3", Stats.format(12.34));
        assertEquals("123", Stats.format(123.4));
        assertEquals("24,000,000", Stats.format(24e6));
        assertEquals("-", Stats.format(Double.NaN));
    }

    @Test
    void shouldFormatSizesAsTheDocsWriteThem()
    {
        assertEquals("0 B", Stats.formatSize(0));
        assertEquals("8 B", Stats.formatSize(8));
        assertEquals("1536 B", Stats.formatSize(1536));
        assertEquals("4 KiB", Stats.formatSize(4096));
        assertEquals("4 MiB", Stats.formatSize(4 << 20));
    }
}
