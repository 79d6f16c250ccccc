package org.jmpi.transport.verbs;

import org.jmpi.internal.bootstrap.LocalJob;
import org.jmpi.testkit.transport.JobTransportContext;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The provider's decisions without a device: when it wants to open, and why it cannot. */
class VerbsTransportProviderTest
{
    @Test
    void shouldSayNoLibraryWhenLibibverbsIsMissing()
    {
        final LocalJob job = LocalJob.create(2, Map.of("jmpi.verbs.library", "jmpi-no-such-ibverbs"));
        final String reason = new VerbsTransportProvider().probe(JobTransportContext.of(job, 0, r -> "node-" + r, r -> "jvm-" + r));
        assertTrue(reason != null && reason.startsWith("verbs: no library: "), reason);
    }

    @Test
    void shouldStayClosedWhenEveryRankIsOnThisNodeUnlessAskedFor()
    {
        final LocalJob job = LocalJob.create(2, Map.of());
        final String reason = new VerbsTransportProvider().probe(JobTransportContext.of(job, 0, r -> "node", r -> "jvm-" + r));
        assertTrue(reason != null && reason.startsWith("verbs: every rank is on this node"), reason);
        assertTrue(VerbsTransportProvider.wanted(JobTransportContext.of(LocalJob.create(2, Map.of("jmpi.verbs.local", "true")), 0,
            r -> "node", r -> "jvm-" + r)));
        assertTrue(VerbsTransportProvider.wanted(JobTransportContext.of(LocalJob.create(2, Map.of()), 0, r -> "node-" + r, r -> "jvm-" + r)));
    }

    @Test
    void shouldTreatVerbsNamedInTransportsAsAsked()
    {
        assertTrue(VerbsTransportProvider.namedInTransports("verbs,jvm"));
        assertTrue(VerbsTransportProvider.namedInTransports(" shm , VERBS "));
        assertFalse(VerbsTransportProvider.namedInTransports("all"));
        assertFalse(VerbsTransportProvider.namedInTransports("^verbs"));
        assertFalse(VerbsTransportProvider.namedInTransports("tcp,jvm"));
    }

    @Test
    void shouldNeverThrowFromProbeOnThisMachine()
    {
        final LocalJob job = LocalJob.create(2, Map.of("jmpi.verbs.local", "true"));
        final String reason = new VerbsTransportProvider().probe(JobTransportContext.of(job, 1, r -> "node", r -> "jvm-" + r));
        if (reason != null)
        {
            assertTrue(reason.startsWith("verbs: no library: ") || reason.startsWith("verbs: no device: ") ||
                reason.startsWith("verbs: no active port: "), reason);
        }
        assertEquals(VerbsTransportProvider.NAME, new VerbsTransportProvider().name());
    }
}
