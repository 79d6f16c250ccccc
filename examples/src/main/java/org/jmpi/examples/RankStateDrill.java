package org.jmpi.examples;

import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.atomic.AtomicReference;

import org.jmpi.Datatype;
import org.jmpi.Intracomm;
import org.jmpi.Mpi;
import org.jmpi.Op;
import org.jmpi.Request;
import org.jmpi.ThreadLevel;

/**
 * MPI calls from threads that owe the rank nothing (issue 10, item 4), with ranks as processes: under MULTIPLE,
 * rank r calls dup, bcastInit, allreduceInit and blocking collectives from, by r mod 4, a thread that inherited
 * nothing, its main thread, a pool made before init, or the common fork-join pool. Prints
 * {@code rank-state: rank R ok} when every result was right. (The same drill with ranks as threads, checking
 * the schedule each rank chose, is core's {@code ExplicitRankStateTest}.)
 */
public final class RankStateDrill
{
    private static final int COUNT = 5;
    private static final int ROUNDS = 5;

    private RankStateDrill()
    {
    }

    public static void main(final String[] args) throws Exception
    {
        final ExecutorService early = Executors.newSingleThreadExecutor();
        early.submit(() -> { }).get();
        try (Mpi mpi = Mpi.init(args, ThreadLevel.MULTIPLE))
        {
            final Intracomm world = mpi.world();
            final Callable<String> body = () -> exercise(world);
            final String result = switch (world.rank() % 4)
            {
                case 0 -> onFreshThread(body);
                case 1 -> body.call();
                case 2 -> early.submit(body).get();
                default -> ForkJoinPool.commonPool().submit(body).get();
            };
            System.out.println("rank-state: rank " + world.rank() + " " + result);
        }
        finally
        {
            early.shutdownNow();
        }
    }

    private static String exercise(final Intracomm world)
    {
        final int rank = world.rank();
        final int size = world.size();
        final Intracomm dup = world.dup();
        final long[] buf = new long[COUNT];
        final long[] in = new long[COUNT];
        final long[] sum = new long[COUNT];
        final Request bcast = dup.bcastInit(buf, 0, COUNT, Datatype.LONG, 0);
        final Request allreduce = dup.allreduceInit(in, 0, sum, 0, COUNT, Datatype.LONG, Op.SUM);
        for (int round = 0; round < ROUNDS; round++)
        {
            for (int i = 0; i < COUNT; i++)
            {
                buf[i] = rank == 0 ? 100L * round + i : -1;
                in[i] = rank + round;
            }
            bcast.start();
            bcast.await();
            allreduce.start();
            allreduce.await();
            for (int i = 0; i < COUNT; i++)
            {
                if (buf[i] != 100L * round + i || sum[i] != (long)size * (size - 1) / 2 + (long)size * round)
                {
                    return "FAILED at round " + round + ": bcast " + buf[i] + ", allreduce " + sum[i];
                }
            }
        }
        final int[] total = new int[1];
        world.allreduce(new int[] {1}, 0, total, 0, 1, Datatype.INT, Op.SUM);
        final int[] ranks = new int[size];
        dup.allgather(new int[] {rank}, 0, 1, Datatype.INT, ranks, 0, 1, Datatype.INT);
        dup.barrier();
        bcast.free();
        allreduce.free();
        dup.free();
        return total[0] == size && ranks[size - 1] == size - 1 ? "ok" : "FAILED: allreduce " + total[0];
    }

    private static String onFreshThread(final Callable<String> body) throws Exception
    {
        final AtomicReference<Object> result = new AtomicReference<>();
        Thread.ofPlatform().inheritInheritableThreadLocals(false).start(() ->
        {
            try
            {
                result.set(body.call());
            }
            catch (final Exception ex)
            {
                result.set(ex);
            }
        }).join();
        if (result.get() instanceof Exception ex)
        {
            throw ex;
        }
        return (String)result.get();
    }
}
