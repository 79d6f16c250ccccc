package org.jmpi.compat.programs;

import mpi.MPI;
import mpi.MPIException;

/**
 * Rank 0 sends a counter round the ring of ranks; each pass through rank 0 counts it down by one, and when it
 * reaches 0 every rank forwards it once more and stops: rank 0 sees it P times, the others P + 1. Prints
 * "ring: rank R exiting after N passes".
 * Exits with 1 on a wrong value (as a test program would).
 */
public final class Ring
{
    private Ring()
    {
    }

    public static void main(final String[] args) throws MPIException
    {
        MPI.Init(args);
        final int rank = MPI.COMM_WORLD.getRank();
        final int size = MPI.COMM_WORLD.getSize();
        final int next = (rank + 1) % size;
        final int prev = (rank + size - 1) % size;
        final int tag = 201;
        final int[] message = new int[1];
        final int laps = args.length > 0 && args[0].matches("\\d+") ? Integer.parseInt(args[0]) : 10;
        if (rank == 0)
        {
            message[0] = laps;
            MPI.COMM_WORLD.send(message, 1, MPI.INT, next, tag);
        }
        int passes = 0;
        while (true)
        {
            MPI.COMM_WORLD.recv(message, 1, MPI.INT, prev, tag);
            passes++;
            if (rank == 0)
            {
                message[0]--;
            }
            MPI.COMM_WORLD.send(message, 1, MPI.INT, next, tag);
            if (message[0] == 0)
            {
                break;
            }
        }
        if (rank == 0)
        {
            MPI.COMM_WORLD.recv(message, 1, MPI.INT, prev, tag);
        }
        System.out.println("ring: rank " + rank + " exiting after " + passes + " passes");
        final int expected = rank == 0 ? laps : laps + 1;
        MPI.Finalize();
        if (passes != expected)
        {
            System.exit(1);
        }
    }
}
