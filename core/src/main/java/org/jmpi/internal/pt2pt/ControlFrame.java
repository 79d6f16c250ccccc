package org.jmpi.internal.pt2pt;

import static org.jmpi.internal.pt2pt.FrameDescriptor.*;

/**
 * A small protocol frame waiting for room on a peer channel: CTS, ACK, FIN, CREDIT or BYE. Engine thread
 * only.
 */
final class ControlFrame implements Outbound
{
    final byte type;
    final long senderRequest;
    final long receiverRequest;
    final long acceptBytes;
    /** CTS and FIN: the receiver's wish about packing at send ({@link FrameDescriptor#FLAG_PACK_OFF}...), or 0. */
    byte flags;
    /** CTS and FIN: the fragment payload the receiver asks for, in {@link FrameDescriptor#FRAGMENT_UNIT}s (0: the sender's choice). */
    short reserved;

    private ControlFrame(final byte type, final long senderRequest, final long receiverRequest, final long acceptBytes)
    {
        this.type = type;
        this.senderRequest = senderRequest;
        this.receiverRequest = receiverRequest;
        this.acceptBytes = acceptBytes;
    }

    static ControlFrame cts(final long senderRequest, final long receiverRequest, final long acceptBytes)
    {
        return new ControlFrame(TYPE_CTS, senderRequest, receiverRequest, acceptBytes);
    }

    /** A CTS asking for fragments of {@code fragmentBytes} (0: the sender's choice), with the packing wish {@code flags}. */
    static ControlFrame cts(final long senderRequest, final long receiverRequest, final long acceptBytes, final int fragmentBytes,
        final byte flags)
    {
        final ControlFrame f = new ControlFrame(TYPE_CTS, senderRequest, receiverRequest, acceptBytes);
        f.flags = flags;
        f.reserved = (short)Math.min(0xFFFF, fragmentBytes / FRAGMENT_UNIT);
        return f;
    }

    /** A FIN with the receiver's wish {@code flags} and, with FLAG_STAGE, the fragment size {@code fragmentBytes}. */
    static ControlFrame fin(final long senderRequest, final byte flags, final int fragmentBytes)
    {
        final ControlFrame f = new ControlFrame(TYPE_FIN, senderRequest, 0, 0);
        f.flags = flags;
        f.reserved = (short)Math.min(0xFFFF, fragmentBytes / FRAGMENT_UNIT);
        return f;
    }

    static ControlFrame ack(final long senderRequest)
    {
        return new ControlFrame(TYPE_ACK, senderRequest, 0, 0);
    }

    static ControlFrame fin(final long senderRequest)
    {
        return new ControlFrame(TYPE_FIN, senderRequest, 0, 0);
    }

    static ControlFrame credit()
    {
        return new ControlFrame(TYPE_CREDIT, 0, 0, 0);
    }

    /** The sender finalized; {@code barrierContext} is the context its finalize barrier still uses. */
    static ControlFrame bye(final int barrierContext)
    {
        return new ControlFrame(TYPE_BYE, 0, 0, barrierContext);
    }

    int length()
    {
        return switch (type)
        {
            case TYPE_CTS -> CTS_LENGTH;
            case TYPE_ACK, TYPE_FIN -> REPLY_LENGTH;
            case TYPE_BYE -> BYE_LENGTH;
            default -> CREDIT_LENGTH;
        };
    }

    @Override
    public boolean emit(final Protocol protocol, final PeerChannel channel)
    {
        return protocol.emitControl(this, channel);
    }
}
