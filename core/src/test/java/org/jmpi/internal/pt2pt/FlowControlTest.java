package org.jmpi.internal.pt2pt;

import org.jmpi.CommInternals;
import org.jmpi.Comm;
import org.jmpi.Datatype;
import org.jmpi.Ranks;
import org.jmpi.Request;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.Map;

import static org.junit.jupiter.api.Assertions.*;

@Timeout(60)
class FlowControlTest
{
    @ParameterizedTest
    @ValueSource(ints = {1024, 4096})
    void shouldNotLetAFastSenderFillASlowReceiversMemory(final int messageBytes)
    {
        final int messages = 2000;
        final long window = 64 * 1024;
        Ranks.run(2, org.jmpi.ThreadLevel.SINGLE, Map.of("jmpi.eager.window", Long.toString(window)), (mpi, world) ->
        {
            if (world.rank() == 0)
            {
                flood(world, 1, messages, messageBytes, 0);
            }
            else
            {
                world.barrier();
                final Protocol protocol = CommInternals.state(world).protocol();
                final long worst = worstBufferedWhileProbing(world, protocol, 2000);
                assertTrue(worst > 0, "some messages did arrive eagerly");
                assertTrue(worst <= window, "receiver buffered " + worst + " bytes, window " + window);
                final byte[] in = new byte[messageBytes];
                for (int i = 0; i < messages; i++)
                {
                    world.recv(in, 0, messageBytes, Datatype.BYTE, 0, 0);
                    assertEquals((byte)i, in[0], "message " + i + " in order");
                    assertEquals((byte)(i * 7), in[messageBytes - 1]);
                }
                assertEquals(0, protocol.bufferedUnexpectedBytes());
            }
        });
    }

    /**
     * Three senders flood one slow receiver with small messages (the per-pair fast path of issue 12): what the
     * receiver buffers stays within the window of each pair, and each sender's messages arrive in its order.
     */
    @ParameterizedTest
    @ValueSource(ints = {8, 64})
    @Timeout(300)
    void shouldKeepAFloodOfSmallMessagesFromThreeSendersWithinTheirWindows(final int messageBytes)
    {
        final int messages = 1_000;
        final long window = 1024;
        Ranks.run(4, org.jmpi.ThreadLevel.SINGLE, Map.of("jmpi.eager.window", Long.toString(window)), (mpi, world) ->
        {
            if (world.rank() > 0)
            {
                flood(world, 0, messages, messageBytes, world.rank());
            }
            else
            {
                world.barrier();
                final Protocol protocol = CommInternals.state(world).protocol();
                final long worst = worstBufferedWhileProbing(world, protocol, 5000);
                assertTrue(worst > 0, "some messages did arrive eagerly");
                assertTrue(worst <= 3 * window, "receiver buffered " + worst + " bytes, 3 senders with a window of " + window);
                final byte[] in = new byte[messageBytes];
                final int[] next = new int[4];
                for (int i = 0; i < 3 * messages; i++)
                {
                    final org.jmpi.Status status = world.recv(in, 0, messageBytes, Datatype.BYTE, Comm.ANY_SOURCE, 0);
                    final int source = status.source();
                    assertEquals((byte)next[source], in[0], "message " + next[source] + " from " + source + " in order");
                    assertEquals((byte)(next[source] * 7 + source), in[messageBytes - 1]);
                    next[source]++;
                }
                assertEquals(0, protocol.bufferedUnexpectedBytes());
            }
        });
    }

    /** Sends {@code messages} numbered messages to {@code dest} without waiting, then joins the barrier and waits for them. */
    private static void flood(final Comm world, final int dest, final int messages, final int messageBytes, final int salt)
    {
        final Request[] sends = new Request[messages];
        for (int i = 0; i < messages; i++)
        {
            final byte[] m = new byte[messageBytes];
            m[0] = (byte)i;
            m[messageBytes - 1] = (byte)(i * 7 + salt);
            sends[i] = world.isend(m, 0, messageBytes, Datatype.BYTE, dest, 0);
        }
        world.barrier();
        Request.waitAll(sends);
    }

    /** Drives progress by probing for a tag nobody sends; returns the most the receiver buffered meanwhile. */
    private static long worstBufferedWhileProbing(final Comm world, final Protocol protocol, final int probes)
    {
        long worst = 0;
        for (int spin = 0; spin < probes; spin++)
        {
            world.iprobe(Comm.ANY_SOURCE, 12345); // progress without receiving
            worst = Math.max(worst, protocol.bufferedUnexpectedBytes());
        }
        return worst;
    }
}
