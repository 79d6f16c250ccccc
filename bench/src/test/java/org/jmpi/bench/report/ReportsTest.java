package org.jmpi.bench.report;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The reports on small hand-written outputs: per-round ratios, medians, and the checksum check. */
class ReportsTest
{
    private static void write(final Path dir, final String name, final String... lines) throws IOException
    {
        Files.write(dir.resolve(name), java.util.List.of(lines));
    }

    @Test
    void shouldTakeTheMedianOfPerRoundRatios(@TempDir final Path dir) throws IOException
    {
        // Round 1 "far" (C 0.5), round 2 "near" (C 0.1), round 3 "far": the ratio per round is 2, 3, 2.
        write(dir, "c-latency-1.txt", "# C", "8 0.5 16 0.5 0.6 0.7 1 2");
        write(dir, "jmpi-latency-1.txt", "# jmpi", "8 1.0 8 1.0 1.2 1.4 2 4");
        write(dir, "c-latency-2.txt", "8 0.1 80 0.1 0.1 0.1 1 2");
        write(dir, "jmpi-latency-2.txt", "8 0.3 27 0.3 0.3 0.3 1 2");
        write(dir, "c-latency-3.txt", "8 0.5 16 0.5 0.6 0.7 1 2");
        write(dir, "jmpi-latency-3.txt", "8 1.0 8 1.0 1.2 1.4 2 4");
        final Runs runs = new Runs(dir, 3);
        assertArrayEquals(new double[] {2, 3, 2}, Stats.ratios(runs.perRound("jmpi-latency", 8, P2pReport.LAT_P50),
            runs.perRound("c-latency", 8, P2pReport.LAT_P50)), 1e-9);
        final String table = new P2pReport(runs).latency();
        assertTrue(table.contains("| 8 B | 0.50 | 1.00 | **2.00** |"), table);
        assertTrue(table.contains("2.00 3.00 2.00 |"), table);
    }

    @Test
    void shouldShowAFailedRunAsAGap(@TempDir final Path dir) throws IOException
    {
        write(dir, "c-bw-1.txt", "1 3.9 3900000 0.1 0.1 0.2 0.3 0.4");
        final String table = new P2pReport(new Runs(dir, 1)).windowed("bw", P2pReport.BW_MBS, "MB/s");
        assertTrue(table.contains("| 1 B | 3.90 | - | **-** |"), table);
    }

    @Test
    void shouldFlagHaloChecksumsThatDiffer(@TempDir final Path dir) throws IOException
    {
        write(dir, "halo-nonblocking-single-1.txt", "64 10 5 4 5 6 7 8 4.052712871e+03");
        write(dir, "halo-virtual-1.txt", "64 12 7 6 7 8 9 9 4.052712871e+03");
        assertTrue(new ThreadsReport(new Runs(dir, 1), 1).halo().contains("checksums agree"));
        write(dir, "halo-nonblocking-multiple-1.txt", "64 12 7 6 7 8 9 9 4.052712872e+03");
        assertTrue(new ThreadsReport(new Runs(dir, 1), 1).halo().contains("DIFFER"));
    }

    @Test
    void shouldWritePngCharts(@TempDir final Path dir) throws IOException
    {
        final Path png = dir.resolve("chart.png");
        new LineChart("t", "size", true, "us", true).series("a", new double[] {0, 1, 2, 4}, new double[] {1, 2, Double.NaN, 8}, 0, false)
            .write(png, 300, 200);
        final byte[] head = java.util.Arrays.copyOf(Files.readAllBytes(png), 8);
        assertArrayEquals(new byte[] {(byte)0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'}, head);
        assertEquals(0, new Runs(dir, 1).keys("missing").size());
    }
}
