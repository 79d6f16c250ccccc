package org.jmpi.internal.pt2pt;

import org.agrona.MutableDirectBuffer;
import org.jmpi.Comm;
import org.jmpi.CommInternals;
import org.jmpi.Datatype;
import org.jmpi.Ranks;
import org.jmpi.Request;
import org.jmpi.ThreadLevel;
import org.jmpi.internal.engine.ProgressEngine;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.Map;
import java.util.concurrent.atomic.AtomicIntegerArray;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The protocol's seams: rendezvous paths chosen per message, the type table, and frames of other layers. */
@Timeout(60)
class ProtocolPathsTest
{
    private static final byte TEST_FRAME_TYPE = 40;

    /** A frame of another layer carrying one int. */
    private static final class IntFrame extends ExtensionFrame
    {
        private final int value;

        IntFrame(final int value)
        {
            super(TEST_FRAME_TYPE);
            this.value = value;
        }

        @Override
        public int bodyLength()
        {
            return 4;
        }

        @Override
        public void writeBody(final MutableDirectBuffer buffer, final int index)
        {
            buffer.putInt(index, value, FrameDescriptor.BYTE_ORDER);
        }
    }

    @Test
    void shouldRoutePeersThroughTheFirstTransportOfTheAxis()
    {
        final String axis = System.getProperty("jmpi.transports", "all");
        final String expected = axis.isBlank() || axis.equals("all") ? "jvm" : axis.split(",")[0].trim();
        Ranks.run(3, ThreadLevel.SINGLE, Map.of(), (mpi, world) ->
        {
            final Protocol protocol = CommInternals.state(world).protocol();
            for (int r = 0; r < world.size(); r++)
            {
                assertEquals(r == world.rank() ? "jvm" : expected, protocol.transportName(r), "route to rank " + r);
            }
        });
    }

    @Test
    void shouldDeliverRegisteredFramesInOrderWithPointToPointFrames()
    {
        final int frames = 500;
        Ranks.run(3, ThreadLevel.SINGLE, Map.of(), (mpi, world) ->
        {
            final Protocol protocol = CommInternals.state(world).protocol();
            final ProgressEngine engine = protocol.engine();
            final AtomicIntegerArray next = new AtomicIntegerArray(world.size());
            final int[] failures = new int[1];
            engine.execute(() -> protocol.register(TEST_FRAME_TYPE, (src, buffer, index, length) ->
            {
                final int value = buffer.getInt(index + FrameDescriptor.COMMON_LENGTH, FrameDescriptor.BYTE_ORDER);
                if (value != next.getAndIncrement(src) || length != FrameDescriptor.COMMON_LENGTH + 4)
                {
                    failures[0]++;
                }
            }));
            world.barrier();
            final int right = (world.rank() + 1) % world.size();
            final int left = (world.rank() + world.size() - 1) % world.size();
            for (int i = 0; i < frames; i++)
            {
                final int value = i;
                engine.execute(() -> protocol.send(right, new IntFrame(value)));
            }
            final int[] marker = {frames};
            final Request send = world.isend(marker, 0, 1, Datatype.INT, right, 9);
            final int[] in = new int[1];
            world.recv(in, 0, 1, Datatype.INT, left, 9);
            send.await();
            assertEquals(frames, next.get(left), "frames from the left neighbour before its message");
            assertEquals(0, failures[0], "frames out of order or of the wrong length");
            world.barrier();
        });
    }

