package org.jmpi.internal.rma;

import org.agrona.MutableDirectBuffer;
import org.jmpi.internal.datatype.BufferView;
import org.jmpi.internal.pt2pt.ExtensionFrame;
import org.jmpi.internal.pt2pt.FrameDescriptor;

import static org.jmpi.internal.rma.RmaFrameDescriptor.*;

/**
 * The one-sided layer's outbound frames, each writing its body as {@link RmaFrameDescriptor} lays it out.
 * Payloads are copied from the source memory straight into the transport's frame.
 *
 * <p>Threading: engine thread only.
 */
final class RmaFrames
{
    private static final int BODY = FrameDescriptor.COMMON_LENGTH;

    private RmaFrames()
    {
    }

    /** Copies {@code length} bytes of {@code src} at {@code srcOffset} into the frame at {@code index}. */
    private static void copyOut(final BufferView src, final long srcOffset, final MutableDirectBuffer buffer, final int index, final int length)
    {
        org.agrona.UnsafeApi.copyMemory(src.base(), src.address() + srcOffset, buffer.byteArray(), buffer.addressOffset() + index, length);
    }

    /** PUT, GET and ADD: the request header every one of them starts with. */
    private abstract static class RequestFrame extends ExtensionFrame
    {
        private final int region;
        private final int length;
        private final long targetOffset;
        private final long op;

        RequestFrame(final byte type, final int region, final int length, final long targetOffset, final long op)
        {
            super(type);
            this.region = region;
            this.length = length;
            this.targetOffset = targetOffset;
            this.op = op;
        }

        /** Writes the header; returns the frame's start, from which the subclass writes its own fields. */
        final int writeHeader(final MutableDirectBuffer buffer, final int index)
        {
            final int frame = index - BODY;
            buffer.putInt(frame + REGION_OFFSET, region, BYTE_ORDER);
            buffer.putInt(frame + LENGTH_OFFSET, length, BYTE_ORDER);
            buffer.putLong(frame + TARGET_OFFSET_OFFSET, targetOffset, BYTE_ORDER);
            buffer.putLong(frame + OP_OFFSET, op, BYTE_ORDER);
            return frame;
        }
    }

    static final class PutFrame extends RequestFrame
    {
        private final BufferView src;
        private final long srcOffset;
        private final int length;

        PutFrame(final int region, final long targetOffset, final long op, final BufferView src, final long srcOffset, final int length)
        {
            super(TYPE_PUT, region, length, targetOffset, op);
            this.src = src;
            this.srcOffset = srcOffset;
            this.length = length;
        }

        @Override
        public int bodyLength()
        {
            return PUT_DATA_OFFSET - BODY + length;
        }

        @Override
        public void writeBody(final MutableDirectBuffer buffer, final int index)
        {
            final int frame = writeHeader(buffer, index);
            copyOut(src, srcOffset, buffer, frame + PUT_DATA_OFFSET, length);
        }
    }

    static final class GetFrame extends RequestFrame
    {
        private final long originOffset;

        GetFrame(final int region, final long targetOffset, final long op, final long originOffset, final int length)
        {
            super(TYPE_GET, region, length, targetOffset, op);
            this.originOffset = originOffset;
        }

        @Override
        public int bodyLength()
        {
            return GET_LENGTH - BODY;
        }

        @Override
        public void writeBody(final MutableDirectBuffer buffer, final int index)
        {
            final int frame = writeHeader(buffer, index);
            buffer.putLong(frame + GET_ORIGIN_OFFSET_OFFSET, originOffset, BYTE_ORDER);
        }
    }

    static final class AddFrame extends RequestFrame
    {
        private final long delta;

        AddFrame(final int region, final long targetOffset, final long op, final long delta)
        {
            super(TYPE_ADD, region, 0, targetOffset, op);
            this.delta = delta;
        }

        @Override
        public int bodyLength()
        {
            return ADD_LENGTH - BODY;
        }

        @Override
        public void writeBody(final MutableDirectBuffer buffer, final int index)
        {
            final int frame = writeHeader(buffer, index);
            buffer.putLong(frame + ADD_DELTA_OFFSET, delta, BYTE_ORDER);
        }
    }

    static final class AckFrame extends ExtensionFrame
    {
        private final long op;
        private final long value;

        AckFrame(final long op, final long value)
        {
            super(TYPE_ACK);
            this.op = op;
            this.value = value;
        }

        @Override
        public int bodyLength()
        {
            return ACK_LENGTH - BODY;
        }

        @Override
        public void writeBody(final MutableDirectBuffer buffer, final int index)
        {
            final int frame = index - BODY;
            buffer.putLong(frame + ACK_OP_OFFSET, op, BYTE_ORDER);
            buffer.putLong(frame + ACK_VALUE_OFFSET, value, BYTE_ORDER);
        }
    }

    static final class GetDataFrame extends ExtensionFrame
    {
        private final long op;
        private final long originOffset;
        private final BufferView src;
        private final long srcOffset;
        private final int length;

        GetDataFrame(final long op, final long originOffset, final BufferView src, final long srcOffset, final int length)
        {
            super(TYPE_GET_DATA);
            this.op = op;
            this.originOffset = originOffset;
            this.src = src;
            this.srcOffset = srcOffset;
            this.length = length;
        }

        @Override
        public int bodyLength()
        {
            return DATA_PAYLOAD_OFFSET - BODY + length;
        }

        @Override
        public void writeBody(final MutableDirectBuffer buffer, final int index)
        {
            final int frame = index - BODY;
            buffer.putLong(frame + DATA_OP_OFFSET, op, BYTE_ORDER);
            buffer.putLong(frame + DATA_ORIGIN_OFFSET_OFFSET, originOffset, BYTE_ORDER);
            buffer.putInt(frame + DATA_LENGTH_OFFSET, length, BYTE_ORDER);
            buffer.putInt(frame + DATA_LENGTH_OFFSET + 4, 0, BYTE_ORDER);
            copyOut(src, srcOffset, buffer, frame + DATA_PAYLOAD_OFFSET, length);
        }
    }
}
