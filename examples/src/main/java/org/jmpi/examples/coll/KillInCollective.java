package org.jmpi.examples.coll;

import java.io.IOException;

import org.jmpi.Comm;
import org.jmpi.Datatype;
import org.jmpi.Mpi;
import org.jmpi.Op;

/**
 * Failure drill for the node collectives across JVMs: every rank runs allreduces on a fresh duplicate of the
 * world (its first collective there makes the communicator's region, a file rank 0 creates and deletes once
 * every rank has mapped it); the victim (rank 1, or the rank named by the first argument) kills its own JVM
 * with {@code kill -9} instead of entering the first one, so the others wait inside it, rank 0 with the file
 * still there. The launcher must notice, stop the others within 5 s, exit nonzero and leave no file behind.
 */
public final class KillInCollective
{
    private KillInCollective()
    {
    }

    public static void main(final String[] args) throws IOException, InterruptedException
    {
        final int victim = args.length > 0 ? Integer.parseInt(args[0]) : 1;
        try (Mpi mpi = Mpi.init(args))
        {
            final Comm world = mpi.world();
            world.barrier();
            final Comm dup = world.dup();
            world.barrier();
            System.out.println("killcoll: rank " + world.rank() + " ready, pid " + ProcessHandle.current().pid());
            System.out.flush();
            if (world.rank() == victim)
            {
                System.out.println("killcoll: rank " + victim + " kills itself at " + System.currentTimeMillis());
                System.out.flush();
                new ProcessBuilder("kill", "-9", Long.toString(ProcessHandle.current().pid())).inheritIO().start().waitFor();
            }
            final long[] sum = new long[1];
            for (int i = 0; i < 1_000_000; i++)
            {
                dup.allreduce(new long[] {i}, 0, sum, 0, 1, Datatype.LONG, Op.SUM);
            }
        }
    }
}
