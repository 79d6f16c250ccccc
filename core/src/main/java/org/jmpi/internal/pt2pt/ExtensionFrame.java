package org.jmpi.internal.pt2pt;

import org.agrona.MutableDirectBuffer;
import org.jmpi.ErrorClass;
import org.jmpi.MpiException;

import static org.jmpi.internal.pt2pt.FrameDescriptor.COMMON_LENGTH;
import static org.jmpi.internal.pt2pt.FrameDescriptor.FIRST_EXTENSION_TYPE;

/**
 * A frame of another layer (collectives, one-sided), sent through {@link Protocol#send} in order with the
 * point-to-point frames to the same peer and received by the handler that layer registered for its type
 * ({@link Protocol#register}). The protocol writes the common header (type, credits); the frame writes its
 * body after it.
 *
 * <p>Threading: engine thread only.
 */
public abstract class ExtensionFrame implements Outbound
{
    private final byte type;

    /** @param type at least {@link FrameDescriptor#FIRST_EXTENSION_TYPE}. */
    protected ExtensionFrame(final byte type)
    {
        if (type < FIRST_EXTENSION_TYPE)
        {
            throw new MpiException(ErrorClass.ERR_INTERN, "extension frame type " + type + " is below " + FIRST_EXTENSION_TYPE);
        }
        this.type = type;
    }

    /** A point-to-point frame of this package's own (a type below {@link FrameDescriptor#FIRST_EXTENSION_TYPE}). */
    ExtensionFrame(final byte type, final boolean pointToPoint)
    {
        assert pointToPoint && type < FIRST_EXTENSION_TYPE;
        this.type = type;
    }

    /** The frame type its receiver's handler is registered for. */
    public final byte type()
    {
        return type;
    }

    /** Bytes of the body (the frame is {@link FrameDescriptor#COMMON_LENGTH} longer). */
    public abstract int bodyLength();

    /** Writes the body at {@code index}; exactly {@link #bodyLength()} bytes. */
    public abstract void writeBody(MutableDirectBuffer buffer, int index);

    /** Frame length, header included. */
    final int frameLength()
    {
        return COMMON_LENGTH + bodyLength();
    }

    @Override
    public final boolean emit(final Protocol protocol, final PeerChannel channel)
    {
        return protocol.emitExtension(this, channel);
    }
}
