package org.jmpi.internal.bootstrap;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;

import java.io.IOException;
import java.nio.ByteBuffer;

import static org.jmpi.internal.bootstrap.BootstrapProtocolDescriptor.*;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Fuzzes {@link HandshakeFrameDecoder} fed in chunks of 1 to 7 bytes: it never takes a byte past the
 * frame, refuses exactly the lengths out of range after four bytes, and when complete agrees with
 * {@link BootstrapMessage#decode}.
 *
 * <p>Run by Jazzer (docs/security.md, "Fuzzing"): a plain {@code mvn verify} replays the seed and
 * regression inputs under
 * {@code src/test/resources/org/jmpi/internal/bootstrap/HandshakeFrameDecoderFuzzTestInputs/handshakeDecoder/}
 * in the module's ordinary test run; the module's {@code fuzz-*} surefire executions fuzz for {@code maxDuration}
 * (one fuzz test per JVM, as Jazzer requires). A crash found there is written into that directory and
 * so becomes a regression test.
 */
class HandshakeFrameDecoderFuzzTest
{
    @FuzzTest(maxDuration = "5s")
    void handshakeDecoder(final FuzzedDataProvider input)
    {
        final HandshakeFrameDecoder decoder = new HandshakeFrameDecoder();
        final byte[] data = input.consumeRemainingAsBytes();
        int offset = 0;
        int chunk = 1;
        HandshakeFrameDecoder.State state = HandshakeFrameDecoder.State.INCOMPLETE;
        while (offset < data.length && state == HandshakeFrameDecoder.State.INCOMPLETE)
        {
            final int length = Math.min(chunk, data.length - offset);
            offset += decoder.feed(data, offset, length);
            state = decoder.update();
            chunk = chunk % 7 + 1;
        }
        final int wanted = data.length < FRAME_LENGTH_LENGTH ? -1 : ByteBuffer.wrap(data).order(BYTE_ORDER).getInt(FRAME_LENGTH_OFFSET);
        switch (state)
        {
            case INCOMPLETE -> assertTrue(offset == data.length && decoder.buffer().hasRemaining());
            case MALFORMED ->
            {
                assertEquals(FRAME_LENGTH_LENGTH, offset);
                assertTrue(wanted < HEADER_LENGTH - FRAME_LENGTH_LENGTH || wanted > MAX_HANDSHAKE_FRAME_LENGTH, "refused length " + wanted);
                assertThrows(IllegalStateException.class, decoder::message);
            }
            case COMPLETE ->
            {
                assertEquals(FRAME_LENGTH_LENGTH + wanted, offset);
                BootstrapMessage gathered;
                try
                {
                    gathered = decoder.message();
                }
                catch (final IOException ex)
                {
                    gathered = null;
                }
                BootstrapMessage direct;
                try
                {
                    direct = BootstrapMessage.decode(data, 0, offset, MAX_HANDSHAKE_FRAME_LENGTH);
                }
                catch (final IOException ex)
                {
                    direct = null;
                }
                assertEquals(direct == null, gathered == null);
                if (gathered != null)
                {
                    assertArrayEquals(direct.encode(), gathered.encode());
                }
            }
        }
        assertEquals(state != HandshakeFrameDecoder.State.INCOMPLETE, !decoder.buffer().hasRemaining());
    }
}
