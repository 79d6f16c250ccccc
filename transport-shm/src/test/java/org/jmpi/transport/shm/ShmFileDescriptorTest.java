package org.jmpi.transport.shm;

import org.agrona.concurrent.ringbuffer.RingBufferDescriptor;
import org.junit.jupiter.api.Test;

import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class ShmFileDescriptorTest
{
    @Test
    void shouldPlaceEveryHeaderFieldAtItsDiagramOffset()
    {
        assertEquals(0, ShmFileDescriptor.MAGIC_OFFSET);
        assertEquals(8, ShmFileDescriptor.VERSION_OFFSET);
        assertEquals(12, ShmFileDescriptor.HEADER_LENGTH_OFFSET);
        assertEquals(16, ShmFileDescriptor.FILE_LENGTH_OFFSET);
        assertEquals(24, ShmFileDescriptor.INSTANCE_ID_OFFSET);
        assertEquals(32, ShmFileDescriptor.LOCAL_RANK_COUNT_OFFSET);
        assertEquals(36, ShmFileDescriptor.RING_CAPACITY_OFFSET);
        assertEquals(40, ShmFileDescriptor.POOL_SLOT_COUNT_OFFSET);
        assertEquals(44, ShmFileDescriptor.SLOT_LENGTH_OFFSET);
        assertEquals(48, ShmFileDescriptor.POOL_VERSION_OFFSET);
        assertEquals(52, ShmFileDescriptor.MESSAGE_VERSION_OFFSET);
        assertEquals(56, ShmFileDescriptor.FLAGS_OFFSET);
        assertEquals(60, ShmFileDescriptor.RESERVED_OFFSET);
        assertEquals(64, ShmFileDescriptor.RANK_TABLE_OFFSET);
        assertEquals(4, ShmFileDescriptor.RANK_TABLE_ENTRY_LENGTH);
        assertEquals(64 + 4 * 5, ShmFileDescriptor.rankTableEntryOffset(5));
    }

    @Test
    void shouldAlignEightByteFieldsOnEightBytes()
    {
        assertEquals(0, ShmFileDescriptor.MAGIC_OFFSET % 8);
        assertEquals(0, ShmFileDescriptor.FILE_LENGTH_OFFSET % 8);
        assertEquals(0, ShmFileDescriptor.INSTANCE_ID_OFFSET % 8);
        assertEquals(0, ShmFileDescriptor.RANK_TABLE_OFFSET % 8);
    }

    @Test
    void shouldSpellTheMagicInALittleEndianFile()
    {
        final byte[] bytes = java.nio.ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(ShmFileDescriptor.MAGIC).array();
        assertEquals("JMPISHM1", new String(bytes, StandardCharsets.US_ASCII));
        assertEquals(ByteOrder.nativeOrder(), ShmFileDescriptor.BYTE_ORDER);
    }

    @Test
    void shouldRoundTheHeaderUpToAPage()
    {
        assertEquals(4096, ShmFileDescriptor.REGION_ALIGNMENT);
        assertEquals(4096, ShmFileDescriptor.headerLength(1));
        assertEquals(4096, ShmFileDescriptor.headerLength((4096 - 64) / 4));
        assertEquals(8192, ShmFileDescriptor.headerLength((4096 - 64) / 4 + 1));
    }

    @Test
    void shouldLayOutDoorbellsThenPairRingsThenPoolsOnPageBoundaries()
    {
        final int ranks = 3;
        final int ringCapacity = 1 << 18;
        final int slots = 8;
        final int slotLength = 32 * 1024 + 256;
        final int ringStride = ShmFileDescriptor.ringStride(ringCapacity);
        assertEquals(ringCapacity + RingBufferDescriptor.TRAILER_LENGTH, ShmFileDescriptor.ringLength(ringCapacity));
        assertEquals(0, ringStride % 4096);
        assertEquals(ringCapacity + 4096, ringStride);

        assertEquals(4096, ShmFileDescriptor.doorbellsLength(ranks));
        assertEquals(4096, ShmFileDescriptor.doorbellsLength(64));
        assertEquals(8192, ShmFileDescriptor.doorbellsLength(65));
        final long rings = 4096 + 4096;
        assertEquals(rings, ShmFileDescriptor.ringsOffset(ranks));

        // Rings and pools ordered by sender, then receiver, skipping the sender itself.
        assertEquals(0, ShmFileDescriptor.pairIndex(ranks, 0, 1));
        assertEquals(1, ShmFileDescriptor.pairIndex(ranks, 0, 2));
        assertEquals(2, ShmFileDescriptor.pairIndex(ranks, 1, 0));
        assertEquals(3, ShmFileDescriptor.pairIndex(ranks, 1, 2));
        assertEquals(4, ShmFileDescriptor.pairIndex(ranks, 2, 0));
        assertEquals(5, ShmFileDescriptor.pairIndex(ranks, 2, 1));
        assertEquals(rings, ShmFileDescriptor.ringOffset(ranks, ringCapacity, 0, 1));
        assertEquals(rings + 2L * ringStride, ShmFileDescriptor.ringOffset(ranks, ringCapacity, 1, 0));
        assertEquals(rings + 5L * ringStride, ShmFileDescriptor.ringOffset(ranks, ringCapacity, 2, 1));
        final long pools = rings + 6L * ringStride;
        assertEquals(pools, ShmFileDescriptor.poolsOffset(ranks, ringCapacity));

        final int poolStride = ShmFileDescriptor.poolStride(slots, slotLength);
        assertEquals(0, poolStride % 4096);
        assertEquals(256 + 8 * 33024, FragmentPoolDescriptor.poolLength(slots, slotLength));
        assertEquals(266_240, poolStride);
        assertEquals(pools + 3L * poolStride, ShmFileDescriptor.poolOffset(ranks, ringCapacity, slots, slotLength, 1, 2));
        assertEquals(pools + 6L * poolStride, ShmFileDescriptor.fileLength(ranks, ringCapacity, slots, slotLength));
    }

    @Test
    void shouldSizeFilesBeyondTwoGigabytesWithoutOverflow()
    {
        final long length = ShmFileDescriptor.fileLength(128, 1 << 18, 8, 33024);
        assertEquals(4096 + 8192 + 128L * 127 * ((1 << 18) + 4096) + 128L * 127 * 266_240, length);
    }

    @Test
    void shouldRefuseAPoolFromARankToItselfWhenAssertionsAreOn()
    {
        assertThrows(AssertionError.class, () -> ShmFileDescriptor.pairIndex(3, 1, 1));
    }
}
