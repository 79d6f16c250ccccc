package org.jmpi;

import java.nio.ByteBuffer;

/**
 * A reduction operation (MPI 4.1 §6.9): the predefined ones ({@link #SUM}, {@link #MAX}...) or one made
 * by {@link #create} from a user function.
 *
 * <p><b>Which types each predefined op accepts.</b> jmpi's integer types are BYTE, SHORT, CHAR (an
 * unsigned 16-bit integer), INT and LONG; its floating types FLOAT and DOUBLE; its logical type BOOLEAN.
 * <ul>
 * <li>SUM, PROD, MIN, MAX: integer and floating types.</li>
 * <li>LAND, LOR, LXOR: integer types and BOOLEAN (non-zero is true; the result is 0 or 1).</li>
 * <li>BAND, BOR, BXOR: integer types and BOOLEAN.</li>
 * <li>MINLOC, MAXLOC: the pair types INT2, SHORT_INT, LONG_INT, FLOAT_INT, DOUBLE_INT, LONG2, FLOAT2,
 * DOUBLE2 ({value, index}; on a tie the smaller index wins).</li>
 * <li>REPLACE (the result is the incoming operand) and NO_OP (the result is the existing one): any type.
 * Both are meant for one-sided accumulate; in a reduction they are treated as non-commutative and applied
 * in rank order: {@code a REPLACE b = a} yields rank 0's value, {@code a NO_OP b = b} the highest rank's.</li>
 * </ul>
 * A derived type applies when all its basic elements are of one type ({@link Datatype#basicType()}); the op
 * then works element by element. A type that mixes basic types needs a user op. Anything else is
 * {@code ERR_OP} at the call.
 *
 * <p><b>User ops.</b> The {@link Function} sees the operands <em>packed</em>: the basic elements of
 * {@code count} items of the call's type in type-map order without gaps, in native byte order, as two
 * {@link ByteBuffer}s positioned at 0 with limit {@code count * type.size()}. It must compute
 * {@code inout[i] = in[i] op inout[i]}, where {@code in} holds the lower ranks' contribution; a
 * non-commutative op is applied in rank order. It may run on the rank's progress thread (nonblocking
 * collectives, or ThreadLevel.MULTIPLE): it must not call MPI and must not block.
 *
 * <p>Immutable; any thread.
 */
public final class Op
{
    /** A user reduction: {@code inout = in op inout} over {@code count} packed items of {@code type}. */
    @FunctionalInterface
    public interface Function
    {
        void apply(ByteBuffer in, ByteBuffer inout, int count, Datatype type);
    }

    /** Internal codes of the predefined ops (0 = user-defined). */
    public static final int CODE_USER = 0;
    public static final int CODE_SUM = 1;
    public static final int CODE_PROD = 2;
    public static final int CODE_MIN = 3;
    public static final int CODE_MAX = 4;
    public static final int CODE_LAND = 5;
    public static final int CODE_LOR = 6;
    public static final int CODE_LXOR = 7;
    public static final int CODE_BAND = 8;
    public static final int CODE_BOR = 9;
    public static final int CODE_BXOR = 10;
    public static final int CODE_MINLOC = 11;
    public static final int CODE_MAXLOC = 12;
    public static final int CODE_REPLACE = 13;
    public static final int CODE_NO_OP = 14;

    /** Sum (MPI_SUM). */
    public static final Op SUM = new Op("SUM", CODE_SUM, true, null);
    /** Product (MPI_PROD). */
    public static final Op PROD = new Op("PROD", CODE_PROD, true, null);
    /** Minimum (MPI_MIN). */
    public static final Op MIN = new Op("MIN", CODE_MIN, true, null);
    /** Maximum (MPI_MAX). */
    public static final Op MAX = new Op("MAX", CODE_MAX, true, null);
    /** Logical and (MPI_LAND). */
    public static final Op LAND = new Op("LAND", CODE_LAND, true, null);
    /** Logical or (MPI_LOR). */
    public static final Op LOR = new Op("LOR", CODE_LOR, true, null);
    /** Logical exclusive or (MPI_LXOR). */
    public static final Op LXOR = new Op("LXOR", CODE_LXOR, true, null);
    /** Bitwise and (MPI_BAND). */
    public static final Op BAND = new Op("BAND", CODE_BAND, true, null);
    /** Bitwise or (MPI_BOR). */
    public static final Op BOR = new Op("BOR", CODE_BOR, true, null);
    /** Bitwise exclusive or (MPI_BXOR). */
    public static final Op BXOR = new Op("BXOR", CODE_BXOR, true, null);
    /** Minimum value and its index (MPI_MINLOC), on pair types. */
    public static final Op MINLOC = new Op("MINLOC", CODE_MINLOC, true, null);
    /** Maximum value and its index (MPI_MAXLOC), on pair types. */
    public static final Op MAXLOC = new Op("MAXLOC", CODE_MAXLOC, true, null);
    /** The incoming operand (MPI_REPLACE). */
    public static final Op REPLACE = new Op("REPLACE", CODE_REPLACE, false, null);
    /** The existing operand (MPI_NO_OP). */
    public static final Op NO_OP = new Op("NO_OP", CODE_NO_OP, false, null);

    private final String name;
    private final int code;
    private final boolean commutative;
    private final Function function;

    private Op(final String name, final int code, final boolean commutative, final Function function)
    {
        this.name = name;
        this.code = code;
        this.commutative = commutative;
        this.function = function;
    }

    /**
     * MPI_Op_create: a user-defined op.
     *
     * @param commutative whether {@code a op b == b op a}; if false, jmpi combines in rank order.
     * @throws MpiException ERR_ARG when {@code function} is null.
     */
    public static Op create(final Function function, final boolean commutative)
    {
        if (function == null)
        {
            throw new MpiException(ErrorClass.ERR_ARG, "Op.create: function is null");
        }
        return new Op("USER", CODE_USER, commutative, function);
    }

    /** "SUM", "MAX"... for predefined ops, "USER" for user-defined ones. */
    public String name()
    {
        return name;
    }

    /** MPI_Op_commutative. */
    public boolean isCommutative()
    {
        return commutative;
    }

    /** Whether this is one of the predefined ops. */
    public boolean isPredefined()
    {
        return code != CODE_USER;
    }

    /** Internal: the predefined op's code ({@code CODE_*}), {@link #CODE_USER} for a user op. */
    public int code()
    {
        return code;
    }

    /** Internal: the user function, or null for a predefined op. */
    public Function function()
    {
        return function;
    }

    /**
     * MPI_Op_free: nothing to release (an unused op is garbage collected).
     *
     * @throws MpiException ERR_OP for a predefined op.
     */
    public void free()
    {
        if (isPredefined())
        {
            throw new MpiException(ErrorClass.ERR_OP, "Op.free: " + name + " is predefined");
        }
    }

    @Override
    public String toString()
    {
        return name;
    }
}
