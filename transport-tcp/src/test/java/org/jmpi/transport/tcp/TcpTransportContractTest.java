package org.jmpi.transport.tcp;

import org.jmpi.internal.bootstrap.LocalJob;
import org.jmpi.spi.FrameHandler;
import org.jmpi.spi.TransportContext;
import org.jmpi.spi.TransportProvider;
import org.jmpi.testkit.transport.JobTransportContext;
import org.jmpi.testkit.transport.TransportContractTest;
import org.junit.jupiter.api.Test;

import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The tcp transport over loopback, every rank posing as a node of its own, under the transport contract. */
class TcpTransportContractTest extends TransportContractTest
{
    @Override
    protected TransportProvider provider()
    {
        return new TcpTransportProvider();
    }

    @Override
    protected TransportContext context(final LocalJob job, final int rank)
    {
        return JobTransportContext.of(job, rank, r -> "node-" + r, r -> "jvm-" + r);
    }

    /** Loopback only: the ranks pose as separate nodes, but tests never leave this machine. */
    @Override
    protected java.util.Map<String, String> params(final java.nio.file.Path scratchDir)
    {
        return java.util.Map.of("jmpi.tcp.if", "127.0.0.1/32");
    }

    /**
     * A ping-pong uses one connection per pair: the rank that answers sends over the connection the first sender
     * opened (so the kernel's acknowledgements ride on the answers), not one of its own.
     */
    @Test
    void shouldAnswerOverTheConnectionThePeerOpened()
    {
        runJob(2, env ->
        {
            final TcpTransport tcp = (TcpTransport)env.transport();
            final int peer = 1 - env.rank();
            final AtomicInteger received = new AtomicInteger();
            final FrameHandler count = (src, buffer, index, length) ->
            {
                assertEquals(peer, src);
                assertEquals(8, length);
                assertEquals(received.get(), buffer.getLong(index));
                received.incrementAndGet();
            };
            for (int round = 0; round < 100; round++)
            {
                final long value = round;
                if (env.rank() == 0)
                {
                    env.send(peer, 8, (buffer, index, length) -> buffer.putLong(index, value), count);
                    env.progressUntil(count, () -> received.get() > value, "the answer " + value);
                }
                else
                {
                    env.progressUntil(count, () -> received.get() > value, "the frame " + value);
                    env.send(peer, 8, (buffer, index, length) -> buffer.putLong(index, value), count);
                }
            }
            assertEquals(1, tcp.connectionCount(), "rank " + env.rank() + ": one connection for the pair");
        });
    }
}
