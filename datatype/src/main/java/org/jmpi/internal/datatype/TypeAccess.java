package org.jmpi.internal.datatype;

import org.jmpi.Datatype;

/**
 * Bridge from the internal packages to {@link Datatype}'s non-public state (its layout node and
 * compiled programs), installed once by {@code Datatype}'s static initialiser. Not API. Stateless apart
 * from the installed instance (a volatile write before any type exists); any thread.
 */
public abstract class TypeAccess
{
    private static volatile TypeAccess instance;

    /** Called once by {@link Datatype}. */
    public static void install(final TypeAccess access)
    {
        instance = access;
    }

    static TypeAccess get()
    {
        TypeAccess a = instance;
        if (a == null)
        {
            Datatype.BYTE.size();
            a = instance;
        }
        return a;
    }

    /** The normalised layout node of a type. */
    public abstract Layout layout(Datatype type);

    /**
     * The compiled program of a type. Untyped programs merge adjacent runs of different basic types;
     * typed programs keep runs of different basic types apart so byte swapping and signature walks
     * know each run's type. Cached in the type.
     */
    public abstract Program program(Datatype type, boolean typed);

    /** The queries of a type (size, bounds, element code...) as its layout's parents combine them. */
    public abstract TypeSummary summary(Datatype type);
}
