package org.jmpi.bench.ddt;

import org.jmpi.Ranks;
import org.jmpi.ThreadLevel;
import org.jmpi.examples.ddt.DdtPatterns;
import org.jmpi.examples.ddt.DdtSize;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The exchange harness at CI size (DDTBench's middle size, a few iterations): every pattern's datatype and manual
 * methods leave the same buffers on both ranks, and rank 0 prints a line per pattern and method, between threads
 * and, with arena buffers, between ranks that present separate JVMs (every peer through the arena transport).
 */
@Timeout(600)
class DdtPingPongTest
{
    @TempDir
    Path shmDir;

    @Test
    void shouldExchangeEveryPatternBetweenThreads()
    {
        assertEquals(2 * DdtPatterns.NAMES.size(), exchange(Map.of(), false, DdtPatterns.NAMES, new long[0]).size());
    }

    @Test
    void shouldExchangeEveryPatternBetweenArenaBuffersOfTwoJvms()
    {
        final Map<String, String> arena = Map.of("jmpi.transports", "pvas,jvm", "jmpi.jvm.isolate", "true",
            "jmpi.shm.dir", shmDir.toString(), "jmpi.pvas.partition.size", "64m");
        assertEquals(2 * DdtPatterns.NAMES.size(), exchange(arena, true, DdtPatterns.NAMES, new long[0]).size());
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"auto", "direct", "staged"})
    void shouldSweepCutLayoutsInEveryMode(final String mode)
    {
        final List<String> lines = exchange(Map.of("jmpi.pvas.mode", mode, "jmpi.eager.limit", "0", "jmpi.fragment.size", "4k"), false,
            List.of("NAS_MG_x", "SPECFEM3D_cm", "LAMMPS_atomic"), new long[] {1024, 8192, 65536});
        // LAMMPS_atomic's largest message is under 64 KiB: that point is left out.
        assertEquals(8, lines.size(), String.join("\n", lines));
        assertTrue(lines.stream().allMatch(l -> l.contains(" sweep ") && l.contains(" datatype ")), String.join("\n", lines));
    }

    /** Runs the harness between 2 ranks; returns rank 0's result lines. */
    private static List<String> exchange(final Map<String, String> params, final boolean arena, final List<String> patterns,
        final long[] sweep)
    {
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        final DdtPingPong.Options options = new DdtPingPong.Options(patterns, List.of(DdtSize.MIDDLE), List.of("datatype", "manual"),
            arena, 2, 1, sweep, "test");
        Ranks.run(2, ThreadLevel.SINGLE, params, (mpi, world) ->
        {
            final PrintStream out = world.rank() == 0 ? new PrintStream(bytes, true, StandardCharsets.UTF_8) :
                new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);
            assertTrue(DdtPingPong.run(mpi, world, options, out), () -> bytes.toString(StandardCharsets.UTF_8));
        });
        final String text = bytes.toString(StandardCharsets.UTF_8);
        assertTrue(text.startsWith("# DDTBench exchange (jmpi, issue 11): test, buffers=" + (arena ? "arena" : "heap")), text);
        return text.lines().filter(l -> !l.startsWith("#")).toList();
    }
}
