package org.jmpi.transport.pvas;

import org.jmpi.CommInternals;
import org.jmpi.Datatype;
import org.jmpi.ErrorClass;
import org.jmpi.ErrorHandler;
import org.jmpi.MemoryBlock;
import org.jmpi.MpiException;
import org.jmpi.Ranks;
import org.jmpi.Status;
import org.jmpi.ThreadLevel;
import org.jmpi.internal.datatype.testing.ReferencePacker;
import org.jmpi.internal.datatype.testing.TypeGenerator;
import org.jmpi.internal.pt2pt.FrameDescriptor;
import org.jmpi.internal.pt2pt.Protocol;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.DoubleBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Copies through the arena between ranks that are threads presenting separate JVMs (so every peer is reached
 * through the arena transport, whose frames go through shm rings): allocMem from the partition, peer copy and
 * split copy between arena buffers and typed views of them, generated type pairs equal to the reference
 * packer, exhaustion, and no file left behind.
 */
@Timeout(180)
class PvasCopyTest
{
    private static final int N = 20_000;

    @TempDir
    Path shmDir;

    private Map<String, String> params(final String partition, final String... more)
    {
        final Map<String, String> p = new HashMap<>(Map.of("jmpi.transports", "pvas,jvm", "jmpi.jvm.isolate", "true",
            "jmpi.shm.dir", shmDir.toString(), PvasParams.PARTITION_SIZE.name(), partition, "jmpi.pvas.mode", "direct"));
        for (int i = 0; i < more.length; i += 2)
        {
            p.put(more[i], more[i + 1]);
        }
        return p;
    }

    private void assertNoFileLeft() throws IOException
    {
        try (var files = Files.list(shmDir))
        {
            assertEquals(java.util.List.of(), files.toList(), "files left in the shm directory");
        }
    }

    @ParameterizedTest(name = "{0} ranks")
    @ValueSource(ints = {2, 3})
    void shouldCopyTypedViewsOfArenaBuffersDirectly(final int size) throws IOException
    {
        final Datatype strided = Datatype.vector(N, 1, 2, Datatype.DOUBLE).commit();
        Ranks.run(size, ThreadLevel.SINGLE, params("4m"), (mpi, world) ->
        {
            final Protocol protocol = CommInternals.state(world).protocol();
            final int right = (world.rank() + 1) % size;
            final int left = (world.rank() + size - 1) % size;
            final ByteBuffer out = mpi.allocMem(2 * N * 8);
            final ByteBuffer in = mpi.allocMem(N * 8, 4096);
            assertTrue(out.isDirect() && in.isDirect());
            assertEquals(ByteOrder.nativeOrder(), out.order());
            assertEquals(2 * N * 8, out.capacity());
            assertEquals(0, Arena.address(in) % 4096, "aligned to a page");
            final DoubleBuffer outView = out.asDoubleBuffer();
            for (int i = 0; i < 2 * N; i++)
            {
                outView.put(i, world.rank() * 1e6 + i);
            }
            final double[] heap = new double[N];
            // strided arena send -> contiguous arena receive (peer copy), then arena send -> heap receive
            final var recv = world.irecv(in.asDoubleBuffer(), 0, N, Datatype.DOUBLE, left, 1);
            world.send(outView, 0, 1, strided, right, 1);
            recv.await();
            final var recvHeap = world.irecv(heap, 0, N, Datatype.DOUBLE, left, 2);
            world.send(outView, 0, 1, strided, right, 2);
            recvHeap.await();
            final DoubleBuffer got = in.asDoubleBuffer();
            for (int k = 0; k < N; k++)
            {
                assertEquals(left * 1e6 + 2 * k, got.get(k), "arena receive, element " + k);
                assertEquals(left * 1e6 + 2 * k, heap[k], "heap receive, element " + k);
            }
            world.barrier();
            assertEquals(2, protocol.rendezvousSent(FrameDescriptor.PATH_PEER_COPY), "sends copied from the arena directly");
            mpi.freeMem(in);
            mpi.freeMem(out);
        });
        assertNoFileLeft();
    }

    @Test
    void shouldSplitTheCopyWhenBothBuffersAreInTheArena() throws IOException
    {
        final Datatype blocks = Datatype.vector(N / 4, 3, 5, Datatype.DOUBLE).commit();
        Ranks.run(2, ThreadLevel.SINGLE, params("8m", "jmpi.pvas.split.min", "1k"), (mpi, world) ->
        {
            final Protocol protocol = CommInternals.state(world).protocol();
            try (MemoryBlock block = mpi.allocBlock(5 * N * 8, 64))
            {
                final DoubleBuffer data = block.buffer().asDoubleBuffer();
                if (world.rank() == 0)
                {
                    for (int i = 0; i < 5 * N; i++)
                    {
                        data.put(i, i);
                    }
                    world.send(data, 0, 1, blocks, 1, 3);
                    assertEquals(1, protocol.rendezvousSent(FrameDescriptor.PATH_SPLIT_COPY));
                }
                else
                {
                    final Status st = world.recv(data, 0, 3 * (N / 4), Datatype.DOUBLE, 0, 3);
                    assertEquals(3L * (N / 4) * 8, st.count(Datatype.BYTE));
                    for (int k = 0; k < 3 * (N / 4); k++)
                    {
                        assertEquals((k / 3) * 5 + k % 3, data.get(k), 0.0, "element " + k);
                    }
                }
            }
            world.barrier();
        });
        assertNoFileLeft();
    }

