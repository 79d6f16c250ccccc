package org.jmpi.internal.bootstrap;

import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

import static org.jmpi.internal.bootstrap.BootstrapProtocolDescriptor.*;

/**
 * One bootstrap frame, decoded; {@link #writeTo} and {@link #readFrom} encode and decode it as laid out
 * in {@link BootstrapProtocolDescriptor}. Used by both ends: {@link TcpBootstrap} and the launcher's
 * server.
 *
 * <p>Immutable, except that {@code value} is the caller's array and not copied.
 */
public record BootstrapMessage(short version, byte type, byte status, int rank, int code, long timeoutNs, String key, byte[] value)
{
    private static final byte[] EMPTY = new byte[0];

    public BootstrapMessage
    {
        key = key == null ? "" : key;
        value = value == null ? EMPTY : value;
    }

    /** A request (or the challenge) of the current version. */
    public static BootstrapMessage request(
        final byte type, final int rank, final int code, final long timeoutNs, final String key, final byte[] value)
    {
        return new BootstrapMessage(VERSION, type, STATUS_NONE, rank, code, timeoutNs, key, value);
    }

    /** A response of the current version. */
    public static BootstrapMessage response(final byte status, final byte[] value)
    {
        return new BootstrapMessage(VERSION, TYPE_RESPONSE, status, -1, 0, 0, "", value);
    }

    /** A non-OK response whose value is {@code message} in UTF-8. */
    public static BootstrapMessage failure(final byte status, final String message)
    {
        return response(status, message.getBytes(StandardCharsets.UTF_8));
    }

    /** The value as UTF-8 text (the message of a non-OK response). */
    public String valueText()
    {
        return new String(value, StandardCharsets.UTF_8);
    }

    /** Encodes this frame and writes it with one {@code write} call; does not flush. */
    public void writeTo(final OutputStream out) throws IOException
    {
        out.write(encode());
    }

    /**
     * This frame's bytes, FRAME_LENGTH first.
     *
     * @throws IllegalArgumentException when the key or value is longer than the protocol allows.
     */
    public byte[] encode()
    {
        final byte[] keyBytes = key.getBytes(StandardCharsets.UTF_8);
        if (keyBytes.length > MAX_KEY_LENGTH || value.length > MAX_VALUE_LENGTH)
        {
            throw new IllegalArgumentException("bootstrap frame too large: keyBytes=" + keyBytes.length +
                " (max " + MAX_KEY_LENGTH + "), valueBytes=" + value.length + " (max " + MAX_VALUE_LENGTH + ")");
        }
        final int totalLength = HEADER_LENGTH + keyBytes.length + value.length;
        final ByteBuffer frame = ByteBuffer.allocate(totalLength).order(BYTE_ORDER);
        frame.putInt(FRAME_LENGTH_OFFSET, totalLength - FRAME_LENGTH_LENGTH);
        frame.putShort(VERSION_OFFSET, version);
        frame.put(TYPE_OFFSET, type);
        frame.put(STATUS_OFFSET, status);
        frame.putInt(RANK_OFFSET, rank);
        frame.putInt(CODE_OFFSET, code);
        frame.putLong(TIMEOUT_NS_OFFSET, timeoutNs);
        frame.putInt(KEY_LENGTH_OFFSET, keyBytes.length);
        frame.putInt(VALUE_LENGTH_OFFSET, value.length);
        frame.put(HEADER_LENGTH, keyBytes);
        frame.put(HEADER_LENGTH + keyBytes.length, value);
        return frame.array();
    }

    /** Reads one frame of any length the protocol allows; see {@link #readFrom(InputStream, int)}. */
    public static BootstrapMessage readFrom(final InputStream in) throws IOException
    {
        return readFrom(in, MAX_FRAME_LENGTH);
    }

    /**
     * Reads one frame whose FRAME_LENGTH is at most {@code maxFrameLength}; a longer one is refused
     * after its first four bytes, before anything is allocated for it.
     *
     * @return the frame, or {@code null} at a clean end of stream (before the first byte of a frame).
     * @throws IOException on a truncated, oversized or malformed frame; the stream is then unusable.
     */
    public static BootstrapMessage readFrom(final InputStream in, final int maxFrameLength) throws IOException
    {
        final DataInputStream data = in instanceof DataInputStream d ? d : new DataInputStream(in);
        final int first = data.read();
        if (first < 0)
        {
            return null;
        }
        final byte[] lengthBytes = new byte[FRAME_LENGTH_LENGTH];
        lengthBytes[0] = (byte)first;
        try
        {
            data.readFully(lengthBytes, 1, FRAME_LENGTH_LENGTH - 1);
        }
        catch (final EOFException ex)
        {
            throw new IOException("bootstrap frame truncated in its length field", ex);
        }
        final int frameLength = checkFrameLength(ByteBuffer.wrap(lengthBytes).order(BYTE_ORDER).getInt(), maxFrameLength);
        final byte[] bytes = new byte[FRAME_LENGTH_LENGTH + frameLength];
        System.arraycopy(lengthBytes, 0, bytes, 0, FRAME_LENGTH_LENGTH);
        try
        {
            data.readFully(bytes, FRAME_LENGTH_LENGTH, frameLength);
        }
        catch (final EOFException ex)
        {
            throw new IOException("bootstrap frame truncated: frameLength=" + frameLength, ex);
        }
        return decode(bytes, 0, bytes.length, maxFrameLength);
    }

