package org.jmpi.launcher.it;

import org.jmpi.Comm;
import org.jmpi.Datatype;
import org.jmpi.Mpi;
import org.jmpi.Op;

import java.io.IOException;

/**
 * A rank of {@code SlurmIT}'s jobs. Init, then a ring and an allreduce over the world, and one line per
 * rank: {@code slurm-program: rank R of N on NODE sum=S ok}. {@code args[0] = kill}: after the first
 * barrier rank 2 kills its own JVM with {@code kill -9} while the others wait for it in a receive.
 */
public final class SlurmProgram
{
    private SlurmProgram()
    {
    }

    public static void main(final String[] args) throws IOException, InterruptedException
    {
        final boolean kill = args.length > 0 && args[0].equals("kill");
        try (Mpi mpi = Mpi.init(args))
        {
            final Comm world = mpi.world();
            final int rank = world.rank();
            final int size = world.size();
            final long[] token = new long[1];
            if (rank == 0)
            {
                world.send(token, 0, 1, Datatype.LONG, 1 % size, 0);
                world.recv(token, 0, 1, Datatype.LONG, size - 1, 0);
            }
            else
            {
                world.recv(token, 0, 1, Datatype.LONG, rank - 1, 0);
                token[0] += rank;
                world.send(token, 0, 1, Datatype.LONG, (rank + 1) % size, 0);
            }
            final long[] sum = new long[1];
            world.allreduce(new long[] {rank}, 0, sum, 0, 1, Datatype.LONG, Op.SUM);
            final long expected = (long)size * (size - 1) / 2;
            if (sum[0] != expected || (rank == 0 && token[0] != expected))
            {
                throw new IllegalStateException("rank " + rank + ": sum " + sum[0] + ", token " + token[0] + ", expected " + expected);
            }
            world.barrier();
            if (kill)
            {
                if (rank == 2)
                {
                    System.out.println("slurm-program: rank 2 kills itself");
                    System.out.flush();
                    new ProcessBuilder("kill", "-9", Long.toString(ProcessHandle.current().pid())).inheritIO().start().waitFor();
                }
                world.recv(token, 0, 1, Datatype.LONG, 2, 99);
            }
            System.out.println("slurm-program: rank " + rank + " of " + size + " on " + mpi.processorName() + " sum=" + sum[0] + " ok");
        }
    }
}
