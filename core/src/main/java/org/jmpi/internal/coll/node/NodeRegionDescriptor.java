package org.jmpi.internal.coll.node;

import java.nio.ByteOrder;

/**
 * Layout of a communicator's node collective region ({@link NodeRegion}): a header, one control block per
 * rank of the communicator, and one data slot per rank. Byte order: native (the region never leaves the
 * node). Between threads of one JVM the region is a heap array; across JVMs (or mixed threads and JVMs of one
 * node) it is a file the communicator's rank 0 creates in {@code jmpi.shm.dir} and every rank maps
 * ({@link NodeRegionFile}), with the same layout.
 *
 * <pre>
 *   Region:
 *   +----------------------------------+  0
 *   | header (below)                   |
 *   +----------------------------------+  CONTROL_OFFSET
 *   | control block of rank 0          |  CONTROL_LENGTH bytes each: every field is written by
 *   | ...                              |  that rank only, read by all; two cache lines, so that
 *   | control block of rank P-1        |  no two ranks' flags share one (nor its prefetched pair)
 *   +----------------------------------+  slotsOffset(P)
 *   | data slot of rank 0              |  slotBytes each (a multiple of SLOT_ALIGNMENT): packed
 *   | ...                              |  data the rank posts for a call, written by that rank
 *   | data slot of rank P-1            |  only, read by the others
 *   +----------------------------------+  regionLength(P, slotBytes)
 *
 *   Header:
 *    0                   1                   2                   3
 *    0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *   +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *   |                       Magic "JMCR"                            |  0
 *   +---------------------------------------------------------------+
 *   |                       Layout Version                          |  4
 *   +---------------------------------------------------------------+
 *   |                        Rank Count P                           |  8
 *   +---------------------------------------------------------------+
 *   |                     Slot Length (bytes)                       | 12
 *   +---------------------------------------------------------------+
 *   |                 (reserved, to CONTROL_OFFSET)                 | 16
 *   +---------------------------------------------------------------+
 *
 *   Control block of one rank (longs, written with ordered stores, read volatile):
 *   +---------------------------------------------------------------+
 *   |                 Arrive: last call and round posted            |  0
 *   |                                                               |
 *   +---------------------------------------------------------------+
 *   | Length, half 0: bit 62 direct (buffers posted), bit 61 failed,|  8
 *   | low 32 = bytes                                                |
 *   +---------------------------------------------------------------+
 *   |     Total, half 0: bytes of the whole call (per block) on     | 16
 *   |     this rank, written with the call's first round            |
 *   +---------------------------------------------------------------+
 *   |                 Length, half 1 (as half 0)                    | 24
 *   |                                                               |
 *   +---------------------------------------------------------------+
 *   |                 Total, half 1 (as half 0)                     | 32
 *   |                                                               |
 *   +---------------------------------------------------------------+
 *   |                 (reserved, to DONE_OFFSET)                    | 40
 *   +---------------------------------------------------------------+
 *   |        Done: last call and round finished reading peers       | 64
 *   |        (a cache line of its own, 64 bytes from Arrive)        |
 *   +---------------------------------------------------------------+
 *   |                 (reserved, to CONTROL_LENGTH)                 | 72
 *   +---------------------------------------------------------------+
 * </pre>
 * Arrive, the lengths and totals share a line: a reader needs them together, after the arrive flag that publishes
 * them. Done lies 64 bytes on (never in Arrive's line, whatever the region's alignment): peers read it rarely (an
 * arrival implies the peer's earlier done flags), so its store, a volatile one, finds the line in this rank's cache
 * instead of taking it back from the peer that just read Arrive (layout version 4; version 3 had Done at 8).
 * <pre>
 * </pre>
 * Calls are numbered 1, 2, ... per communicator (all ranks call its collectives in the same order), and a
 * call runs in rounds 0, 1, ... (one between threads; across JVMs as many as chunks of the leader's total,
 * each through the slots). Every round of every call but a barrier takes the next of the two halves of each
 * rank's slot in turn (the same on every rank), with that half's length and total fields, so that a rank may
 * post its next call while its peers still read its previous one (a bcast root runs one call ahead). A flag holds {@link #flag(long, long) the call number shifted left by 32, or the
 * round} of the last round it stands for (a done flag of a call's last round: round {@link #ROUND_LAST}), so a
 * flag is never reset and consecutive calls never wait for a reset.
 */
public final class NodeRegionDescriptor
{
    public static final int MAGIC = 0x524D434A; // "JMCR" read as a little-endian int
    public static final int VERSION = 4;
    public static final ByteOrder BYTE_ORDER = ByteOrder.nativeOrder();

