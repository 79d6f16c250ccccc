package org.jmpi.compat.programs;

import mpi.MPI;
import mpi.MPIException;

/** The last rank calls MPI.COMM_WORLD.abort(code) (code = args[0], default 3) while the others wait in a barrier. */
public final class Abort
{
    private Abort()
    {
    }

    public static void main(final String[] args) throws MPIException
    {
        MPI.Init(args);
        final int code = args.length > 0 ? Integer.parseInt(args[0]) : 3;
        if (MPI.COMM_WORLD.getRank() == MPI.COMM_WORLD.getSize() - 1)
        {
            MPI.COMM_WORLD.abort(code);
        }
        MPI.COMM_WORLD.barrier();
        MPI.Finalize();
    }
}
