package org.jmpi.coll;

import java.util.Map;

import org.jmpi.Comm;
import org.jmpi.Datatype;
import org.jmpi.Op;
import org.jmpi.Ranks;
import org.jmpi.Request;
import org.jmpi.ThreadLevel;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Nonblocking and persistent collectives: several in flight on one communicator, any completion order. */
@Timeout(60)
class NonblockingCollectivesTest
{
    private static void severalInFlight(final Comm world, final int size)
    {
        final int rank = world.rank();
        final int[] bc = new int[1000];
        if (rank == 0)
        {
            java.util.Arrays.setAll(bc, i -> i * 3);
        }
        final long[] sum = new long[500];
        final long[] mine = new long[500];
        java.util.Arrays.fill(mine, rank + 1);
        final int[] gathered = new int[size];
        final Request barrier = world.ibarrier();
        final Request bcast = world.ibcast(bc, 0, 1000, Datatype.INT, 0);
        final Request allreduce = world.iallreduce(mine, 0, sum, 0, 500, Datatype.LONG, Op.SUM);
        final Request allgather = world.iallgather(new int[] {rank * rank}, 0, 1, Datatype.INT, gathered, 0, 1, Datatype.INT);
        // Complete in reverse order of posting.
        allgather.await();
        allreduce.await();
        bcast.await();
        barrier.await();
        for (int i = 0; i < 1000; i++)
        {
            assertEquals(i * 3, bc[i]);
        }
        for (int i = 0; i < 500; i++)
        {
            assertEquals((long)size * (size + 1) / 2, sum[i]);
        }
        for (int r = 0; r < size; r++)
        {
            assertEquals(r * r, gathered[r]);
        }
        final Request[] more = new Request[6];
        final int[][] results = new int[6][1];
        for (int k = 0; k < 6; k++)
        {
            more[k] = world.iallreduce(new int[] {rank * k}, 0, results[k], 0, 1, Datatype.INT, Op.MAX);
        }
        Request.waitAll(more);
        for (int k = 0; k < 6; k++)
        {
            assertEquals((size - 1) * k, results[k][0]);
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 4, 5, 8})
    void shouldCompleteSeveralInFlightInAnyOrder(final int size)
    {
        Ranks.run(size, (mpi, world) -> severalInFlight(world, size));
    }

