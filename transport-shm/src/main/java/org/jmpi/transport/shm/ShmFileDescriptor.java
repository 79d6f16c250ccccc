package org.jmpi.transport.shm;

import org.agrona.BitUtil;
import org.agrona.concurrent.ringbuffer.RingBufferDescriptor;

import java.nio.ByteOrder;

import static org.agrona.BitUtil.SIZE_OF_INT;
import static org.agrona.BitUtil.SIZE_OF_LONG;

/**
 * Layout of the node's shared-memory file: one per job per node, {@code <dir>/jmpi-<jobId>-<node hash>}.
 * The lowest node-local rank creates it, writes this header (magic last) and publishes the name; every
 * other node-local rank maps it and checks every field against its own parameters before use.
 *
 * <pre>
 *   File:
 *   +----------------------------------+  0
 *   | header (below), page aligned     |
 *   +----------------------------------+  headerLength
 *   | doorbell of local rank 0         |  DoorbellDescriptor, one cache line each,
 *   | ...                              |  the region rounded up to a page
 *   | doorbell of local rank n-1       |
 *   +----------------------------------+  ringsOffset = headerLength + doorbellsLength
 *   | ring 0 -> 1                      |  Agrona OneToOneRingBuffer (single producer, single
 *   | ring 0 -> 2 ...                  |  consumer): capacity + trailer, ringStride bytes each
 *   | ring n-1 -> n-2                  |  (page aligned), ordered by sender then receiver,
 *   |                                  |  no ring from a rank to itself: n * (n - 1) rings
 *   +----------------------------------+  poolsOffset = ringsOffset + n * (n - 1) * ringStride
 *   | fragment pool 0 -> 1             |  FragmentPoolDescriptor, poolStride bytes each
 *   | fragment pool 0 -> 2 ...         |  (page aligned), in the rings' order:
 *   | fragment pool n-1 -> n-2         |  n * (n - 1) pools
 *   +----------------------------------+  fileLength
 *
 *   Header:
 *    0                   1                   2                   3
 *    0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *   +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *   |                      Magic "JMPISHM1"                         |  0
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
 *   |                      Local Rank Count n                       | 32
 *   +---------------------------------------------------------------+
 *   |                    Ring Capacity (bytes)                      | 36
 *   +---------------------------------------------------------------+
 *   |                     Pool Slot Count K                         | 40
 *   +---------------------------------------------------------------+
 *   |                    Slot Length (bytes)                        | 44
 *   +---------------------------------------------------------------+
 *   |                 Fragment Pool Layout Version                  | 48
 *   +---------------------------------------------------------------+
 *   |                   Message Layout Version                      | 52
 *   +---------------------------------------------------------------+
 *   |                    Flags (bit 0: checksums)                   | 56
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
 * <p>Every ordered pair of local ranks has its own ring and pool, so a sender never contends with another
 * sender for a ring's tail (no CAS per frame) and the receiver polls one ring per peer (version 4; up to
 * version 3 each rank had one many-to-one ring that every sender claimed with a CAS, with its doorbell
 * after the ring).
 *
 * <p>Byte order: {@link #BYTE_ORDER}, the platform's. The file never leaves the node, and the
 * concurrent fields of the rings and pools are updated with Agrona's atomics, which are native order.
 * The instance id is random per job and is published with the file name, so a stale or foreign file
 * of the same name fails the check on attach.
 *
 * <p>Threading: constants and pure functions only.
 */
public final class ShmFileDescriptor
{
    /** Reads as the ASCII bytes "JMPISHM1" in a little-endian file. */
    public static final long MAGIC = 0x314D_4853_4950_4D4AL;
    /** Bumped on any change of this header or of the region layout. */
    public static final int VERSION = 4;
    public static final ByteOrder BYTE_ORDER = ByteOrder.nativeOrder();

    /** Every region (header, ring, pool) starts on a page boundary, so each can be mapped alone. */
    public static final int REGION_ALIGNMENT = 4096;

