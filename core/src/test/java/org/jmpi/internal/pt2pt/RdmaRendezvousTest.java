package org.jmpi.internal.pt2pt;

import org.jmpi.CommInternals;
import org.jmpi.Datatype;
import org.jmpi.ErrorClass;
import org.jmpi.MpiException;
import org.jmpi.Ranks;
import org.jmpi.ThreadLevel;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * Rendezvous through remote memory ({@link RdmaPath}): with the in-JVM transport's remote memory
 * ({@code jmpi.jvm.memory=remote}) here, and over the verbs transport on its axis in the soft-RoCE VM (where
 * {@code jmpi.transports=verbs,jvm} reaches every peer through verbs). Every pairing of direct and heap buffers, a
 * strided receive, truncation, in both modes; where the transport to the peer offers peer memory (other axes) the
 * path is not taken and only the bytes are checked.
 */
@Timeout(120)
class RdmaRendezvousTest
{
    private static final int BYTES = 300_001;

    private static byte pattern(final int message, final int i)
    {
        return (byte)(message * 13 + i * 7 + (i >> 8));
    }

    @ParameterizedTest
    @ValueSource(strings = {"auto", "read", "write"})
    void shouldMoveLargeMessagesBetweenDirectAndHeapBuffersInEitherMode(final String mode)
    {
        Ranks.run(2, ThreadLevel.SINGLE, Map.of("jmpi.jvm.memory", "remote", "jmpi.rdma.rendezvous", mode), (mpi, world) ->
        {
            final Protocol protocol = CommInternals.state(world).protocol();
            final int peer = 1 - world.rank();
            final boolean rdma = protocol.remoteMemory(peer) != null && !protocol.hasPeerMemory(peer);
            if (world.rank() == 0)
            {
                world.send(filledDirect(1), 0, BYTES, Datatype.BYTE, 1, 1);
                world.send(filledHeap(2), 0, BYTES, Datatype.BYTE, 1, 2);
                world.send(filledDirect(3), 0, BYTES, Datatype.BYTE, 1, 3);
                world.send(filledHeap(4), 0, BYTES, Datatype.BYTE, 1, 4);
                world.send(filledDirect(5), 0, BYTES, Datatype.BYTE, 1, 5);
                world.send(filledDirect(6), 0, BYTES, Datatype.BYTE, 1, 6);
                world.send(filledDirect(7).order(ByteOrder.nativeOrder()), 0, BYTES / 8, Datatype.LONG, 1, 7);
                world.barrier();
                return;
            }
            long[] before = received(protocol);
            // 1. Direct to direct: read (auto, read) or the sender's write.
            final ByteBuffer direct = ByteBuffer.allocateDirect(BYTES + 16);
            world.recv(direct, 16, BYTES, Datatype.BYTE, 0, 1);
            check(1, direct, 16, BYTES);
            before = expect(protocol, before, rdma, mode.equals("write") ? 0 : 1, mode.equals("write") ? 1 : 0);
            // 2. Heap to direct: only the sender can move it (write through its bounce buffers).
            world.recv(direct, 0, BYTES, Datatype.BYTE, 0, 2);
            check(2, direct, 0, BYTES);
            before = expect(protocol, before, rdma, 0, 1);
            // 3. Direct to heap: only the receiver can (read through its bounce buffers).
            final byte[] heap = new byte[BYTES + 5];
            world.recv(heap, 5, BYTES, Datatype.BYTE, 0, 3);
            check(3, ByteBuffer.wrap(heap), 5, BYTES);
            before = expect(protocol, before, rdma, 1, 0);
            // 4. Heap to heap: fragments.
            world.recv(heap, 0, BYTES, Datatype.BYTE, 0, 4);
            check(4, ByteBuffer.wrap(heap), 0, BYTES);
            before = expect(protocol, before, rdma, 0, 0);
            // 5. Into a strided layout: fragments (the sender's registration is released on the CTS).
            final ByteBuffer strided = ByteBuffer.allocateDirect(2 * BYTES);
            final Datatype everyOther = Datatype.vector(BYTES, 1, 2, Datatype.BYTE).commit();
            world.recv(strided, 0, 1, everyOther, 0, 5);
            for (int i = 0; i < BYTES; i++)
            {
                assertEquals(pattern(5, i), strided.get(2 * i), "strided byte " + i);
            }
            before = expect(protocol, before, rdma, 0, 0);
            // 6. Truncated: the receiver takes what fits, and says so.
            final ByteBuffer small = ByteBuffer.allocateDirect(BYTES / 2);
            final MpiException truncated = assertThrows(MpiException.class, () -> world.recv(small, 0, BYTES / 2, Datatype.BYTE, 0, 6));
            assertEquals(ErrorClass.ERR_TRUNCATE, truncated.errorClass());
            check(6, small, 0, BYTES / 2);
            before = expect(protocol, before, rdma, mode.equals("write") ? 0 : 1, mode.equals("write") ? 1 : 0);
            // 7. Longs in native order, both sides.
            final ByteBuffer longs = ByteBuffer.allocateDirect(BYTES).order(ByteOrder.nativeOrder());
            world.recv(longs, 0, BYTES / 8, Datatype.LONG, 0, 7);
            check(7, longs, 0, BYTES / 8 * 8);
            expect(protocol, before, rdma, mode.equals("write") ? 0 : 1, mode.equals("write") ? 1 : 0);
            world.barrier();
        });
    }

    private static ByteBuffer filledDirect(final int message)
    {
        final ByteBuffer b = ByteBuffer.allocateDirect(BYTES);
        for (int i = 0; i < BYTES; i++)
        {
            b.put(i, pattern(message, i));
        }
        return b;
    }

    private static byte[] filledHeap(final int message)
    {
        final byte[] b = new byte[BYTES];
        for (int i = 0; i < BYTES; i++)
        {
            b[i] = pattern(message, i);
        }
        return b;
    }

    private static void check(final int message, final ByteBuffer b, final int at, final int length)
    {
        for (int i = 0; i < length; i++)
        {
            assertEquals(pattern(message, i), b.get(at + i), "message " + message + ", byte " + i);
        }
    }

    private static long[] received(final Protocol protocol)
    {
        return protocol.engine().call(protocol::rdmaReceived);
    }

    /** Checks this message went by read ({@code reads}) or by the sender's write ({@code writes}) where the path applies. */
    private static long[] expect(final Protocol protocol, final long[] before, final boolean rdma, final int reads, final int writes)
    {
        final long[] now = received(protocol);
        if (rdma)
        {
            assertEquals(reads, now[0] - before[0], "received by read");
            assertEquals(writes, now[1] - before[1], "received by the sender's write");
        }
        return now;
    }
}
