package org.jmpi.bench.threads;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class OverlapTest
{
    @Test
    void shouldParsePositiveFactors()
    {
        assertArrayEquals(new double[] {0.25, 1, 4}, Overlap.parseFactors("0.25, 1,4"));
    }

    @Test
    void shouldRejectZeroNegativeAndWords()
    {
        assertThrows(IllegalArgumentException.class, () -> Overlap.parseFactors("0"));
        assertThrows(IllegalArgumentException.class, () -> Overlap.parseFactors("1,-2"));
        assertThrows(IllegalArgumentException.class, () -> Overlap.parseFactors("one"));
    }
}
