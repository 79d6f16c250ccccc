package org.jmpi.bench.report;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class StallReportTest
{
    private static final long MS = 1_000_000;

    @Test
    void shouldPlaceEachIterationAfterTheCellsStartAndTheIterationsBeforeIt()
    {
        final List<StallReport.Cell> cells = StallReport.cells(List.of("# header",
            "  NAS_MG_y       MIDDLE       262144 datatype      1.00   1.00   1.00   1.00   1.00",
            "#   samples(us) from epoch ms 1000: 10 2000 30"));
        assertEquals(1, cells.size());
        assertArrayEquals(new long[] {10_000, 2_000_000, 30_000}, cells.get(0).lengthNs());
        assertArrayEquals(new long[] {1000 * MS, 1000 * MS + 10_000, 1000 * MS + 2_010_000}, cells.get(0).startNs());
    }

    @Test
    void shouldCountTheSlowIterationsThatOverlapEachKindOfEvent()
    {
        final List<StallReport.Cell> cells = StallReport.cells(List.of(
            "  SPECFEM3D_cm   MIDDLE       106248 datatype      1.00   1.00   1.00   1.00   1.00",
            "#   samples(us) from epoch ms 0: 4000 20 4000 4000"));
        // Iterations: [0, 4) ms slow, [4, 4.02) fast, [4.02, 8.02) slow, [8.02, 12.02) slow.
        final List<StallReport.Span> spans = List.of(new StallReport.Span(1 * MS, 2 * MS, "jit"), new StallReport.Span(1 * MS, 2 * MS, "c2"),
            new StallReport.Span(4 * MS, 4 * MS + 10_000, "gc"), new StallReport.Span(9 * MS, 10 * MS, "late"),
            new StallReport.Span(5 * MS, 6 * MS, "late"));
        final String report = StallReport.report(cells, spans, MS);
        final String row = report.lines().filter(l -> l.contains("SPECFEM3D_cm")).findFirst().orElseThrow();
        final String[] f = row.trim().split("\\s+");
        // name (3 words), iterations, slow, jit, c2, gc, late
        assertEquals(List.of("4", "3", "1", "1", "0", "2"), List.of(f[3], f[4], f[5], f[6], f[7], f[8]), report);
        assertTrue(report.startsWith("# iterations >= 1000 us"), report);
    }
}
