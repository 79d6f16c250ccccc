package org.jmpi.compat.programs;

import mpi.Intercomm;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;

/**
 * A client/server program as Open MPI's dynamic-process examples are written: the lower half of the world serves
 * (world rank 0 opens a port and publishes it as "jmpi-compat-server"), the upper half looks the name up and
 * connects. The two groups exchange their world ranks over the intercommunicator, reduce across it, merge, and
 * disconnect. Prints "ClientServer on N processes PASSED."; exits with 1 on a wrong value, 77 on one process.
 */
public final class ClientServer
{
    private static final String SERVICE = "jmpi-compat-server";

    private ClientServer()
    {
    }

    public static void main(final String[] args) throws MPIException
    {
        MPI.Init(args);
        final int rank = MPI.COMM_WORLD.getRank();
        final int size = MPI.COMM_WORLD.getSize();
        if (size < 2)
        {
            MPI.Finalize();
            System.exit(77);
        }
        final boolean server = rank < size / 2;
        final Intracomm half = MPI.COMM_WORLD.split(server ? 0 : 1, rank);
        String port = null;
        if (rank == 0)
        {
            port = Intracomm.openPort();
            Intracomm.publishName(SERVICE, port);
        }
        MPI.COMM_WORLD.barrier();
        final Intercomm inter;
        if (server)
        {
            inter = half.accept(port, 0);
        }
        else
        {
            inter = half.connect(half.getRank() == 0 ? Intracomm.lookupName(SERVICE) : null, 0);
        }
        final int[] theirs = {-1};
        final int partner = inter.getRank() % inter.getRemoteSize();
        if (server)
        {
            inter.send(new int[] {rank}, 1, MPI.INT, partner, 3);
        }
        else
        {
            for (int s = 0; s < inter.getRemoteSize(); s++)
            {
                if (s % inter.getSize() == inter.getRank())
                {
                    inter.recv(theirs, 1, MPI.INT, s, 3);
                    check(theirs[0] == s, "client " + rank + " got " + theirs[0] + " from server " + s);
                }
            }
        }
        final int[] sum = new int[1];
        inter.allReduce(new int[] {1}, sum, 1, MPI.INT, MPI.SUM);
        check(sum[0] == inter.getRemoteSize(), "rank " + rank + ": the other group's count is " + sum[0]);
        final Intracomm merged = inter.merge(!server);
        check(merged.getRank() == rank && merged.getSize() == size, "rank " + rank + " is " + merged.getRank() + " in the merged world");
        merged.free();
        inter.disconnect();
        MPI.COMM_WORLD.barrier();
        if (rank == 0)
        {
            Intracomm.unpublishName(SERVICE, port);
            Intracomm.closePort(port);
            System.out.println("ClientServer on " + size + " processes PASSED.");
        }
        MPI.Finalize();
    }

    private static void check(final boolean ok, final String what)
    {
        if (!ok)
        {
            System.err.println("ClientServer FAILED: " + what);
            System.exit(1);
        }
    }
}
