package org.jmpi.compat.programs;

import mpi.Intercomm;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;

/**
 * Spawns {@link SpawnChild} as Open MPI's Java programs do: every rank of the world calls {@code spawn} (root 0), the
 * parents and children exchange ranks over the intercommunicator, reduce across it, merge it (parents first) and
 * reduce over the merged world; then both sides disconnect. With the argument {@code multiple}, spawnMultiple starts one
 * child by its main class and one through {@code java -cp ... SpawnChild}. Prints "SpawnParent on N processes
 * PASSED."; exits with 1 on a wrong value.
 */
public final class SpawnParent
{
    static final int CHILDREN = 2;

    private SpawnParent()
    {
    }

    public static void main(final String[] args) throws MPIException
    {
        MPI.Init(args);
        final int rank = MPI.COMM_WORLD.getRank();
        final int size = MPI.COMM_WORLD.getSize();
        check(Intercomm.getParent().isNull(), "a parent has a parent");
        final int[] errcodes = new int[CHILDREN];
        final Intercomm children;
        if (args.length > 0 && "multiple".equals(args[0]))
        {
            children = MPI.COMM_WORLD.spawnMultiple(new String[] {SpawnChild.class.getName(), "java"},
                new String[][] {{"x"}, {"-cp", System.getProperty("java.class.path"), "-Djmpi.test.child=1", SpawnChild.class.getName(), "x"}},
                new int[] {1, 1}, new mpi.Info[] {MPI.INFO_NULL, MPI.INFO_NULL}, 0, errcodes);
        }
        else
        {
            final mpi.Info info = new mpi.Info();
            info.set("wdir", System.getProperty("java.io.tmpdir"));
            children = MPI.COMM_WORLD.spawn(SpawnChild.class.getName(), new String[] {"x"}, CHILDREN, info, 0, errcodes);
        }
        for (final int code : errcodes)
        {
            check(code == MPI.SUCCESS, "rank " + rank + ": errcode " + code);
        }
        check(children.getSize() == size && children.getRemoteSize() == CHILDREN && children.getRank() == rank,
            "rank " + rank + ": intercommunicator " + children.getRank() + "/" + children.getSize() + ", remote " + children.getRemoteSize());
        // Each parent sends its rank to child (rank % CHILDREN) and gets it back doubled.
        children.send(new int[] {rank}, 1, MPI.INT, rank % CHILDREN, 5);
        final int[] back = {-1};
        children.recv(back, 1, MPI.INT, rank % CHILDREN, 6);
        check(back[0] == 2 * rank + 1000, "rank " + rank + " got back " + back[0]);
        final int[] sum = {0};
        children.allReduce(new int[] {1}, sum, 1, MPI.INT, MPI.SUM);
        check(sum[0] == CHILDREN, "rank " + rank + ": the children count " + sum[0]);
        final Intracomm merged = children.merge(false);
        check(merged.getSize() == size + CHILDREN && merged.getRank() == rank, "rank " + rank + " is " + merged.getRank() + " of " +
            merged.getSize() + " merged");
        final int[] total = {0};
        merged.allReduce(new int[] {merged.getRank()}, total, 1, MPI.INT, MPI.SUM);
        final int n = size + CHILDREN;
        check(total[0] == n * (n - 1) / 2, "rank " + rank + ": merged sum " + total[0]);
        merged.free();
        children.disconnect();
        MPI.COMM_WORLD.barrier();
        if (rank == 0)
        {
            System.out.println("SpawnParent on " + size + " processes PASSED.");
        }
        MPI.Finalize();
    }

    static void check(final boolean ok, final String what)
    {
        if (!ok)
        {
            System.err.println("FAILED: " + what);
            System.exit(1);
        }
    }
}
