package org.jmpi.internal.reduce;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

import org.jmpi.Datatype;
import org.jmpi.ErrorClass;
import org.jmpi.MpiException;
import org.jmpi.Op;

/**
 * Reduction arithmetic on packed operands: {@code inout[i] = in[i] op inout[i]} over byte arrays that hold
 * basic elements in native byte order (what a send convertor packs). Predefined ops work per basic element
 * of the type's {@link Datatype#basicType() basic type}; user ops get whole items of the call's type.
 *
 * <p>A reduction is split (Rabenseifner, ring) in <em>units</em>: a basic element for predefined ops, an
 * item for user ops ({@link #unitBytes}).
 *
 * <p>In a package of its own, below point-to-point, so that the collectives and the one-sided layer's
 * accumulate (the RMA issue) share one set of kernels.
 *
 * <p>Stateless; any thread.
 */
public final class Kernels
{
    private static final ByteOrder NATIVE = ByteOrder.nativeOrder();
    private static final VarHandle SHORT = MethodHandles.byteArrayViewVarHandle(short[].class, NATIVE);
    private static final VarHandle CHAR = MethodHandles.byteArrayViewVarHandle(char[].class, NATIVE);
    private static final VarHandle INT = MethodHandles.byteArrayViewVarHandle(int[].class, NATIVE);
    private static final VarHandle LONG = MethodHandles.byteArrayViewVarHandle(long[].class, NATIVE);
    private static final VarHandle FLOAT = MethodHandles.byteArrayViewVarHandle(float[].class, NATIVE);
    private static final VarHandle DOUBLE = MethodHandles.byteArrayViewVarHandle(double[].class, NATIVE);

    private Kernels()
    {
    }

    /**
     * Checks that {@code op} applies to {@code type} (see {@link Op}); throws ERR_OP naming both if not.
     */
    public static void check(final String call, final Op op, final Datatype type)
    {
        if (op == null)
        {
            throw new MpiException(ErrorClass.ERR_OP, call + ": op is null");
        }
        if (!op.isPredefined() || op.code() == Op.CODE_REPLACE || op.code() == Op.CODE_NO_OP || type.size() == 0)
        {
            return;
        }
        final Datatype basic = type.basicType();
        final boolean ok;
        if (basic == null)
        {
            ok = false;
        }
        else
        {
            ok = switch (op.code())
            {
                case Op.CODE_SUM, Op.CODE_PROD, Op.CODE_MIN, Op.CODE_MAX -> isInteger(basic) || isFloating(basic);
                case Op.CODE_LAND, Op.CODE_LOR, Op.CODE_LXOR, Op.CODE_BAND, Op.CODE_BOR, Op.CODE_BXOR ->
                    isInteger(basic) || basic == Datatype.BOOLEAN;
                case Op.CODE_MINLOC, Op.CODE_MAXLOC -> isPair(basic);
                default -> false;
            };
        }
        if (!ok)
        {
            throw new MpiException(ErrorClass.ERR_OP, call + ": op " + op.name() + " does not apply to datatype " + type.name() +
                (basic == null ? " (it mixes basic types; use a user op)" : " (basic type " + basic.name() + ")"));
        }
    }

    /** Bytes of one reduction unit: the basic element for predefined ops, the whole item for user ops. */
    public static int unitBytes(final Op op, final Datatype type)
    {
        if (!op.isPredefined() || type.basicType() == null)
        {
            return (int)Math.max(1, type.size());
        }
        return (int)type.basicType().size();
    }

