package org.jmpi.coll;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import org.jmpi.Comm;
import org.jmpi.Datatype;
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
 * Persistent gather(v), scatter(v) and allgather with the put-based, get-based and point-to-point schedules forced in turn
 * (and auto), at 1 to 8 ranks, each started 100 times with changing contents, derived types on one side,
 * IN_PLACE at the root, against sequential references.
 */
@Timeout(120)
class PersistentPutGetGatherTest
{
    private static final String SCHEDULE = "jmpi.coll.persistent.schedule";
    private static final int STARTS = 100;

    static Stream<Arguments> cases()
    {
        final List<Arguments> all = new ArrayList<>();
        for (final String schedule : new String[] {"put", "get", "p2p", "auto"})
        {
            for (final int size : new int[] {1, 2, 3, 4, 5, 8})
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

    private static int value(final int iteration, final int rank, final int item)
    {
        return iteration * 100_000 + rank * 1_000 + item;
    }

    @ParameterizedTest(name = "{0} at {1} ranks")
    @MethodSource("cases")
    void shouldGatherStridedBlocksRepeatedly(final String schedule, final int size)
    {
        run(size, schedule, (mpi, world) ->
        {
            final int rank = world.rank();
            final int root = size / 2;
            final int items = 37;
            // Senders pass every other int of a strided buffer; the root receives contiguous blocks after a gap of 2.
            final Datatype strided = Datatype.vector(items, 1, 2, Datatype.INT).commit();
            final int[] send = new int[2 * items];
            final int[] recv = new int[2 + size * items];
            final Request gather = world.gatherInit(send, 0, 1, strided, recv, 2, items, Datatype.INT, root);
            assertSchedule(schedule, gather);
            for (int iteration = 0; iteration < STARTS; iteration++)
            {
                for (int i = 0; i < items; i++)
                {
                    send[2 * i] = value(iteration, rank, i);
                    send[2 * i + 1] = -7;
                }
                Arrays.fill(recv, -1);
                gather.start();
                gather.await();
                if (rank == root)
                {
                    assertEquals(-1, recv[0]);
                    assertEquals(-1, recv[1]);
                    for (int r = 0; r < size; r++)
                    {
                        for (int i = 0; i < items; i++)
                        {
                            assertEquals(value(iteration, r, i), recv[2 + r * items + i], "iteration " + iteration + ", rank " + r + ", item " + i);
                        }
                    }
                }
                else
                {
                    assertEquals(-1, recv[2], "a non-root's receive buffer is not written");
                }
            }
            gather.free();
        });
    }

    @ParameterizedTest(name = "{0} at {1} ranks")
    @MethodSource("cases")
    void shouldScatterIntoStridedBlocksRepeatedly(final String schedule, final int size)
    {
        run(size, schedule, (mpi, world) ->
        {
            final int rank = world.rank();
            final int root = size - 1;
            final int items = 41;
            final Datatype strided = Datatype.vector(items, 1, 2, Datatype.INT).commit();
            final int[] send = new int[size * items];
            final int[] recv = new int[2 * items];
            final Request scatter = world.scatterInit(send, 0, items, Datatype.INT, recv, 0, 1, strided, root);
            assertSchedule(schedule, scatter);
            for (int iteration = 0; iteration < STARTS; iteration++)
            {
                for (int r = 0; r < size; r++)
                {
                    for (int i = 0; i < items; i++)
                    {
                        send[r * items + i] = rank == root ? value(iteration, r, i) : -5;
                    }
                }
                Arrays.fill(recv, -1);
                scatter.start();
                scatter.await();
                for (int i = 0; i < items; i++)
                {
                    assertEquals(value(iteration, rank, i), recv[2 * i], "iteration " + iteration + ", item " + i);
                    assertEquals(-1, recv[2 * i + 1], "the gaps of the type are not written");
                }
            }
            scatter.free();
        });
    }

    @ParameterizedTest(name = "{0} at {1} ranks")
    @MethodSource("cases")
    void shouldGathervAndScattervUnevenBlocksWithInPlaceRoot(final String schedule, final int size)
    {
        run(size, schedule, (mpi, world) ->
        {
            final int rank = world.rank();
            final int root = 0;
            final int[] counts = new int[size];
            final int[] displs = new int[size];
            int total = 0;
            for (int r = 0; r < size; r++)
            {
                counts[r] = (r * 3) % 5;
                displs[r] = total + r;
                total += counts[r] + r;
            }
            final long[] all = new long[total + 1];
            final long[] mine = new long[Math.max(1, counts[rank])];
            final Request gatherv = rank == root ? world.gathervInit(Comm.IN_PLACE, 0, 0, Datatype.LONG, all, 0, counts, displs, Datatype.LONG, root) :
                world.gathervInit(mine, 0, counts[rank], Datatype.LONG, null, 0, null, null, Datatype.LONG, root);
            final Request scatterv = rank == root ?
                world.scattervInit(all, 0, counts, displs, Datatype.LONG, Comm.IN_PLACE, 0, 0, Datatype.LONG, root) :
                world.scattervInit(null, 0, null, null, Datatype.LONG, mine, 0, counts[rank], Datatype.LONG, root);
            assertSchedule(schedule, gatherv);
            assertSchedule(schedule, scatterv);
            for (int iteration = 0; iteration < STARTS; iteration++)
            {
                Arrays.fill(all, -1);
                for (int i = 0; i < counts[rank]; i++)
                {
                    if (rank == root)
                    {
                        all[displs[root] + i] = value(iteration, rank, i);
                    }
                    else
                    {
                        mine[i] = value(iteration, rank, i);
                    }
                }
                gatherv.start();
                gatherv.await();
                if (rank == root)
                {
                    for (int r = 0; r < size; r++)
                    {
                        for (int i = 0; i < counts[r]; i++)
                        {
                            assertEquals(value(iteration, r, i), all[displs[r] + i], "gatherv, iteration " + iteration + ", rank " + r);
                        }
                        // Scatter back something else.
                        for (int i = 0; i < counts[r]; i++)
                        {
                            all[displs[r] + i] = -value(iteration, r, i);
                        }
                    }
                    assertEquals(-1, all[total], "nothing past the last block is written");
                }
                Arrays.fill(mine, 0);
                scatterv.start();
                scatterv.await();
                if (rank != root)
                {
                    for (int i = 0; i < counts[rank]; i++)
                    {
                        assertEquals(-value(iteration, rank, i), mine[i], "scatterv, iteration " + iteration);
                    }
                }
            }
        });
    }

    @ParameterizedTest(name = "{0} at {1} ranks")
    @MethodSource("cases")
    void shouldAllgatherRepeatedlyWithStridedAndInPlaceBlocks(final String schedule, final int size)
    {
        run(size, schedule, (mpi, world) ->
        {
            final int rank = world.rank();
            final int items = 29;
            // Strided receive blocks (a resized vector: block r starts at r * 2 * items ints, one int in).
            final Datatype strided = Datatype.resized(Datatype.vector(items, 1, 2, Datatype.INT), 0, 2L * items * Integer.BYTES).commit();
            final int[] send = new int[items];
            final int[] recv = new int[1 + 2 * items * size];
            final int[] inPlace = new int[items * size];
            final Request allgather = world.allgatherInit(send, 0, items, Datatype.INT, recv, 1, 1, strided);
            final Request allgatherInPlace = world.allgatherInit(Comm.IN_PLACE, 0, 0, Datatype.INT, inPlace, 0, items, Datatype.INT);
            assertSchedule(schedule, allgather);
            assertSchedule(schedule, allgatherInPlace);
            for (int iteration = 0; iteration < STARTS; iteration++)
            {
                for (int i = 0; i < items; i++)
                {
                    send[i] = value(iteration, rank, i);
                }
                Arrays.fill(recv, -1);
                Arrays.fill(inPlace, -1);
                for (int i = 0; i < items; i++)
                {
                    inPlace[rank * items + i] = -value(iteration, rank, i);
                }
                allgather.start();
                allgatherInPlace.start();
                allgatherInPlace.await();
                allgather.await();
                assertEquals(-1, recv[0]);
                for (int r = 0; r < size; r++)
                {
                    for (int i = 0; i < items; i++)
                    {
                        assertEquals(value(iteration, r, i), recv[1 + r * 2 * items + 2 * i], "iteration " + iteration + ", rank " + r + ", item " + i);
                        assertEquals(-1, recv[2 + r * 2 * items + 2 * i], "the gaps of the type are not written");
                        assertEquals(-value(iteration, r, i), inPlace[r * items + i], "IN_PLACE, iteration " + iteration + ", rank " + r);
                    }
                }
            }
        });
    }
}
