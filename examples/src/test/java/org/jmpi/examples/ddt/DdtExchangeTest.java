package org.jmpi.examples.ddt;

import org.jmpi.ErrorHandler;
import org.jmpi.Mpi;
import org.jmpi.ThreadLevel;
import org.jmpi.internal.runtime.LocalJob;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link DdtExchange} with ranks as threads: all 16 patterns go from rank 0 to rank 1 and back with the
 * applications' (different) send and receive types, and arrive equal to the manual reference.
 */
class DdtExchangeTest
{
    @ParameterizedTest(name = "{0} ranks")
    @ValueSource(ints = {2, 3})
    void shouldExchangeEveryPatternBetweenRanks(final int ranks)
    {
        final AtomicBoolean allOk = new AtomicBoolean(true);
        final ByteArrayOutputStream text = new ByteArrayOutputStream();
        final PrintStream out = new PrintStream(text, true, StandardCharsets.UTF_8);
        final LocalJob.Outcome outcome = LocalJob.create(ranks, Map.of()).run(rank ->
        {
            try (Mpi mpi = Mpi.init(new String[0], ThreadLevel.SINGLE))
            {
                mpi.world().setErrorHandler(ErrorHandler.ERRORS_RETURN);
                if (!DdtExchange.run(mpi.world(), DdtSize.MIDDLE, DdtPatterns.NAMES, out))
                {
                    allOk.set(false);
                }
            }
        }, TimeUnit.SECONDS.toNanos(60));
        final String log = text.toString(StandardCharsets.UTF_8);
        assertNull(outcome.firstFailure(), () -> "rank failed: " + outcome.firstFailure() + "\n" + log);
        assertTrue(allOk.get(), log);
        for (final String name : DdtPatterns.NAMES)
        {
            assertTrue(log.contains("ddt: " + name + " ok"), () -> name + " missing in\n" + log);
        }
        assertEquals(ranks, log.lines().filter(l -> l.matches("ddt: rank \\d+ ok")).count(), log);
    }
}
