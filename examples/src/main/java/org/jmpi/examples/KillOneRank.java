package org.jmpi.examples;

import org.jmpi.Comm;
import org.jmpi.Datatype;
import org.jmpi.Mpi;

import java.io.IOException;

/**
 * Failure drill: every rank blocks in a receive that never matches; rank 1 (or the rank named by the
 * first argument) kills its own JVM with {@code kill -9}. The launcher must notice, stop the others
 * within 5 s, exit nonzero and leave no shared-memory file behind.
 */
public final class KillOneRank
{
    private KillOneRank()
    {
    }

    public static void main(final String[] args) throws IOException, InterruptedException
    {
        final int victim = args.length > 0 ? Integer.parseInt(args[0]) : 1;
        try (Mpi mpi = Mpi.init(args))
        {
            final Comm world = mpi.world();
            world.barrier();
            System.out.println("kill: rank " + world.rank() + " ready, pid " + ProcessHandle.current().pid());
            System.out.flush();
            world.barrier();
            if (world.rank() == victim)
            {
                System.out.println("kill: rank " + victim + " kills itself at " + System.currentTimeMillis());
                System.out.flush();
                new ProcessBuilder("kill", "-9", Long.toString(ProcessHandle.current().pid())).inheritIO().start().waitFor();
            }
            world.recv(new int[1], 0, 1, Datatype.INT, victim, 12345);
        }
    }
}
