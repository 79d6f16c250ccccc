package org.jmpi.examples.rma;

import java.io.IOException;
import java.nio.ByteBuffer;

import org.jmpi.Datatype;
import org.jmpi.Intracomm;
import org.jmpi.Mpi;
import org.jmpi.Op;
import org.jmpi.Win;

/**
 * Failure drill for windows: every rank opens a lock_all epoch on a window over {@code allocMem} memory (in the arena
 * where the PVAS transport is on, so peers reach it directly; else ordinary memory reached by frames) and hammers the
 * victim (rank 1, or the rank named by the first argument) with fetch_and_op and flush; the victim kills its own JVM
 * with {@code kill -9} inside the epoch. The launcher must notice, end the job within 5 s naming the rank, exit
 * nonzero and leave no file behind (neither the shm rings nor the arena). The survivors either wait for answers the
 * victim never sends (frames) or keep adding into its mapped memory (arena): neither may keep the job alive.
 */
public final class RmaKillInEpoch
{
    private RmaKillInEpoch()
    {
    }

    public static void main(final String[] args) throws IOException, InterruptedException
    {
        final int victim = args.length > 0 ? Integer.parseInt(args[0]) : 1;
        try (Mpi mpi = Mpi.init(args))
        {
            final Intracomm world = mpi.world();
            final ByteBuffer memory = mpi.allocMem(64);
            final Win win = Win.create(memory, Long.BYTES, null, world);
            win.lockAll(0);
            world.barrier();
            System.out.println("rma-kill: rank " + world.rank() + " in a lock_all epoch, pid " + ProcessHandle.current().pid());
            System.out.flush();
            world.barrier();
            if (world.rank() == victim)
            {
                System.out.println("rma-kill: rank " + victim + " kills itself at " + System.currentTimeMillis());
                System.out.flush();
                new ProcessBuilder("kill", "-9", Long.toString(ProcessHandle.current().pid())).inheritIO().start().waitFor();
            }
            final long[] one = {1};
            final long[] old = new long[1];
            while (true)
            {
                win.fetchAndOp(one, 0, old, 0, Datatype.LONG, victim, 0, Op.SUM);
                win.flush(victim);
            }
        }
    }
}
