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
import java.util.Map;
import java.util.function.IntUnaryOperator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * Rendezvous by scatter-gather lists ({@link RdmaSegments}): a strided side against a one-run side, over the in-JVM
 * transport's remote memory ({@code jmpi.jvm.memory=remote}, whose lists are the SPI's default, one operation per run)
 * here, and over verbs (one work request per {@code max_sge} runs) on its axis in the soft-RoCE VM. Where the peer is
 * reached by peer memory (other axes) the path is not taken and only the bytes are checked.
 */
@Timeout(600)
class RdmaScatterGatherTest
{
    /** 300 runs of 1,500 bytes, 2,000 apart: more runs than one list ({@link RdmaSegments#LIST_RUNS}) holds. */
    private static final int RUNS = 300;
    private static final int RUN = 1_500;
    private static final int STRIDE = 2_000;
    private static final int BYTES = RUNS * RUN;

    private static byte pattern(final int message, final int i)
    {
        return (byte)(message * 31 + i * 7 + (i >> 9));
    }

    /** Buffer byte of stream byte {@code k} in the strided layout. */
    private static int strided(final int k)
    {
        return k / RUN * STRIDE + k % RUN;
    }

    @ParameterizedTest
    @ValueSource(strings = {"auto", "read", "write"})
    void shouldMoveStridedLayoutsByListsAgainstOneRun(final String mode)
    {
        Ranks.run(2, ThreadLevel.SINGLE, Map.of("jmpi.jvm.memory", "remote", "jmpi.rdma.rendezvous", mode), 240, (mpi, world) ->
        {
            final Protocol protocol = CommInternals.state(world).protocol();
            final int peer = 1 - world.rank();
            final boolean rdma = protocol.remoteMemory(peer) != null && !protocol.hasPeerMemory(peer);
            final Datatype layout = Datatype.vector(RUNS, RUN, STRIDE, Datatype.BYTE).commit();
            final Datatype shortRuns = Datatype.vector(BYTES / 500, 500, 1000, Datatype.BYTE).commit();
            final boolean scatter = !mode.equals("write");
            final long[] before = segmented(protocol);
            if (world.rank() == 0)
            {
                world.send(filled(1, STRIDE * RUNS), 0, 1, layout, 1, 1);
                world.send(filled(2, BYTES), 0, BYTES, Datatype.BYTE, 1, 2);
                world.send(filled(3, BYTES), 0, BYTES, Datatype.BYTE, 1, 3);
                world.send(filled(4, STRIDE * RUNS), 0, 1, layout, 1, 4);
                world.send(filled(5, STRIDE * RUNS), 0, 1, layout, 1, 5);
                world.send(filled(6, BYTES), 0, BYTES, Datatype.BYTE, 1, 6);
                world.send(filled(7, BYTES), 0, BYTES, Datatype.BYTE, 1, 7);
                world.send(filled(8, BYTES * 2), 0, 1, shortRuns, 1, 8);
                world.barrier();
                // Gathered: messages 1, 5 (truncated) always; 4 (into a strided receive) never.
                expect(rdma, before, segmented(protocol), 2, 0);
                return;
            }
            // 1. Strided direct send into one direct run: the sender's gather list.
            final ByteBuffer run = ByteBuffer.allocateDirect(BYTES);
            world.recv(run, 0, BYTES, Datatype.BYTE, 0, 1);
            check("message 1", BYTES, k -> pattern(1, strided(k)), run::get);
            // 2. One direct run into a strided direct receive: the receiver's scatter list (read), or fragments (write).
            final ByteBuffer into = ByteBuffer.allocateDirect(STRIDE * RUNS);
            world.recv(into, 0, 1, layout, 0, 2);
            checkStrided(2, into, BYTES);
            // 3. Into a strided heap receive: a scatter list too (the transport bounces each run).
            final byte[] heap = new byte[STRIDE * RUNS];
            world.recv(heap, 0, 1, layout, 0, 3);
            checkStrided(3, ByteBuffer.wrap(heap), BYTES);
            // 4. Strided into strided: fragments.
            final ByteBuffer both = ByteBuffer.allocateDirect(STRIDE * RUNS);
            world.recv(both, 0, 1, layout, 0, 4);
            check("message 4", BYTES, k -> pattern(4, strided(k)), k -> both.get(strided(k)));
            // 5. Strided send truncated by a shorter run: the gather list stops inside a run.
            final int shortLength = BYTES / 3 + 77;
            final ByteBuffer shorter = ByteBuffer.allocateDirect(shortLength);
            final MpiException cut = assertThrows(MpiException.class, () -> world.recv(shorter, 0, shortLength, Datatype.BYTE, 0, 5));
            assertEquals(ErrorClass.ERR_TRUNCATE, cut.errorClass());
            check("message 5", shortLength, k -> pattern(5, strided(k)), shorter::get);
            // 6. One run truncated by a strided receive of fewer runs: the scatter list fills them all.
            final Datatype fewer = Datatype.vector(RUNS / 2, RUN, STRIDE, Datatype.BYTE).commit();
            final ByteBuffer half = ByteBuffer.allocateDirect(STRIDE * RUNS);
            final MpiException cut2 = assertThrows(MpiException.class, () -> world.recv(half, 0, 1, fewer, 0, 6));
            assertEquals(ErrorClass.ERR_TRUNCATE, cut2.errorClass());
            checkStrided(6, half, BYTES / 2);
            // 7. A receive that is one run after all (a vector of one block): no list.
            final ByteBuffer one = ByteBuffer.allocateDirect(BYTES);
            world.recv(one, 0, 1, Datatype.vector(1, BYTES, BYTES, Datatype.BYTE).commit(), 0, 7);
            check("message 7", BYTES, k -> pattern(7, k), one::get);
            // 8. Runs shorter than jmpi.rdma.sge.min: fragments.
            final ByteBuffer packed = ByteBuffer.allocateDirect(BYTES);
            world.recv(packed, 0, BYTES, Datatype.BYTE, 0, 8);
            check("message 8", BYTES, k -> pattern(8, k / 500 * 1000 + k % 500), packed::get);
            world.barrier();
            // Scattered: messages 2, 3 and 6 unless the mode forces writes.
            expect(rdma, before, segmented(protocol), 0, scatter ? 3 : 0);
        });
    }

