package org.jmpi.coll;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;

import org.jmpi.Comm;
import org.jmpi.Datatype;
import org.jmpi.Op;
import org.jmpi.Ranks;
import org.jmpi.Request;
import org.jmpi.ThreadLevel;
import org.jmpi.internal.coll.PersistentCollRequest;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Persistent reduce and barrier with the put-based, get-based and point-to-point schedules forced in turn (and
 * auto), at 1 to 8 ranks, each started 100 times with changing contents (and, for the barrier, ranks arriving
 * at different times), against sequential references.
 */
@Timeout(120)
class PersistentPutGetReduceTest
{
    private static final String SCHEDULE = "jmpi.coll.persistent.schedule";
    private static final int STARTS = 100;

    private static final Op AFFINE = AffineOp.AFFINE;

    static Stream<Arguments> cases()
    {
        final List<Arguments> all = new ArrayList<>();
        for (final String schedule : new String[] {"put", "get", "p2p", "auto"})
        {
            for (final int size : new int[] {1, 2, 3, 4, 5, 6, 7, 8})
            {
                all.add(Arguments.of(schedule, size));
            }
        }
        return all.stream();
    }

    private static void assertSchedule(final String schedule, final Request request)
    {
        final String actual = ((PersistentCollRequest)request).schedule();
        if (schedule.equals("auto"))
        {
            assertTrue(actual.equals("put") || actual.equals("get"), actual);
        }
        else
        {
            assertEquals(schedule, actual);
        }
    }

    private static void run(final int size, final String schedule, final Ranks.Body body)
    {
        Ranks.run(size, ThreadLevel.SINGLE, Map.of(SCHEDULE, schedule), body);
    }

    @ParameterizedTest(name = "{0} at {1} ranks")
    @MethodSource("cases")
    void shouldReduceToEveryRootRepeatedlyWithChangingContents(final String schedule, final int size)
    {
        run(size, schedule, (mpi, world) ->
        {
            final int rank = world.rank();
            final int count = 501;
            // Every other int of a strided send buffer; the result lands contiguously at the root.
            final Datatype strided = Datatype.vector(count, 1, 2, Datatype.INT).commit();
            final int[] in = new int[2 * count];
            final int[][] out = new int[size][2 * count + 1];
            final Request[] reduce = new Request[size];
            for (int root = 0; root < size; root++)
            {
                // The result lands strided too, one int in from the start of the root's buffer.
                reduce[root] = world.reduceInit(in, 0, out[root], 1, 1, strided, Op.SUM, root);
                assertSchedule(schedule, reduce[root]);
            }
            for (int iteration = 0; iteration < STARTS; iteration++)
            {
                final int root = iteration % size;
                for (int i = 0; i < count; i++)
                {
                    in[2 * i] = rank * 1000 + i + iteration;
                    in[2 * i + 1] = -3;
                }
                for (final int[] o : out)
                {
                    Arrays.fill(o, -1);
                }
                reduce[root].start();
                reduce[root].await();
                for (int r = 0; r < size; r++)
                {
                    final int[] o = out[r];
                    for (int i = 0; i < count; i++)
                    {
                        final int expected = r == root && rank == root ? 1000 * size * (size - 1) / 2 + size * (i + iteration) : -1;
                        assertEquals(expected, o[1 + 2 * i], "iteration " + iteration + ", buffer for root " + r + ", item " + i);
                        assertEquals(-1, o[2 * i], "the gaps of the type are not written");
                    }
                }
            }
        });
    }

    @ParameterizedTest(name = "{0} at {1} ranks")
    @MethodSource("cases")
    void shouldReduceNonCommutativeInRankOrderWithInPlaceRoot(final String schedule, final int size)
    {
        run(size, schedule, (mpi, world) ->
        {
            final int rank = world.rank();
            final int maps = 7;
            final Datatype pair = Datatype.contiguous(2, Datatype.LONG).commit();
            // Each rank's pairs sit every third long (a resized contiguous type).
            final Datatype spread = Datatype.resized(pair, 0, 3 * Long.BYTES).commit();
            final int root = size - 1;
            final long[] in = new long[3 * maps];
            final long[] out = new long[3 * maps];
            final Request reduce = rank == root ? world.reduceInit(Comm.IN_PLACE, 0, out, 0, maps, spread, AFFINE, root) :
                world.reduceInit(in, 0, null, 0, maps, spread, AFFINE, root);
            final Request reduceAt0 = world.reduceInit(in, 0, rank == 0 ? new long[3 * maps] : null, 0, maps, spread, AFFINE, 0);
            assertSchedule(schedule, reduce);
            for (int iteration = 0; iteration < STARTS; iteration++)
            {
                final long[] mine = rank == root ? out : in;
                for (int k = 0; k < maps; k++)
                {
                    mine[3 * k] = 1 + (rank + k + iteration) % 3;
                    mine[3 * k + 1] = rank * 10 + k - iteration;
                    mine[3 * k + 2] = 99;
                }
                reduce.start();
                reduce.await();
                if (rank == root)
                {
                    for (int k = 0; k < maps; k++)
                    {
                        long m = 1;
                        long c = 0;
                        for (int r = 0; r < size; r++)
                        {
                            final long xm = 1 + (r + k + iteration) % 3;
                            final long xc = r * 10L + k - iteration;
                            c = xm * c + xc;
                            m = m * xm;
                        }
                        assertEquals(m, out[3 * k], "map " + k + " slope, iteration " + iteration);
                        assertEquals(c, out[3 * k + 1], "map " + k + " intercept, iteration " + iteration);
                        assertEquals(99, out[3 * k + 2], "the gaps of the type are not written");
                    }
                }
                if (iteration % 10 == 0)
                {
                    // A second persistent reduce of the same inputs, to rank 0, in between.
                    if (rank == root)
                    {
                        System.arraycopy(out, 0, in, 0, in.length);
                    }
                    reduceAt0.start();
                    reduceAt0.await();
                }
            }
        });
    }

    @ParameterizedTest(name = "{0} at {1} ranks")
    @MethodSource("cases")
    void shouldHoldEveryRankUntilAllHaveArrived(final String schedule, final int size)
    {
        final AtomicInteger arrived = new AtomicInteger();
        run(size, schedule, (mpi, world) ->
        {
            final int rank = world.rank();
            final Request barrier = world.barrierInit();
            assertSchedule(schedule, barrier);
            for (int iteration = 0; iteration < STARTS; iteration++)
            {
                // Ranks arrive at different times: the one late in this iteration busies itself first.
                if (rank == iteration % size)
                {
                    for (int i = 0; i < 1_000 * (iteration % 7); i++)
                    {
                        Thread.onSpinWait();
                    }
                    Thread.yield();
                }
                arrived.incrementAndGet();
                barrier.start();
                barrier.await();
                final int seen = arrived.get();
                assertTrue(seen >= size * (iteration + 1), "rank " + rank + " left barrier " + iteration + " having seen " + seen +
                    " arrivals, expected at least " + size * (iteration + 1));
                assertTrue(seen <= size * (iteration + 2), "no rank can be two barriers ahead: " + seen);
            }
            barrier.free();
        });
    }
}
