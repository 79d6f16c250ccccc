package org.jmpi.examples;

import org.jmpi.Comm;
import org.jmpi.Datatype;
import org.jmpi.Mpi;
import org.jmpi.ThreadLevel;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * THREAD_MULTIPLE: ranks 0 and 1 each run N virtual threads (default 1000, first argument) doing
 * blocking send/recv pairs on distinct tags. Prints {@code vthreads: rank R ok N}.
 */
public final class ManyVirtualThreads
{
    private ManyVirtualThreads()
    {
    }

    public static void main(final String[] args) throws InterruptedException
    {
        final int threads = args.length > 0 ? Integer.parseInt(args[0]) : 1000;
        try (Mpi mpi = Mpi.init(args, ThreadLevel.MULTIPLE))
        {
            final Comm world = mpi.world();
            final int rank = world.rank();
            if (rank < 2)
            {
                final int peer = 1 - rank;
                final AtomicInteger ok = new AtomicInteger();
                final List<Thread> all = new ArrayList<>();
                for (int t = 0; t < threads; t++)
                {
                    final int tag = t;
                    all.add(Thread.ofVirtual().start(() ->
                    {
                        final int[] out = {rank * 1_000_000 + tag};
                        final int[] in = new int[1];
                        if (rank == 0)
                        {
                            world.send(out, 0, 1, Datatype.INT, peer, tag);
                            world.recv(in, 0, 1, Datatype.INT, peer, tag);
                        }
                        else
                        {
                            world.recv(in, 0, 1, Datatype.INT, peer, tag);
                            world.send(out, 0, 1, Datatype.INT, peer, tag);
                        }
                        if (in[0] == peer * 1_000_000 + tag)
                        {
                            ok.incrementAndGet();
                        }
                    }));
                }
                for (final Thread t : all)
                {
                    t.join();
                }
                if (ok.get() != threads)
                {
                    System.err.println("vthreads: rank " + rank + " only " + ok.get() + " of " + threads + " pairs correct");
                    System.exit(1);
                }
                System.out.println("vthreads: rank " + rank + " ok " + threads);
            }
            world.barrier();
        }
    }
}
