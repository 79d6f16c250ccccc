package org.jmpi.examples;

import org.jmpi.Comm;
import org.jmpi.Datatype;
import org.jmpi.Mpi;

/**
 * Failure drill for error handlers and abort. {@code abort}: rank 1 calls {@code mpi.abort(3)} while
 * the others wait in a receive; the job must end with exit code 3. {@code fatal}: rank 1 sends to an
 * invalid rank with world's default handler, ERRORS_ARE_FATAL; the job must end with the error class
 * (ERR_RANK) as exit code and the error printed.
 */
public final class AbortAndFatal
{
    private AbortAndFatal()
    {
    }

    public static void main(final String[] args)
    {
        final String mode = args.length > 0 ? args[0] : "abort";
        try (Mpi mpi = Mpi.init(args))
        {
            final Comm world = mpi.world();
            world.barrier();
            if (world.rank() == 1)
            {
                if (mode.equals("abort"))
                {
                    mpi.abort(3);
                }
                else
                {
                    world.send(new int[1], 0, 1, Datatype.INT, world.size() + 5, 0);
                }
            }
            world.recv(new int[1], 0, 1, Datatype.INT, 1, 4321);
        }
    }
}
