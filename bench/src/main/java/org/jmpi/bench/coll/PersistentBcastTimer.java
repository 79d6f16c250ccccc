package org.jmpi.bench.coll;

import org.jmpi.Comm;
import org.jmpi.Datatype;
import org.jmpi.Mpi;
import org.jmpi.Request;

import java.util.Arrays;

/**
 * Time per start of one persistent bcast (the schedule the library picks: put/get between ranks of one
 * JVM, point-to-point otherwise), every rank timing its own loop, for before/after comparisons of the
 * same job shape (bench/ab-commits.sh). Prints, from rank 0, the maximum over ranks of the mean and of
 * the median microseconds per start.
 * <p>
 * Usage: {@code bin/jmpirun --threads -np 4 -cp bench/target/classes org.jmpi.bench.coll.PersistentBcastTimer [bytes] [starts]}
 */
public final class PersistentBcastTimer
{
    private PersistentBcastTimer()
    {
    }

    public static void main(final String[] args)
    {
        final int bytes = args.length > 0 ? Integer.parseInt(args[0]) : 8192;
        final int starts = args.length > 1 ? Integer.parseInt(args[1]) : 20_000;
        try (Mpi mpi = Mpi.init(args))
        {
            final Comm world = mpi.world();
            final byte[] buf = new byte[bytes];
            final Request bcast = world.bcastInit(buf, 0, bytes, Datatype.BYTE, 0);
            final long[] ns = new long[starts];
            for (int i = 0; i < starts / 4; i++)
            {
                bcast.start();
                bcast.await();
            }
            world.barrier();
            final long begin = System.nanoTime();
            for (int i = 0; i < starts; i++)
            {
                final long t0 = System.nanoTime();
                buf[0] = (byte)i;
                bcast.start();
                bcast.await();
                ns[i] = System.nanoTime() - t0;
            }
            final double mean = (System.nanoTime() - begin) / 1e3 / starts;
            Arrays.sort(ns);
            final double[] mine = {mean, ns[starts / 2] / 1e3};
            final double[] worst = new double[2];
            world.allreduce(mine, 0, worst, 0, 2, Datatype.DOUBLE, org.jmpi.Op.MAX);
            if (world.rank() == 0)
            {
                System.out.printf("# persistent bcast, %d bytes, %d ranks: max over ranks of mean / median us per start%n",
                    bytes, world.size());
                System.out.printf("%.3f %.3f%n", worst[0], worst[1]);
            }
            bcast.free();
        }
    }
}