    @ParameterizedTest
    @ValueSource(ints = {2, 3, 5})
    void shouldCompleteWithoutTestCallsUnderAsyncProgress(final int size)
    {
        Ranks.run(size, ThreadLevel.SINGLE, Map.of("jmpi.progress.async", "true"), (mpi, world) ->
        {
            severalInFlight(world, size);
            final int[] out = new int[1];
            final Request r = world.iallreduce(new int[] {1}, 0, out, 0, 1, Datatype.INT, Op.SUM);
            final long deadline = System.nanoTime() + 20_000_000_000L;
            while (r.status() == null && System.nanoTime() < deadline)
            {
                Thread.onSpinWait();
            }
            assertTrue(r.status() != null, "the progress thread completes the schedule without test calls");
            r.await();
            assertEquals(size, out[0]);
        });
        Ranks.run(size, ThreadLevel.MULTIPLE, Map.of(), (mpi, world) -> severalInFlight(world, size));
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 5, 8})
    void shouldRunEveryNonblockingCollectiveAtOnce(final int size)
    {
        Ranks.run(size, ThreadLevel.SINGLE, Map.of("jmpi.progress.async", "true"), (mpi, world) ->
        {
            final int rank = world.rank();
            final int root = size - 1;
            final int[] gathered = new int[2 * size];
            final int[] scattered = new int[2];
            final int[] toScatter = new int[2 * size];
            java.util.Arrays.setAll(toScatter, i -> i * 5);
            final long[] a2aOut = new long[size];
            final long[] a2aIn = new long[size];
            java.util.Arrays.setAll(a2aOut, to -> rank * 100L + to);
            final int[] rsIn = new int[3 * size];
            java.util.Arrays.fill(rsIn, rank);
            final int[] rsOut = new int[3];
            final double[] scanOut = new double[1];
            final double[] exOut = {-1};
            final float[] reduced = new float[4];
            final int[] counts = new int[size];
            final int[] displs = new int[size];
            for (int r = 0; r < size; r++)
            {
                counts[r] = r % 2 + 1;
                displs[r] = 2 * (size - 1 - r);
            }
            final int[] vOut = new int[2 * size];
            final Request[] all = {
                world.igather(new int[] {rank, -rank}, 0, 2, Datatype.INT, gathered, 0, 2, Datatype.INT, root),
                world.iscatter(toScatter, 0, 2, Datatype.INT, scattered, 0, 2, Datatype.INT, root),
                world.ialltoall(a2aOut, 0, 1, Datatype.LONG, a2aIn, 0, 1, Datatype.LONG),
                world.ireduceScatterBlock(rsIn, 0, rsOut, 0, 3, Datatype.INT, Op.SUM),
                world.iscan(new double[] {rank + 1}, 0, scanOut, 0, 1, Datatype.DOUBLE, Op.SUM),
                world.iexscan(new double[] {rank + 1}, 0, exOut, 0, 1, Datatype.DOUBLE, Op.MAX),
                world.ireduce(new float[] {1, 2, 3, rank}, 0, reduced, 0, 4, Datatype.FLOAT, Op.MAX, 0),
                world.iallgatherv(new int[] {rank, rank}, 0, counts[rank], Datatype.INT, vOut, 0, counts, displs, Datatype.INT),
            };
            for (int i = all.length - 1; i >= 0; i--)
            {
                all[i].await();
            }
            if (rank == root)
            {
                for (int r = 0; r < size; r++)
                {
                    assertEquals(r, gathered[2 * r]);
                    assertEquals(-r, gathered[2 * r + 1]);
                }
            }
            assertEquals(rank * 10, scattered[0]);
            assertEquals(rank * 10 + 5, scattered[1]);
            for (int from = 0; from < size; from++)
            {
                assertEquals(from * 100L + rank, a2aIn[from]);
                assertEquals(from, vOut[displs[from]]);
            }
            assertEquals(size * (size - 1) / 2, rsOut[2]);
            assertEquals((rank + 1) * (rank + 2) / 2.0, scanOut[0]);
            assertEquals(rank == 0 ? -1 : rank, exOut[0]);
            if (rank == 0)
            {
                assertEquals(size - 1, reduced[3]);
            }
        });
    }

    @ParameterizedTest
    @ValueSource(ints = {2, 3, 5})
    void shouldRunCollectivesOnSeveralCommunicatorsFromSeveralThreads(final int size)
    {
        Ranks.run(size, ThreadLevel.MULTIPLE, Map.of(), (mpi, world) ->
        {
            final Comm[] comms = {world.dup(), world.dup(), world.dup()};
            final Throwable[] failures = new Throwable[comms.length];
            final Thread[] threads = new Thread[comms.length];
            for (int t = 0; t < comms.length; t++)
            {
                final int which = t;
                threads[t] = Thread.ofVirtual().start(() ->
                {
                    try
                    {
                        final Comm c = comms[which];
                        for (int i = 0; i < 200; i++)
                        {
                            final long[] out = new long[3];
                            c.allreduce(new long[] {c.rank(), which, i}, 0, out, 0, 3, Datatype.LONG, Op.SUM);
                            assertEquals((long)size * (size - 1) / 2, out[0]);
                            assertEquals((long)size * which, out[1]);
                            assertEquals((long)size * i, out[2]);
                        }
                    }
                    catch (final Throwable ex)
                    {
                        failures[which] = ex;
                    }
                });
            }
            for (final Thread t : threads)
            {
                t.join();
            }
            for (final Throwable f : failures)
            {
                if (f != null)
                {
                    throw f;
                }
            }
        });
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 4, 5, 8})
    void shouldRestartPersistentCollectivesWithChangingContents(final int size)
    {
        Ranks.run(size, (mpi, world) ->
        {
            final int rank = world.rank();
            final double[] in = new double[300];
            final double[] out = new double[300];
            final int[] bc = new int[50];
            final int[] all = new int[size];
            final int[] mine = new int[1];
            final Request allreduce = world.allreduceInit(in, 0, out, 0, 300, Datatype.DOUBLE, Op.SUM);
            final Request bcast = world.bcastInit(bc, 0, 50, Datatype.INT, size - 1);
            final Request allgather = world.allgatherInit(mine, 0, 1, Datatype.INT, all, 0, 1, Datatype.INT);
            final Request barrier = world.barrierInit();
            assertTrue(allreduce.isPersistent());
            for (int iteration = 0; iteration < 100; iteration++)
            {
                java.util.Arrays.fill(in, rank + iteration);
                if (rank == size - 1)
                {
                    java.util.Arrays.fill(bc, iteration * 7);
                }
                mine[0] = rank * 1000 + iteration;
                allreduce.start();
                bcast.start();
                allgather.start();
                barrier.start();
                barrier.await();
                allgather.await();
                bcast.await();
                allreduce.await();
                final double expected = (double)size * (size - 1) / 2 + (double)size * iteration;
                assertEquals(expected, out[0]);
                assertEquals(expected, out[299]);
                assertEquals(iteration * 7, bc[49]);
                for (int r = 0; r < size; r++)
                {
                    assertEquals(r * 1000 + iteration, all[r]);
                }
            }
            allreduce.free();
        });
    }
}
