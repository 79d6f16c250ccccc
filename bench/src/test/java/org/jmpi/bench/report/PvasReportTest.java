package org.jmpi.bench.report;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class PvasReportTest
{
    @TempDir
    Path dir;

    private void write(final String label, final String... lines) throws Exception
    {
        Files.write(dir.resolve(label), List.of(lines));
    }

    @Test
    void shouldParseOnlyResultLines()
    {
        final var rows = PvasReport.parse(List.of("# header", "  NAS_MG_x  MIDDLE  131072 datatype  10.00  9.00  8.00",
            "jmpi: rank 0 paths ...", "  NAS_MG_x  MIDDLE  131072 manual  12.00  11.00  10.00"));
        assertEquals(2, rows.size());
        assertEquals(9.0, rows.get(new PvasReport.Key("NAS_MG_x", "MIDDLE", 131072, "datatype")));
    }

    @Test
    void shouldTabulateRatiosAndCheckTheAutoRule() throws Exception
    {
        write("exchange-threads-1.txt", "  FFT  MIDDLE  4718592 datatype  100 90 80", "  FFT  MIDDLE  4718592 manual  100 180 80");
        for (final String v : PvasReport.FIG5)
        {
            final double us = switch (v)
            {
                case "direct" -> 10;
                case "auto" -> 12;
                default -> 20;
            };
            write("fig5-threads-" + v + "-1.txt", "  NAS_MG_x sweep 1024 datatype " + us + " " + us + " " + us,
                "  NAS_MG_x sweep 2048 datatype " + us + " " + (v.equals("auto") ? 10.4 : us) + " " + us);
        }
        final PvasReport report = new PvasReport(dir, 1);
        final String exchange = report.exchange();
        assertTrue(exchange.contains("| FFT | middle | 4718592 | 90.0 | 180 | 0.50 |"), exchange);
        final String fig5 = report.figure5("threads");
        assertTrue(fig5.contains("holds at 1 of 2 points"), fig5);
        assertTrue(fig5.contains("1.20 ✗"), fig5);
        assertEquals("", report.figure15("arena"));
        assertEquals("", report.fft2d());
        write("fft2d-threads-staged-1.txt", "# fft2d", "     512       2000.0       1900.0          500.0          450.0    1.234567890e+05");
        final String fft = report.fft2d();
        assertTrue(fft.contains("| threads | 512 | staged | 1,900 | 450 | 1.234568e+05 |"), fft);
    }
}
