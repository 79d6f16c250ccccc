package org.jmpi.compat.programs;

import java.nio.IntBuffer;

import mpi.MPI;
import mpi.MPIException;
import mpi.Request;
import mpi.Status;

/**
 * Checks that every pair of ranks can talk: for each pair (i, j), i &lt; j, rank i sends its rank to j with a
 * nonblocking send from a direct buffer, and j answers with a blocking send of its own; each side checks the
 * value and the status. Prints "Connectivity test on N processes PASSED." at rank 0, or exits with 1.
 */
public final class Connectivity
{
    private Connectivity()
    {
    }

    public static void main(final String[] args) throws MPIException
    {
        MPI.Init(args);
        final int rank = MPI.COMM_WORLD.getRank();
        final int size = MPI.COMM_WORLD.getSize();
        final boolean verbose = args.length > 0 && args[0].equals("-v");
        final IntBuffer out = MPI.newIntBuffer(1);
        final int[] in = new int[1];
        for (int i = 0; i < size; i++)
        {
            for (int j = i + 1; j < size; j++)
            {
                if (rank == i)
                {
                    out.put(0, rank);
                    final Request sent = MPI.COMM_WORLD.iSend(out, 1, MPI.INT, j, i * size + j);
                    final Status st = MPI.COMM_WORLD.recv(in, 1, MPI.INT, j, j * size + i);
                    sent.waitFor();
                    check(in[0] == j && st.getSource() == j && st.getCount(MPI.INT) == 1, rank, j);
                }
                else if (rank == j)
                {
                    final Status st = MPI.COMM_WORLD.recv(in, 1, MPI.INT, i, i * size + j);
                    check(in[0] == i && st.getTag() == i * size + j, rank, i);
                    MPI.COMM_WORLD.send(new int[] {rank}, 1, MPI.INT, i, j * size + i);
                }
                if (verbose && rank == i)
                {
                    System.out.println("checked " + i + " <-> " + j);
                }
            }
        }
        MPI.COMM_WORLD.barrier();
        if (rank == 0)
        {
            System.out.println("Connectivity test on " + size + " processes PASSED.");
        }
        MPI.Finalize();
    }

    private static void check(final boolean ok, final int rank, final int peer)
    {
        if (!ok)
        {
            System.out.println("Connectivity test FAILED between " + rank + " and " + peer);
            System.exit(1);
        }
    }
}