    @Test
    void shouldCopyDerivedTypesWhenTheirDescriptionsArriveBeforeTheyMatch()
    {
        final int count = 4096;
        final Datatype strided = Datatype.vector(count, 1, 2, Datatype.DOUBLE).commit();
        final Datatype blocks = Datatype.vector(count / 4, 3, 4, Datatype.DOUBLE).commit();
        Ranks.run(2, ThreadLevel.SINGLE, Map.of(), (mpi, world) ->
        {
            final int[] tags = {1, 2, 3, 4, 5};
            final Datatype[] types = {strided, strided, blocks, strided, Datatype.DOUBLE};
            final int[] counts = {1, 1, 1, 1, 2 * count};
            if (world.rank() == 0)
            {
                final Protocol protocol = CommInternals.state(world).protocol();
                final Request[] sends = new Request[tags.length];
                final double[][] out = new double[tags.length][];
                boolean exposed = true;
                for (int m = 0; m < tags.length; m++)
                {
                    out[m] = new double[2 * count];
                    for (int i = 0; i < out[m].length; i++)
                    {
                        out[m][i] = m * 1e6 + i;
                    }
                    exposed &= PeerExposure.exposes(protocol, 1, out[m]);
                    sends[m] = world.isend(out[m], 0, counts[m], types[m], 1, tags[m]);
                }
                world.barrier();
                Request.waitAll(sends);
                // Peer memory that exposes the heap arrays (the in-JVM transport's) copies every message. Peer memory
                // that does not (the arena's, pvas) chooses among a copy from a staging buffer the sender packed into,
                // the split copy offered without a handle, and fragments: only the total is checked here (PvasCopyTest
                // checks the arena's paths). Remote memory without peer memory (the jmpi.jvm.memory=remote axis) moves
                // the one-run message (DOUBLE) by RDMA and the strided ones, whose runs are below jmpi.rdma.sge.min, by
                // fragments. With neither, every message goes through fragments.
                final boolean peer = protocol.hasPeerMemory(1);
                final long oneRun = java.util.Arrays.stream(types).filter(t -> t == Datatype.DOUBLE).count();
                final long rdma = !peer && protocol.remoteMemory(1) != null ? oneRun : 0;
                final long peerCopies = protocol.rendezvousSent(FrameDescriptor.PATH_PEER_COPY);
                final long splitCopies = protocol.rendezvousSent(FrameDescriptor.PATH_SPLIT_COPY);
                final long fragments = protocol.rendezvousSent(FrameDescriptor.PATH_FRAGMENTS);
                assertEquals(tags.length, peerCopies + splitCopies + fragments + protocol.rendezvousSent(RdmaFrameDescriptor.PATH_RDMA),
                    "messages sent by rendezvous");
                assertEquals(rdma, protocol.rendezvousSent(RdmaFrameDescriptor.PATH_RDMA), "messages moved through remote memory");
                if (!peer || exposed)
                {
                    assertEquals(peer ? tags.length : 0, peerCopies, "messages copied through peer memory");
                    assertEquals(0, splitCopies, "messages offered the split copy");
                    assertEquals(peer ? 0 : tags.length - rdma, fragments, "messages sent in fragments");
                }
            }
            else
            {
                world.barrier();
                for (final int m : new int[] {3, 1, 4, 2, 0})
                {
                    final double[] in = new double[2 * count];
                    final Datatype receiveType = Datatype.DOUBLE;
                    final long elements = types[m].size() / 8 * counts[m];
                    world.recv(in, 0, (int)elements, receiveType, 0, tags[m]);
                    final double[] expected = expectedPacked(types[m], counts[m], m);
                    for (int i = 0; i < elements; i++)
                    {
                        assertEquals(expected[i], in[i], "message " + m + ", element " + i);
                    }
                }
            }
        });
    }

    /** What packing {@code count} items of {@code type} from the sender's buffer of message {@code m} gives. */
    private static double[] expectedPacked(final Datatype type, final int count, final int m)
    {
        final double[] source = new double[2 * 4096];
        for (int i = 0; i < source.length; i++)
        {
            source[i] = m * 1e6 + i;
        }
        final double[] packed = new double[(int)(type.size() / 8 * count)];
        final byte[] stream = new byte[packed.length * 8];
        type.pack(source, 0, count, stream, 0);
        java.nio.ByteBuffer.wrap(stream).order(java.nio.ByteOrder.nativeOrder()).asDoubleBuffer().get(packed);
        return packed;
    }

    @Test
    void shouldDropFramesOfAClosedContextAndMatchAgainOnceReopened()
    {
        Ranks.run(2, ThreadLevel.SINGLE, Map.of(), (mpi, world) ->
        {
            final Protocol protocol = CommInternals.state(world).protocol();
            final int context = CommInternals.state(world).contextId();
            final int[] one = {1};
            if (world.rank() == 1)
            {
                protocol.contextClosed(context);
            }
            world.barrier();
            if (world.rank() == 0)
            {
                world.send(new int[] {3}, 0, 1, Datatype.INT, 1, 3);
                world.send(new int[8192], 0, 8192, Datatype.INT, 1, 3);
            }
            world.barrier();
            if (world.rank() == 1)
            {
                assertEquals(0, protocol.bufferedUnexpectedBytes(), "nothing kept of the dropped messages");
                protocol.contextOpened(context);
            }
            world.barrier();
            if (world.rank() == 0)
            {
                world.send(new int[] {4}, 0, 1, Datatype.INT, 1, 4);
            }
            else
            {
                world.recv(one, 0, 1, Datatype.INT, 0, 4);
                assertEquals(4, one[0]);
                assertEquals(false, world.iprobe(0, 3) != null, "a dropped message never matches");
            }
        });
    }

    @Test
    void shouldNotTreatAnyTagAsAWildcardTypeWhenUnexpected()
    {
        Ranks.run(2, ThreadLevel.SINGLE, Map.of("jmpi.eager.limit", "0"), (mpi, world) ->
        {
            final long[] data = new long[100];
            if (world.rank() == 0)
            {
                for (int i = 0; i < data.length; i++)
                {
                    data[i] = 7L * i;
                }
                world.send(data, 0, 100, Datatype.LONG, 1, 6);
                world.send(data, 0, 0, Datatype.LONG, 1, 7);
            }
            else
            {
                final long[] in = new long[100];
                world.recv(in, 0, 100, Datatype.LONG, Comm.ANY_SOURCE, Comm.ANY_TAG);
                assertEquals(7L * 99, in[99]);
                world.recv(in, 0, 100, Datatype.LONG, 0, 7);
            }
        });
    }
}
