package org.jmpi.internal.rma;

import java.nio.ByteOrder;

import org.jmpi.internal.pt2pt.FrameDescriptor;

/**
 * Layout of the typed one-sided frames windows send where the target is reached by active messages: a put, get,
 * accumulate, get-accumulate or compare-and-swap whose target side is any committed datatype (its wire form,
 * {@code TypeWireForm}, travels in every fragment), answered by RESULT. Every frame starts with the protocol's
 * common header ({@link FrameDescriptor}); offsets count from the frame's start. Little-endian.
 *
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +---------------------------------------------------------------+
 *  |        common header (type, flags, credits): FrameDescriptor   |  0
 * OP (53): one fragment [streamFrom, streamFrom + dataLength) of a typed operation; answered by RESULT
 *  |                         regionId                              |  8
 *  |     kind      |    opCode     |     fetch     |    padding    | 12
 *  |      targetOffset: bytes into the region of item 0 (64)       | 16
 *  |                opId: the origin's operation (64)              | 24
 *  |                targetCount: items of the target type (64)     | 32
 *  |                streamFrom: packed-stream position (64)        | 40
 *  |                         dataLength                            | 48
 *  |                         typeLength                            | 52
 *  |   target type wire form (typeLength bytes), then data...      | 56
 * RESULT (54): a fragment done; fetched bytes for GET, fetching accumulates and compare-and-swap
 *  |                opId (64)                                      |  8
 *  |                streamFrom (64)                                | 16
 *  |                          length                               | 24
 *  |                status: 0, or the target's MPI error class     | 28
 *  |                data...                                        | 32
 * </pre>
 * kind: {@link #KIND_PUT}, {@link #KIND_GET}, {@link #KIND_ACC} (opCode: {@code Op.code()}), {@link #KIND_CAS}
 * (data: the new value, then the compare value, one basic element each). fetch: 1 when the old target bytes come
 * back in RESULT.
 */
public final class WinFrameDescriptor
{
    public static final ByteOrder BYTE_ORDER = FrameDescriptor.BYTE_ORDER;

    public static final byte TYPE_OP = 53;
    public static final byte TYPE_RESULT = 54;

    public static final byte KIND_PUT = 1;
    public static final byte KIND_GET = 2;
    public static final byte KIND_ACC = 3;
    public static final byte KIND_CAS = 4;

    public static final int REGION_OFFSET = FrameDescriptor.COMMON_LENGTH;
    public static final int KIND_OFFSET = REGION_OFFSET + 4;
    public static final int OP_CODE_OFFSET = KIND_OFFSET + 1;
    public static final int FETCH_OFFSET = OP_CODE_OFFSET + 1;
    public static final int TARGET_OFFSET_OFFSET = REGION_OFFSET + 8;
    public static final int OP_ID_OFFSET = TARGET_OFFSET_OFFSET + 8;
    public static final int TARGET_COUNT_OFFSET = OP_ID_OFFSET + 8;
    public static final int STREAM_FROM_OFFSET = TARGET_COUNT_OFFSET + 8;
    public static final int DATA_LENGTH_OFFSET = STREAM_FROM_OFFSET + 8;
    public static final int TYPE_LENGTH_OFFSET = DATA_LENGTH_OFFSET + 4;
    public static final int TYPE_OFFSET = TYPE_LENGTH_OFFSET + 4;

    public static final int RESULT_OP_ID_OFFSET = FrameDescriptor.COMMON_LENGTH;
    public static final int RESULT_STREAM_FROM_OFFSET = RESULT_OP_ID_OFFSET + 8;
    public static final int RESULT_LENGTH_OFFSET = RESULT_STREAM_FROM_OFFSET + 8;
    public static final int RESULT_STATUS_OFFSET = RESULT_LENGTH_OFFSET + 4;
    public static final int RESULT_DATA_OFFSET = RESULT_STATUS_OFFSET + 4;

    private WinFrameDescriptor()
    {
    }
}