    /** One side in the arena: a heap send buffer is copied by its sender into the arena receive buffer; heap to heap is staged. */
    @Test
    void shouldCopyFromTheHeapIntoAnArenaBufferOnce() throws IOException
    {
        final Datatype strided = Datatype.vector(N, 1, 2, Datatype.DOUBLE).commit();
        Ranks.run(2, ThreadLevel.SINGLE, params("4m"), (mpi, world) ->
        {
            final Protocol protocol = CommInternals.state(world).protocol();
            if (world.rank() == 0)
            {
                final double[] out = new double[2 * N];
                for (int i = 0; i < out.length; i++)
                {
                    out[i] = i;
                }
                world.send(out, 0, 1, strided, 1, 4);
                world.send(out, 0, 1, strided, 1, 5);
                assertEquals(2, protocol.rendezvousSent(FrameDescriptor.PATH_SPLIT_COPY), "offered to the receiver's buffer");
            }
            else
            {
                final ByteBuffer arena = mpi.allocMem(N * 8);
                final double[] heap = new double[N];
                world.recv(arena.asDoubleBuffer(), 0, N, Datatype.DOUBLE, 0, 4);
                world.recv(heap, 0, N, Datatype.DOUBLE, 0, 5);
                for (int k = 0; k < N; k++)
                {
                    assertEquals(2 * k, arena.getDouble(8 * k), 0.0, "arena receive, element " + k);
                    assertEquals(2 * k, heap[k], 0.0, "heap receive (fragments), element " + k);
                }
                mpi.freeMem(arena);
            }
            world.barrier();
        });
        assertNoFileLeft();
    }

    /** Generated types (every predefined type mixed) between arena buffers, or an arena and a heap buffer, against the reference packer. */
    @Test
    void shouldCopyGeneratedTypesEqualToTheReferencePacker() throws IOException
    {
        final long seed = System.nanoTime();
        System.out.println("PvasCopyTest generated types: seed " + seed);
        Ranks.run(2, ThreadLevel.SINGLE, params("8m", "jmpi.eager.limit", "0", "jmpi.pvas.split.min", "2k"), (mpi, world) ->
        {
            final TypeGenerator types = TypeGenerator.mixed(seed);
            final SplittableRandom random = types.random();
            int nonEmpty = 0;
            for (int m = 0; m < 200; m++)
            {
                final Datatype type = types.next();
                final int count = 1 + random.nextInt(4);
                final long lowest = type.trueLb() + Math.min(0, (count - 1) * type.extent());
                final long highest = type.trueLb() + type.trueExtent() + Math.max(0, (count - 1) * type.extent());
                final long offset = Math.max(0, -lowest);
                final int bufferBytes = (int)(offset + highest + 16);
                final int streamBytes = (int)(type.size() * count);
                final long[] map = ReferencePacker.byteMap(type, count, offset, false);
                nonEmpty += streamBytes > 0 ? 1 : 0;
                // a receive type may not write a byte twice: such types are only sent
                final boolean sendTyped = m % 2 == 0 || java.util.Arrays.stream(map).distinct().count() != map.length;
                // the side with the generated type fills or checks through the map; the other side is packed bytes
                // both ranks draw the same numbers, so they agree on every type, count and byte
                final byte[] pattern = new byte[bufferBytes];
                random.nextBytes(pattern);
                final byte[] stream = ReferencePacker.pack(pattern, map);
                // both in the arena, or one side on the heap (m % 3: 1 the sender's, 2 the receiver's)
                final boolean inArena = m % 3 != 1 + world.rank();
                final int bytes = Math.max(1, sendTyped == (world.rank() == 0) ? bufferBytes : streamBytes);
                final ByteBuffer buf = inArena ? mpi.allocMem(bytes) : ByteBuffer.allocate(bytes).order(ByteOrder.nativeOrder());
                if (world.rank() == 0)
                {
                    buf.put(0, sendTyped ? pattern : stream);
                    if (sendTyped)
                    {
                        world.send(buf, (int)offset, count, type, 1, m);
                    }
                    else
                    {
                        world.send(buf, 0, streamBytes, Datatype.BYTE, 1, m);
                    }
                }
                else
                {
                    buf.put(0, new byte[buf.capacity()]);
                    if (sendTyped)
                    {
                        world.recv(buf, 0, streamBytes, Datatype.BYTE, 0, m);
                        final byte[] got = new byte[streamBytes];
                        buf.get(0, got);
                        assertArrayEquals(stream, got, "message " + m + " (" + type + " x " + count + "), seed " + seed);
                    }
                    else
                    {
                        world.recv(buf, (int)offset, count, type, 0, m);
                        final byte[] expect = new byte[buf.capacity()];
                        ReferencePacker.unpack(stream, map, expect, 0, streamBytes);
                        final byte[] got = new byte[buf.capacity()];
                        buf.get(0, got);
                        assertArrayEquals(expect, got, "message " + m + " (" + type + " x " + count + "), seed " + seed);
                    }
                }
                if (inArena)
                {
                    mpi.freeMem(buf);
                }
            }
            world.barrier();
            final Protocol protocol = CommInternals.state(world).protocol();
            if (world.rank() == 0)
            {
                assertEquals(nonEmpty, protocol.rendezvousSent(FrameDescriptor.PATH_PEER_COPY) + protocol.rendezvousSent(FrameDescriptor.PATH_SPLIT_COPY),
                    "every non-empty message went directly, from or into the arena (empty ones go eager)");
            }
        });
        assertNoFileLeft();
    }

