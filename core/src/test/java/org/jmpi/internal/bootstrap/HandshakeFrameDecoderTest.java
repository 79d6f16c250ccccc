package org.jmpi.internal.bootstrap;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.ByteBuffer;

import static org.jmpi.internal.bootstrap.BootstrapProtocolDescriptor.*;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class HandshakeFrameDecoderTest
{
    private static final byte[] HELLO = BootstrapMessage.request(TYPE_HELLO, 1, CREDENTIAL_TICKET, 0, "job-1",
        new byte[PROOF_LENGTH]).encode();

    @Test
    void shouldGatherAHelloArrivingOneByteAtATime() throws IOException
    {
        final HandshakeFrameDecoder decoder = new HandshakeFrameDecoder();
        for (int i = 0; i < HELLO.length - 1; i++)
        {
            assertEquals(1, decoder.feed(HELLO, i, 1));
            assertEquals(HandshakeFrameDecoder.State.INCOMPLETE, decoder.update());
        }
        assertEquals(1, decoder.feed(HELLO, HELLO.length - 1, 1));
        assertEquals(HandshakeFrameDecoder.State.COMPLETE, decoder.update());
        final BootstrapMessage hello = decoder.message();
        assertEquals("job-1", hello.key());
        assertEquals(1, hello.rank());
        assertArrayEquals(new byte[PROOF_LENGTH], hello.value());
    }

    @Test
    void shouldNeverTakeBytesPastTheFrame()
    {
        final byte[] twice = new byte[2 * HELLO.length];
        System.arraycopy(HELLO, 0, twice, 0, HELLO.length);
        System.arraycopy(HELLO, 0, twice, HELLO.length, HELLO.length);
        final HandshakeFrameDecoder decoder = new HandshakeFrameDecoder();
        assertEquals(HELLO.length, decoder.feed(twice, 0, twice.length));
        assertEquals(HandshakeFrameDecoder.State.COMPLETE, decoder.update());
        assertEquals(0, decoder.buffer().remaining());
    }

    @Test
    void shouldRefuseAnnouncedLengthAboveTheLargestHelloAfterFourBytes()
    {
        final byte[] announce = ByteBuffer.allocate(8).order(BYTE_ORDER).putInt(0, MAX_HANDSHAKE_FRAME_LENGTH + 1).array();
        final HandshakeFrameDecoder decoder = new HandshakeFrameDecoder();
        assertEquals(FRAME_LENGTH_LENGTH, decoder.feed(announce, 0, announce.length));
        assertEquals(HandshakeFrameDecoder.State.MALFORMED, decoder.update());
        assertEquals(0, decoder.buffer().remaining());
        assertThrows(IllegalStateException.class, decoder::message);
        final HandshakeFrameDecoder small = new HandshakeFrameDecoder();
        small.feed(ByteBuffer.allocate(4).order(BYTE_ORDER).putInt(0, HEADER_LENGTH - FRAME_LENGTH_LENGTH - 1).array(), 0, 4);
        assertEquals(HandshakeFrameDecoder.State.MALFORMED, small.update());
    }

    @Test
    void shouldReportInconsistentInnerLengthsWhenDecoding()
    {
        final byte[] bad = HELLO.clone();
        ByteBuffer.wrap(bad).order(BYTE_ORDER).putInt(KEY_LENGTH_OFFSET, 6);
        final HandshakeFrameDecoder decoder = new HandshakeFrameDecoder();
        decoder.feed(bad, 0, bad.length);
        assertEquals(HandshakeFrameDecoder.State.COMPLETE, decoder.update());
        assertThrows(IOException.class, decoder::message);
    }
}
