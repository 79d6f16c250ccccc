package org.jmpi.transport.pvas;

import java.nio.ByteOrder;

import static org.agrona.BitUtil.SIZE_OF_INT;
import static org.agrona.BitUtil.SIZE_OF_LONG;
import static org.agrona.BitUtil.align;

/**
 * Layout of the node's arena file: one per job per node, {@code <jmpi.shm.dir>/jmpi-pvas-<jobId>-<random>}.
 * The lowest node-local rank creates it (owner-only, sparse), writes this header (magic last) and publishes
 * the name; every other node-local rank maps it and checks every field against its own parameters. Each rank
 * owns one partition: an exposure table ({@link ArenaExposureDescriptor}) and a data area, mapped in segments
 * of at most {@link #MAX_SEGMENT_LENGTH} bytes, so partitions and the file may exceed 2 GiB. An allocation never
 * straddles two segments.
 *
 * <pre>
 *   File:
 *   +----------------------------------+  0
 *   | header (below), page aligned     |
 *   +----------------------------------+  headerRegionLength
 *   | partition of local rank 0        |  partitionStride bytes each:
 *   |   exposure table                 |    slotCount * 32 bytes, page aligned (tableLength)
 *   |   data segment 0 .. s-1          |    partitionLength bytes (page aligned), segmentLength each,
 *   | ...                              |    the last one possibly shorter
 *   | partition of local rank n-1      |
 *   +----------------------------------+  fileLength
 *
 *   Header:
 *    0                   1                   2                   3
 *    0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *   +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *   |                      Magic "JMPIPVA1"                         |  0
 *   |                                                               |
 *   +---------------------------------------------------------------+
 *   |                        File Version                           |  8
 *   +---------------------------------------------------------------+
 *   |                        Header Length                          | 12
 *   +---------------------------------------------------------------+
 *   |                         File Length                           | 16
 *   |                                                               |
 *   +---------------------------------------------------------------+
 *   |                         Instance Id                           | 24
 *   |                                                               |
 *   +---------------------------------------------------------------+
 *   |                   Partition Length (data bytes)               | 32
 *   |                                                               |
 *   +---------------------------------------------------------------+
 *   |                   Segment Length (bytes)                      | 40
 *   |                                                               |
 *   +---------------------------------------------------------------+
 *   |                      Local Rank Count n                       | 48
 *   +---------------------------------------------------------------+
 *   |                  Exposure Slots per Partition                 | 52
 *   +---------------------------------------------------------------+
 *   |                   Exposure Layout Version                     | 56
 *   +---------------------------------------------------------------+
 *   |                          Reserved                             | 60
 *   +---------------------------------------------------------------+
 *   |               World Rank of Local Rank 0                      | 64
 *   +---------------------------------------------------------------+
 *   |                          ...                                  |
 *   +---------------------------------------------------------------+
 *   |               World Rank of Local Rank n-1                    | 64 + 4(n-1)
 *   +---------------------------------------------------------------+
 * </pre>
 *
 * <p>Byte order: {@link #BYTE_ORDER}, the platform's (the file never leaves the node). The instance id is
 * random per job and published with the file name, so a stale or foreign file fails the check on attach.
 *
 * <p>Threading: constants and pure functions only.
 */
public final class ArenaFileDescriptor
{
    /** Reads as the ASCII bytes "JMPIPVA1" in a little-endian file. */
    public static final long MAGIC = 0x31415650_49504D4AL;
    public static final int VERSION = 1;
    public static final ByteOrder BYTE_ORDER = ByteOrder.nativeOrder();
    /** Regions start on pages so the mappings of segments are page aligned. */
    public static final int PAGE = 4096;
    /** The largest segment one mapping covers (a mapping of a {@code ByteBuffer} is below 2 GiB). */
    public static final long MAX_SEGMENT_LENGTH = 1L << 30;

    public static final int MAGIC_OFFSET = 0;
    public static final int VERSION_OFFSET = MAGIC_OFFSET + SIZE_OF_LONG;
    public static final int HEADER_LENGTH_OFFSET = VERSION_OFFSET + SIZE_OF_INT;
    public static final int FILE_LENGTH_OFFSET = HEADER_LENGTH_OFFSET + SIZE_OF_INT;
    public static final int INSTANCE_ID_OFFSET = FILE_LENGTH_OFFSET + SIZE_OF_LONG;
    public static final int PARTITION_LENGTH_OFFSET = INSTANCE_ID_OFFSET + SIZE_OF_LONG;
    public static final int SEGMENT_LENGTH_OFFSET = PARTITION_LENGTH_OFFSET + SIZE_OF_LONG;
    public static final int LOCAL_RANK_COUNT_OFFSET = SEGMENT_LENGTH_OFFSET + SIZE_OF_LONG;
    public static final int SLOT_COUNT_OFFSET = LOCAL_RANK_COUNT_OFFSET + SIZE_OF_INT;
    public static final int EXPOSURE_VERSION_OFFSET = SLOT_COUNT_OFFSET + SIZE_OF_INT;
    public static final int RESERVED_OFFSET = EXPOSURE_VERSION_OFFSET + SIZE_OF_INT;
    public static final int RANK_TABLE_OFFSET = RESERVED_OFFSET + SIZE_OF_INT;
    public static final int RANK_TABLE_ENTRY_LENGTH = SIZE_OF_INT;

    private ArenaFileDescriptor()
    {
    }

    public static int rankTableEntryOffset(final int localIndex)
    {
        return RANK_TABLE_OFFSET + localIndex * RANK_TABLE_ENTRY_LENGTH;
    }

    /** Header bytes for {@code localRankCount} ranks (what is checked), before page alignment. */
    public static int headerLength(final int localRankCount)
    {
        return RANK_TABLE_OFFSET + localRankCount * RANK_TABLE_ENTRY_LENGTH;
    }

    /** Where the first partition starts. */
    public static long headerRegionLength(final int localRankCount)
    {
        return align((long)headerLength(localRankCount), PAGE);
    }

    /** Bytes of a partition's exposure table, page aligned. */
    public static long tableLength(final int slotCount)
    {
        return align((long)slotCount * ArenaExposureDescriptor.LENGTH, PAGE);
    }

    /** Bytes from one partition to the next: its table and its data ({@code partitionLength}, page aligned). */
    public static long partitionStride(final int slotCount, final long partitionLength)
    {
        return tableLength(slotCount) + align(partitionLength, PAGE);
    }

    /** Where local rank {@code localIndex}'s partition (its exposure table) starts. */
    public static long partitionOffset(final int localRankCount, final int slotCount, final long partitionLength, final int localIndex)
    {
        return headerRegionLength(localRankCount) + localIndex * partitionStride(slotCount, partitionLength);
    }

    /** Where local rank {@code localIndex}'s data area starts. */
    public static long dataOffset(final int localRankCount, final int slotCount, final long partitionLength, final int localIndex)
    {
        return partitionOffset(localRankCount, slotCount, partitionLength, localIndex) + tableLength(slotCount);
    }

    /** Segments of a data area of {@code partitionLength} bytes. */
    public static int segmentCount(final long partitionLength, final long segmentLength)
    {
        return (int)((align(partitionLength, PAGE) + segmentLength - 1) / segmentLength);
    }

    /** The file's length. */
    public static long fileLength(final int localRankCount, final int slotCount, final long partitionLength)
    {
        return headerRegionLength(localRankCount) + localRankCount * partitionStride(slotCount, partitionLength);
    }
}
