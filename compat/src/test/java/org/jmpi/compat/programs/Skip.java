package org.jmpi.compat.programs;

import mpi.MPI;
import mpi.MPIException;

/** A test that skips itself the way test suites do: every rank finalizes and exits with 77. */
public final class Skip
{
    private Skip()
    {
    }

    public static void main(final String[] args) throws MPIException
    {
        MPI.Init(args);
        MPI.COMM_WORLD.barrier();
        MPI.Finalize();
        System.exit(77);
    }
}
