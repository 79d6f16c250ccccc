package org.jmpi.transport.shm;

import java.nio.ByteOrder;

import static org.agrona.BitUtil.SIZE_OF_INT;
import static org.agrona.BitUtil.SIZE_OF_LONG;

/**
 * What travels through the ring of an ordered pair of local ranks (an Agrona {@code OneToOneRingBuffer},
 * whose record header is {@code length:int, type:int} followed by the body on an 8-byte boundary). The
 * record's type says the kind of record and the sender's node-local index (the ring's only sender: the
 * reader checks it); the body is either the frame itself
 * (inline) or, for frames above {@code jmpi.shm.inline.max}, a pooled frame descriptor naming the
 * fragment pool slot that holds it. Both kinds from one sender go through the same ring, so their
 * order is the sender's offer order.
 *
 * <pre>
 *   Record type (the ring record's type field, always positive):
 *    0                   1                   2                   3
 *    0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *   +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *   |0|           Sender Local Index (29 bits)                | Kind|
 *   +-+-------------------------------------------------------+-+-+-+
 *                                               Kind: 1 inline, 2 pooled
 *
 *   Inline body: the frame's bytes, record length - 8 of them.
 *
 *   Pooled frame descriptor body:
 *    0                   1                   2                   3
 *    0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *   +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *   |            Slot Sequence (slot = sequence % K)                |  0
 *   |                                                               |
 *   +---------------------------------------------------------------+
 *   |                     Frame Length (bytes)                      |  8
 *   +---------------------------------------------------------------+
 *   |                          Reserved (0)                         | 12
 *   +---------------------------------------------------------------+
 *
 *   With checksums (jmpi.shm.checksum, a flag in the file header), every body starts with a
 *   checksum header, and the inline frame or the pooled frame descriptor follows it:
 *    0                   1                   2                   3
 *    0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *   +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *   |                          CRC-32C                              |  0
 *   +---------------------------------------------------------------+
 *   |                          Reserved (0)                         |  4
 *   +---------------------------------------------------------------+
 *   |        Message Sequence (records sender -> receiver, from 0)  |  8
 *   |                                                               |
 *   +---------------------------------------------------------------+
 *   |        inline frame, or pooled frame descriptor (above)       | 16
 *   |                             ...                               |
 *   +---------------------------------------------------------------+
 *   The CRC-32C covers the record type, the body from offset 4 to its end and, for a pooled
 *   frame, the frame's bytes in its slot.
 * </pre>
 *
 * <p>Byte order: {@link #BYTE_ORDER}. Version: {@link #VERSION}, stored in the file header and checked
 * on attach.
 *
 * <p>Threading: constants and pure functions only.
 */
public final class ShmMessageDescriptor
{
    public static final int VERSION = 2;
    public static final ByteOrder BYTE_ORDER = ByteOrder.nativeOrder();

    public static final int KIND_BITS = 2;
    public static final int KIND_MASK = (1 << KIND_BITS) - 1;
    public static final int KIND_INLINE = 1;
    public static final int KIND_POOLED = 2;
    /** Local indices must stay below this so the type stays positive. */
    public static final int MAX_LOCAL_RANKS = 1 << (Integer.SIZE - 1 - KIND_BITS);

    public static final int SLOT_SEQUENCE_OFFSET = 0;
    public static final int FRAME_LENGTH_OFFSET = SLOT_SEQUENCE_OFFSET + SIZE_OF_LONG;
    public static final int RESERVED_OFFSET = FRAME_LENGTH_OFFSET + SIZE_OF_INT;
    public static final int POOLED_DESCRIPTOR_LENGTH = RESERVED_OFFSET + SIZE_OF_INT;

    public static final int CHECKSUM_OFFSET = 0;
    public static final int CHECKSUM_RESERVED_OFFSET = CHECKSUM_OFFSET + SIZE_OF_INT;
    public static final int MESSAGE_SEQUENCE_OFFSET = CHECKSUM_RESERVED_OFFSET + SIZE_OF_INT;
    public static final int CHECKSUM_HEADER_LENGTH = MESSAGE_SEQUENCE_OFFSET + SIZE_OF_LONG;

    private ShmMessageDescriptor()
    {
    }

    /** The ring record type for a record of {@code kind} from node-local rank {@code senderLocal}. */
    public static int recordType(final int senderLocal, final int kind)
    {
        assert senderLocal >= 0 && senderLocal < MAX_LOCAL_RANKS && (kind == KIND_INLINE || kind == KIND_POOLED);
        return (senderLocal << KIND_BITS) | kind;
    }

    public static int kind(final int recordType)
    {
        return recordType & KIND_MASK;
    }

    public static int senderLocal(final int recordType)
    {
        return recordType >>> KIND_BITS;
    }
}
