package org.jmpi.transport.verbs.ibv;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.concurrent.ThreadLocalRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * The bindings on a real device (the soft-RoCE VM: docs/verbs.md): two RC queue pairs of one process
 * connected to each other over the port's GID, then send/receive, RDMA write and read, atomics, and a
 * blocking wait through a completion channel. Device from {@code RXE_DEV} (else the first), GID index
 * from {@code JMPI_VERBS_GID_INDEX} (else 1, RoCE v2 on rxe).
 */
@Tag("rdma")
@Timeout(60)
class VerbsLoopbackTest
{
    private static final int PORT = 1;
    private static final int LENGTH = 1 << 20;
    private static final int ACCESS = Ibv.ACCESS_LOCAL_WRITE | Ibv.ACCESS_REMOTE_WRITE | Ibv.ACCESS_REMOTE_READ | Ibv.ACCESS_REMOTE_ATOMIC;

    private VerbsContext context;
    private CompletionChannel channel;
    private CompletionQueue cq;
    private QueuePair a;
    private QueuePair b;
    private ByteBuffer bufA;
    private ByteBuffer bufB;
    private MemoryRegion mrA;
    private MemoryRegion mrB;
    private final WorkCompletions wcs = new WorkCompletions(16);
    private final SendRequests sends = new SendRequests(4, 2);
    private final RecvRequests recvs = new RecvRequests(4);

    @BeforeEach
    void connect()
    {
        final String device = System.getenv().getOrDefault("RXE_DEV", "");
        final int gidIndex = Integer.parseInt(System.getenv().getOrDefault("JMPI_VERBS_GID_INDEX", "1"));
        final VerbsProbe.Result probe = VerbsProbe.probe(IbvLibrary.NAME, device, PORT, gidIndex);
        assertNull(probe.reason(), "this test needs a verbs device (run it in the soft-RoCE VM)");
        System.out.println("VerbsLoopbackTest: " + probe.description());
        context = VerbsContext.open(IbvLibrary.load(IbvLibrary.NAME), device, PORT);
        channel = context.createCompletionChannel();
        cq = context.createCompletionQueue(64, channel);
        a = context.createQueuePair(cq, cq, 16, 16, 2, 0);
        b = context.createQueuePair(cq, cq, 16, 16, 2, 0);
        final byte[] gid = context.gid(gidIndex);
        final int lid = context.portAttributes().lid();
        final QueuePairAddress addressA = new QueuePairAddress(a.qpNumber(), lid, gid, ThreadLocalRandom.current().nextInt(1 << 24));
        final QueuePairAddress addressB = new QueuePairAddress(b.qpNumber(), lid, gid, ThreadLocalRandom.current().nextInt(1 << 24));
        final int mtu = Math.min(context.portAttributes().activeMtu(), 3);
        a.connect(PORT, gidIndex, mtu, ACCESS, 1, addressA, addressB, QueuePair.DEFAULT_TIMEOUT);
        b.connect(PORT, gidIndex, mtu, ACCESS, 1, addressB, addressA, QueuePair.DEFAULT_TIMEOUT);
        assertEquals(Ibv.QPS_RTS, a.state());
        bufA = ByteBuffer.allocateDirect(LENGTH).order(ByteOrder.nativeOrder());
        bufB = ByteBuffer.allocateDirect(LENGTH).order(ByteOrder.nativeOrder());
        mrA = context.register(bufA, ACCESS);
        mrB = context.register(bufB, ACCESS);
        assertEquals(LENGTH, mrA.lengthBytes());
    }

    @AfterEach
    void close()
    {
        for (final AutoCloseable c : new AutoCloseable[] {a, b, mrA, mrB, cq, channel, context})
        {
            try
            {
                if (c != null)
                {
                    c.close();
                }
            }
            catch (final Exception ex)
            {
                fail("close: " + ex);
            }
        }
    }

    /** Polls until {@code count} completions arrived, asserting each succeeded; returns the wr_ids in order. */
    private long[] await(final int count)
    {
        final long[] ids = new long[count];
        final long deadline = System.nanoTime() + 30_000_000_000L;
        int got = 0;
        while (got < count)
        {
            final int polled = cq.poll(wcs, count - got);
            for (int i = 0; i < polled; i++)
            {
                assertEquals(Ibv.WC_SUCCESS, wcs.status(i), "completion " + wcs.wrId(i) + ": " + Ibv.wcStatus(wcs.status(i)));
                ids[got++] = wcs.wrId(i);
            }
            assertTrue(System.nanoTime() < deadline, "completions: " + got + " of " + count);
        }
        return ids;
    }

