package org.jmpi.compat.programs;

import mpi.MPI;
import mpi.MPIException;

/** Every rank says hello with its rank, the world size and its processor name; written against Open MPI's Java API only. */
public final class Hello
{
    private Hello()
    {
    }

    public static void main(final String[] args) throws MPIException
    {
        MPI.Init(args);
        final int rank = MPI.COMM_WORLD.getRank();
        final int size = MPI.COMM_WORLD.getSize();
        System.out.println("Hello, world, I am " + rank + " of " + size + " on " + MPI.getProcessorName() + " (" + MPI.getLibVersion() + ")");
        MPI.Finalize();
    }
}