    public static final int MAGIC_OFFSET = 0;
    public static final int VERSION_OFFSET = MAGIC_OFFSET + Integer.BYTES;
    public static final int RANKS_OFFSET = VERSION_OFFSET + Integer.BYTES;
    public static final int SLOT_BYTES_OFFSET = RANKS_OFFSET + Integer.BYTES;
    /** The header takes a cache-line pair of its own. */
    public static final int HEADER_LENGTH = 128;

    public static final int CONTROL_OFFSET = HEADER_LENGTH;
    public static final int ARRIVE_OFFSET = 0;
    public static final int LENGTH_OFFSET = ARRIVE_OFFSET + Long.BYTES;
    public static final int TOTAL_OFFSET = LENGTH_OFFSET + Long.BYTES;
    /** Rounds alternate between the two halves of each slot: half 0 uses the length and total above, half 1 these. */
    public static final int LENGTH_ODD_OFFSET = TOTAL_OFFSET + Long.BYTES;
    public static final int TOTAL_ODD_OFFSET = LENGTH_ODD_OFFSET + Long.BYTES;
    /** One cache line on from Arrive. */
    public static final int DONE_OFFSET = ARRIVE_OFFSET + 64;
    /** Two 64-byte cache lines per rank. */
    public static final int CONTROL_LENGTH = 128;

    public static final int SLOT_ALIGNMENT = 128;

    /** Length field: the rank posted its buffers (direct copies) instead of data in its slot. */
    public static final long LENGTH_DIRECT = 1L << 62;
    /** Length field: the rank could not post its part (its own arguments failed); peers fail the call too. */
    public static final long LENGTH_FAILED = 1L << 61;
    /** Length field: the mask of the byte count. */
    public static final long LENGTH_BYTES_MASK = 0xFFFF_FFFFL;

    /** Bits of a flag that number the round within a call. */
    public static final int ROUND_BITS = 32;
    /** The round of a done flag set once a call's last round is done. */
    public static final long ROUND_LAST = 0xFFFF_FFFFL;

    private NodeRegionDescriptor()
    {
    }

    /** The flag value of round {@code round} of call {@code call}. */
    public static long flag(final long call, final long round)
    {
        return call << ROUND_BITS | round;
    }

    /** The call a flag value stands for. */
    public static long callOf(final long flag)
    {
        return flag >>> ROUND_BITS;
    }

    /** The offset, in a control block, of the length of a round posted in half {@code half} (0 or 1) of the slot. */
    public static int lengthOffset(final int half)
    {
        return half == 0 ? LENGTH_OFFSET : LENGTH_ODD_OFFSET;
    }

    /** The offset, in a control block, of the total of a call whose first round is posted in half {@code half}. */
    public static int totalOffset(final int half)
    {
        return half == 0 ? TOTAL_OFFSET : TOTAL_ODD_OFFSET;
    }

    /** Offset, within a slot of {@code slotBytes}, of half {@code half} (0 or 1). */
    public static int halfOffset(final int slotBytes, final int half)
    {
        return half * halfBytes(slotBytes);
    }

    /** Bytes of half a slot of {@code slotBytes} (a multiple of 64: slots are multiples of {@link #SLOT_ALIGNMENT}). */
    public static int halfBytes(final int slotBytes)
    {
        return slotBytes / 2;
    }

    /** Offset of rank {@code rank}'s control block. */
    public static int controlOffset(final int rank)
    {
        return CONTROL_OFFSET + rank * CONTROL_LENGTH;
    }

    /** Offset of the first data slot in a region of {@code ranks} ranks. */
    public static int slotsOffset(final int ranks)
    {
        return CONTROL_OFFSET + ranks * CONTROL_LENGTH;
    }

    /** Offset of rank {@code rank}'s data slot. */
    public static int slotOffset(final int ranks, final int slotBytes, final int rank)
    {
        return slotsOffset(ranks) + rank * slotBytes;
    }

    /** Total length of a region of {@code ranks} ranks with slots of {@code slotBytes}. */
    public static long regionLength(final int ranks, final int slotBytes)
    {
        return slotsOffset(ranks) + (long)ranks * slotBytes;
    }

    /** {@code bytes} rounded up to {@link #SLOT_ALIGNMENT}. */
    public static int alignSlot(final long bytes)
    {
        return (int)((Math.max(bytes, SLOT_ALIGNMENT) + SLOT_ALIGNMENT - 1) & -SLOT_ALIGNMENT);
    }
}
