package org.jmpi.internal.bootstrap;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

import static org.jmpi.internal.bootstrap.BootstrapProtocolDescriptor.*;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

class BootstrapMessageTest
{
    @Test
    void shouldLayOutFieldsAtDescriptorOffsets() throws IOException
    {
        final byte[] bytes = encode(BootstrapMessage.request(TYPE_GET, 3, 9, 123_456_789_012L, "kéy", new byte[] {1, 2, 3}));
        final ByteBuffer frame = ByteBuffer.wrap(bytes).order(BYTE_ORDER);
        final int keyBytes = "kéy".getBytes(StandardCharsets.UTF_8).length;
        assertEquals(HEADER_LENGTH + keyBytes + 3, bytes.length);
        assertEquals(bytes.length - FRAME_LENGTH_LENGTH, frame.getInt(FRAME_LENGTH_OFFSET));
        assertEquals(VERSION, frame.getShort(VERSION_OFFSET));
        assertEquals(TYPE_GET, frame.get(TYPE_OFFSET));
        assertEquals(STATUS_NONE, frame.get(STATUS_OFFSET));
        assertEquals(3, frame.getInt(RANK_OFFSET));
        assertEquals(9, frame.getInt(CODE_OFFSET));
        assertEquals(123_456_789_012L, frame.getLong(TIMEOUT_NS_OFFSET));
        assertEquals(keyBytes, frame.getInt(KEY_LENGTH_OFFSET));
        assertEquals(3, frame.getInt(VALUE_LENGTH_OFFSET));
        assertArrayEquals(new byte[] {1, 2, 3}, Arrays.copyOfRange(bytes, HEADER_LENGTH + keyBytes, bytes.length));
    }

    @Test
    void shouldRoundTripFramesBackToBack() throws IOException
    {
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        BootstrapMessage.request(TYPE_PUT, 1, 0, 0, "a", "x".getBytes(StandardCharsets.UTF_8)).writeTo(out);
        BootstrapMessage.failure(STATUS_JOB_FAILED, "rank 2 died").writeTo(out);
        final ByteArrayInputStream in = new ByteArrayInputStream(out.toByteArray());
        final BootstrapMessage put = BootstrapMessage.readFrom(in);
        assertEquals(TYPE_PUT, put.type());
        assertEquals("a", put.key());
        assertArrayEquals("x".getBytes(StandardCharsets.UTF_8), put.value());
        final BootstrapMessage failure = BootstrapMessage.readFrom(in);
        assertEquals(TYPE_RESPONSE, failure.type());
        assertEquals(STATUS_JOB_FAILED, failure.status());
        assertEquals("rank 2 died", failure.valueText());
        assertNull(BootstrapMessage.readFrom(in));
    }

    @Test
    void shouldRejectTruncatedFrame() throws IOException
    {
        final byte[] bytes = encode(BootstrapMessage.request(TYPE_PUT, 0, 0, 0, "key", new byte[10]));
        assertThrows(IOException.class, () -> BootstrapMessage.readFrom(new ByteArrayInputStream(Arrays.copyOf(bytes, bytes.length - 1))));
    }

    @Test
    void shouldRejectFrameLengthOutOfRange()
    {
        final byte[] bytes = ByteBuffer.allocate(HEADER_LENGTH).order(BYTE_ORDER).putInt(0, MAX_FRAME_LENGTH + 1).array();
        assertThrows(IOException.class, () -> BootstrapMessage.readFrom(new ByteArrayInputStream(bytes)));
        final byte[] small = ByteBuffer.allocate(HEADER_LENGTH).order(BYTE_ORDER).putInt(0, 3).array();
        assertThrows(IOException.class, () -> BootstrapMessage.readFrom(new ByteArrayInputStream(small)));
    }

    @Test
    void shouldRejectInconsistentKeyAndValueLengths() throws IOException
    {
        final byte[] bytes = encode(BootstrapMessage.request(TYPE_PUT, 0, 0, 0, "key", new byte[4]));
        ByteBuffer.wrap(bytes).order(BYTE_ORDER).putInt(VALUE_LENGTH_OFFSET, 5);
        assertThrows(IOException.class, () -> BootstrapMessage.readFrom(new ByteArrayInputStream(bytes)));
    }

