package org.jmpi.internal.rma;

import org.jmpi.internal.pt2pt.FrameDescriptor;

import java.nio.ByteOrder;

/**
 * Layout of the one-sided layer's active-message frames, used where the transport to a target offers no
 * peer memory. Every frame starts with the protocol's common header ({@link FrameDescriptor}); offsets
 * below count from the frame's start. Little-endian.
 *
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +---------------------------------------------------------------+
 *  |        common header (type, flags, credits): FrameDescriptor   |  0
 * PUT (48): one fragment of a put; answered by ACK
 *  |                         regionId                              |  8
 *  |                          length                               | 12
 *  |                targetOffset: bytes into the region (64)       | 16
 *  |                opId: the origin's operation (64)              | 24
 *  |                data...                                        | 32
 * GET (49): a request for one fragment; answered by GET_DATA
 *  |                         regionId                              |  8
 *  |                          length                               | 12
 *  |                targetOffset (64)                              | 16
 *  |                opId (64)                                      | 24
 *  |                originOffset: where the bytes go at the origin | 32
 * ADD (50): atomic fetch-and-add on the long at targetOffset; answered by ACK with the old value
 *  |                         regionId                              |  8
 *  |                          padding                              | 12
 *  |                targetOffset (64, a multiple of 8)             | 16
 *  |                opId (64)                                      | 24
 *  |                delta (64)                                     | 32
 * ACK (51): a PUT fragment written, or an ADD done
 *  |                opId (64)                                      |  8
 *  |                value: the long before an ADD, 0 for a PUT     | 16
 * GET_DATA (52): one fragment a GET asked for
 *  |                opId (64)                                      |  8
 *  |                originOffset (64)                              | 16
 *  |                          length                               | 24
 *  |                          padding                              | 28
 *  |                data...                                        | 32
 * </pre>
 */
public final class RmaFrameDescriptor
{
    public static final ByteOrder BYTE_ORDER = FrameDescriptor.BYTE_ORDER;

    public static final byte TYPE_PUT = 48;
    public static final byte TYPE_GET = 49;
    public static final byte TYPE_ADD = 50;
    public static final byte TYPE_ACK = 51;
    public static final byte TYPE_GET_DATA = 52;

    public static final int REGION_OFFSET = FrameDescriptor.COMMON_LENGTH;
    public static final int LENGTH_OFFSET = REGION_OFFSET + 4;
    public static final int TARGET_OFFSET_OFFSET = LENGTH_OFFSET + 4;
    public static final int OP_OFFSET = TARGET_OFFSET_OFFSET + 8;
    public static final int PUT_DATA_OFFSET = OP_OFFSET + 8;
    public static final int GET_ORIGIN_OFFSET_OFFSET = OP_OFFSET + 8;
    public static final int GET_LENGTH = GET_ORIGIN_OFFSET_OFFSET + 8;
    public static final int ADD_DELTA_OFFSET = OP_OFFSET + 8;
    public static final int ADD_LENGTH = ADD_DELTA_OFFSET + 8;

    public static final int ACK_OP_OFFSET = FrameDescriptor.COMMON_LENGTH;
    public static final int ACK_VALUE_OFFSET = ACK_OP_OFFSET + 8;
    public static final int ACK_LENGTH = ACK_VALUE_OFFSET + 8;

    public static final int DATA_OP_OFFSET = FrameDescriptor.COMMON_LENGTH;
    public static final int DATA_ORIGIN_OFFSET_OFFSET = DATA_OP_OFFSET + 8;
    public static final int DATA_LENGTH_OFFSET = DATA_ORIGIN_OFFSET_OFFSET + 8;
    public static final int DATA_PAYLOAD_OFFSET = DATA_LENGTH_OFFSET + 8;

    private RmaFrameDescriptor()
    {
    }
}