    /**
     * Checks a FRAME_LENGTH field against the protocol's minimum and {@code maxFrameLength}.
     *
     * @return {@code frameLength}
     * @throws IOException naming the length and the bounds when it is out of range.
     */
    public static int checkFrameLength(final int frameLength, final int maxFrameLength) throws IOException
    {
        if (frameLength < HEADER_LENGTH - FRAME_LENGTH_LENGTH || frameLength > Math.min(maxFrameLength, MAX_FRAME_LENGTH))
        {
            throw new IOException("bootstrap frame length out of range: frameLength=" + frameLength +
                ", min=" + (HEADER_LENGTH - FRAME_LENGTH_LENGTH) + ", max=" + Math.min(maxFrameLength, MAX_FRAME_LENGTH));
        }
        return frameLength;
    }

    /**
     * Decodes exactly one whole frame, FRAME_LENGTH included, from {@code bytes[offset, offset + length)}.
     * Every length field is checked against the others, the buffer and {@code maxFrameLength} before use,
     * and the key must be well-formed UTF-8; so a frame that decodes encodes back to the same bytes.
     *
     * @throws IOException when the bytes are not exactly one well-formed frame.
     */
    public static BootstrapMessage decode(final byte[] bytes, final int offset, final int length, final int maxFrameLength)
        throws IOException
    {
        if (offset < 0 || length < 0 || offset > bytes.length - length)
        {
            throw new IllegalArgumentException("decode range outside the array: offset=" + offset + ", length=" + length +
                ", arrayLength=" + bytes.length);
        }
        if (length < HEADER_LENGTH)
        {
            throw new IOException("bootstrap frame shorter than its header: length=" + length + ", header=" + HEADER_LENGTH);
        }
        final ByteBuffer frame = ByteBuffer.wrap(bytes, offset, length).slice().order(BYTE_ORDER);
        final int frameLength = checkFrameLength(frame.getInt(FRAME_LENGTH_OFFSET), maxFrameLength);
        final int keyLength = frame.getInt(KEY_LENGTH_OFFSET);
        final int valueLength = frame.getInt(VALUE_LENGTH_OFFSET);
        if ((long)FRAME_LENGTH_LENGTH + frameLength != length || keyLength < 0 || keyLength > MAX_KEY_LENGTH ||
            valueLength < 0 || valueLength > MAX_VALUE_LENGTH || (long)HEADER_LENGTH + keyLength + valueLength != length)
        {
            throw new IOException("bootstrap frame lengths inconsistent: bytes=" + length + ", frameLength=" + frameLength +
                ", keyLength=" + keyLength + ", valueLength=" + valueLength);
        }
        final String key = decodeKey(bytes, offset + HEADER_LENGTH, keyLength);
        final byte[] value = new byte[valueLength];
        System.arraycopy(bytes, offset + HEADER_LENGTH + keyLength, value, 0, valueLength);
        return new BootstrapMessage(
            frame.getShort(VERSION_OFFSET),
            frame.get(TYPE_OFFSET),
            frame.get(STATUS_OFFSET),
            frame.getInt(RANK_OFFSET),
            frame.getInt(CODE_OFFSET),
            frame.getLong(TIMEOUT_NS_OFFSET),
            key,
            value);
    }

    /** A key must be well-formed UTF-8, so decoding and encoding again give the same bytes. */
    private static String decodeKey(final byte[] bytes, final int offset, final int length) throws IOException
    {
        try
        {
            return StandardCharsets.UTF_8.newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT)
                .decode(ByteBuffer.wrap(bytes, offset, length))
                .toString();
        }
        catch (final CharacterCodingException ex)
        {
            throw new IOException("bootstrap frame key is not well-formed UTF-8: keyLength=" + length, ex);
        }
    }

    @Override
    public String toString()
    {
        return "BootstrapMessage{type=" + typeName(type) + ", status=" + statusName(status) + ", version=" + version +
            ", rank=" + rank + ", code=" + code + ", timeoutNs=" + timeoutNs + ", key=" + key + ", valueBytes=" + value.length + "}";
    }
}
