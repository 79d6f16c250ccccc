package org.jmpi.internal.pt2pt;

import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.jmpi.CommInternals;
import org.jmpi.Datatype;
import org.jmpi.Ranks;
import org.jmpi.Request;
import org.jmpi.Status;
import org.jmpi.ThreadLevel;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The PVAS split copy between ranks with peer memory (issue 11, item 2): both sides copy parts of the stream;
 * different send and receive layouts at every split; and a receiver never waits for a sender that computes.
 * Over a transport without peer memory (the shm axis) the same messages go through fragments.
 */
@Timeout(120)
class SplitCopyPathTest
{
    private static final int N = 40_000;

    @ParameterizedTest(name = "split {0}")
    @ValueSource(strings = {"0", "0.3", "0.5", "1"})
    void shouldCopyEveryLayoutPairAtEverySplit(final String split)
    {
        final Datatype strided = Datatype.vector(N, 1, 2, Datatype.DOUBLE).commit();
        final Datatype blocks = Datatype.vector(N / 4, 3, 5, Datatype.DOUBLE).commit();
        final Datatype[][] pairs = {
            {strided, Datatype.DOUBLE}, {Datatype.DOUBLE, strided}, {strided, strided}, {Datatype.DOUBLE, Datatype.DOUBLE}, {blocks, strided}};
        Ranks.run(2, ThreadLevel.SINGLE, Map.of("jmpi.pvas.split", split, "jmpi.pvas.split.min", "1k", "jmpi.pvas.mode", "direct"), (mpi, world) ->
        {
            final Protocol protocol = CommInternals.state(world).protocol();
            for (int m = 0; m < pairs.length; m++)
            {
                final Datatype send = pairs[m][0];
                final Datatype recv = pairs[m][1];
                final int elements = (int)(Math.min(send == Datatype.DOUBLE ? N : send.size() / 8, recv == Datatype.DOUBLE ? N : recv.size() / 8));
                final int sendCount = send == Datatype.DOUBLE ? elements : 1;
                final int recvCount = recv == Datatype.DOUBLE ? elements : 1;
                if (world.rank() == 0)
                {
                    final double[] out = new double[5 * N];
                    for (int i = 0; i < out.length; i++)
                    {
                        out[i] = m * 1e7 + i;
                    }
                    world.send(out, 0, sendCount, send, 1, m);
                }
                else
                {
                    final double[] in = new double[5 * N];
                    java.util.Arrays.fill(in, -1);
                    final Status st = world.recv(in, 0, recvCount, recv, 0, m);
                    assertEquals(elements * 8L, st.count(Datatype.BYTE));
                    final double[] expectSent = positions(send, elements);
                    final double[] where = positions(recv, elements);
                    for (int k = 0; k < elements; k++)
                    {
                        assertEquals(m * 1e7 + expectSent[k], in[(int)where[k]], "message " + m + ", element " + k);
                    }
                }
            }
            world.barrier();
            if (world.rank() == 0)
            {
                final long splits = protocol.rendezvousSent(FrameDescriptor.PATH_SPLIT_COPY);
                assertEquals(protocol.hasPeerMemory(1) ? pairs.length : 0, splits, "messages that took the split copy");
            }
        });
    }

    /**
     * The element index in the buffer of the k-th double of a stream of {@code type}: the identity for DOUBLE,
     * else the tests' vectors, (N, 1, 2) and (N / 4, 3, 5), told apart by their size.
     */
    private static double[] positions(final Datatype type, final int elements)
    {
        final boolean contiguous = type == Datatype.DOUBLE;
        final int blockLength = contiguous ? 1 : type.size() == 8L * N ? 1 : 3;
        final int stride = contiguous ? 1 : blockLength == 1 ? 2 : 5;
        final double[] at = new double[elements];
        for (int k = 0; k < elements; k++)
        {
            at[k] = (double)(k / blockLength) * stride + k % blockLength;
        }
        return at;
    }

    @Test
    void shouldNotWaitForASenderThatComputes()
    {
        final int count = 1 << 19;
        // One per run: a static latch would stay open for a second run in the same JVM (a rerun), which then proved nothing.
        final CountDownLatch received = new CountDownLatch(1);
        Ranks.run(2, ThreadLevel.SINGLE, Map.of("jmpi.pvas.split.min", "256k", "jmpi.pvas.mode", "direct"), (mpi, world) ->
        {
            final Protocol protocol = CommInternals.state(world).protocol();
            if (world.rank() == 0)
            {
                final double[] out = new double[count];
                for (int i = 0; i < count; i++)
                {
                    out[i] = i;
                }
                // The receiver copies alone only where the peer memory exposes heap arrays (the in-JVM transport's reaches
                // any object). The arena's (pvas) exposes only its own allocations: heap to heap is answered by CTS and
                // goes through fragments, as without peer memory (shm), and those need the sender (PvasCopyTest covers
                // the arena's buffers).
                final boolean receiverCopiesAlone = PeerExposure.exposes(protocol, 1, out);
                final Request send = world.isend(out, 0, count, Datatype.DOUBLE, 1, 9);
                if (receiverCopiesAlone)
                {
                    // "Computing": no MPI call until the receiver has its message, so the sender copies nothing.
                    assertTrue(received.await(60, TimeUnit.SECONDS), "the receiver completed while the sender was outside MPI");
                }
                // Otherwise (fragments) the sender must take part: nothing to show here.
                send.await();
            }
            else
            {
                final double[] in = new double[count];
                world.recv(in, 0, count, Datatype.DOUBLE, 0, 9);
                received.countDown();
                for (int i = 0; i < count; i += 997)
                {
                    assertEquals(i, in[i], 0.0);
                }
            }
            world.barrier();
        });
    }
}
