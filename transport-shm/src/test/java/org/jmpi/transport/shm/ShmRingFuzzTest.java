package org.jmpi.transport.shm;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import org.agrona.BufferUtil;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.ringbuffer.OneToOneRingBuffer;
import org.agrona.concurrent.ringbuffer.RingBufferDescriptor;
import org.jmpi.ErrorClass;
import org.jmpi.MpiException;

import java.util.ArrayDeque;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Fuzzes the shared-memory ring's decoders ({@link ShmRingReader}, and the checks of {@link ShmRingWriter})
 * with a ring image built the way a live job builds it and then scribbled over: two senders (local 1 and
 * 2) write inline and pooled frames into their rings and pools to rank 0 with the real writer; between their
 * offers and the readers' reads, the input overwrites ints and longs anywhere in the rings, their trailers
 * and the pools. Properties:
 * <ul>
 *   <li>the reader and writers either work or raise {@link MpiException} ERR_INTERN "shm: corrupted
 *       shared memory: ..."; never another exception, never a loop that does not end (the reader's
 *       stall check runs on a clock that moves a second a call);</li>
 *   <li>every frame handed to the handler lies inside the buffer it is handed in;</li>
 *   <li>until the first scribble, every frame arrives exactly as offered, in each sender's order.</li>
 * </ul>
 * Run by Jazzer (docs/security.md, "Fuzzing"); regression inputs under
 * {@code src/test/resources/org/jmpi/transport/shm/ShmRingFuzzTestInputs/ringImage/}.
 */
class ShmRingFuzzTest
{
    private static final int CAPACITY = 4096;
    private static final int SLOT_LENGTH = 512;
    private static final int INLINE_MAX = 128;
    private static final int[] WORLD_RANK_BY_LOCAL = {0, 1, 2};
    private static final int MAX_STEPS = 64;
    private static final int MAX_IDLE_READS = 200;

    @FuzzTest(maxDuration = "5s")
    void ringImage(final FuzzedDataProvider data)
    {
        final int slotCount = data.consumeInt(1, 4);
        final boolean checksums = data.consumeBoolean();
        final UnsafeBuffer[] rings = {null, ring(), ring()};
        final int poolLength = FragmentPoolDescriptor.poolLength(slotCount, SLOT_LENGTH);
        final UnsafeBuffer[] pools = {null, new UnsafeBuffer(BufferUtil.allocateDirectAligned(poolLength, 64)),
            new UnsafeBuffer(BufferUtil.allocateDirectAligned(poolLength, 64))};
        final List<UnsafeBuffer> regions = List.of(rings[1], rings[2], pools[1], pools[2]);
        final ShmRingWriter[] writers = new ShmRingWriter[3];
        for (int sender = 1; sender <= 2; sender++)
        {
            writers[sender] = new ShmRingWriter(sender, sender, 0, new OneToOneRingBuffer(rings[sender]), pools[sender], slotCount, SLOT_LENGTH,
                checksums);
        }
        final long[] clock = {0};
        final ShmRingReader[] readers = new ShmRingReader[3];
        for (int sender = 1; sender <= 2; sender++)
        {
            readers[sender] = new ShmRingReader(0, WORLD_RANK_BY_LOCAL, sender, rings[sender], pools[sender],
                slotCount, SLOT_LENGTH, INLINE_MAX, checksums, () -> clock[0] += 1_000_000_000L);
        }

        @SuppressWarnings("unchecked")
        final ArrayDeque<byte[]>[] expected = new ArrayDeque[]{null, new ArrayDeque<byte[]>(), new ArrayDeque<byte[]>()};
        final boolean[] clean = {true};
        try
        {
            for (int step = 0; step < MAX_STEPS && data.remainingBytes() > 0; step++)
            {
                switch (data.consumeInt(0, 3))
                {
                    case 0 -> offer(data, writers, expected);
                    case 1 ->
                    {
                        final UnsafeBuffer region = regions.get(data.consumeInt(0, 3));
                        region.putInt(data.consumeInt(0, region.capacity() - Integer.BYTES), data.consumeInt());
                        clean[0] = false;
                    }
                    case 2 ->
                    {
                        final UnsafeBuffer region = regions.get(data.consumeInt(0, 3));
                        region.putLong(data.consumeInt(0, region.capacity() - Long.BYTES), data.consumeLong());
                        clean[0] = false;
                    }
                    default ->
                    {
                        final ShmRingReader reader = readers[data.consumeInt(1, 2)];
                        for (int i = 0; i < MAX_IDLE_READS && reader.read((src, buffer, index, length) ->
                            check(src, buffer, index, length, expected, clean[0])) == 0; i++)
                        {
                            // idle reads: the periodic position and stall checks
                        }
                    }
                }
            }
        }
        catch (final MpiException ex)
        {
            assertEquals(ErrorClass.ERR_INTERN, ex.errorClass(), ex.getMessage());
            assertTrue(ex.getMessage().startsWith("ERR_INTERN: shm: corrupted shared memory: "), ex.getMessage());
        }
    }

    private static UnsafeBuffer ring()
    {
        return new UnsafeBuffer(BufferUtil.allocateDirectAligned(CAPACITY + RingBufferDescriptor.TRAILER_LENGTH, 64));
    }

    private static void offer(final FuzzedDataProvider data, final ShmRingWriter[] writers, final ArrayDeque<byte[]>[] expected)
    {
        final int sender = data.consumeInt(1, 2);
        final int length = data.consumeInt(0, SLOT_LENGTH);
        final byte fill = data.consumeByte();
        final byte[] frame = new byte[length];
        for (int i = 0; i < length; i++)
        {
            frame[i] = (byte)(fill + i * 31 + sender);
        }
        final boolean offered = length <= INLINE_MAX ?
            writers[sender].offerInline(length, (buffer, index, frameLength) -> buffer.putBytes(index, frame)) :
            writers[sender].offerPooled(length, (buffer, index, frameLength) -> buffer.putBytes(index, frame));
        if (offered)
        {
            expected[sender].add(frame);
        }
    }

    private static void check(
        final int src,
        final DirectBuffer buffer,
        final int index,
        final int length,
        final ArrayDeque<byte[]>[] expected,
        final boolean clean)
    {
        assertTrue(src == 1 || src == 2, "source " + src);
        assertTrue(index >= 0 && length >= 0 && (long)index + length <= buffer.capacity(),
            "frame [" + index + ", +" + length + ") outside a buffer of " + buffer.capacity());
        if (clean)
        {
            final byte[] frame = expected[src].poll();
            if (frame == null)
            {
                fail("frame from rank " + src + " that was never offered");
            }
            final byte[] got = new byte[length];
            buffer.getBytes(index, got);
            assertEquals(frame.length, length, "length of a frame from rank " + src);
            assertTrue(java.util.Arrays.equals(frame, got), "bytes of a frame from rank " + src);
        }
    }
}
