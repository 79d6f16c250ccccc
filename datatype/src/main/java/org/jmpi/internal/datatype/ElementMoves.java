package org.jmpi.internal.datatype;

import java.nio.Buffer;
import java.nio.CharBuffer;
import java.nio.DoubleBuffer;
import java.nio.FloatBuffer;
import java.nio.IntBuffer;
import java.nio.LongBuffer;
import java.nio.ShortBuffer;

import org.agrona.UnsafeApi;

/**
 * The element-wise moves of a {@link Convertor} that is not in native order: byte-swapped elements (external32, or a
 * buffer of the other byte order) and typed heap buffers without an accessible array (indirect). Stateless; the
 * cursor passes its buffer and position.
 */
final class ElementMoves
{
    private ElementMoves()
    {
    }

    /**
     * Copies stream bytes {@code [phase, phase + k)} of a block at {@code blockAddress} whose elements are
     * of type {@code t}, reversing each component of each element.
     */
    static void swapMove(final boolean pack, final Object base, final long blockAddress, final Object sBase, long s, long k,
        final BasicType t, long phase)
    {
        final int unit = t.swapUnit();
        if (unit == 1)
        {
            if (pack)
            {
                Kernels.copy(base, blockAddress + phase, sBase, s, k);
            }
            else
            {
                Kernels.copy(sBase, s, base, blockAddress + phase, k);
            }
            return;
        }
        while (k > 0)
        {
            if (unit != 0 && phase % unit == 0 && k >= unit)
            {
                final long units = k / unit;
                final long b = blockAddress + phase;
                if (pack)
                {
                    swapUnits(base, b, sBase, s, unit, units);
                }
                else
                {
                    swapUnits(sBase, s, base, b, unit, units);
                }
                final long bytes = units * unit;
                s += bytes;
                phase += bytes;
                k -= bytes;
                continue;
            }
            final long mirror;
            if (unit != 0)
            {
                final long r = phase % unit;
                mirror = phase - r + (unit - 1 - r);
            }
            else
            {
                final int r = (int)(phase % t.size());
                mirror = phase - r + t.mirror(r);
            }
            if (pack)
            {
                UnsafeApi.putByte(sBase, s, UnsafeApi.getByte(base, blockAddress + mirror));
            }
            else
            {
                UnsafeApi.putByte(base, blockAddress + mirror, UnsafeApi.getByte(sBase, s));
            }
            s++;
            phase++;
            k--;
        }
    }

    private static void swapUnits(final Object srcBase, long src, final Object dstBase, long dst, final int unit,
        final long units)
    {
        switch (unit)
        {
            case 2 ->
            {
                for (long i = 0; i < units; i++, src += 2, dst += 2)
                {
                    UnsafeApi.putShortUnaligned(dstBase, dst, Short.reverseBytes(UnsafeApi.getShortUnaligned(srcBase, src)));
                }
            }
            case 4 ->
            {
                for (long i = 0; i < units; i++, src += 4, dst += 4)
                {
                    UnsafeApi.putIntUnaligned(dstBase, dst, Integer.reverseBytes(UnsafeApi.getIntUnaligned(srcBase, src)));
                }
            }
            default ->
            {
                for (long i = 0; i < units; i++, src += 8, dst += 8)
                {
                    UnsafeApi.putLongUnaligned(dstBase, dst, Long.reverseBytes(UnsafeApi.getLongUnaligned(srcBase, src)));
                }
            }
        }
    }

    /** Element-wise path for typed heap buffers without an accessible array; buffer addresses are byte indices. */
    static void indirectMove(final boolean pack, final Buffer b, final int e, final boolean streamBigEndian, long byteIndex,
        final Object sBase, long s, long k)
    {
        while (k > 0)
        {
            final int i = (int)(byteIndex / e);
            final int r = (int)(byteIndex % e);
            final int n = (int)Math.min(k, e - r);
            long bits = readBits(b, i);
            for (int j = r; j < r + n; j++)
            {
                final int shift = 8 * (streamBigEndian ? e - 1 - j : j);
                if (pack)
                {
                    UnsafeApi.putByte(sBase, s + j - r, (byte)(bits >>> shift));
                }
                else
                {
                    bits = (bits & ~(0xFFL << shift)) | ((UnsafeApi.getByte(sBase, s + j - r) & 0xFFL) << shift);
                }
            }
            if (!pack)
            {
                writeBits(b, i, bits);
            }
            byteIndex += n;
            s += n;
            k -= n;
        }
    }

    private static long readBits(final Buffer b, final int i)
    {
        return switch (b)
        {
            case ShortBuffer x -> x.get(i);
            case CharBuffer x -> x.get(i);
            case IntBuffer x -> x.get(i);
            case LongBuffer x -> x.get(i);
            case FloatBuffer x -> Float.floatToRawIntBits(x.get(i));
            case DoubleBuffer x -> Double.doubleToRawLongBits(x.get(i));
            default -> throw new IllegalStateException("no indirect access to " + b);
        };
    }

    private static void writeBits(final Buffer b, final int i, final long bits)
    {
        switch (b)
        {
            case ShortBuffer x -> x.put(i, (short)bits);
            case CharBuffer x -> x.put(i, (char)bits);
            case IntBuffer x -> x.put(i, (int)bits);
            case LongBuffer x -> x.put(i, bits);
            case FloatBuffer x -> x.put(i, Float.intBitsToFloat((int)bits));
            case DoubleBuffer x -> x.put(i, Double.longBitsToDouble(bits));
            default -> throw new IllegalStateException("no indirect access to " + b);
        }
    }
}
