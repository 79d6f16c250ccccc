package org.jmpi.compat.programs;

import mpi.Intercomm;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;

/**
 * One of two jobs that meet through a published port (run both with the same {@code --param dyn.names=DIR}): with
 * {@code server}, world rank 0 opens a port and publishes it as "jmpi-two-jobs" and the world accepts; with
 * {@code client}, rank 0 looks the name up (waiting for the server to publish it) and the world connects. The jobs
 * exchange ranks over the intercommunicator, reduce across it, merge (server first), reduce over the merged world and
 * disconnect. Prints "TwoJobs server|client on N processes PASSED."; exits with 1 on a wrong value.
 */
public final class TwoJobs
{
    private static final String SERVICE = "jmpi-two-jobs";
    private static final long LOOKUP_WAIT_MS = 120_000;

    private TwoJobs()
    {
    }

    public static void main(final String[] args) throws MPIException, InterruptedException
    {
        MPI.Init(args);
        final boolean server = "server".equals(args[0]);
        final int rank = MPI.COMM_WORLD.getRank();
        final int size = MPI.COMM_WORLD.getSize();
        String port = null;
        if (rank == 0 && server)
        {
            port = Intracomm.openPort();
            Intracomm.publishName(SERVICE, port);
        }
        else if (rank == 0)
        {
            MPI.COMM_SELF.setErrhandler(MPI.ERRORS_RETURN);
            final long deadline = System.currentTimeMillis() + LOOKUP_WAIT_MS;
            while (port == null)
            {
                try
                {
                    port = Intracomm.lookupName(SERVICE);
                }
                catch (final MPIException ex)
                {
                    SpawnParent.check(ex.getErrorClass() == MPI.ERR_NAME && System.currentTimeMillis() < deadline, "lookupName: " + ex);
                    Thread.sleep(100);
                }
            }
        }
        final Intercomm inter = server ? MPI.COMM_WORLD.accept(port, 0) : MPI.COMM_WORLD.connect(port, 0);
        final int remote = inter.getRemoteSize();
        SpawnParent.check(inter.getSize() == size && inter.getRank() == rank, "rank " + rank + " in the intercommunicator");
        // Every rank sends its rank to the remote rank (rank % remote) and receives from those that chose it.
        final mpi.Request sent = inter.iSend(java.nio.ByteBuffer.allocateDirect(4).order(java.nio.ByteOrder.nativeOrder()).putInt(0, rank),
            1, MPI.INT, rank % remote, 7);
        for (int s = 0; s < remote; s++)
        {
            if (s % size == rank)
            {
                final int[] got = {-1};
                inter.recv(got, 1, MPI.INT, s, 7);
                SpawnParent.check(got[0] == s, "rank " + rank + " got " + got[0] + " from remote " + s);
            }
        }
        sent.waitFor();
        final int[] sum = {0};
        inter.allReduce(new int[] {1}, sum, 1, MPI.INT, MPI.SUM);
        SpawnParent.check(sum[0] == remote, "rank " + rank + ": the other job counts " + sum[0]);
        final Intracomm merged = inter.merge(!server);
        SpawnParent.check(merged.getRank() == (server ? rank : remote + rank), "rank " + rank + " is " + merged.getRank() + " merged");
        final int[] total = {0};
        merged.allReduce(new int[] {merged.getRank()}, total, 1, MPI.INT, MPI.SUM);
        final int n = size + remote;
        SpawnParent.check(total[0] == n * (n - 1) / 2, "rank " + rank + ": merged sum " + total[0]);
        merged.free();
        inter.disconnect();
        MPI.COMM_WORLD.barrier();
        if (rank == 0)
        {
            if (server)
            {
                Intracomm.unpublishName(SERVICE, port);
                Intracomm.closePort(port);
            }
            System.out.println("TwoJobs " + args[0] + " on " + size + " processes PASSED.");
        }
        MPI.Finalize();
    }
}
