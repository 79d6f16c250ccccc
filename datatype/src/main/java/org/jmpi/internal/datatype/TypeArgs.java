package org.jmpi.internal.datatype;

import org.jmpi.Datatype;
import org.jmpi.ErrorClass;
import org.jmpi.MpiException;

/**
 * The argument checks of {@link Datatype}'s constructors: each throws an {@link MpiException} naming the
 * constructor ({@code what}), the argument and its value. Not API. Stateless; any thread.
 */
public final class TypeArgs
{
    /** A computation that may overflow 64 bits ({@link Math#multiplyExact} and the like). */
    @FunctionalInterface
    public interface Exact<T>
    {
        /** Computes the value; throws {@link ArithmeticException} on overflow. */
        T get();
    }

    private TypeArgs()
    {
    }

    /** ERR_COUNT unless {@code count >= 0}. */
    public static void checkCount(final String what, final String name, final long count)
    {
        if (count < 0)
        {
            throw new MpiException(ErrorClass.ERR_COUNT, what + ": " + name + "=" + count + " must be >= 0");
        }
    }

    /** ERR_ARG unless {@code length >= 0}. */
    public static void checkLength(final String what, final String name, final int length)
    {
        if (length < 0)
        {
            throw new MpiException(ErrorClass.ERR_ARG, what + ": " + name + "=" + length + " must be >= 0");
        }
    }

    /** ERR_TYPE when the old type is null. */
    public static void checkType(final String what, final Datatype type)
    {
        if (type == null)
        {
            throw new MpiException(ErrorClass.ERR_TYPE, what + ": old type is null");
        }
    }

    /** ERR_ARG when either array is missing ({@code displacementsLength < 0}) or their lengths differ. */
    public static void checkArrays(final String what, final int[] blockLengths, final int displacementsLength)
    {
        if (blockLengths == null || displacementsLength < 0)
        {
            throw new MpiException(ErrorClass.ERR_ARG, what + ": blockLengths and displacements must not be null");
        }
        if (blockLengths.length != displacementsLength)
        {
            throw new MpiException(ErrorClass.ERR_ARG, what + ": blockLengths has length " + blockLengths.length +
                ", displacements has length " + displacementsLength);
        }
    }

    /** {@code f}'s value; ERR_ARG ("type too large") when it overflows. */
    public static <T> T exact(final String what, final Exact<T> f)
    {
        try
        {
            return f.get();
        }
        catch (final ArithmeticException ex)
        {
            throw new MpiException(ErrorClass.ERR_ARG, what + ": type too large, sizes or bounds overflow 64 bits", ex);
        }
    }
}
