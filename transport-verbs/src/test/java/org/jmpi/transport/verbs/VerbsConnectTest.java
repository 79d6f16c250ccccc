package org.jmpi.transport.verbs;

import org.jmpi.spi.Transport;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Connection on the connector's helper threads (docs/verbs.md, "Connection"): lazily only the pairs that talk are
 * connected, requests that cross connect one pair, eager mode connects every pair while opening.
 */
@Tag("rdma")
@Timeout(180)
class VerbsConnectTest
{
    private static final long TIMEOUT_NS = TimeUnit.SECONDS.toNanos(150);

    @Test
    void shouldConnectOnlyThePairsThatTalkAndCrossingRequestsOnce()
    {
        VerbsJobs.run(3, Map.of(), TIMEOUT_NS, (context, transport) ->
        {
            final VerbsTransport verbs = (VerbsTransport)transport;
            for (int r = 0; r < 3; r++)
            {
                if (r != context.rank())
                {
                    assertEquals(Peer.NONE, verbs.peerSlot(r).state, "rank " + context.rank() + " to " + r + " after open");
                }
            }
            // Ranks 0 and 1 send to each other at once (their requests cross); rank 2 talks to nobody.
            final int[] received = new int[1];
            if (context.rank() < 2)
            {
                final int peer = 1 - context.rank();
                int sent = 0;
                final long deadline = System.nanoTime() + TIMEOUT_NS / 2;
                while ((sent < 10 || received[0] < 10) && System.nanoTime() < deadline)
                {
                    if (sent < 10 && transport.offer(peer, 8, (buffer, index, length) -> buffer.putLong(index, 42)))
                    {
                        sent++;
                    }
                    transport.progress((src, buffer, index, length) ->
                    {
                        assertEquals(peer, src);
                        assertEquals(42, buffer.getLong(index));
                        received[0]++;
                    });
                }
                assertEquals(10, sent, "rank " + context.rank() + " sent");
                assertEquals(10, received[0], "rank " + context.rank() + " received");
                assertEquals(Peer.CONNECTED, verbs.peerSlot(peer).state);
                assertEquals(Peer.NONE, verbs.peerSlot(2).state, "rank " + context.rank() + " to rank 2");
            }
            context.bootstrap().fence(TIMEOUT_NS);
            if (context.rank() == 2)
            {
                assertEquals(Peer.NONE, verbs.peerSlot(0).state);
                assertEquals(Peer.NONE, verbs.peerSlot(1).state);
            }
            drain(transport);
            context.bootstrap().fence(TIMEOUT_NS);
        });
    }

    @Test
    void shouldConnectEveryPairWhileOpeningWhenEager()
    {
        VerbsJobs.run(3, Map.of(VerbsParams.CONNECT.name(), "eager"), TIMEOUT_NS, (context, transport) ->
        {
            for (int r = 0; r < 3; r++)
            {
                if (r != context.rank())
                {
                    assertEquals(Peer.CONNECTED, ((VerbsTransport)transport).peerSlot(r).state, "to rank " + r);
                }
            }
        });
    }

    /** Lets the last credit writes and acknowledgements complete before the ranks close. */
    private static void drain(final Transport transport)
    {
        for (int i = 0; i < 1000; i++)
        {
            transport.progress((src, buffer, index, length) -> { });
        }
    }
}
