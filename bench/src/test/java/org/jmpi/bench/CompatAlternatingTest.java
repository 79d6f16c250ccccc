package org.jmpi.bench;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.jmpi.internal.bootstrap.LocalJob;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Timeout;

import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The compat-against-core harness (issue 13, item 5) runs every part once at a small count, ranks as threads: each
 * part prints a line with both sides' times, a ratio and the bytes per call.
 */
@Timeout(300)
class CompatAlternatingTest
{
    private static final List<String> PARTS = List.of("allreduce", "latency", "bw", "barrier",
        "bibw-8", "latency-1048576", "bw-1048576", "bibw-1048576", "bcast-8", "reduce-8", "allreduce-8", "gather-8", "scatter-8", "allgather-8", "alltoall-8",
        "bcast-1048576", "reduce-1048576", "allreduce-1048576", "gather-1048576", "scatter-1048576", "allgather-1048576",
        "alltoall-1048576");

    @ParameterizedTest
    @ValueSource(strings = {"arrays", "buffer"})
    void shouldPrintEveryPartForBothSides(final String kind)
    {
        final PrintStream saved = System.out;
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        final LocalJob.Outcome outcome;
        System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
        try
        {
            outcome = LocalJob.create(2, Map.of())
                .run(rank -> CompatAlternating.main(new String[] {"3", "40", "-a", kind}), TimeUnit.SECONDS.toNanos(240));
        }
        finally
        {
            System.setOut(saved);
        }
        final String printed = out.toString(StandardCharsets.UTF_8);
        assertNull(outcome.firstFailure(), () -> "job failed: " + outcome.firstFailure() + "\n" + printed);
        for (final String part : PARTS)
        {
            assertTrue(printed.lines().anyMatch(l -> l.matches(part + " +[0-9.]+ +[0-9.]+ +[0-9.]+ .*")),
                "no line for " + part + " in:\n" + printed);
        }
    }
}
