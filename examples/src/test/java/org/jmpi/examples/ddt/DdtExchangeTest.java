package org.jmpi.examples.ddt;

import org.jmpi.Comm;
import org.jmpi.junit.MpiTest;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link DdtExchange} with ranks as threads: all 16 patterns go from rank 0 to rank 1 and back with the
 * applications' (different) send and receive types, and arrive equal to the manual reference.
 */
class DdtExchangeTest
{
    @MpiTest(ranks = {2, 3})
    void shouldExchangeEveryPatternBetweenRanks(final Comm comm)
    {
        final ByteArrayOutputStream text = new ByteArrayOutputStream();
        final boolean ok = DdtExchange.run(comm, DdtSize.MIDDLE, DdtPatterns.NAMES, new PrintStream(text, true, StandardCharsets.UTF_8));
        final String log = text.toString(StandardCharsets.UTF_8);
        assertTrue(ok, log);
        assertTrue(log.contains("ddt: rank " + comm.rank() + " ok"), log);
        if (comm.rank() == 0)
        {
            for (final String name : DdtPatterns.NAMES)
            {
                assertTrue(log.contains("ddt: " + name + " ok"), () -> name + " missing in\n" + log);
            }
        }
    }
}