    /**
     * {@code inout = in op inout} over {@code units} units (see {@link #unitBytes}) at the given byte offsets.
     */
    public static void reduce(final Op op, final Datatype type, final byte[] in, final int inOff, final byte[] inout,
        final int inoutOff, final int units)
    {
        if (units == 0)
        {
            return;
        }
        if (!op.isPredefined())
        {
            final int bytes = Math.multiplyExact(units, (int)type.size());
            final ByteBuffer a = ByteBuffer.wrap(in, inOff, bytes).slice().order(NATIVE);
            final ByteBuffer b = ByteBuffer.wrap(inout, inoutOff, bytes).slice().order(NATIVE);
            op.function().apply(a, b, units, type);
            return;
        }
        final int code = op.code();
        if (code == Op.CODE_NO_OP)
        {
            return;
        }
        final Datatype basic = type.basicType();
        if (code == Op.CODE_REPLACE)
        {
            System.arraycopy(in, inOff, inout, inoutOff, Math.multiplyExact(units, unitBytes(op, type)));
            return;
        }
        if (basic == Datatype.DOUBLE)
        {
            doubles(code, in, inOff, inout, inoutOff, units);
        }
        else if (basic == Datatype.FLOAT)
        {
            floats(code, in, inOff, inout, inoutOff, units);
        }
        else if (basic == Datatype.INT)
        {
            ints(code, in, inOff, inout, inoutOff, units);
        }
        else if (basic == Datatype.LONG)
        {
            longs(code, in, inOff, inout, inoutOff, units);
        }
        else if (basic == Datatype.SHORT)
        {
            for (int i = 0, a = inOff, b = inoutOff; i < units; i++, a += 2, b += 2)
            {
                SHORT.set(inout, b, (short)integer(code, (short)SHORT.get(in, a), (short)SHORT.get(inout, b)));
            }
        }
        else if (basic == Datatype.CHAR)
        {
            for (int i = 0, a = inOff, b = inoutOff; i < units; i++, a += 2, b += 2)
            {
                CHAR.set(inout, b, (char)integer(code, (char)CHAR.get(in, a), (char)CHAR.get(inout, b)));
            }
        }
        else if (basic == Datatype.BYTE || basic == Datatype.BOOLEAN)
        {
            for (int i = 0; i < units; i++)
            {
                inout[inoutOff + i] = (byte)integer(code, in[inOff + i], inout[inoutOff + i]);
            }
        }
        else
        {
            loc(code, basic, in, inOff, inout, inoutOff, units);
        }
    }

    // One loop per op and type, the op chosen outside it, each loop a small method of its own (TypedLoops): a loop
    // whose body is one arithmetic operation on two element streams is what C2's SuperWord vectorises (bench's
    // ReduceKernelBenchmark measures them against plain array loops). Logical ops and the 8- and 16-bit types take
    // the generic per-element loops.

    private static void doubles(final int code, final byte[] in, final int a, final byte[] io, final int b, final int n)
    {
        switch (code)
        {
            case Op.CODE_SUM -> TypedLoops.doubleSum(in, a, io, b, n);
            case Op.CODE_PROD -> TypedLoops.doubleProd(in, a, io, b, n);
            case Op.CODE_MIN -> TypedLoops.doubleMin(in, a, io, b, n);
            case Op.CODE_MAX -> TypedLoops.doubleMax(in, a, io, b, n);
            default -> throw new IllegalStateException("op " + code + " on a floating type");
        }
    }

    private static void floats(final int code, final byte[] in, final int a, final byte[] io, final int b, final int n)
    {
        switch (code)
        {
            case Op.CODE_SUM -> TypedLoops.floatSum(in, a, io, b, n);
            case Op.CODE_PROD -> TypedLoops.floatProd(in, a, io, b, n);
            case Op.CODE_MIN -> TypedLoops.floatMin(in, a, io, b, n);
            case Op.CODE_MAX -> TypedLoops.floatMax(in, a, io, b, n);
            default -> throw new IllegalStateException("op " + code + " on a floating type");
        }
    }

    private static void ints(final int code, final byte[] in, final int a, final byte[] io, final int b, final int n)
    {
        switch (code)
        {
            case Op.CODE_SUM -> TypedLoops.intSum(in, a, io, b, n);
            case Op.CODE_PROD -> TypedLoops.intProd(in, a, io, b, n);
            case Op.CODE_MIN -> TypedLoops.intMin(in, a, io, b, n);
            case Op.CODE_MAX -> TypedLoops.intMax(in, a, io, b, n);
            case Op.CODE_BAND -> TypedLoops.intAnd(in, a, io, b, n);
            case Op.CODE_BOR -> TypedLoops.intOr(in, a, io, b, n);
            case Op.CODE_BXOR -> TypedLoops.intXor(in, a, io, b, n);
            default ->
            {
                for (int i = 0; i < n; i++)
                {
                    INT.set(io, b + (i << 2), (int)integer(code, (int)INT.get(in, a + (i << 2)), (int)INT.get(io, b + (i << 2))));
                }
            }
        }
    }

    private static void longs(final int code, final byte[] in, final int a, final byte[] io, final int b, final int n)
    {
        switch (code)
        {
            case Op.CODE_SUM -> TypedLoops.longSum(in, a, io, b, n);
            case Op.CODE_PROD -> TypedLoops.longProd(in, a, io, b, n);
            case Op.CODE_MIN -> TypedLoops.longMin(in, a, io, b, n);
            case Op.CODE_MAX -> TypedLoops.longMax(in, a, io, b, n);
            case Op.CODE_BAND -> TypedLoops.longAnd(in, a, io, b, n);
            case Op.CODE_BOR -> TypedLoops.longOr(in, a, io, b, n);
            case Op.CODE_BXOR -> TypedLoops.longXor(in, a, io, b, n);
            default ->
            {
                for (int i = 0; i < n; i++)
                {
                    LONG.set(io, b + (i << 3), integer(code, (long)LONG.get(in, a + (i << 3)), (long)LONG.get(io, b + (i << 3))));
                }
            }
        }
    }

