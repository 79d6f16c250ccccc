package org.jmpi.transport.pvas;

import static org.agrona.BitUtil.SIZE_OF_INT;
import static org.agrona.BitUtil.SIZE_OF_LONG;

/**
 * One slot of a partition's exposure table: a region of the owner's data area that a peer may map by the
 * handle it received in a frame ({@code PeerMemory.expose}). The owner writes the fields, then the handle
 * with release; it withdraws by writing 0. A peer reads the handle (acquire), the fields, then the handle
 * again: it maps only when both reads equal the handle it was given, and checks every field against the
 * owner's partition first ({@link ArenaPeerMemory#map}).
 *
 * <pre>
 *    0                   1                   2                   3
 *    0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *   +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *   |              Handle (0: free; generation * slots + slot)      |  0
 *   |                                                               |
 *   +---------------------------------------------------------------+
 *   |              Offset in the owner's data area (bytes)          |  8
 *   |                                                               |
 *   +---------------------------------------------------------------+
 *   |                        Length (bytes)                         | 16
 *   |                                                               |
 *   +---------------------------------------------------------------+
 *   |   Element kind (1 byte .. 7 double, {@link #KIND_BYTE}...)    | 24
 *   +---------------------------------------------------------------+
 *   |          Byte order of the view (0 big, 1 little endian)      | 28
 *   +---------------------------------------------------------------+
 * </pre>
 * Byte order of the fields: {@link ArenaFileDescriptor#BYTE_ORDER}.
 *
 * <p>Threading: constants only.
 */
public final class ArenaExposureDescriptor
{
    public static final int HANDLE_OFFSET = 0;
    public static final int DATA_OFFSET_OFFSET = HANDLE_OFFSET + SIZE_OF_LONG;
    public static final int LENGTH_OFFSET = DATA_OFFSET_OFFSET + SIZE_OF_LONG;
    public static final int KIND_OFFSET = LENGTH_OFFSET + SIZE_OF_LONG;
    public static final int ORDER_OFFSET = KIND_OFFSET + SIZE_OF_INT;
    public static final int LENGTH = ORDER_OFFSET + SIZE_OF_INT;
    public static final int VERSION = 1;

    /** Element kinds: the nio view the peer builds over the region. */
    public static final int KIND_BYTE = 1;
    public static final int KIND_SHORT = 2;
    public static final int KIND_CHAR = 3;
    public static final int KIND_INT = 4;
    public static final int KIND_LONG = 5;
    public static final int KIND_FLOAT = 6;
    public static final int KIND_DOUBLE = 7;

    public static final int ORDER_BIG_ENDIAN = 0;
    public static final int ORDER_LITTLE_ENDIAN = 1;

    private ArenaExposureDescriptor()
    {
    }

    /** Bytes per element of {@code kind}, or 0 for an unknown kind. */
    public static int elementSize(final int kind)
    {
        return switch (kind)
        {
            case KIND_BYTE -> 1;
            case KIND_SHORT, KIND_CHAR -> 2;
            case KIND_INT, KIND_FLOAT -> 4;
            case KIND_LONG, KIND_DOUBLE -> 8;
            default -> 0;
        };
    }
}
