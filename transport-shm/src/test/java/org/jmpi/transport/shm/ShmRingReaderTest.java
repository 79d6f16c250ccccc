package org.jmpi.transport.shm;

import org.agrona.BufferUtil;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.ringbuffer.OneToOneRingBuffer;
import org.agrona.concurrent.ringbuffer.RingBufferDescriptor;
import org.jmpi.ErrorClass;
import org.jmpi.MpiException;
import org.jmpi.spi.FrameHandler;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The checks of {@link ShmRingReader} and {@link ShmRingWriter} one at a time, over a ring and pools in
 * this JVM's memory (the multi-process corruption tests are {@link ShmCorruptionTest}). Rank 0 reads,
 * ranks 1 and 2 write; the reader's clock is this test's.
 */
class ShmRingReaderTest
{
    private static final int CAPACITY = 4096;
    private static final int SLOT_LENGTH = 512;
    private static final int SLOT_COUNT = 2;
    private static final int INLINE_MAX = 128;
    private static final FrameHandler IGNORE = (src, buffer, index, length) -> { };

    private final UnsafeBuffer[] rings = {null, ring(), ring()};
    private final UnsafeBuffer ring = rings[1];
    private final UnsafeBuffer[] pools = {null, pool(), pool()};
    private final long[] nowNs = {0};

    private static UnsafeBuffer ring()
    {
        return new UnsafeBuffer(BufferUtil.allocateDirectAligned(CAPACITY + RingBufferDescriptor.TRAILER_LENGTH, 64));
    }

    private static UnsafeBuffer pool()
    {
        return new UnsafeBuffer(BufferUtil.allocateDirectAligned(FragmentPoolDescriptor.poolLength(SLOT_COUNT, SLOT_LENGTH), 64));
    }

    /** The reader of the ring from rank 1. */
    private ShmRingReader reader(final boolean checksums)
    {
        return reader(1, checksums);
    }

    private ShmRingReader reader(final int sender, final boolean checksums)
    {
        return new ShmRingReader(0, new int[]{0, 1, 2}, sender, rings[sender], pools[sender], SLOT_COUNT, SLOT_LENGTH,
            INLINE_MAX, checksums, () -> nowNs[0]);
    }

    private ShmRingWriter writer(final int sender, final boolean checksums)
    {
        return new ShmRingWriter(sender, sender, 0, new OneToOneRingBuffer(rings[sender]), pools[sender], SLOT_COUNT, SLOT_LENGTH, checksums);
    }

    private static void assertCorrupt(final Executable call, final String... expected)
    {
        final MpiException ex = assertThrows(MpiException.class, call);
        assertEquals(ErrorClass.ERR_INTERN, ex.errorClass(), ex.getMessage());
        assertTrue(ex.getMessage().startsWith("ERR_INTERN: shm: corrupted shared memory: "), ex.getMessage());
        for (final String text : expected)
        {
            assertTrue(ex.getMessage().contains(text), "expected '" + text + "' in: " + ex.getMessage());
        }
    }

    private static void idle(final ShmRingReader reader)
    {
        for (int i = 0; i < ShmRingReader.CHECK_INTERVAL; i++)
        {
            assertEquals(0, reader.read(IGNORE));
        }
    }

    @Test
    void shouldDeliverInlineAndPooledFramesInOrderWhenNothingIsDamaged()
    {
        final ShmRingReader reader = reader(true);
        final ShmRingWriter one = writer(1, true);
        for (int i = 0; i < 40; i++)
        {
            final int value = i;
            final int length = i % 3 == 0 ? 300 : 16;
            assertTrue(length <= INLINE_MAX ? one.offerInline(length, (b, index, l) -> b.putInt(index, value)) :
                one.offerPooled(length, (b, index, l) -> b.putInt(index, value)));
            final int[] got = {-1};
            assertEquals(1, reader.read((src, buffer, index, l) ->
            {
                assertEquals(1, src);
                assertEquals(length, l);
                got[0] = buffer.getInt(index);
            }));
            assertEquals(value, got[0]);
        }
    }

