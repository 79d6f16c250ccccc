package org.jmpi.internal.bootstrap;

import com.code_intelligence.jazzer.junit.FuzzTest;

import java.io.IOException;

import static org.jmpi.internal.bootstrap.BootstrapProtocolDescriptor.*;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;

/**
 * Fuzzes {@link BootstrapMessage#decode}: arbitrary bytes either decode to a frame that encodes back to
 * the very same bytes, or fail with an {@code IOException}; nothing else.
 *
 * <p>Run by Jazzer (docs/security.md, "Fuzzing"): a plain {@code mvn verify} replays the seed and
 * regression inputs under
 * {@code src/test/resources/org/jmpi/internal/bootstrap/BootstrapFrameFuzzTestInputs/decode/}
 * in the module's ordinary test run; the module's {@code fuzz-*} surefire executions fuzz for {@code maxDuration}
 * (one fuzz test per JVM, as Jazzer requires). A crash found there is written into that directory and
 * so becomes a regression test.
 */
class BootstrapFrameFuzzTest
{
    @FuzzTest(maxDuration = "5s")
    void decode(final byte[] data)
    {
        final BootstrapMessage message;
        try
        {
            message = BootstrapMessage.decode(data, 0, data.length, MAX_FRAME_LENGTH);
        }
        catch (final IOException ex)
        {
            return;
        }
        assertArrayEquals(data, message.encode());
    }
}
