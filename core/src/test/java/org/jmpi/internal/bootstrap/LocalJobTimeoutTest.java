package org.jmpi.internal.bootstrap;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.junit.jupiter.api.Assertions.assertTrue;

/** A job that hits its time limit reports its stragglers as timed out and prints where every thread was. */
@Timeout(60)
class LocalJobTimeoutTest
{
    @Test
    void shouldDumpThreadsWhenARankOutlivesTheTimeLimit()
    {
        final PrintStream saved = System.err;
        final ByteArrayOutputStream err = new ByteArrayOutputStream();
        final LocalJob.Outcome outcome;
        System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
        try
        {
            outcome = LocalJob.create(2, Map.of()).run(rank ->
            {
                if (rank == 1)
                {
                    stuckInAWait();
                }
            }, TimeUnit.MILLISECONDS.toNanos(300));
        }
        finally
        {
            System.setErr(saved);
        }
        final String printed = err.toString(StandardCharsets.UTF_8);
        assertTrue(outcome.ranks().get(0).ok(), "rank 0 finished");
        assertTrue(outcome.aborted(), "the job was ended at its limit");
        assertTrue(printed.contains("rank 1 still running at the job's time limit"), printed);
        assertTrue(printed.contains("jmpi-rank-1") && printed.contains("stuckInAWait"), "the dump shows the stuck rank's stack:\n" + printed);
    }

    private static void stuckInAWait() throws InterruptedException
    {
        Thread.sleep(20_000);
    }
}
