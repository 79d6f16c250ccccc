package org.jmpi.examples;

import org.jmpi.Comm;
import org.jmpi.Datatype;
import org.jmpi.ErrorClass;
import org.jmpi.ErrorHandler;
import org.jmpi.Mpi;
import org.jmpi.MpiException;

/**
 * Bad arguments, each of which must be a clear {@link MpiException} and no hang: invalid rank,
 * negative count, wrong buffer type, null buffer, tag above the upper bound. Prints each error and
 * {@code bad-arguments: rank R ok}.
 */
public final class BadArguments
{
    private BadArguments()
    {
    }

    public static void main(final String[] args)
    {
        try (Mpi mpi = Mpi.init(args))
        {
            final Comm world = mpi.world();
            world.setErrorHandler(ErrorHandler.ERRORS_RETURN);
            final int[] buf = new int[4];
            final int size = world.size();
            expect(ErrorClass.ERR_RANK, () -> world.send(buf, 0, 1, Datatype.INT, size, 0));
            expect(ErrorClass.ERR_RANK, () -> world.recv(buf, 0, 1, Datatype.INT, -7, 0));
            expect(ErrorClass.ERR_COUNT, () -> world.send(buf, 0, -1, Datatype.INT, 0, 0));
            expect(ErrorClass.ERR_TYPE, () -> world.send(new double[4], 0, 1, Datatype.INT, 0, 0));
            expect(ErrorClass.ERR_BUFFER, () -> world.send(new Object(), 0, 1, Datatype.INT, 0, 0));
            expect(ErrorClass.ERR_BUFFER, () -> world.send(null, 0, 1, Datatype.INT, 0, 0));
            expect(ErrorClass.ERR_TAG, () -> world.send(buf, 0, 1, Datatype.INT, 0, Comm.TAG_UB + 1));
            expect(ErrorClass.ERR_TAG, () -> world.isend(buf, 0, 1, Datatype.INT, 0, -3));
            world.barrier();
            System.out.println("bad-arguments: rank " + world.rank() + " ok");
        }
    }

    private static void expect(final ErrorClass expected, final Runnable call)
    {
        try
        {
            call.run();
        }
        catch (final MpiException ex)
        {
            if (ex.errorClass() != expected)
            {
                System.err.println("bad-arguments: expected " + expected + ", got " + ex.getMessage());
                System.exit(1);
            }
            System.out.println("bad-arguments: " + ex.getMessage());
            return;
        }
        System.err.println("bad-arguments: expected " + expected + ", nothing thrown");
        System.exit(1);
    }
}
