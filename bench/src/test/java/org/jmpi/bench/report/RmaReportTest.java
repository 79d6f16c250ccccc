package org.jmpi.bench.report;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RmaReportTest
{
    @TempDir
    Path dir;

    private void write(final String name, final String... lines) throws Exception
    {
        Files.write(dir.resolve(name), List.of(lines));
    }

    @Test
    void shouldParseTheVersionRowsInRoundOrder()
    {
        final var rows = RmaReport.parse(List.of("# jmpi Himeno XS", "# round 1", "two-sided 1.000 200.0 2.9e-03", "[0] rma 2.000 100.0 2.9e-03",
            "jmpi: warning", "# round 2", "two-sided 0.500 400.0 2.9e-03", "rma oops 1 2"));
        assertEquals(2, rows.get("two-sided").size());
        assertEquals(400.0, rows.get("two-sided").get(1)[1]);
        assertEquals(1, rows.get("rma").size());
    }

    @Test
    void shouldTabulateMediansAndPerRoundRatiosAgainstTheTargets() throws Exception
    {
        write("himeno-XS-threads-2.txt", "# round 1", "two-sided 1.0 100.0 1", "rma 1.0 120.0 1", "coarray 1.0 90.0 1", "coarray-nb 1.0 100.0 1",
            "# round 2", "two-sided 1.0 200.0 1", "rma 1.0 220.0 1", "coarray 1.0 200.0 1", "coarray-nb 1.0 300.0 1");
        write("himeno-XS-heap-2.txt", "two-sided 1.0 100.0 1", "rma 1.0 86.0 1", "coarray 1.0 80.0 1", "coarray-nb 1.0 90.0 1");
        final RmaReport report = new RmaReport(dir);
        assertEquals(List.of("XS"), report.sizes("himeno"));
        final String table = report.table("himeno", "XS");
        assertTrue(table.contains("| threads | 2 | 1.00 | 150 | 170 | 1.15 (1.10-1.20) ✓ | 145 | 0.95 (0.90-1.00) ✗ | 200 | 1.25 (1.00-1.50) ✓ |"),
            table);
        assertTrue(table.contains("| heap | 2 | 1.00 | 100 | 86.0 | 0.86 (0.86-0.86) ✓ | 80.0 | 0.80 (0.80-0.80) ✗ | 90.0 | 0.90 (0.90-0.90) ✓ |"),
            table);
        assertTrue(table.contains("met at 4 of 6 points"), table);
        assertEquals("", report.targets());
        write("targets-threads-2.txt", "round 1: ...", "ratios 1 0.1000 0.2000 1.1000 0.4500 2.5e+07 5.5e+07");
        final String targets = report.targets();
        assertTrue(targets.contains("| threads | 2 | 1 | 0.10 ✓ | 0.20 ✓ | 1.10 ✓ | 0.45 ✗ | 25,000,000 | 55,000,000 |"), targets);
        report.plot("himeno", "XS", dir.resolve("plot.png"));
        assertTrue(Files.size(dir.resolve("plot.png")) > 0);
    }

    @Test
    void shouldTabulateTheExchangeCostsByMeasure() throws Exception
    {
        write("costs-threads-2.txt", "# jmpi halo-step costs", String.format(Locale.ROOT, "%-22s %6d %10.2f %11.2f %11.2f", "rma get", 1, 3.0, 2.0, 4.0),
            String.format(Locale.ROOT, "%-22s %6d %10.2f %11.2f %11.2f", "rma get", 2, 5.0, 4.0, 6.0),
            String.format(Locale.ROOT, "%-22s %6d %10.2f %11.2f %11.2f", "syncAll", 1, 1.5, 1.25, 2.0));
        final String costs = new RmaReport(dir).costs();
        assertTrue(costs.contains("| 2 | rma get | 4.00 | 3.00 |"), costs);
        assertTrue(costs.contains("| 2 | syncAll | 1.50 | 1.25 |"), costs);
    }

    @Test
    void shouldCountTheLinesOfAMethodLessBlanksLoneBracesAndPhaseTimers()
    {
        final List<String> source = List.of("    private void exchange()", "    {", "        a();", "", "        if (x)", "        {", "            b();",
            "        }", "        lap(SUM);", "    }", "    private void other()", "    {", "        c();", "    }");
        assertEquals(3, RmaReport.methodLines(source, "exchange"));
        assertEquals(1, RmaReport.methodLines(source, "other"));
        assertEquals(0, RmaReport.methodLines(source, "missing"));
    }
}
