package org.jmpi.internal.io;

import java.util.function.LongSupplier;

import org.jmpi.Datatype;
import org.jmpi.ErrorClass;
import org.jmpi.Intracomm;
import org.jmpi.MpiException;
import org.jmpi.Op;

/**
 * How the ranks of a file's communicator agree on the outcome of a collective file call, so that an error at one
 * rank is an error at every rank and no rank is left waiting in a collective the others abandoned. Stateless; the
 * calls are collective over the communicator given.
 */
public final class Agreement
{
    private Agreement()
    {
    }

    /** The element-wise maximum over the ranks of {@code values}. */
    public static long[] allMax(final Intracomm comm, final long... values)
    {
        final long[] max = new long[values.length];
        comm.allreduce(values, 0, max, 0, values.length, Datatype.LONG, Op.MAX);
        return max;
    }

    /** ERR_NOT_SAME at every rank unless every rank gave the same {@code value}. */
    public static void checkSame(final Intracomm comm, final String call, final String what, final long value)
    {
        final long[] max = allMax(comm, value, -value);
        if (max[0] != -max[1])
        {
            throw new MpiException(ErrorClass.ERR_NOT_SAME, call + ": the ranks gave different " + what + " (from " + -max[1] + " to " +
                max[0] + "); this rank gave " + value);
        }
    }

    /** Every rank learns whether any rank failed; then each throws (its own error, or one naming the other's class). */
    public static void agree(final Intracomm comm, final String call, final MpiException local)
    {
        final long[] worst = allMax(comm, local == null ? 0 : local.errorCode());
        if (local != null)
        {
            throw local;
        }
        if (worst[0] != 0)
        {
            final ErrorClass c = ErrorClass.of((int)worst[0]);
            throw new MpiException(c, call + ": failed at another rank (" + c + ")");
        }
    }

    /** Rank 0 runs {@code op}; every rank returns its value, or throws when it failed. */
    public static long rootValue(final Intracomm comm, final String call, final LongSupplier op)
    {
        final long[] outcome = new long[2];
        MpiException failure = null;
        if (comm.rank() == 0)
        {
            try
            {
                outcome[1] = op.getAsLong();
            }
            catch (final MpiException ex)
            {
                failure = ex;
                outcome[0] = ex.errorCode();
            }
        }
        comm.bcast(outcome, 0, 2, Datatype.LONG, 0);
        if (failure != null)
        {
            throw failure;
        }
        if (outcome[0] != 0)
        {
            final ErrorClass c = ErrorClass.of((int)outcome[0]);
            throw new MpiException(c, call + ": failed at rank 0 (" + c + ")");
        }
        return outcome[1];
    }
}
