package org.jmpi.internal.pt2pt;

import org.agrona.MutableDirectBuffer;
import org.jmpi.internal.datatype.OneRun;
import org.jmpi.spi.FrameWriter;

import static org.jmpi.internal.pt2pt.FrameDescriptor.*;

/**
 * Writes the frame prepared by one of its setters; one instance per rank, reused (engine thread only).
 * The credits owed to the peer are taken only when the transport actually calls {@link #write}.
 */
final class FrameEncoder implements FrameWriter
{
    private byte type;
    private PeerChannel channel;
    private SendRequestImpl send;
    private ControlFrame control;
    private ExtensionFrame extension;
    private int dataLength;

    void envelope(final byte type, final SendRequestImpl s, final PeerChannel ch)
    {
        this.type = type;
        this.send = s;
        this.channel = ch;
    }

    void data(final SendRequestImpl s, final PeerChannel ch, final int length)
    {
        this.type = TYPE_DATA;
        this.send = s;
        this.channel = ch;
        this.dataLength = length;
    }

    void control(final ControlFrame frame, final PeerChannel ch)
    {
        this.type = frame.type;
        this.control = frame;
        this.channel = ch;
    }

    void extension(final ExtensionFrame frame, final PeerChannel ch)
    {
        this.type = frame.type();
        this.extension = frame;
        this.channel = ch;
    }

    /**
     * Writes the common header, then the body of the prepared type. Each body is its own small method,
     * so the one on a hot path (eager, or data) compiles and inlines on its own.
     */
    @Override
    public void write(final MutableDirectBuffer buffer, final int index, final int lengthBytes)
    {
        buffer.putByte(index + TYPE_OFFSET, type);
        writeFlags(buffer, index);
        buffer.putInt(index + CREDITS_OFFSET, channel.takeCredits(), BYTE_ORDER);
        switch (type)
        {
            case TYPE_EAGER -> writeEager(buffer, index);
            case TYPE_RTS -> writeRts(buffer, index);
            case TYPE_DATA -> writeData(buffer, index);
            case TYPE_CTS -> writeCts(buffer, index);
            case TYPE_ACK, TYPE_FIN -> buffer.putLong(index + REPLY_SENDER_REQUEST_OFFSET, control.senderRequest, BYTE_ORDER);
            case TYPE_CREDIT ->
            {
            }
            case TYPE_BYE -> writeBye(buffer, index);
            default -> extension.writeBody(buffer, index + COMMON_LENGTH);
        }
    }

    /** The common header's flags and reserved field (FrameDescriptor): the on-line path check's, and FLAG_SYNC. */
    private void writeFlags(final MutableDirectBuffer buffer, final int index)
    {
        byte flags = 0;
        short reserved = 0;
        if (type == TYPE_EAGER)
        {
            flags = send.mode == SendMode.SYNC ? FLAG_SYNC : 0;
        }
        else if (type == TYPE_RTS && send.staging != null)
        {
            flags = FLAG_PACKED;
        }
        else if (type == TYPE_CTS || type == TYPE_FIN)
        {
            flags = control.flags;
            reserved = control.reserved;
        }
        buffer.putByte(index + FLAGS_OFFSET, flags);
        buffer.putShort(index + RESERVED_OFFSET, reserved, BYTE_ORDER);
    }

    private void writeEnvelope(final MutableDirectBuffer buffer, final int index, final SendRequestImpl s)
    {
        buffer.putInt(index + CONTEXT_OFFSET, s.contextId, BYTE_ORDER);
        buffer.putInt(index + TAG_OFFSET, s.tag, BYTE_ORDER);
        buffer.putInt(index + SOURCE_OFFSET, s.sourceRank, BYTE_ORDER);
        buffer.putInt(index + SIG_OFFSET, 0, BYTE_ORDER);
        buffer.putByte(index + SIG_OFFSET, (byte)s.sigCode);
        buffer.putLong(index + LENGTH_OFFSET, s.totalBytes, BYTE_ORDER);
        buffer.putLong(index + ENVELOPE_SENDER_REQUEST_OFFSET, s.id, BYTE_ORDER);
    }

    private void writeEager(final MutableDirectBuffer buffer, final int index)
    {
        final SendRequestImpl s = send;
        writeEnvelope(buffer, index, s);
        if (s.totalBytes > 0)
        {
            if (s.convertor == null)
            {
                OneRun.pack(s.view.base(), s.runAddress, buffer, index + ENVELOPE_LENGTH, (int)s.totalBytes);
            }
            else
            {
                s.convertor.pack(buffer, index + ENVELOPE_LENGTH, (int)s.totalBytes);
            }
        }
    }

    private void writeRts(final MutableDirectBuffer buffer, final int index)
    {
        final SendRequestImpl s = send;
        writeEnvelope(buffer, index, s);
        buffer.putByte(index + PATH_OFFSET, s.path.id());
        s.path.writeRtsExtension(s, channel, buffer, index + ENVELOPE_LENGTH);
    }

    private void writeData(final MutableDirectBuffer buffer, final int index)
    {
        final SendRequestImpl s = send;
        buffer.putLong(index + DATA_RECEIVER_REQUEST_OFFSET, s.receiverRequest, BYTE_ORDER);
        buffer.putLong(index + DATA_STREAM_OFFSET, s.sentBytes, BYTE_ORDER);
        buffer.putInt(index + DATA_LENGTH_OFFSET, dataLength, BYTE_ORDER);
        buffer.putInt(index + DATA_LENGTH_OFFSET + 4, 0, BYTE_ORDER);
        s.convertor.pack(buffer, index + DATA_HEADER_LENGTH, dataLength);
    }

    private void writeCts(final MutableDirectBuffer buffer, final int index)
    {
        buffer.putLong(index + CTS_SENDER_REQUEST_OFFSET, control.senderRequest, BYTE_ORDER);
        buffer.putLong(index + CTS_RECEIVER_REQUEST_OFFSET, control.receiverRequest, BYTE_ORDER);
        buffer.putLong(index + CTS_ACCEPT_OFFSET, control.acceptBytes, BYTE_ORDER);
    }

    private void writeBye(final MutableDirectBuffer buffer, final int index)
    {
        buffer.putInt(index + BYE_CONTEXT_OFFSET, (int)control.acceptBytes, BYTE_ORDER);
        buffer.putInt(index + BYE_CONTEXT_OFFSET + 4, 0, BYTE_ORDER);
    }
}
