package org.jmpi.transport.pvas;

import org.junit.jupiter.api.Test;

import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertEquals;

class ArenaFileDescriptorTest
{
    @Test
    void shouldPlaceEveryHeaderFieldAtItsDiagramOffset()
    {
        assertEquals(0, ArenaFileDescriptor.MAGIC_OFFSET);
        assertEquals(8, ArenaFileDescriptor.VERSION_OFFSET);
        assertEquals(12, ArenaFileDescriptor.HEADER_LENGTH_OFFSET);
        assertEquals(16, ArenaFileDescriptor.FILE_LENGTH_OFFSET);
        assertEquals(24, ArenaFileDescriptor.INSTANCE_ID_OFFSET);
        assertEquals(32, ArenaFileDescriptor.PARTITION_LENGTH_OFFSET);
        assertEquals(40, ArenaFileDescriptor.SEGMENT_LENGTH_OFFSET);
        assertEquals(48, ArenaFileDescriptor.LOCAL_RANK_COUNT_OFFSET);
        assertEquals(52, ArenaFileDescriptor.SLOT_COUNT_OFFSET);
        assertEquals(56, ArenaFileDescriptor.EXPOSURE_VERSION_OFFSET);
        assertEquals(60, ArenaFileDescriptor.RESERVED_OFFSET);
        assertEquals(64, ArenaFileDescriptor.RANK_TABLE_OFFSET);
        assertEquals(64 + 4 * 3, ArenaFileDescriptor.rankTableEntryOffset(3));
        assertEquals(64 + 4 * 5, ArenaFileDescriptor.headerLength(5));
    }

    @Test
    void shouldAlignEightByteFieldsOnEightBytes()
    {
        for (final int offset : new int[] {ArenaFileDescriptor.MAGIC_OFFSET, ArenaFileDescriptor.FILE_LENGTH_OFFSET,
            ArenaFileDescriptor.INSTANCE_ID_OFFSET, ArenaFileDescriptor.PARTITION_LENGTH_OFFSET, ArenaFileDescriptor.SEGMENT_LENGTH_OFFSET})
        {
            assertEquals(0, offset % 8, "offset " + offset);
        }
    }

    @Test
    void shouldSpellTheMagicInALittleEndianFile()
    {
        final byte[] bytes = java.nio.ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(ArenaFileDescriptor.MAGIC).array();
        assertEquals("JMPIPVA1", new String(bytes, StandardCharsets.US_ASCII));
        assertEquals(ByteOrder.nativeOrder(), ArenaFileDescriptor.BYTE_ORDER);
    }

    @Test
    void shouldPlacePartitionsOnPagesAfterTheHeader()
    {
        final int ranks = 3;
        final int slots = 1024;
        final long partition = 5L << 30;
        assertEquals(4096, ArenaFileDescriptor.headerRegionLength(ranks));
        assertEquals(32 * 1024, ArenaFileDescriptor.tableLength(slots));
        assertEquals(4096, ArenaFileDescriptor.tableLength(1));
        final long stride = 32 * 1024 + partition;
        assertEquals(stride, ArenaFileDescriptor.partitionStride(slots, partition));
        assertEquals(4096 + 2 * stride, ArenaFileDescriptor.partitionOffset(ranks, slots, partition, 2));
        assertEquals(4096 + 2 * stride + 32 * 1024, ArenaFileDescriptor.dataOffset(ranks, slots, partition, 2));
        assertEquals(4096 + 3 * stride, ArenaFileDescriptor.fileLength(ranks, slots, partition));
        assertEquals(0, ArenaFileDescriptor.dataOffset(ranks, slots, partition, 1) % 4096);
        // a partition above 2 GiB: five segments of 1 GiB; a partial last one
        assertEquals(5, ArenaFileDescriptor.segmentCount(partition, 1L << 30));
        assertEquals(6, ArenaFileDescriptor.segmentCount(partition + 1, 1L << 30));
        assertEquals(1, ArenaFileDescriptor.segmentCount(100, 1L << 30));
    }
}
