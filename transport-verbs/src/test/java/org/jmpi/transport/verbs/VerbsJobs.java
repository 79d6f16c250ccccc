package org.jmpi.transport.verbs;

import org.jmpi.internal.bootstrap.LocalJob;
import org.jmpi.spi.Transport;
import org.jmpi.spi.TransportContext;
import org.jmpi.testkit.transport.JobTransportContext;

import java.util.HashMap;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertNull;

/** Runs ranks as threads of one job, each with the verbs transport open (every rank posing as a node of its own). */
final class VerbsJobs
{
    /** What one rank does with its open transport. */
    interface Body
    {
        void run(TransportContext context, Transport transport) throws Exception;
    }

    private VerbsJobs()
    {
    }

    static void run(final int size, final Map<String, String> params, final long timeoutNs, final Body body)
    {
        final Map<String, String> all = new HashMap<>(params);
        all.put("jmpi.verbs.local", "true");
        final LocalJob job = LocalJob.create(size, all);
        final LocalJob.Outcome outcome = job.run(rank ->
        {
            final TransportContext context = JobTransportContext.of(job, rank, r -> "node-" + r, r -> "jvm-" + r);
            final VerbsTransportProvider provider = new VerbsTransportProvider();
            assertNull(provider.probe(context), "this test needs a verbs device (run it in the soft-RoCE VM)");
            try (Transport transport = provider.open(context))
            {
                context.bootstrap().fence(timeoutNs);
                body.run(context, transport);
            }
        }, timeoutNs);
        final LocalJob.RankOutcome failure = outcome.firstFailure();
        if (failure != null)
        {
            throw new AssertionError("rank " + failure.rank() + (failure.timedOut() ? " timed out" : " failed"), failure.failure());
        }
    }
}
