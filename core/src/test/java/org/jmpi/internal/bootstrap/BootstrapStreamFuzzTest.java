package org.jmpi.internal.bootstrap;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.util.Arrays;

import static org.jmpi.internal.bootstrap.BootstrapProtocolDescriptor.*;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Fuzzes {@link BootstrapMessage#readFrom(java.io.InputStream, int)} over a stream of frames with a
 * fuzzed limit: every frame read is within the limit and re-encodes to the bytes it was read from;
 * the stream ends cleanly or with an {@code IOException}; nothing else.
 *
 * <p>Run by Jazzer (docs/security.md, "Fuzzing"): a plain {@code mvn verify} replays the seed and
 * regression inputs under
 * {@code src/test/resources/org/jmpi/internal/bootstrap/BootstrapStreamFuzzTestInputs/readFrames/}
 * in the module's ordinary test run; the module's {@code fuzz-*} surefire executions fuzz for {@code maxDuration}
 * (one fuzz test per JVM, as Jazzer requires). A crash found there is written into that directory and
 * so becomes a regression test.
 */
class BootstrapStreamFuzzTest
{
    @FuzzTest(maxDuration = "5s")
    void readFrames(final FuzzedDataProvider input)
    {
        // Up to 64 KiB: enough to cross every bound the reader checks without 16 MiB allocations per input.
        final int maxFrameLength = input.consumeBoolean() ? MAX_HANDSHAKE_FRAME_LENGTH : input.consumeInt(0, 1 << 16);
        final byte[] data = input.consumeRemainingAsBytes();
        final ByteArrayInputStream in = new ByteArrayInputStream(data);
        int consumed = 0;
        while (true)
        {
            final BootstrapMessage message;
            try
            {
                message = BootstrapMessage.readFrom(in, maxFrameLength);
            }
            catch (final IOException ex)
            {
                return;
            }
            if (message == null)
            {
                assertEquals(data.length, consumed);
                return;
            }
            final byte[] encoded = message.encode();
            assertTrue(encoded.length - FRAME_LENGTH_LENGTH <= maxFrameLength, "frame longer than the reader's limit");
            assertArrayEquals(Arrays.copyOfRange(data, consumed, consumed + encoded.length), encoded);
            consumed += encoded.length;
        }
    }
}
