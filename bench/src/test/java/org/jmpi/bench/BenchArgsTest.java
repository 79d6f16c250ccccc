package org.jmpi.bench;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class BenchArgsTest
{
    @Test
    void shouldSeparatePositionalsValuedOptionsAndFlags()
    {
        final BenchArgs a = BenchArgs.parse(new String[] {"bibw", "--window", "32", "65536", "--direct", "--iterations=50"},
            "--window", "--iterations");
        assertEquals(2, a.positionalCount());
        assertEquals("bibw", a.positional(0));
        assertEquals(65536, a.positionalInt(1, 0));
        assertEquals(32, a.intOption("--window", 64));
        assertEquals(50, a.intOption("--iterations", 1000));
        assertTrue(a.flag("--direct"));
        assertFalse(a.flag("--verbose"));
    }

    @Test
    void shouldTreatANumberAfterAFlagAsPositional()
    {
        final BenchArgs a = BenchArgs.parse(new String[] {"--direct", "4096"}, "--jit-warmup");
        assertTrue(a.flag("--direct"));
        assertEquals(4096, a.positionalInt(0, 0));
    }

    @Test
    void shouldFallBackWhenAbsent()
    {
        final BenchArgs a = BenchArgs.parse(new String[0], "--window");
        assertEquals(64, a.intOption("--window", 64));
        assertEquals(4194304, a.positionalInt(0, 4194304));
        assertEquals("virtual", a.option("--comm", "virtual"));
        assertArrayEquals(new int[] {1, 2}, a.intListOption("--threads", 1, 2));
    }

    @Test
    void shouldParseIntLists()
    {
        final BenchArgs a = BenchArgs.parse(new String[] {"--threads", "1, 4,1000"}, "--threads");
        assertArrayEquals(new int[] {1, 4, 1000}, a.intListOption("--threads", 8));
    }

    @Test
    void shouldRejectBadValuesNamingTheOption()
    {
        final BenchArgs a = BenchArgs.parse(new String[] {"--window", "lots", "--threads", "1,0", "--size", "-3", "x"},
            "--window", "--threads", "--size");
        final IllegalArgumentException window = assertThrows(IllegalArgumentException.class, () -> a.intOption("--window", 64));
        assertTrue(window.getMessage().contains("--window") && window.getMessage().contains("lots"), window.getMessage());
        final IllegalArgumentException threads = assertThrows(IllegalArgumentException.class, () -> a.intListOption("--threads", 1));
        assertTrue(threads.getMessage().contains("--threads"), threads.getMessage());
        assertThrows(IllegalArgumentException.class, () -> a.intOption("--size", 8));
        assertThrows(IllegalArgumentException.class, () -> a.positionalInt(0, 1));
    }

    @Test
    void shouldRejectAValuedOptionWithoutValue()
    {
        final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class,
            () -> BenchArgs.parse(new String[] {"--window"}, "--window"));
        assertTrue(ex.getMessage().contains("--window"));
    }
}
