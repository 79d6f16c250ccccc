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
