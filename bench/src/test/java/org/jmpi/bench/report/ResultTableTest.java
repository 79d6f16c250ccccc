package org.jmpi.bench.report;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ResultTableTest
{
    @Test
    void shouldKeyRowsByTheirFirstColumnAndSkipCommentsAndNoise()
    {
        final ResultTable t = ResultTable.parse(List.of(
            "# jmpi ping-pong latency",
            "# Size   Latency (us)",
            "",
            "8   0.52  15.38  0.41",
            "[0] 16  0.60  26.70  0.45",
            "WARNING: something a rank printed",
            "1048576  64.0  16384.0  60.1  7.5e+01"));
        assertEquals(List.of(8L, 16L, 1048576L), t.keys());
        assertEquals(0.41, t.value(8, 3));
        assertEquals(0.45, t.value(16, 3));
        assertEquals(75.0, t.value(1048576, 4));
    }

    @Test
    void shouldGiveNaNForMissingRowsAndColumns()
    {
        final ResultTable t = ResultTable.parse(List.of("8 1 2"));
        assertTrue(Double.isNaN(t.value(8, 5)));
        assertTrue(Double.isNaN(t.value(16, 1)));
        assertTrue(ResultTable.parse(List.of("# only a header")).isEmpty());
    }
}