    @Test
    void shouldSendAndReceiveWithImmediateData()
    {
        for (int i = 0; i < 4096; i++)
        {
            bufA.put(i, (byte)(i * 7));
        }
        recvs.prepare(0, 100, mrB.address() + 8192, 4096, mrB.lkey());
        assertEquals(0, b.post(recvs, 0, 1));
        sends.prepareSend(0, 200, mrA.address(), 4096, mrA.lkey(), Ibv.SEND_SIGNALED, true, 0xCAFE_F00D);
        assertEquals(0, a.post(sends, 0, 1));
        final long deadline = System.nanoTime() + 30_000_000_000L;
        boolean sent = false;
        boolean received = false;
        while (!(sent && received))
        {
            final int polled = cq.poll(wcs, 2);
            for (int i = 0; i < polled; i++)
            {
                assertEquals(Ibv.WC_SUCCESS, wcs.status(i), Ibv.wcStatus(wcs.status(i)));
                if (wcs.wrId(i) == 100)
                {
                    assertEquals(Ibv.WC_OP_RECV, wcs.opcode(i));
                    assertEquals(4096, wcs.byteLength(i));
                    assertTrue(wcs.hasImmediate(i));
                    assertEquals(0xCAFE_F00D, wcs.immediate(i));
                    assertEquals(b.qpNumber(), wcs.qpNumber(i));
                    received = true;
                }
                else
                {
                    assertEquals(200, wcs.wrId(i));
                    assertEquals(Ibv.WC_OP_SEND, wcs.opcode(i));
                    sent = true;
                }
            }
            assertTrue(System.nanoTime() < deadline, "send/recv did not complete");
        }
        for (int i = 0; i < 4096; i++)
        {
            assertEquals((byte)(i * 7), bufB.get(8192 + i), "byte " + i);
        }
    }

    @Test
    void shouldWriteAndReadRemoteMemory()
    {
        final int length = 256 * 1024;
        for (int i = 0; i < length; i += 8)
        {
            bufA.putLong(i, 0x0101_0101_0101_0101L * (i >> 3));
        }
        sends.prepareRdma(0, 1, false, mrA.address(), length, mrA.lkey(), mrB.address() + 4096, mrB.rkey(), Ibv.SEND_SIGNALED);
        assertEquals(0, a.post(sends, 0, 1));
        assertEquals(1, await(1)[0]);
        for (int i = 0; i < length; i += 8)
        {
            assertEquals(bufA.getLong(i), bufB.getLong(4096 + i), "written byte " + i);
        }
        for (int i = 0; i < length; i += 8)
        {
            bufB.putLong(600_000 + i, ~(long)i);
        }
        // Two requests linked in one post: a read in two halves.
        sends.prepareRdma(1, 2, true, mrA.address() + 300_000, length / 2, mrA.lkey(), mrB.address() + 600_000, mrB.rkey(), 0);
        sends.prepareRdma(2, 3, true, mrA.address() + 300_000 + length / 2, length / 2, mrA.lkey(), mrB.address() + 600_000 + length / 2,
            mrB.rkey(), Ibv.SEND_SIGNALED);
        assertEquals(0, a.post(sends, 1, 2));
        assertEquals(3, await(1)[0]);
        for (int i = 0; i < length; i += 8)
        {
            assertEquals(~(long)i, bufA.getLong(300_000 + i), "read byte " + i);
        }
    }

    @Test
    void shouldFetchAddAndCompareSwapWhenTheDeviceHasAtomics()
    {
        if (context.device().atomicCap() == Ibv.ATOMIC_NONE)
        {
            System.out.println("VerbsLoopbackTest: " + context.deviceName() + " has no atomics");
            return;
        }
        bufB.putLong(64, 40);
        sends.prepareAtomic(0, 7, false, mrA.address(), mrA.lkey(), mrB.address() + 64, mrB.rkey(), 2, 0, Ibv.SEND_SIGNALED);
        assertEquals(0, a.post(sends, 0, 1));
        await(1);
        assertEquals(40, bufA.getLong(0), "fetched");
        assertEquals(42, bufB.getLong(64), "added");
        sends.prepareAtomic(0, 8, true, mrA.address() + 8, mrA.lkey(), mrB.address() + 64, mrB.rkey(), 42, 99, Ibv.SEND_SIGNALED);
        assertEquals(0, a.post(sends, 0, 1));
        await(1);
        assertEquals(42, bufA.getLong(8), "compared");
        assertEquals(99, bufB.getLong(64), "swapped");
    }

    @Test
    void shouldWakeABlockedWaiterThroughTheCompletionChannel()
    {
        cq.requestNotify(false);
        sends.prepareRdma(0, 11, false, mrA.address(), 64, mrA.lkey(), mrB.address(), mrB.rkey(), Ibv.SEND_SIGNALED);
        assertEquals(0, a.post(sends, 0, 1));
        channel.await(cq);
        assertEquals(11, await(1)[0]);
    }

    @Test
    void shouldReportARemoteAccessErrorForABadKey()
    {
        sends.prepareRdma(0, 12, false, mrA.address(), 64, mrA.lkey(), mrB.address(), mrB.rkey() ^ 0x5A5A00, Ibv.SEND_SIGNALED);
        assertEquals(0, a.post(sends, 0, 1));
        final long deadline = System.nanoTime() + 30_000_000_000L;
        while (cq.poll(wcs, 1) == 0)
        {
            assertTrue(System.nanoTime() < deadline, "no completion for the bad key");
        }
        assertEquals(12, wcs.wrId(0));
        assertEquals(Ibv.WC_REM_ACCESS_ERR, wcs.status(0), Ibv.wcStatus(wcs.status(0)));
    }
}