    @Test
    void shouldRefuseFrameLongerThanTheCallersLimitBeforeReadingIt()
    {
        final byte[] lengthOnly = ByteBuffer.allocate(FRAME_LENGTH_LENGTH).order(BYTE_ORDER).putInt(0, MAX_FRAME_LENGTH).array();
        final IOException ex = assertThrows(IOException.class,
            () -> BootstrapMessage.readFrom(new ByteArrayInputStream(lengthOnly), MAX_HANDSHAKE_FRAME_LENGTH));
        assertEquals("bootstrap frame length out of range: frameLength=" + MAX_FRAME_LENGTH + ", min=28, max=" +
            MAX_HANDSHAKE_FRAME_LENGTH, ex.getMessage());
    }

    @Test
    void shouldDecodeExactlyOneFrameAtAnOffset() throws IOException
    {
        final byte[] frame = BootstrapMessage.request(TYPE_HELLO, 2, CREDENTIAL_RANK_KEY, 0, "job", new byte[PROOF_LENGTH]).encode();
        final byte[] padded = new byte[frame.length + 10];
        System.arraycopy(frame, 0, padded, 3, frame.length);
        final BootstrapMessage hello = BootstrapMessage.decode(padded, 3, frame.length, MAX_HANDSHAKE_FRAME_LENGTH);
        assertEquals(TYPE_HELLO, hello.type());
        assertEquals(2, hello.rank());
        assertEquals(CREDENTIAL_RANK_KEY, hello.code());
        assertEquals("job", hello.key());
        assertThrows(IOException.class, () -> BootstrapMessage.decode(padded, 3, frame.length + 1, MAX_HANDSHAKE_FRAME_LENGTH));
        assertThrows(IOException.class, () -> BootstrapMessage.decode(padded, 3, frame.length - 1, MAX_HANDSHAKE_FRAME_LENGTH));
        assertThrows(IOException.class, () -> BootstrapMessage.decode(padded, 3, HEADER_LENGTH - 1, MAX_HANDSHAKE_FRAME_LENGTH));
        assertThrows(IllegalArgumentException.class, () -> BootstrapMessage.decode(padded, 20, frame.length, MAX_HANDSHAKE_FRAME_LENGTH));
    }

    @Test
    void shouldRejectNegativeOrHugeLengthFieldsWithoutOverflow()
    {
        final byte[] frame = BootstrapMessage.request(TYPE_PUT, 0, 0, 0, "key", new byte[4]).encode();
        final ByteBuffer view = ByteBuffer.wrap(frame).order(BYTE_ORDER);
        view.putInt(KEY_LENGTH_OFFSET, Integer.MAX_VALUE).putInt(VALUE_LENGTH_OFFSET, Integer.MAX_VALUE);
        assertThrows(IOException.class, () -> BootstrapMessage.decode(frame, 0, frame.length, MAX_FRAME_LENGTH));
        view.putInt(KEY_LENGTH_OFFSET, -1).putInt(VALUE_LENGTH_OFFSET, 8);
        assertThrows(IOException.class, () -> BootstrapMessage.decode(frame, 0, frame.length, MAX_FRAME_LENGTH));
        view.putInt(FRAME_LENGTH_OFFSET, Integer.MIN_VALUE);
        assertThrows(IOException.class, () -> BootstrapMessage.decode(frame, 0, frame.length, MAX_FRAME_LENGTH));
    }

    @Test
    void shouldRefuseToWriteOversizedKey()
    {
        final String key = "k".repeat(MAX_KEY_LENGTH + 1);
        assertThrows(IllegalArgumentException.class,
            () -> BootstrapMessage.request(TYPE_PUT, 0, 0, 0, key, null).writeTo(new ByteArrayOutputStream()));
    }

    private static byte[] encode(final BootstrapMessage message) throws IOException
    {
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        message.writeTo(out);
        return out.toByteArray();
    }
}