    /** Partitions above 2 GiB (sparse): the third 800 MiB buffer lies in the third segment, beyond 2 GiB of the data area. */
    @Test
    void shouldCopyBetweenBuffersBeyondTwoGibibytes() throws IOException
    {
        final int bytes = 800 << 20;
        final int message = 64 << 10;
        Ranks.run(2, ThreadLevel.SINGLE, params("3g"), (mpi, world) ->
        {
            final ByteBuffer[] buffers = {mpi.allocMem(bytes), mpi.allocMem(bytes), mpi.allocMem(bytes)};
            final ByteBuffer far = buffers[2];
            final int at = bytes - message;
            if (world.rank() == 0)
            {
                for (int i = 0; i < message; i++)
                {
                    far.put(at + i, (byte)(i * 7));
                }
                world.send(far, at, message, Datatype.BYTE, 1, 6);
            }
            else
            {
                world.recv(far, at, message, Datatype.BYTE, 0, 6);
                for (int i = 0; i < message; i++)
                {
                    assertEquals((byte)(i * 7), far.get(at + i), "byte " + i);
                }
            }
            world.barrier();
            assertEquals(1, CommInternals.state(world).protocol().rendezvousSent(FrameDescriptor.PATH_PEER_COPY) * (1 - world.rank()) +
                world.rank(), "sent directly");
            for (final ByteBuffer b : buffers)
            {
                mpi.freeMem(b);
            }
        });
        assertNoFileLeft();
    }

    @Test
    void shouldRaiseNoMemNamingTheSizesAndCorruptNothing() throws IOException
    {
        Ranks.run(2, ThreadLevel.SINGLE, params("256k"), (mpi, world) ->
        {
            mpi.self().setErrorHandler(ErrorHandler.ERRORS_RETURN);
            final ByteBuffer kept = mpi.allocMem(100_000);
            for (int i = 0; i < kept.capacity(); i++)
            {
                kept.put(i, (byte)(i * 31 + world.rank()));
            }
            final MpiException ex = assertThrows(MpiException.class, () -> mpi.allocMem(200_000));
            assertEquals(ErrorClass.ERR_NO_MEM, ex.errorClass());
            assertTrue(ex.getMessage().contains("200000") && ex.getMessage().contains("262144"), ex.getMessage());
            final ByteBuffer more = mpi.allocMem(100_000);
            for (int i = 0; i < kept.capacity(); i++)
            {
                assertEquals((byte)(i * 31 + world.rank()), kept.get(i), "byte " + i);
            }
            mpi.freeMem(more);
            mpi.freeMem(kept);
            assertEquals(ErrorClass.ERR_ARG, assertThrows(MpiException.class, () -> mpi.freeMem(kept)).errorClass(), "double free");
            assertEquals(ErrorClass.ERR_ARG, assertThrows(MpiException.class, () -> mpi.freeMem(ByteBuffer.allocateDirect(8))).errorClass());
            final ByteBuffer whole = mpi.allocMem(256 * 1024);
            mpi.freeMem(whole);
            world.barrier();
        });
        assertNoFileLeft();
    }

    @Test
    void shouldRefuseTheArenaTransportListedAfterShm()
    {
        final AssertionError failed = assertThrows(AssertionError.class,
            () -> Ranks.run(2, ThreadLevel.SINGLE, params("1m", "jmpi.transports", "shm,pvas,jvm"), (mpi, world) -> { }));
        assertTrue(String.valueOf(failed.getCause()).contains("pvas carries its frames through shm and must come before it"), failed.toString());
    }

    @Test
    void shouldAllocateOrdinaryDirectMemoryWithoutTheArena()
    {
        Ranks.run(2, ThreadLevel.SINGLE, Map.of(), (mpi, world) ->
        {
            mpi.self().setErrorHandler(ErrorHandler.ERRORS_RETURN);
            final ByteBuffer b = mpi.allocMem(1000, 256);
            assertTrue(b.isDirect());
            assertEquals(1000, b.capacity());
            assertEquals(0, Arena.address(b) % 256);
            mpi.freeMem(b);
            assertEquals(ErrorClass.ERR_ARG, assertThrows(MpiException.class, () -> mpi.freeMem(b)).errorClass());
            assertEquals(ErrorClass.ERR_ARG, assertThrows(MpiException.class, () -> mpi.allocMem(8, 3)).errorClass());
        });
    }
}
