package org.jmpi.transport.verbs;

import org.jmpi.MpiException;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * A peer whose queue pair vanishes mid-stream (released without a BYE, as the kernel does for a killed
 * process; pairs connected while opening) is reported as that rank's death by the sender's progress, naming it,
 * instead of a hang; so is a peer gone before the first message (lazy connection: its listener is closed).
 */
@Tag("rdma")
@Timeout(120)
class VerbsDeadPeerTest
{
    private static final long TIMEOUT_NS = TimeUnit.SECONDS.toNanos(90);

    @Test
    void shouldReportTheRankWhoseQueuePairVanished()
    {
        run("eager");
    }

    @Test
    void shouldReportTheRankThatWasGoneBeforeTheFirstMessage()
    {
        run("lazy");
    }

    private static void run(final String connect)
    {
        VerbsJobs.run(2, Map.of(VerbsParams.CONNECT.name(), connect), TIMEOUT_NS, (context, transport) ->
        {
            if (context.rank() == 1)
            {
                ((VerbsTransport)transport).abandon();
                context.bootstrap().put("abandoned", new byte[] {1});
                return;
            }
            context.bootstrap().get("abandoned", TIMEOUT_NS);
            final long start = System.nanoTime();
            final long deadline = start + TIMEOUT_NS - TimeUnit.SECONDS.toNanos(10);
            long sent = 0;
            long report = start;
            try
            {
                while (System.nanoTime() < deadline)
                {
                    sent += transport.offer(1, 1024, (buffer, index, length) -> buffer.setMemory(index, length, (byte)7)) ? 1 : 0;
                    transport.progress((src, buffer, index, length) -> fail("no frame expected"));
                    if (System.nanoTime() - report > TimeUnit.SECONDS.toNanos(5))
                    {
                        report = System.nanoTime();
                        System.out.println("VerbsDeadPeerTest: " + sent + " frames accepted, no failure yet after " +
                            TimeUnit.NANOSECONDS.toSeconds(report - start) + " s");
                    }
                }
                fail("rank 1's death was never reported");
            }
            catch (final MpiException ex)
            {
                System.out.println("VerbsDeadPeerTest: reported after " + TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start) +
                    " ms: " + ex.getMessage());
                assertTrue(ex.getMessage().contains("verbs: rank 1 is gone"), ex.getMessage());
            }
        });
    }
}
