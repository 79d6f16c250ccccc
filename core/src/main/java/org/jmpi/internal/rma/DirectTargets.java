package org.jmpi.internal.rma;

import org.agrona.UnsafeApi;
import org.jmpi.Datatype;
import org.jmpi.MpiException;
import org.jmpi.Op;
import org.jmpi.internal.datatype.BufferView;
import org.jmpi.internal.reduce.Kernels;

/**
 * The hot path of MPI_Fetch_and_op (and of the coarrays' {@code fetchAndAdd}) to a target whose window memory this
 * rank reaches directly: itself, a rank that is a thread of this JVM, an arena buffer of another JVM. One hardware
 * atomic on the target's memory, with no engine call, no allocation, no lock and no frame:
 * <ol>
 * <li>Once per target, {@link Window} resolves the target's memory on the engine (the one-sided layer's peer memory)
 * and {@link #learn}s its base object and address here; a target reached by messages is remembered as such.</li>
 * <li>Each call ({@link #fetchAndOp}), after the window checked the epoch, the rank, the displacement and the range,
 * takes the operand and the result from primitive arrays of the operation's basic type and runs the atomic:
 * {@code getAndAdd} or {@code getAndSet} for SUM and REPLACE on an int or a long, a volatile load for NO_OP, and
 * {@link Atomics} (the collectives' kernels in a compare-and-exchange loop) for every other op and type.</li>
 * </ol>
 * Puts and gets ({@link #copy}) of elements of one basic type between an origin array and a directly reached target
 * are one plain copy. Anything else (nio buffers, a target reached by messages, a misaligned element, a read-only
 * target, a bad argument) returns false
 * having done nothing; the window then takes its general path, which raises the errors.
 *
 * <p>Threading: the window's thread (one at a time, as {@link Window}); the atomics are atomic with respect to every
 * other accessor of the element (other origins, the target's engine applying frames, {@link Atomics}).
 */
final class DirectTargets
{
    private static final byte UNKNOWN = 0;
    private static final byte DIRECT = 1;
    private static final byte BY_MESSAGES = 2;
    private static final long BYTES = UnsafeApi.arrayBaseOffset(byte[].class);
    private static final long SHORTS = UnsafeApi.arrayBaseOffset(short[].class);
    private static final long CHARS = UnsafeApi.arrayBaseOffset(char[].class);
    private static final long INTS = UnsafeApi.arrayBaseOffset(int[].class);
    private static final long LONGS = UnsafeApi.arrayBaseOffset(long[].class);
    private static final long FLOATS = UnsafeApi.arrayBaseOffset(float[].class);
    private static final long DOUBLES = UnsafeApi.arrayBaseOffset(double[].class);

    private final byte[] state;
    private final Object[] base;
    private final long[] address;
    private final byte[] operand = new byte[16];
    private final byte[] fetched = new byte[16];
    private final byte[] scratch = new byte[16];

    DirectTargets(final int size)
    {
        state = new byte[size];
        base = new Object[size];
        address = new long[size];
    }

    /** Whether target {@code r}'s path is known (learnt once). */
    boolean known(final int r)
    {
        return state[r] != UNKNOWN;
    }

    /** Records target {@code r}'s memory as this rank reaches it directly, or null when it is reached by messages. */
    void learn(final int r, final BufferView direct)
    {
        if (direct == null || direct.indirect() != null || direct.readOnly())
        {
            state[r] = BY_MESSAGES;
            return;
        }
        base[r] = direct.base();
        address[r] = direct.address();
        state[r] = DIRECT;
    }

    /**
     * The fetch-and-op on target {@code r}'s element at {@code targetByte} (checked by the caller to lie inside the
     * target's window, at an element of its type), or false when it does not apply here.
     */
    boolean fetchAndOp(final Object origin, final int originOffset, final Object result, final int resultOffset, final Datatype type,
        final int r, final long targetByte, final Op op)
    {
        if (state[r] != DIRECT)
        {
            return false;
        }
        final Object targetBase = base[r];
        final long at = address[r] + targetByte;
        // the counter pattern, kept small enough for the JIT to inline into the caller's loop
        if (op == Op.SUM && type == Datatype.LONG && (at & 7) == 0 && result instanceof long[] out && origin instanceof long[] in &&
            resultOffset >= 0 && resultOffset < out.length && originOffset >= 0 && originOffset < in.length)
        {
            out[resultOffset] = UnsafeApi.getAndAddLong(targetBase, at, in[originOffset]);
            return true;
        }
        return otherOp(origin, originOffset, result, resultOffset, type, targetBase, at, op);
    }

