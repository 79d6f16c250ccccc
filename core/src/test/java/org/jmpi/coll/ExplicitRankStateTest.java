package org.jmpi.coll;

import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.atomic.AtomicReference;

import org.jmpi.Datatype;
import org.jmpi.Intracomm;
import org.jmpi.Op;
import org.jmpi.Ranks;
import org.jmpi.Request;
import org.jmpi.ThreadLevel;
import org.jmpi.internal.coll.PersistentCollRequest;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Per-rank state is found through the communicator, not the calling thread (issue 10, item 4): under MULTIPLE,
 * each rank calls dup, bcastInit, allreduceInit and blocking collectives from a different kind of thread (one
 * that inherited nothing, its main thread, a pool made before init, the common fork-join pool). Every rank must
 * choose the same persistent schedule and get the right results; before, a rank on a thread without the
 * inherited rank context chose another schedule and the job hung.
 */
@Timeout(120)
class ExplicitRankStateTest
{
    private static final int COUNT = 6;
    private static final int ROUNDS = 5;
    private static final String[] SCHEDULES = {"p2p", "put", "get"};

    /** Where a rank runs its MPI calls. */
    private enum Caller
    {
        NO_INHERIT, MAIN, POOL_MADE_BEFORE_INIT, COMMON_POOL
    }

    @ParameterizedTest(name = "{0} ranks, schedule {1}")
    @CsvSource({"2, auto", "2, put", "3, get", "4, auto", "4, put"})
    void shouldChooseOneScheduleAndComputeWhicheverThreadCalls(final int size, final String schedule) throws Exception
    {
        final ThreadPoolExecutor early = (ThreadPoolExecutor)Executors.newFixedThreadPool(1);
        early.prestartAllCoreThreads();
        try
        {
            Ranks.run(size, ThreadLevel.MULTIPLE, Map.of("jmpi.coll.persistent.schedule", schedule), (mpi, world) ->
            {
                final Caller caller = Caller.values()[world.rank() % Caller.values().length];
                final int[] chosen = on(caller, early, () -> exercise(world));
                final int[] all = new int[2 * size];
                world.allgather(chosen, 0, 2, Datatype.INT, all, 0, 2, Datatype.INT);
                for (int r = 0; r < size; r++)
                {
                    assertEquals(all[0], all[2 * r], "bcastInit schedule of rank " + r + " (" + SCHEDULES[all[2 * r]] + ")");
                    assertEquals(all[1], all[2 * r + 1], "allreduceInit schedule of rank " + r + " (" + SCHEDULES[all[2 * r + 1]] + ")");
                }
                if (!schedule.equals("auto"))
                {
                    assertEquals(schedule, SCHEDULES[chosen[0]], "ranks share a heap: the schedule asked for is used");
                }
            });
        }
        finally
        {
            early.shutdownNow();
        }
    }

    /** The calls, on whichever thread; returns the codes of the schedules the two persistent requests chose. */
    private static int[] exercise(final Intracomm world)
    {
        final int rank = world.rank();
        final int size = world.size();
        final Intracomm dup = world.dup();
        final long[] buf = new long[COUNT];
        final Request bcast = dup.bcastInit(buf, 0, COUNT, Datatype.LONG, 0);
        final long[] in = new long[COUNT];
        final long[] sum = new long[COUNT];
        final Request allreduce = dup.allreduceInit(in, 0, sum, 0, COUNT, Datatype.LONG, Op.SUM);
        for (int round = 0; round < ROUNDS; round++)
        {
            for (int i = 0; i < COUNT; i++)
            {
                buf[i] = rank == 0 ? 1000L * round + i : -1;
                in[i] = rank + 10L * round + i;
            }
            bcast.start();
            bcast.await();
            allreduce.start();
            allreduce.await();
            for (int i = 0; i < COUNT; i++)
            {
                assertEquals(1000L * round + i, buf[i], "bcastInit round " + round + " element " + i);
                assertEquals((long)size * (size - 1) / 2 + size * (10L * round + i), sum[i], "allreduceInit round " + round);
            }
        }
        final long[] value = {rank == 0 ? 42 : 0};
        dup.bcast(value, 0, 1, Datatype.LONG, 0);
        assertEquals(42, value[0]);
        final int[] total = new int[1];
        world.allreduce(new int[] {rank + 1}, 0, total, 0, 1, Datatype.INT, Op.SUM);
        assertEquals(size * (size + 1) / 2, total[0]);
        final int[] ranks = new int[size];
        dup.allgather(new int[] {rank}, 0, 1, Datatype.INT, ranks, 0, 1, Datatype.INT);
        assertArrayEquals(java.util.stream.IntStream.range(0, size).toArray(), ranks);
        dup.barrier();
        final int[] codes = {code(bcast), code(allreduce)};
        bcast.free();
        allreduce.free();
        dup.free();
        return codes;
    }

    private static int code(final Request r)
    {
        return java.util.Arrays.asList(SCHEDULES).indexOf(((PersistentCollRequest)r).schedule());
    }

    private static int[] on(final Caller caller, final ExecutorService early, final Callable<int[]> body) throws Exception
    {
        return switch (caller)
        {
            case MAIN -> body.call();
            case NO_INHERIT ->
            {
                final AtomicReference<Object> result = new AtomicReference<>();
                final Thread t = Thread.ofPlatform().inheritInheritableThreadLocals(false).name("no-inherit").start(() ->
                {
                    try
                    {
                        result.set(body.call());
                    }
                    catch (final Throwable ex)
                    {
                        result.set(ex);
                    }
                });
                t.join();
                if (result.get() instanceof Throwable ex)
                {
                    throw new ExecutionException(ex);
                }
                yield (int[])result.get();
            }
            case POOL_MADE_BEFORE_INIT -> unwrap(early.submit(body));
            case COMMON_POOL -> unwrap(ForkJoinPool.commonPool().submit(body));
        };
    }

    private static int[] unwrap(final Future<int[]> f) throws Exception
    {
        try
        {
            return f.get();
        }
        catch (final ExecutionException ex)
        {
            if (ex.getCause() instanceof AssertionError ae)
            {
                throw ae;
            }
            throw ex;
        }
    }
}
