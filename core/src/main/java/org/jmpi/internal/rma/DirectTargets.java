package org.jmpi.internal.rma;

import java.util.Arrays;

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
    /** Per target: its window's size in bytes and displacement unit, and its memory's element type (null: any). */
    private final long[] sizes;
    private final int[] dispUnits;
    private final Datatype[] elements;
    /**
     * Per target: the largest displacement at which a long (an int) lies inside a directly reached window whose memory
     * takes longs (ints); -1 otherwise (reached by messages, not learnt yet, another element type, too small). One
     * compare then covers the path, the element type and the range on fetch_and_op's hot path.
     */
    private final long[] longDisps;
    private final long[] intDisps;
    private final byte[] operand = new byte[16];
    private final byte[] fetched = new byte[16];
    private final byte[] scratch = new byte[16];

    /** Over the window's per-target sizes, displacement units and element types (read, never written, here). */
    DirectTargets(final long[] sizes, final int[] dispUnits, final Datatype[] elements)
    {
        final int size = sizes.length;
        this.sizes = sizes;
        this.dispUnits = dispUnits;
        this.elements = elements;
        state = new byte[size];
        base = new Object[size];
        address = new long[size];
        longDisps = new long[size];
        intDisps = new long[size];
        Arrays.fill(longDisps, -1);
        Arrays.fill(intDisps, -1);
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
        longDisps[r] = lastDisp(r, Datatype.LONG);
        intDisps[r] = lastDisp(r, Datatype.INT);
        state[r] = DIRECT;
    }

    /** Every target as reached by messages from now on (the window is freed). */
    void forget()
    {
        Arrays.fill(state, BY_MESSAGES);
        Arrays.fill(longDisps, -1);
        Arrays.fill(intDisps, -1);
    }

    private long lastDisp(final int r, final Datatype type)
    {
        final long unit = type.size();
        final int dispUnit = dispUnits[r];
        return (elements[r] == null || elements[r] == type) && dispUnit > 0 && sizes[r] >= unit ? (sizes[r] - unit) / dispUnit : -1;
    }

    /**
     * The fetch-and-op on target {@code r}'s element at displacement {@code disp} (the caller checked the epoch and
     * {@code r}), or false, having done nothing, when it does not apply here. A long or an int with SUM (the counter
     * pattern, kept small enough for the JIT to inline into the caller's loop), REPLACE or NO_OP is one hardware
     * atomic; other ops and types go through {@link #otherOp}.
     */
    boolean fetchAndOp(final Object origin, final int originOffset, final Object result, final int resultOffset, final Datatype type,
        final int r, final long disp, final Op op)
    {
        if (type == Datatype.LONG)
        {
            if (disp < 0 || disp > longDisps[r])
            {
                return false;
            }
            final long at = address[r] + disp * dispUnits[r];
            if ((at & 7) != 0 || !(result instanceof long[] out) || resultOffset < 0 || resultOffset >= out.length)
            {
                return false;
            }
            if (op == Op.SUM && origin instanceof long[] in && originOffset >= 0 && originOffset < in.length)
            {
                out[resultOffset] = UnsafeApi.getAndAddLong(base[r], at, in[originOffset]);
                return true;
            }
            return longOp(origin, originOffset, out, resultOffset, base[r], at, op);
        }
        return notLong(origin, originOffset, result, resultOffset, type, r, disp, op);
    }

    /** {@link #fetchAndOp} on an int (as on a long) or another type: apart, so that the long's path stays small. */
    private boolean notLong(final Object origin, final int originOffset, final Object result, final int resultOffset, final Datatype type,
        final int r, final long disp, final Op op)
    {
        if (type == Datatype.INT)
        {
            if (disp < 0 || disp > intDisps[r])
            {
                return false;
            }
            final long at = address[r] + disp * dispUnits[r];
            if ((at & 3) != 0 || !(result instanceof int[] out) || resultOffset < 0 || resultOffset >= out.length)
            {
                return false;
            }
            if (op == Op.SUM && origin instanceof int[] in && originOffset >= 0 && originOffset < in.length)
            {
                out[resultOffset] = UnsafeApi.getAndAddInt(base[r], at, in[originOffset]);
                return true;
            }
            return intOp(origin, originOffset, out, resultOffset, base[r], at, op);
        }
        return otherType(origin, originOffset, result, resultOffset, type, r, disp, op);
    }

    /** REPLACE and NO_OP on a long as one atomic, other ops through {@link #otherOp}; the target element checked. */
    private boolean longOp(final Object origin, final int originOffset, final long[] out, final int resultOffset, final Object targetBase,
        final long at, final Op op)
    {
        if (op == Op.NO_OP)
        {
            out[resultOffset] = UnsafeApi.getLongVolatile(targetBase, at);
            return true;
        }
        if (op == Op.REPLACE && origin instanceof long[] in && originOffset >= 0 && originOffset < in.length)
        {
            out[resultOffset] = UnsafeApi.getAndSetLong(targetBase, at, in[originOffset]);
            return true;
        }
        return op != null && otherOp(origin, originOffset, out, resultOffset, Datatype.LONG, targetBase, at, op);
    }

    /** As {@link #longOp} for an int. */
    private boolean intOp(final Object origin, final int originOffset, final int[] out, final int resultOffset, final Object targetBase,
        final long at, final Op op)
    {
        if (op == Op.NO_OP)
        {
            out[resultOffset] = UnsafeApi.getIntVolatile(targetBase, at);
            return true;
        }
        if (op == Op.REPLACE && origin instanceof int[] in && originOffset >= 0 && originOffset < in.length)
        {
            out[resultOffset] = UnsafeApi.getAndSetInt(targetBase, at, in[originOffset]);
            return true;
        }
        return op != null && otherOp(origin, originOffset, out, resultOffset, Datatype.INT, targetBase, at, op);
    }

    /** A basic type other than long and int: the element, range and alignment checks, then {@link #otherOp}. */
    private boolean otherType(final Object origin, final int originOffset, final Object result, final int resultOffset,
        final Datatype type, final int r, final long disp, final Op op)
    {
        if (state[r] != DIRECT || type == null || op == null || disp < 0 || !type.isPredefined() ||
            (elements[r] != null && elements[r] != type))
        {
            return false;
        }
        final long unit = type.size();
        final long limit = sizes[r];
        // basic array types only: sizes 1, 2, 4, 8, so the alignment check needs no division
        if (unit <= 0 || (unit & (unit - 1)) != 0 || disp > limit / dispUnits[r])
        {
            return false;
        }
        final long targetByte = disp * dispUnits[r];
        if (targetByte + unit > limit || (targetByte & (unit - 1)) != 0)
        {
            return false;
        }
        return otherOp(origin, originOffset, result, resultOffset, type, base[r], address[r] + targetByte, op);
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

    /** Every other op and basic array type (through {@link Atomics}): as {@link #fetchAndOp}, or false when it does not apply. */
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
