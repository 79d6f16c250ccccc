package org.jmpi.internal.bootstrap;

import java.io.IOException;
import java.nio.ByteBuffer;

import static org.jmpi.internal.bootstrap.BootstrapProtocolDescriptor.*;

/**
 * Gathers one handshake frame (before authentication) arriving in pieces, in a fixed buffer of
 * {@code FRAME_LENGTH_LENGTH + MAX_HANDSHAKE_FRAME_LENGTH} bytes: the FRAME_LENGTH field is checked
 * as soon as its four bytes are in, so a client announcing a longer frame is refused having cost that
 * buffer and nothing more. {@link #buffer()} never asks for bytes past the frame's end.
 *
 * <p>Use: read into {@link #buffer()} (as much as it has room for), then {@link #update()}; once it says
 * {@link State#COMPLETE}, {@link #message()} decodes the frame. {@link #feed} does both from an array.
 *
 * <p>Threading: one thread at a time. Owns its buffer.
 */
public final class HandshakeFrameDecoder
{
    /** Where gathering stands. */
    public enum State
    {
        /** More bytes are wanted. */
        INCOMPLETE,
        /** The whole frame is in; {@link #message()} decodes it. */
        COMPLETE,
        /** FRAME_LENGTH is out of range; nothing more is read. */
        MALFORMED
    }

    private final ByteBuffer buffer = ByteBuffer.allocate(FRAME_LENGTH_LENGTH + MAX_HANDSHAKE_FRAME_LENGTH).order(BYTE_ORDER);
    private State state = State.INCOMPLETE;

    public HandshakeFrameDecoder()
    {
        buffer.limit(FRAME_LENGTH_LENGTH);
    }

    /** Where the next bytes go: its {@code remaining()} is what is still wanted (0 once complete or malformed). */
    public ByteBuffer buffer()
    {
        return buffer;
    }

    /** The state after bytes were put into {@link #buffer()}. */
    public State update()
    {
        if (state != State.INCOMPLETE || buffer.position() < FRAME_LENGTH_LENGTH)
        {
            return state;
        }
        if (buffer.limit() == FRAME_LENGTH_LENGTH)
        {
            final int frameLength = buffer.getInt(FRAME_LENGTH_OFFSET);
            if (frameLength < HEADER_LENGTH - FRAME_LENGTH_LENGTH || frameLength > MAX_HANDSHAKE_FRAME_LENGTH)
            {
                buffer.limit(buffer.position());
                state = State.MALFORMED;
                return state;
            }
            buffer.limit(FRAME_LENGTH_LENGTH + frameLength);
        }
        if (!buffer.hasRemaining())
        {
            state = State.COMPLETE;
        }
        return state;
    }

    /**
     * Copies up to {@code length} bytes of {@code src} from {@code offset}, as many as the frame still
     * wants, and updates.
     *
     * @return how many bytes were taken.
     */
    public int feed(final byte[] src, final int offset, final int length)
    {
        int taken = 0;
        while (taken < length && buffer.hasRemaining())
        {
            final int count = Math.min(length - taken, buffer.remaining());
            buffer.put(src, offset + taken, count);
            taken += count;
            update();
        }
        return taken;
    }

    /**
     * The gathered frame, decoded.
     *
     * @throws IllegalStateException unless {@link #update()} said {@link State#COMPLETE}.
     * @throws IOException when the frame is malformed inside (inconsistent key and value lengths).
     */
    public BootstrapMessage message() throws IOException
    {
        if (state != State.COMPLETE)
        {
            throw new IllegalStateException("handshake frame not complete: state=" + state + ", bytes=" + buffer.position());
        }
        return BootstrapMessage.decode(buffer.array(), 0, buffer.position(), MAX_HANDSHAKE_FRAME_LENGTH);
    }
}
