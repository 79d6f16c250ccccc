package org.jmpi.compat.programs;

import mpi.Intercomm;
import mpi.MPI;
import mpi.MPIException;

/**
 * Spawns that must fail, each on every rank alike, under ERRORS_RETURN: a command that is no class (ERR_SPAWN, every
 * errcode ERR_SPAWN), {@code maxprocs} 0 (ERR_ARG), a "host" other than this node (ERR_SPAWN); the world still works
 * afterwards. With the argument {@code die}, then spawns a {@link SpawnChild} that exits with code 3 and waits for it:
 * the job must end with that code. Prints "SpawnFailures on N processes PASSED." before that.
 */
public final class SpawnFailures
{
    private SpawnFailures()
    {
    }

    public static void main(final String[] args) throws MPIException
    {
        MPI.Init(args);
        final int rank = MPI.COMM_WORLD.getRank();
        MPI.COMM_WORLD.setErrhandler(MPI.ERRORS_RETURN);
        final int[] errcodes = {-1, -1};
        expect(rank, MPI.ERR_SPAWN, () -> MPI.COMM_WORLD.spawn("org.jmpi.compat.programs.NoSuchProgram", null, 2, MPI.INFO_NULL, 0, errcodes));
        SpawnParent.check(errcodes[0] == MPI.ERR_SPAWN && errcodes[1] == MPI.ERR_SPAWN, "rank " + rank + ": errcodes " + errcodes[0] + "," + errcodes[1]);
        expect(rank, MPI.ERR_SPAWN, () -> MPI.COMM_WORLD.spawn("not a command!", null, 1, MPI.INFO_NULL, 0, null));
        expect(rank, MPI.ERR_ARG, () -> MPI.COMM_WORLD.spawn(SpawnChild.class.getName(), null, 0, MPI.INFO_NULL, 0, null));
        final mpi.Info elsewhere = new mpi.Info();
        elsewhere.set("host", "no-such-host.invalid");
        expect(rank, MPI.ERR_SPAWN, () -> MPI.COMM_WORLD.spawn(SpawnChild.class.getName(), new String[] {"x"}, 1, elsewhere, 0, null));
        final int[] sum = {0};
        MPI.COMM_WORLD.allReduce(new int[] {1}, sum, 1, MPI.INT, MPI.SUM);
        SpawnParent.check(sum[0] == MPI.COMM_WORLD.getSize(), "the world after failed spawns");
        if (rank == 0)
        {
            System.out.println("SpawnFailures on " + MPI.COMM_WORLD.getSize() + " processes PASSED.");
        }
        if (args.length > 0 && "die".equals(args[0]))
        {
            final Intercomm child = MPI.COMM_WORLD.spawn(SpawnChild.class.getName(), new String[] {"die"}, 1, MPI.INFO_NULL, 0, null);
            child.recv(new int[1], 1, MPI.INT, 0, 9);
            System.err.println("FAILED: a dead child answered");
            System.exit(1);
        }
        MPI.Finalize();
    }

    @FunctionalInterface
    private interface Call
    {
        Intercomm run() throws MPIException;
    }

    private static void expect(final int rank, final int errorClass, final Call call)
    {
        try
        {
            call.run();
            SpawnParent.check(false, "rank " + rank + ": spawn succeeded, expected error class " + errorClass);
        }
        catch (final MPIException ex)
        {
            SpawnParent.check(ex.getErrorClass() == errorClass, "rank " + rank + ": error class " + ex.getErrorClass() + ", expected " +
                errorClass + ": " + ex.getMessage());
        }
    }
}
