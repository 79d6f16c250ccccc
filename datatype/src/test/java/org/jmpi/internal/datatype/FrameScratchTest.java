package org.jmpi.internal.datatype;

import static org.jmpi.internal.datatype.ConvertorRandomTest.BYTE_BASE;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;

import org.agrona.concurrent.UnsafeBuffer;
import org.jmpi.Datatype;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Frames of short-run layouts go through the cursor's scratch array ({@code Convertor.viaScratch}): packed into and
 * unpacked from a transport's buffer in frames of any length, from any stream position, the stream equals the one
 * packed in place and the data comes back whole, for frames below the scratch threshold, between it and the scratch
 * array's length, and above it.
 */
class FrameScratchTest
{
    /** Rows of 5 doubles (40-byte runs, NAS_LU_y's) at a stride of 7 doubles. */
    private static final Datatype ROWS = Datatype.vector(1000, 5, 7, Datatype.DOUBLE).commit();

    @ParameterizedTest(name = "frames of {0} bytes")
    @ValueSource(ints = {100, 511, 512, 4093, 8160, 16 * 1024, 40_000})
    void shouldPackAndUnpackFramesOfShortRunsLikeInPlace(final int frameBytes)
    {
        final double[] source = new double[7000];
        for (int i = 0; i < source.length; i++)
        {
            source[i] = i * 1.5 + 0.25;
        }
        final int total = (int)ROWS.size();
        assertTrue(total < Convertor.SCRATCH_MAX_RUN_BYTES * 1000, "the layout's runs are short");
        final byte[] expected = new byte[total];
        Convertor.create(BufferView.of(source, "source"), 0, 1, ROWS).pack(expected, BYTE_BASE, total);

        final UnsafeBuffer frame = new UnsafeBuffer(ByteBuffer.allocateDirect(frameBytes + 16));
        final Convertor packer = Convertor.create(BufferView.of(source, "source"), 0, 1, ROWS);
        final double[] target = new double[7000];
        final Convertor unpacker = Convertor.createForReceive(BufferView.of(target, "target"), 0, 1, ROWS);
        final byte[] stream = new byte[total];
        for (int at = 0; at < total; )
        {
            final int n = packer.pack(frame, 8, frameBytes);
            assertEquals(Math.min(frameBytes, total - at), n);
            frame.getBytes(8, stream, at, n);
            assertEquals(n, unpacker.unpack(frame, 8, n));
            at += n;
        }
        assertArrayEquals(expected, stream);
        for (int i = 0; i < source.length; i++)
        {
            assertEquals(i % 7 < 5 ? source[i] : 0.0, target[i], "element " + i);
        }
    }

    @ParameterizedTest(name = "resumed at byte {0}")
    @ValueSource(ints = {3, 4096, 20_003})
    void shouldResumeMidElementThroughTheScratchArray(final int position)
    {
        final double[] source = new double[7000];
        for (int i = 0; i < source.length; i++)
        {
            source[i] = -i;
        }
        final int total = (int)ROWS.size();
        final byte[] expected = new byte[total];
        Convertor.create(BufferView.of(source, "source"), 0, 1, ROWS).pack(expected, BYTE_BASE, total);
        final Convertor packer = Convertor.create(BufferView.of(source, "source"), 0, 1, ROWS);
        packer.seek(position);
        final UnsafeBuffer frame = new UnsafeBuffer(new byte[total]);
        final int n = packer.pack(frame, 0, total);
        assertEquals(total - position, n);
        final byte[] rest = new byte[n];
        frame.getBytes(0, rest);
        final byte[] tail = new byte[n];
        System.arraycopy(expected, position, tail, 0, n);
        assertArrayEquals(tail, rest);
    }
}
