package org.jmpi.testkit.transport;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * Deterministic frame contents: the bytes of a frame are a window of a fixed random pattern chosen
 * by a key, so a receiver checks every byte without being told what was sent.
 *
 * <p>Threading: the pattern is immutable and shared; {@link #verify} uses a scratch array, so each
 * thread uses its own instance ({@link #FramePattern()} is cheap after the first).
 */
public final class FramePattern
{
    /** Seed of the pattern; printed by the contract test so a failure can be replayed. */
    public static final long SEED = 0x6A6D_7069_5348_4D31L;
    private static final int PATTERN_LENGTH = 1 << 20;
    private static final byte[] PATTERN = pattern();

    private byte[] scratch = new byte[4096];

    private static byte[] pattern()
    {
        final byte[] bytes = new byte[PATTERN_LENGTH];
        new SplittableRandom(SEED).nextBytes(bytes);
        return bytes;
    }

    private static int start(final long key)
    {
        return (int)Long.remainderUnsigned(key * 0x9E37_79B9_7F4A_7C15L, PATTERN_LENGTH);
    }

    /** Writes the {@code lengthBytes} bytes of frame {@code key} at {@code index}. */
    public static void write(final MutableDirectBuffer buffer, final int index, final int lengthBytes, final long key)
    {
        int offset = start(key);
        int done = 0;
        while (done < lengthBytes)
        {
            final int chunk = Math.min(lengthBytes - done, PATTERN_LENGTH - offset);
            buffer.putBytes(index + done, PATTERN, offset, chunk);
            done += chunk;
            offset = 0;
        }
    }

    /**
     * Checks that {@code [index, index + lengthBytes)} holds frame {@code key}.
     *
     * @return -1 when it does, else the position of the first wrong byte.
     */
    public int verify(final DirectBuffer buffer, final int index, final int lengthBytes, final long key)
    {
        if (scratch.length < lengthBytes)
        {
            scratch = new byte[Math.max(lengthBytes, scratch.length * 2)];
        }
        buffer.getBytes(index, scratch, 0, lengthBytes);
        int offset = start(key);
        int done = 0;
        while (done < lengthBytes)
        {
            final int chunk = Math.min(lengthBytes - done, PATTERN_LENGTH - offset);
            final int mismatch = Arrays.mismatch(scratch, done, done + chunk, PATTERN, offset, offset + chunk);
            if (mismatch >= 0)
            {
                return done + mismatch;
            }
            done += chunk;
            offset = 0;
        }
        return -1;
    }
}
