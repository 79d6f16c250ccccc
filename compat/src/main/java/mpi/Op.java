package mpi;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

import org.jmpi.ErrorClass;
import org.jmpi.MpiException;

/**
 * A reduction operation (Open MPI Java API): a predefined one ({@link MPI#SUM}...) or one made from a
 * {@link UserFunction}. Immutable.
 */
public final class Op implements Freeable
{
    private final org.jmpi.Op predefined;
    private final UserFunction function;
    private final boolean commute;
    private volatile boolean freed;

    Op(final org.jmpi.Op predefined)
    {
        this.predefined = predefined;
        this.function = null;
        this.commute = predefined.isCommutative();
    }

    /** MPI_Op_create: a user operation; {@code commute} says whether it is commutative. */
    public Op(final UserFunction function, final boolean commute)
    {
        this.predefined = null;
        this.function = function;
        this.commute = commute;
    }

    /** Whether the operation is commutative (MPI_Op_commutative). */
    public boolean isCommutative()
    {
        return commute;
    }

    /** MPI_Op_free: later use raises ERR_OP; predefined ops cannot be freed. */
    @Override
    public void free() throws MPIException
    {
        if (predefined != null)
        {
            throw MPIException.of(ErrorClass.ERR_OP, "free: " + predefined.name() + " is predefined");
        }
        freed = true;
    }

    /** Whether this op was freed (MPI_OP_NULL). */
    public boolean isNull()
    {
        return freed;
    }

    /** The jmpi op for a reduction on {@code type}: a user function sees the compat type. */
    org.jmpi.Op core(final Datatype type) throws MPIException
    {
        if (freed)
        {
            throw MPIException.of(ErrorClass.ERR_OP, "the op was freed");
        }
        if (predefined != null)
        {
            if (predefined == org.jmpi.Op.PROD && (type == MPI.FLOAT_COMPLEX || type == MPI.DOUBLE_COMPLEX))
            {
                throw MPIException.of(ErrorClass.ERR_OP, "PROD on " + type + " is not implemented: jmpi has no complex types "
                    + "(issue 13, docs/compat.md); SUM works (it adds the parts)");
            }
            return predefined;
        }
        if (function == null)
        {
            throw MPIException.of(ErrorClass.ERR_OP, "user op without a function");
        }
        return org.jmpi.Op.create((in, inout, count, t) -> apply(in, inout, count, type), commute);
    }

    private void apply(final ByteBuffer in, final ByteBuffer inout, final int count, final Datatype type)
    {
        try
        {
            if (type.baseType == Datatype.BOOLEAN)
            {
                final boolean[] a = new boolean[in.limit()];
                final boolean[] b = new boolean[inout.limit()];
                for (int i = 0; i < a.length; i++)
                {
                    a[i] = in.get(i) != 0;
                    b[i] = inout.get(i) != 0;
                }
                function.call(a, b, count, type);
                for (int i = 0; i < b.length; i++)
                {
                    inout.put(i, (byte)(b[i] ? 1 : 0));
                }
            }
            else
            {
                function.call(in.order(ByteOrder.nativeOrder()), inout.order(ByteOrder.nativeOrder()), count, type);
            }
        }
        catch (final MPIException ex)
        {
            throw new MpiException(ErrorClass.of(ex.getErrorClass()), "user op failed: " + ex.getMessage(), ex);
        }
    }

    @Override
    public String toString()
    {
        return predefined != null ? predefined.name() : "Op(" + function + ")";
    }
}
