package org.jmpi.compat.programs;

import mpi.Intercomm;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;

/**
 * The child {@link SpawnParent} and {@link SpawnFailures} start: answers its parents (each parent's rank + 1000,
 * doubled), reduces across the intercommunicator, merges it (children after the parents) and disconnects. With the
 * argument {@code die} it exits with code 3 after init instead (a child that dies), with {@code x} it runs normally.
 */
public final class SpawnChild
{
    private SpawnChild()
    {
    }

    public static void main(final String[] args) throws MPIException
    {
        MPI.Init(args);
        final Intercomm parent = Intercomm.getParent();
        SpawnParent.check(!parent.isNull(), "a spawned child has no parent");
        if (args.length > 0 && "die".equals(args[0]))
        {
            System.err.println("SpawnChild " + MPI.COMM_WORLD.getRank() + ": dying on purpose");
            System.exit(3);
        }
        SpawnParent.check(args.length == 1 && "x".equals(args[0]), "child arguments " + String.join(",", args));
        final int rank = MPI.COMM_WORLD.getRank();
        final int size = MPI.COMM_WORLD.getSize();
        SpawnParent.check(size == SpawnParent.CHILDREN && parent.getRank() == rank, "child " + rank + " of " + size);
        final int parents = parent.getRemoteSize();
        for (int p = 0; p < parents; p++)
        {
            if (p % size == rank)
            {
                final int[] value = {-1};
                parent.recv(value, 1, MPI.INT, p, 5);
                SpawnParent.check(value[0] == p, "child " + rank + " got " + value[0] + " from parent " + p);
                parent.send(new int[] {2 * p + 1000}, 1, MPI.INT, p, 6);
            }
        }
        final int[] sum = {0};
        parent.allReduce(new int[] {1}, sum, 1, MPI.INT, MPI.SUM);
        SpawnParent.check(sum[0] == parents, "child " + rank + ": the parents count " + sum[0]);
        final Intracomm merged = parent.merge(true);
        SpawnParent.check(merged.getRank() == parents + rank, "child " + rank + " is " + merged.getRank() + " merged");
        final int[] total = {0};
        merged.allReduce(new int[] {merged.getRank()}, total, 1, MPI.INT, MPI.SUM);
        final int n = merged.getSize();
        SpawnParent.check(total[0] == n * (n - 1) / 2, "child " + rank + ": merged sum " + total[0]);
        merged.free();
        parent.disconnect();
        SpawnParent.check(Intercomm.getParent().isNull(), "the parent is still there after disconnect");
        MPI.COMM_WORLD.barrier();
        if (rank == 0)
        {
            System.out.println("SpawnChild world of " + size + " done.");
        }
        MPI.Finalize();
    }
}
