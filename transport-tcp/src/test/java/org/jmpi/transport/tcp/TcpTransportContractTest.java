package org.jmpi.transport.tcp;

import org.jmpi.internal.bootstrap.LocalJob;
import org.jmpi.spi.FrameHandler;
import org.jmpi.spi.TransportContext;
import org.jmpi.spi.TransportProvider;
import org.jmpi.testkit.transport.JobTransportContext;
import org.jmpi.testkit.transport.TransportContractTest;
import org.junit.jupiter.api.Test;

import java.lang.management.BufferPoolMXBean;
import java.lang.management.ManagementFactory;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

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

    /**
     * Many jobs in one JVM (as a test run that forces core's suites onto tcp): close frees every connection's direct
     * stage and receive buffer, even while something still holds the closed transports (as finalized ranks stay
     * reachable), so the JVM's direct memory does not grow with the number of jobs.
     */
    @Test
    void shouldFreeItsDirectBuffersAtClose()
    {
        final int jobs = 30;
        final List<TcpTransport> held = new CopyOnWriteArrayList<>();
        final BufferPoolMXBean direct = ManagementFactory.getPlatformMXBeans(BufferPoolMXBean.class).stream()
            .filter(pool -> pool.getName().equals("direct")).findFirst().orElseThrow();
        final long before = direct.getMemoryUsed();
        for (int job = 0; job < jobs; job++)
        {
            runJob(2, env ->
            {
                final TcpTransport tcp = (TcpTransport)env.transport();
                held.add(tcp);
                final int peer = 1 - env.rank();
                final AtomicInteger received = new AtomicInteger();
                final FrameHandler count = (src, buffer, index, length) -> received.incrementAndGet();
                env.send(peer, 8, (buffer, index, length) -> buffer.putLong(index, 7L), count);
                env.progressUntil(count, () -> received.get() > 0, "the peer's frame");
                assertTrue(tcp.directBytes() > 0, "rank " + env.rank() + " holds its buffers while open");
            });
        }
        assertEquals(2 * jobs, held.size());
        for (final TcpTransport tcp : held)
        {
            assertEquals(0, tcp.directBytes(), "a closed transport holds no direct buffer");
        }
        final long grownBytes = direct.getMemoryUsed() - before;
        final long oneJobBytes = 2L * (1 << 20) + 2L * (2L * (TcpTransport.MAX_FRAME_LENGTH + 4));
        assertTrue(grownBytes < 4 * oneJobBytes, "direct memory grew by " + grownBytes + " bytes over " + jobs +
            " closed jobs (one job's buffers: about " + oneJobBytes + ")");
    }
}
