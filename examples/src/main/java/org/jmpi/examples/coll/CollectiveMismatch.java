package org.jmpi.examples.coll;

import org.jmpi.Comm;
import org.jmpi.Datatype;
import org.jmpi.ErrorClass;
import org.jmpi.ErrorHandler;
import org.jmpi.Mpi;
import org.jmpi.MpiException;
import org.jmpi.Op;

/**
 * Mismatched collective calls must fail with a clear {@link MpiException}, not hang, and leave the communicator
 * usable. With argument {@code check} (run with {@code --param coll.check=true}): a bcast whose root differs
 * between ranks, then an allreduce whose count differs, each fail with ERR_OTHER ("mismatch") on every rank.
 * With {@code nocheck}: a bcast whose count is larger at the root than elsewhere fails with ERR_TRUNCATE at rank 1
 * (a child of the root in every tree); the ranks it forwards to get a consistent prefix or the same error. Each
 * case is followed by a correct allreduce. Prints "mismatch: rank r ok" per rank.
 * <p>Usage: {@code bin/jmpirun -np 2 --param coll.check=true -cp examples/target/classes
 * org.jmpi.examples.coll.CollectiveMismatch check}
 */
public final class CollectiveMismatch
{
    private CollectiveMismatch()
    {
    }

    private static void check(final boolean ok, final String what)
    {
        if (!ok)
        {
            throw new IllegalStateException("mismatch check failed: " + what);
        }
    }

    /** Runs {@code call}, which must throw an MpiException of {@code expected} whose message contains {@code words}. */
    private static void expectFailure(final int rank, final String what, final ErrorClass expected, final String words, final Runnable call)
    {
        try
        {
            call.run();
        }
        catch (final MpiException ex)
        {
            check(ex.errorClass() == expected && ex.getMessage().contains(words), what + ": expected " + expected + " mentioning '" + words +
                "', got " + ex.errorClass() + ": " + ex.getMessage());
            System.out.println("mismatch: rank " + rank + " " + what + " -> " + ex.errorClass() + ": " + ex.getMessage());
            return;
        }
        throw new IllegalStateException("mismatch check failed: " + what + " completed without an error on rank " + rank);
    }

    /** A correct allreduce: the communicator must still work after a failed collective. */
    private static void stillWorks(final Comm c, final String after)
    {
        final int[] out = new int[1];
        c.allreduce(new int[] {c.rank() + 1}, 0, out, 0, 1, Datatype.INT, Op.SUM);
        check(out[0] == c.size() * (c.size() + 1) / 2, "allreduce after " + after + " gave " + out[0]);
    }

    public static void main(final String[] args)
    {
        final boolean checked = args.length > 0 && args[0].equals("check");
        try (Mpi mpi = Mpi.init(args))
        {
            final Comm c = mpi.world().dup();
            c.setErrorHandler(ErrorHandler.ERRORS_RETURN);
            final int rank = c.rank();
            final int[] data = new int[10];
            if (checked)
            {
                expectFailure(rank, "bcast with roots differing", ErrorClass.ERR_OTHER, "mismatch",
                    () -> c.bcast(data, 0, 4, Datatype.INT, rank == 0 ? 1 : 0));
                stillWorks(c, "root mismatch");
                expectFailure(rank, "allreduce with counts differing", ErrorClass.ERR_OTHER, "mismatch",
                    () -> c.allreduce(new int[4], 0, data, 0, rank == 0 ? 4 : 3, Datatype.INT, Op.SUM));
                stillWorks(c, "count mismatch");
            }
            else
            {
                if (rank == 0)
                {
                    c.bcast(data, 0, 10, Datatype.INT, 0);
                }
                else if (rank == 1)
                {
                    expectFailure(rank, "bcast with a shorter count than the root's", ErrorClass.ERR_TRUNCATE, "bcast",
                        () -> c.bcast(data, 0, 5, Datatype.INT, 0));
                }
                else
                {
                    try
                    {
                        c.bcast(data, 0, 5, Datatype.INT, 0);
                    }
                    catch (final MpiException ex)
                    {
                        check(ex.errorClass() == ErrorClass.ERR_TRUNCATE, "bcast below rank 1 failed with " + ex);
                    }
                }
                stillWorks(c, "count mismatch");
            }
            System.out.println("mismatch: rank " + rank + " ok");
        }
    }
}
