package org.jmpi.transport.shm;

import org.agrona.BitUtil;

import static org.agrona.BitUtil.SIZE_OF_INT;

/**
 * Layout of a rank's doorbell in the node's file: one cache line per local rank, in the doorbells' region after
 * the header ({@link ShmFileDescriptor}, version 4; it followed the rank's inbound ring up to version 3). The rank
 * arms it before it parks; the first sender that finds it armed after writing a frame disarms it (compare-and-set
 * 1 to 0), bumps the sequence and wakes the rank with a futex wake on the sequence word; later senders find it
 * disarmed and make no system call.
 *
 * <pre>
 *    0                   1                   2                   3
 *    0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *   +---------------------------------------------------------------+
 *   |   Sequence (the futex word; bumped by the ring that disarms)  |  0
 *   +---------------------------------------------------------------+
 *   |  Armed (1 while the owner may sleep and nobody woke it, or 0) |  4
 *   +---------------------------------------------------------------+
 *   |                     Padding to 64 bytes                       |  8
 *   +---------------------------------------------------------------+
 * </pre>
 * Native byte order, like the rest of the file. A value a peer wrote here is never trusted for anything but
 * waking: a corrupted word costs at most a spurious wake-up or a park that runs to its period.
 *
 * <p>Threading: constants and pure functions only.
 */
public final class DoorbellDescriptor
{
    public static final int SEQUENCE_OFFSET = 0;
    public static final int ARMED_OFFSET = SEQUENCE_OFFSET + SIZE_OF_INT;
    public static final int LENGTH = BitUtil.CACHE_LINE_LENGTH;

    private DoorbellDescriptor()
    {
    }

    /** Offset of local rank {@code localIndex}'s doorbell: its cache line in the doorbells' region. */
    public static long offset(final int localRankCount, final int localIndex)
    {
        return ShmFileDescriptor.headerLength(localRankCount) + (long)localIndex * LENGTH;
    }
}