    private static ByteBuffer filled(final int message, final int length)
    {
        final ByteBuffer b = ByteBuffer.allocateDirect(length);
        for (int i = 0; i < length; i++)
        {
            b.put(i, pattern(message, i));
        }
        return b;
    }

    /** Stream byte k of a one-run message sits at the strided position of k; the gaps stay zero. */
    private static void checkStrided(final int message, final ByteBuffer b, final int streamBytes)
    {
        check("message " + message, streamBytes, k -> pattern(message, k), k -> b.get(strided(k)));
        check("message " + message + " gap", STRIDE - RUN, k -> 0, k -> b.get(RUN + k));
    }

    /**
     * Stream bytes {@code [0, length)}: what arrived against what was sent. A plain loop first, the assertion (and its
     * message) only at a mismatch: under the VM's emulation a string per byte alone takes longer than the job's limit.
     */
    private static void check(final String what, final int length, final IntUnaryOperator expected, final IntUnaryOperator actual)
    {
        for (int k = 0; k < length; k++)
        {
            if ((byte)expected.applyAsInt(k) != (byte)actual.applyAsInt(k))
            {
                assertEquals((byte)expected.applyAsInt(k), (byte)actual.applyAsInt(k), what + ", stream byte " + k);
            }
        }
    }

    private static long[] segmented(final Protocol protocol)
    {
        return protocol.engine().call(protocol::rdmaSegmented);
    }

    private static void expect(final boolean rdma, final long[] before, final long[] now, final int gathered, final int scattered)
    {
        if (rdma)
        {
            assertEquals(gathered, now[0] - before[0], "messages sent by a gather list");
            assertEquals(scattered, now[1] - before[1], "messages received by a scatter list");
        }
    }
}