    private static long integer(final int code, final long a, final long b)
    {
        return switch (code)
        {
            case Op.CODE_SUM -> a + b;
            case Op.CODE_PROD -> a * b;
            case Op.CODE_MIN -> Math.min(a, b);
            case Op.CODE_MAX -> Math.max(a, b);
            case Op.CODE_LAND -> (a != 0 && b != 0) ? 1 : 0;
            case Op.CODE_LOR -> (a != 0 || b != 0) ? 1 : 0;
            case Op.CODE_LXOR -> ((a != 0) != (b != 0)) ? 1 : 0;
            case Op.CODE_BAND -> a & b;
            case Op.CODE_BOR -> a | b;
            case Op.CODE_BXOR -> a ^ b;
            default -> throw new IllegalStateException("op " + code + " on an integer type");
        };
    }

    /** MINLOC / MAXLOC on {value, index} pairs: the better value wins; on a tie the smaller index. */
    private static void loc(final int code, final Datatype pair, final byte[] in, final int inOff, final byte[] inout,
        final int inoutOff, final int units)
    {
        final int size = (int)pair.size();
        final boolean max = code == Op.CODE_MAXLOC;
        for (int i = 0; i < units; i++)
        {
            final int a = inOff + i * size;
            final int b = inoutOff + i * size;
            final int cmp;
            final int indexAt;
            if (pair == Datatype.INT2)
            {
                cmp = Integer.compare((int)INT.get(in, a), (int)INT.get(inout, b));
                indexAt = 4;
            }
            else if (pair == Datatype.SHORT_INT)
            {
                cmp = Short.compare((short)SHORT.get(in, a), (short)SHORT.get(inout, b));
                indexAt = 2;
            }
            else if (pair == Datatype.LONG_INT || pair == Datatype.LONG2)
            {
                cmp = Long.compare((long)LONG.get(in, a), (long)LONG.get(inout, b));
                indexAt = 8;
            }
            else if (pair == Datatype.FLOAT_INT || pair == Datatype.FLOAT2)
            {
                cmp = Float.compare((float)FLOAT.get(in, a), (float)FLOAT.get(inout, b));
                indexAt = 4;
            }
            else
            {
                cmp = Double.compare((double)DOUBLE.get(in, a), (double)DOUBLE.get(inout, b));
                indexAt = 8;
            }
            final boolean takeIn = max ? cmp > 0 : cmp < 0;
            if (takeIn)
            {
                System.arraycopy(in, a, inout, b, size);
            }
            else if (cmp == 0 && indexLess(pair, in, a + indexAt, inout, b + indexAt))
            {
                System.arraycopy(in, a + indexAt, inout, b + indexAt, size - indexAt);
            }
        }
    }

    private static boolean indexLess(final Datatype pair, final byte[] x, final int xi, final byte[] y, final int yi)
    {
        if (pair == Datatype.LONG2)
        {
            return (long)LONG.get(x, xi) < (long)LONG.get(y, yi);
        }
        if (pair == Datatype.FLOAT2)
        {
            return (float)FLOAT.get(x, xi) < (float)FLOAT.get(y, yi);
        }
        if (pair == Datatype.DOUBLE2)
        {
            return (double)DOUBLE.get(x, xi) < (double)DOUBLE.get(y, yi);
        }
        return (int)INT.get(x, xi) < (int)INT.get(y, yi);
    }

    private static boolean isInteger(final Datatype t)
    {
        return t == Datatype.BYTE || t == Datatype.SHORT || t == Datatype.CHAR || t == Datatype.INT || t == Datatype.LONG;
    }

    private static boolean isFloating(final Datatype t)
    {
        return t == Datatype.FLOAT || t == Datatype.DOUBLE;
    }

    private static boolean isPair(final Datatype t)
    {
        return t == Datatype.INT2 || t == Datatype.SHORT_INT || t == Datatype.LONG_INT || t == Datatype.FLOAT_INT ||
            t == Datatype.DOUBLE_INT || t == Datatype.LONG2 || t == Datatype.FLOAT2 || t == Datatype.DOUBLE2;
    }
}