    @Test
    void shouldRaiseWhenARecordStaysClaimedPastTheStallLimitButNotBefore()
    {
        final ShmRingReader reader = reader(false);
        final OneToOneRingBuffer producer = new OneToOneRingBuffer(ring);
        assertTrue(producer.tryClaim(ShmMessageDescriptor.recordType(1, ShmMessageDescriptor.KIND_INLINE), 8) >= 0);
        idle(reader);
        nowNs[0] += ShmRingReader.STALL_LIMIT_NS;
        idle(reader);
        nowNs[0] += TimeUnit.MILLISECONDS.toNanos(1);
        assertCorrupt(() -> idle(reader), "the inbound ring of rank 0 from rank 1: record at the head", "length -16 at offset 0 not committed for 2001 ms",
            "tail is 16 bytes ahead");
    }

    @Test
    void shouldRaiseWhenTheHeadIsNotWhereTheReaderLeftIt()
    {
        final ShmRingReader reader = reader(false);
        ring.putLong(CAPACITY + RingBufferDescriptor.HEAD_POSITION_OFFSET, 64);
        assertCorrupt(() -> reader.read(IGNORE), "the inbound ring of rank 0 from rank 1: head position: found 64, this rank left it at 0");
    }

    @Test
    void shouldRaiseWhenTheTailIsFarAheadOnBothSides()
    {
        final ShmRingReader reader = reader(false);
        ring.putLong(CAPACITY + RingBufferDescriptor.TAIL_POSITION_OFFSET, 1L << 40);
        assertCorrupt(() -> idle(reader), "the inbound ring of rank 0 from rank 1: positions: tail 1099511627776");
        assertCorrupt(() -> writer(1, false).offerInline(8, (b, index, l) -> { }),
            "the inbound ring of rank 0 from rank 1: positions: tail 1099511627776, head cache 0, head 0");
    }

    @Test
    void shouldRaiseWhenARecordComesFromAnotherSenderOrHasNoKind()
    {
        final OneToOneRingBuffer producer = new OneToOneRingBuffer(ring);
        producer.write(ShmMessageDescriptor.recordType(2, ShmMessageDescriptor.KIND_INLINE), ring, 0, 8);
        assertCorrupt(() -> reader(false).read(IGNORE),
            "the inbound ring of rank 0 from rank 1: record type: 9 at offset 0 (sender local index 2, kind 1; expected sender 1");
        final OneToOneRingBuffer two = new OneToOneRingBuffer(rings[2]);
        two.write(2 << ShmMessageDescriptor.KIND_BITS, rings[2], 0, 8); // kind 0
        assertCorrupt(() -> reader(2, false).read(IGNORE), "the inbound ring of rank 0 from rank 2: record type: 8 at offset 0");
    }

    @Test
    void shouldRaiseNamingSenderSequenceAndOffsetWhenAPooledPayloadChangesWithChecksums()
    {
        final ShmRingReader reader = reader(2, true);
        assertTrue(writer(2, true).offerPooled(400, (b, index, l) -> b.setMemory(index, l, (byte)7)));
        final int slotOffset = FragmentPoolDescriptor.slotOffset(SLOT_LENGTH, 0);
        pools[2].putByte(slotOffset + 399, (byte)8);
        assertCorrupt(() -> reader.read(IGNORE), "a record from rank 2 in the inbound ring of rank 0: checksum mismatch in message 0 from rank 2",
            "pooled frame in slot 0 at offset " + slotOffset + " of the pool, 400 bytes");
    }

    @Test
    void shouldRaiseWhenThePoolsConsumerPositionIsOutOfRangeOnTheSendersSide()
    {
        final ShmRingWriter one = writer(1, false);
        for (int i = 0; i < SLOT_COUNT; i++)
        {
            assertTrue(one.offerPooled(200, (b, index, l) -> { }));
        }
        pools[1].putLongVolatile(FragmentPoolDescriptor.CONSUMER_POSITION_OFFSET, 99);
        assertCorrupt(() -> one.offerPooled(200, (b, index, l) -> { }),
            "the fragment pool rank 1 -> rank 0: consumer position: found 99 (expected 0 to 2");
    }
}
