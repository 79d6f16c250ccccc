package org.jmpi.coll;

import java.lang.reflect.Array;

import org.jmpi.Datatype;
import org.jmpi.MpiException;
import org.jmpi.Op;

/**
 * Test data of the collective tests that compare one path against another (the two-level collectives against the
 * flat algorithms): every predefined type and op, a commutative user op on a derived type, values small enough that
 * sums and products stay exact in any order, and the outcome of a call as its result or its error class.
 */
final class CollTestValues
{
    static final Datatype[] TYPES = {Datatype.BYTE, Datatype.CHAR, Datatype.SHORT, Datatype.INT, Datatype.LONG, Datatype.FLOAT,
        Datatype.DOUBLE, Datatype.BOOLEAN};
    static final Op[] PREDEFINED = {Op.SUM, Op.PROD, Op.MIN, Op.MAX, Op.LAND, Op.LOR, Op.LXOR, Op.BAND, Op.BOR, Op.BXOR, Op.REPLACE,
        Op.NO_OP};
    /** Commutative user op: element-wise sum of ints, applied to items of whatever type the call passes. */
    static final Op INT_SUM = Op.create((in, inout, count, type) ->
    {
        final int ints = (int)(count * type.size() / 4);
        for (int i = 0; i < ints; i++)
        {
            inout.putInt(4 * i, inout.getInt(4 * i) + in.getInt(4 * i));
        }
    }, true);
    static final Datatype INT_PAIR = Datatype.contiguous(2, Datatype.INT).commit();

    private CollTestValues()
    {
    }

    /** A collective call whose failure is recorded as its error class. */
    @FunctionalInterface
    interface Call
    {
        void run();
    }

    /** The result buffer, or the error class the call failed with. */
    static Object outcome(final Call call, final Object result)
    {
        try
        {
            call.run();
            return result;
        }
        catch (final MpiException ex)
        {
            return ex.errorClass();
        }
    }

    /** {@code count} ints from {@code seed} (seed x 31 + i); seed below 0: a fill of it. */
    static int[] ints(final int count, final int seed)
    {
        final int[] a = new int[count];
        for (int i = 0; i < count; i++)
        {
            a[i] = seed < 0 ? seed : seed * 31 + i;
        }
        return a;
    }

    /** {@code count} values of {@code type} from {@code rank} (small, so that sums and products stay exact); rank -1: a fill. */
    static Object values(final Datatype type, final int count, final int rank)
    {
        final Object a = switch (type.name())
        {
            case "BYTE" -> new byte[count];
            case "CHAR" -> new char[count];
            case "SHORT" -> new short[count];
            case "INT" -> new int[count];
            case "LONG" -> new long[count];
            case "FLOAT" -> new float[count];
            case "DOUBLE" -> new double[count];
            case "BOOLEAN" -> new boolean[count];
            default -> throw new IllegalArgumentException(type.name());
        };
        for (int i = 0; i < count; i++)
        {
            final int v = rank < 0 ? 99 : 1 + (i * 3 + rank * 5) % 4;
            switch (a)
            {
                case byte[] x -> x[i] = (byte)v;
                case char[] x -> x[i] = (char)v;
                case short[] x -> x[i] = (short)v;
                case int[] x -> x[i] = v;
                case long[] x -> x[i] = v;
                case float[] x -> x[i] = v;
                case double[] x -> x[i] = v;
                case boolean[] x -> x[i] = v % 2 == 0;
                default -> throw new IllegalStateException();
            }
        }
        return a;
    }

    /** An array's length and first elements, for failure messages. */
    static String show(final Object o)
    {
        if (o != null && o.getClass().isArray())
        {
            final int n = Array.getLength(o);
            final StringBuilder b = new StringBuilder("[" + n + ":");
            for (int i = 0; i < Math.min(n, 12); i++)
            {
                b.append(' ').append(Array.get(o, i));
            }
            return b.append(n > 12 ? " ...]" : "]").toString();
        }
        return String.valueOf(o);
    }
}
