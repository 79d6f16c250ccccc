package mpi;

import java.nio.ByteBuffer;

/**
 * A user reduction for {@link Op#Op(UserFunction, boolean)} (Open MPI Java API): override the
 * {@code ByteBuffer} form, or the {@code Object} form for BOOLEAN data. Both compute
 * {@code inOut[i] = in[i] op inOut[i]} for {@code count} items of {@code datatype}.
 *
 * <p>The buffers hold the items packed (basic elements in type-map order, no gaps) in native byte order,
 * positioned at 0. For BOOLEAN data the {@code Object} form receives two {@code boolean[]} arrays. The
 * function may run on the rank's progress thread: it must not call MPI.
 */
public abstract class UserFunction
{
    /** The reduction on BOOLEAN data ({@code boolean[]} operands). */
    public void call(final Object inVec, final Object inOutVec, final int count, final Datatype datatype) throws MPIException
    {
        throw new UnsupportedOperationException("UserFunction.call(Object, Object, int, Datatype) is not overridden");
    }

    /** The reduction on any other data, packed in native byte order. */
    public void call(final ByteBuffer in, final ByteBuffer inOut, final int count, final Datatype datatype) throws MPIException
    {
        throw new UnsupportedOperationException("UserFunction.call(ByteBuffer, ByteBuffer, int, Datatype) is not overridden");
    }
}
