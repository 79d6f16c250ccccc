package org.jmpi.internal.reduce;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.List;
import java.util.SplittableRandom;

import org.jmpi.Datatype;
import org.jmpi.Op;
import org.junit.jupiter.api.Test;

/**
 * The per-op loops of {@link Kernels} against a per-element reference written here, for every predefined
 * arithmetic, bitwise and logical op on every integer and floating type, at unaligned offsets and lengths that
 * are not multiples of a vector (so that a vectorised loop's head and tail are covered). Seed printed on failure.
 */
class KernelLoopsTest
{
    private static final List<Datatype> INTEGERS = List.of(Datatype.BYTE, Datatype.SHORT, Datatype.CHAR, Datatype.INT, Datatype.LONG);
    private static final List<Datatype> FLOATING = List.of(Datatype.FLOAT, Datatype.DOUBLE);
    private static final List<Op> ARITHMETIC = List.of(Op.SUM, Op.PROD, Op.MIN, Op.MAX);
    private static final List<Op> BITS = List.of(Op.BAND, Op.BOR, Op.BXOR, Op.LAND, Op.LOR, Op.LXOR);

    @Test
    void shouldMatchTheReferenceOnEveryOpTypeOffsetAndLength()
    {
        final long seed = System.nanoTime();
        final SplittableRandom random = new SplittableRandom(seed);
        for (final Datatype type : INTEGERS)
        {
            for (final Op op : ARITHMETIC)
            {
                check(random, seed, type, op);
            }
            for (final Op op : BITS)
            {
                check(random, seed, type, op);
            }
        }
        for (final Datatype type : FLOATING)
        {
            for (final Op op : ARITHMETIC)
            {
                check(random, seed, type, op);
            }
        }
    }

    private static void check(final SplittableRandom random, final long seed, final Datatype type, final Op op)
    {
        final int size = (int)type.size();
        for (final int units : new int[] {1, 3, 17, 64, 1001})
        {
            final int inOff = random.nextInt(4);
            final int ioOff = random.nextInt(4);
            final byte[] in = new byte[inOff + units * size];
            final byte[] io = new byte[ioOff + units * size];
            random.nextBytes(in);
            random.nextBytes(io);
            if (random.nextBoolean())
            {
                // Small values too, so that the logical ops see zeros and sums do not always overflow.
                for (int i = 0; i < in.length; i += 3)
                {
                    in[i] = 0;
                }
            }
            if (FLOATING.contains(type))
            {
                // Numbers, not random bits: NaN payloads need not survive a widening in the reference.
                fillFloating(random, type, in, inOff, units);
                fillFloating(random, type, io, ioOff, units);
            }
            final byte[] expected = io.clone();
            final ByteBuffer a = ByteBuffer.wrap(in).order(ByteOrder.nativeOrder());
            final ByteBuffer b = ByteBuffer.wrap(expected).order(ByteOrder.nativeOrder());
            for (int i = 0; i < units; i++)
            {
                reference(type, op.code(), a, inOff + i * size, b, ioOff + i * size);
            }
            Kernels.reduce(op, type, in, inOff, io, ioOff, units);
            for (int i = 0; i < io.length; i++)
            {
                final int at = i;
                assertEquals(expected[i], io[i], () -> "seed " + seed + ": " + op.name() + " on " + type.name() + ", " + units +
                    " units, byte " + at);
            }
        }
    }

    private static void fillFloating(final SplittableRandom random, final Datatype type, final byte[] array, final int off, final int units)
    {
        final ByteBuffer buf = ByteBuffer.wrap(array).order(ByteOrder.nativeOrder());
        for (int i = 0; i < units; i++)
        {
            final double v = random.nextInt(10) == 0 ? -0.0 : random.nextDouble(-100, 100);
            if (type == Datatype.DOUBLE)
            {
                buf.putDouble(off + i * 8, v);
            }
            else
            {
                buf.putFloat(off + i * 4, (float)v);
            }
        }
    }

    /** {@code b[at] = a[from] op b[at]} for one element, through boxed arithmetic. */
    private static void reference(final Datatype type, final int code, final ByteBuffer a, final int from, final ByteBuffer b, final int at)
    {
        if (type == Datatype.DOUBLE || type == Datatype.FLOAT)
        {
            final double x = type == Datatype.DOUBLE ? a.getDouble(from) : a.getFloat(from);
            final double y = type == Datatype.DOUBLE ? b.getDouble(at) : b.getFloat(at);
            final double r = switch (code)
            {
                case Op.CODE_SUM -> type == Datatype.FLOAT ? (double)((float)x + (float)y) : x + y;
                case Op.CODE_PROD -> type == Datatype.FLOAT ? (double)((float)x * (float)y) : x * y;
                case Op.CODE_MIN -> Math.min(x, y);
                default -> Math.max(x, y);
            };
            if (type == Datatype.DOUBLE)
            {
                b.putDouble(at, r);
            }
            else
            {
                b.putFloat(at, (float)r);
            }
            return;
        }
        final long x = integer(type, a, from);
        final long y = integer(type, b, at);
        final long r = switch (code)
        {
            case Op.CODE_SUM -> x + y;
            case Op.CODE_PROD -> x * y;
            case Op.CODE_MIN -> Math.min(x, y);
            case Op.CODE_MAX -> Math.max(x, y);
            case Op.CODE_BAND -> x & y;
            case Op.CODE_BOR -> x | y;
            case Op.CODE_BXOR -> x ^ y;
            case Op.CODE_LAND -> x != 0 && y != 0 ? 1 : 0;
            case Op.CODE_LOR -> x != 0 || y != 0 ? 1 : 0;
            default -> (x != 0) != (y != 0) ? 1 : 0;
        };
        if (type == Datatype.BYTE)
        {
            b.put(at, (byte)r);
        }
        else if (type == Datatype.SHORT || type == Datatype.CHAR)
        {
            b.putShort(at, (short)r);
        }
        else if (type == Datatype.INT)
        {
            b.putInt(at, (int)r);
        }
        else
        {
            b.putLong(at, r);
        }
    }

    private static long integer(final Datatype type, final ByteBuffer buf, final int at)
    {
        if (type == Datatype.BYTE)
        {
            return buf.get(at);
        }
        if (type == Datatype.SHORT)
        {
            return buf.getShort(at);
        }
        if (type == Datatype.CHAR)
        {
            return buf.getChar(at);
        }
        return type == Datatype.INT ? buf.getInt(at) : buf.getLong(at);
    }
}