    public static final int MAGIC_OFFSET = 0;
    public static final int VERSION_OFFSET = MAGIC_OFFSET + SIZE_OF_LONG;
    public static final int HEADER_LENGTH_OFFSET = VERSION_OFFSET + SIZE_OF_INT;
    public static final int FILE_LENGTH_OFFSET = HEADER_LENGTH_OFFSET + SIZE_OF_INT;
    public static final int INSTANCE_ID_OFFSET = FILE_LENGTH_OFFSET + SIZE_OF_LONG;
    public static final int LOCAL_RANK_COUNT_OFFSET = INSTANCE_ID_OFFSET + SIZE_OF_LONG;
    public static final int RING_CAPACITY_OFFSET = LOCAL_RANK_COUNT_OFFSET + SIZE_OF_INT;
    public static final int POOL_SLOT_COUNT_OFFSET = RING_CAPACITY_OFFSET + SIZE_OF_INT;
    public static final int SLOT_LENGTH_OFFSET = POOL_SLOT_COUNT_OFFSET + SIZE_OF_INT;
    public static final int POOL_VERSION_OFFSET = SLOT_LENGTH_OFFSET + SIZE_OF_INT;
    public static final int MESSAGE_VERSION_OFFSET = POOL_VERSION_OFFSET + SIZE_OF_INT;
    public static final int FLAGS_OFFSET = MESSAGE_VERSION_OFFSET + SIZE_OF_INT;
    public static final int RESERVED_OFFSET = FLAGS_OFFSET + SIZE_OF_INT;
    public static final int RANK_TABLE_OFFSET = RESERVED_OFFSET + SIZE_OF_INT;
    public static final int RANK_TABLE_ENTRY_LENGTH = SIZE_OF_INT;

    /** Flag: every ring record carries a checksum header ({@link ShmMessageDescriptor}), {@code jmpi.shm.checksum}. */
    public static final int FLAG_CHECKSUMS = 1;

    private ShmFileDescriptor()
    {
    }

    /** Offset of local rank {@code localIndex}'s world rank in the rank table. */
    public static int rankTableEntryOffset(final int localIndex)
    {
        return RANK_TABLE_OFFSET + localIndex * RANK_TABLE_ENTRY_LENGTH;
    }

    /** The header with its rank table, rounded up to a page. */
    public static int headerLength(final int localRankCount)
    {
        return BitUtil.align(rankTableEntryOffset(localRankCount), REGION_ALIGNMENT);
    }

    /** Bytes of the doorbells' region: one cache line per local rank, rounded up to a page. */
    public static int doorbellsLength(final int localRankCount)
    {
        return BitUtil.align(localRankCount * DoorbellDescriptor.LENGTH, REGION_ALIGNMENT);
    }

    /** Offset of the first ring, after the header and the doorbells. */
    public static long ringsOffset(final int localRankCount)
    {
        return headerLength(localRankCount) + (long)doorbellsLength(localRankCount);
    }

    /** Bytes of one ring region: data capacity plus Agrona's trailer, rounded up to a page. */
    public static int ringStride(final int ringCapacity)
    {
        return BitUtil.align(ringCapacity + RingBufferDescriptor.TRAILER_LENGTH, REGION_ALIGNMENT);
    }

    /** Bytes of one ring as Agrona sees it (data plus trailer). */
    public static int ringLength(final int ringCapacity)
    {
        return ringCapacity + RingBufferDescriptor.TRAILER_LENGTH;
    }

    /** Offset of the ring {@code sender -> receiver} (local indices, distinct). */
    public static long ringOffset(final int localRankCount, final int ringCapacity, final int senderLocal, final int receiverLocal)
    {
        return ringsOffset(localRankCount) + (long)pairIndex(localRankCount, senderLocal, receiverLocal) * ringStride(ringCapacity);
    }

    /** Bytes of one fragment pool region, rounded up to a page. */
    public static int poolStride(final int slotCount, final int slotLength)
    {
        return BitUtil.align(FragmentPoolDescriptor.poolLength(slotCount, slotLength), REGION_ALIGNMENT);
    }

    /** Offset of the first pool, after every ring. */
    public static long poolsOffset(final int localRankCount, final int ringCapacity)
    {
        return ringsOffset(localRankCount) + (long)localRankCount * (localRankCount - 1) * ringStride(ringCapacity);
    }

    /** Position of the pair {@code sender -> receiver} (local indices, distinct) among the n(n-1) rings, and pools. */
    public static int pairIndex(final int localRankCount, final int senderLocal, final int receiverLocal)
    {
        assert senderLocal != receiverLocal && senderLocal < localRankCount && receiverLocal < localRankCount;
        return senderLocal * (localRankCount - 1) + (receiverLocal < senderLocal ? receiverLocal : receiverLocal - 1);
    }

    /** Offset of the pool {@code sender -> receiver} (local indices, distinct). */
    public static long poolOffset(
        final int localRankCount,
        final int ringCapacity,
        final int slotCount,
        final int slotLength,
        final int senderLocal,
        final int receiverLocal)
    {
        return poolsOffset(localRankCount, ringCapacity) +
            (long)pairIndex(localRankCount, senderLocal, receiverLocal) * poolStride(slotCount, slotLength);
    }

    /** Length of the whole file. */
    public static long fileLength(final int localRankCount, final int ringCapacity, final int slotCount, final int slotLength)
    {
        return poolsOffset(localRankCount, ringCapacity) +
            (long)localRankCount * (localRankCount - 1) * poolStride(slotCount, slotLength);
    }
}