    /**
     * A put ({@code put}) or get of {@code count} elements of {@code type} between the origin array from element
     * {@code originOffset} and target {@code r}'s memory at {@code targetByte} (checked by the caller to lie inside the
     * target's window, {@code bytes} long): one plain copy, or false when it does not apply here.
     */
    boolean copy(final boolean put, final Object origin, final int originOffset, final int count, final Datatype type, final int r,
        final long targetByte, final long bytes)
    {
        if (state[r] != DIRECT || !fits(origin, originOffset, count, type))
        {
            return false;
        }
        final long originAt = arrayBase(type) + (long)originOffset * type.size();
        if (put)
        {
            UnsafeApi.copyMemory(origin, originAt, base[r], address[r] + targetByte, bytes);
        }
        else
        {
            UnsafeApi.copyMemory(base[r], address[r] + targetByte, origin, originAt, bytes);
        }
        return true;
    }

    /** Every other op and basic array type: as {@link #fetchAndOp}, or false when it does not apply. */
    private boolean otherOp(final Object origin, final int originOffset, final Object result, final int resultOffset, final Datatype type,
        final Object targetBase, final long at, final Op op)
    {
        final int unit = (int)type.size();
        final int code = op.code();
        if ((at & (unit - 1)) != 0 || !op.isPredefined() || !fits(result, resultOffset, 1, type) ||
            (code != Op.CODE_NO_OP && !fits(origin, originOffset, 1, type)))
        {
            return false;
        }
        try
        {
            Kernels.check("Win.fetchAndOp", op, type);
        }
        catch (final MpiException ex)
        {
            return false;
        }
        if (type == Datatype.LONG && (code == Op.CODE_SUM || code == Op.CODE_REPLACE || code == Op.CODE_NO_OP))
        {
            ((long[])result)[resultOffset] = switch (code)
            {
                case Op.CODE_SUM -> UnsafeApi.getAndAddLong(targetBase, at, ((long[])origin)[originOffset]);
                case Op.CODE_REPLACE -> UnsafeApi.getAndSetLong(targetBase, at, ((long[])origin)[originOffset]);
                default -> UnsafeApi.getLongVolatile(targetBase, at);
            };
            return true;
        }
        if (type == Datatype.INT && (code == Op.CODE_SUM || code == Op.CODE_REPLACE || code == Op.CODE_NO_OP))
        {
            ((int[])result)[resultOffset] = switch (code)
            {
                case Op.CODE_SUM -> UnsafeApi.getAndAddInt(targetBase, at, ((int[])origin)[originOffset]);
                case Op.CODE_REPLACE -> UnsafeApi.getAndSetInt(targetBase, at, ((int[])origin)[originOffset]);
                default -> UnsafeApi.getIntVolatile(targetBase, at);
            };
            return true;
        }
        final long arrayBase = arrayBase(type);
        if (code != Op.CODE_NO_OP)
        {
            UnsafeApi.copyMemory(origin, arrayBase + (long)originOffset * unit, operand, BYTES, unit);
        }
        Atomics.accumulate(op, type, operand, 0, targetBase, at, unit, fetched, 0, scratch);
        UnsafeApi.copyMemory(fetched, BYTES, result, arrayBase + (long)resultOffset * unit, unit);
        return true;
    }

    /** The Unsafe offset of element 0 in an array of {@code type} (one of the types {@link #fits} takes). */
    private static long arrayBase(final Datatype type)
    {
        if (type == Datatype.DOUBLE)
        {
            return DOUBLES;
        }
        if (type == Datatype.FLOAT)
        {
            return FLOATS;
        }
        if (type == Datatype.SHORT)
        {
            return SHORTS;
        }
        if (type == Datatype.CHAR)
        {
            return CHARS;
        }
        return type == Datatype.BYTE ? BYTES : type == Datatype.INT ? INTS : LONGS;
    }

    /** Whether {@code array} is a primitive array of {@code type}'s elements with elements [offset, offset + count). */
    private static boolean fits(final Object array, final int offset, final int count, final Datatype type)
    {
        final int length;
        if (array instanceof long[] a && type == Datatype.LONG)
        {
            length = a.length;
        }
        else if (array instanceof int[] a && type == Datatype.INT)
        {
            length = a.length;
        }
        else if (array instanceof double[] a && type == Datatype.DOUBLE)
        {
            length = a.length;
        }
        else if (array instanceof float[] a && type == Datatype.FLOAT)
        {
            length = a.length;
        }
        else if (array instanceof short[] a && type == Datatype.SHORT)
        {
            length = a.length;
        }
        else if (array instanceof char[] a && type == Datatype.CHAR)
        {
            length = a.length;
        }
        else if (array instanceof byte[] a && type == Datatype.BYTE)
        {
            length = a.length;
        }
        else
        {
            length = -1;
        }
        return offset >= 0 && count >= 0 && (long)offset + count <= length;
    }
}
