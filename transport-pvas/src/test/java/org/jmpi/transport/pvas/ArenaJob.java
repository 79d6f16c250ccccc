package org.jmpi.transport.pvas;

import org.jmpi.internal.bootstrap.LocalJob;
import org.jmpi.spi.TransportContext;
import org.jmpi.testkit.transport.JobTransportContext;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Tests' job of ranks as threads that present separate JVMs, each with the arena transport open (at the SPI, without
 * the protocol): the body runs between two fences and the first rank failure fails the test.
 */
final class ArenaJob
{
    static final long WAIT_NS = TimeUnit.SECONDS.toNanos(60);

    /** One rank's body. */
    @FunctionalInterface
    interface Body
    {
        void run(int rank, TransportContext context, PvasTransport transport) throws Throwable;
    }

    private ArenaJob()
    {
    }

    static void run(final int size, final Path shmDir, final Map<String, String> params, final Body body)
    {
        final Map<String, String> all = new HashMap<>(params);
        all.put("jmpi.shm.dir", shmDir.toString());
        final LocalJob job = LocalJob.create(size, all);
        final LocalJob.Outcome outcome = job.run(rank ->
        {
            final TransportContext context = JobTransportContext.separateJvms(job, rank);
            try (PvasTransport transport = (PvasTransport)new PvasTransportProvider().open(context))
            {
                context.bootstrap().fence(WAIT_NS);
                body.run(rank, context, transport);
                context.bootstrap().fence(WAIT_NS);
            }
        }, TimeUnit.SECONDS.toNanos(90));
        final LocalJob.RankOutcome failed = outcome.firstFailure();
        if (failed != null)
        {
            throw new AssertionError("rank " + failed.rank() + (failed.timedOut() ? " timed out" : " failed"), failed.failure());
        }
    }
}
