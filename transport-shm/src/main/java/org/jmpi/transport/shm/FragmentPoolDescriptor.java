package org.jmpi.transport.shm;

import org.agrona.BitUtil;

import java.nio.ByteOrder;

import static org.agrona.BitUtil.CACHE_LINE_LENGTH;

/**
 * Layout of one fragment pool: a single-producer single-consumer ring of K slots that carries the
 * frames of one ordered pair (sender -> receiver) that are too large for the receiver's inbound ring.
 * The sender writes a frame into slot {@code producerPosition % K} in place, then publishes a pooled
 * frame descriptor ({@link ShmMessageDescriptor}) through the receiver's ring; the receiver hands the
 * slot to its handler and then releases it by advancing the consumer position (ordered store). The
 * ring's publication orders the slot's contents; the positions only count slots.
 *
 * <pre>
 *    0                   1                   2                   3
 *    0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *   +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *   |          Producer Position (slots published, sender)          |    0
 *   |                                                               |
 *   +---------------------------------------------------------------+
 *   |                  Padding to 2 cache lines                     |    8
 *   |                             ...                               |
 *   +---------------------------------------------------------------+
 *   |         Consumer Position (slots released, receiver)          |  128
 *   |                                                               |
 *   +---------------------------------------------------------------+
 *   |                  Padding to 2 cache lines                     |  136
 *   |                             ...                               |
 *   +---------------------------------------------------------------+
 *   |                Slot 0 (slotLength bytes)                      |  256
 *   |                             ...                               |
 *   +---------------------------------------------------------------+
 *   |                Slot 1                                         |  256 + slotStride
 *   |                             ...                               |
 *   +---------------------------------------------------------------+
 *   |                Slot K-1                                       |  256 + (K-1) slotStride
 *   |                             ...                               |
 *   +---------------------------------------------------------------+
 * </pre>
 *
 * <p>Each position sits alone on two cache lines (the adjacent-line prefetcher pulls lines in pairs),
 * so the sender's and the receiver's stores never share a line. Slots start on a cache line.
 * Byte order: {@link #BYTE_ORDER} (positions are written with Agrona's native-order atomics). Version:
 * {@link #VERSION}, stored in the file header and checked on attach.
 *
 * <p>Threading: constants and pure functions only.
 */
public final class FragmentPoolDescriptor
{
    public static final int VERSION = 1;
    public static final ByteOrder BYTE_ORDER = ByteOrder.nativeOrder();

    /** Two cache lines per counter. */
    public static final int COUNTER_PADDED_LENGTH = 2 * CACHE_LINE_LENGTH;
    public static final int SLOT_ALIGNMENT = CACHE_LINE_LENGTH;

    public static final int PRODUCER_POSITION_OFFSET = 0;
    public static final int CONSUMER_POSITION_OFFSET = PRODUCER_POSITION_OFFSET + COUNTER_PADDED_LENGTH;
    public static final int SLOTS_OFFSET = CONSUMER_POSITION_OFFSET + COUNTER_PADDED_LENGTH;
    public static final int HEADER_LENGTH = SLOTS_OFFSET;

    private FragmentPoolDescriptor()
    {
    }

    /** Distance between consecutive slots: the slot length rounded up to a cache line. */
    public static int slotStride(final int slotLength)
    {
        return BitUtil.align(slotLength, SLOT_ALIGNMENT);
    }

    /** Offset of slot {@code slotIndex} within the pool. */
    public static int slotOffset(final int slotLength, final int slotIndex)
    {
        return SLOTS_OFFSET + slotIndex * slotStride(slotLength);
    }

    /** Length of the pool: header and K slots. */
    public static int poolLength(final int slotCount, final int slotLength)
    {
        return SLOTS_OFFSET + slotCount * slotStride(slotLength);
    }
}
