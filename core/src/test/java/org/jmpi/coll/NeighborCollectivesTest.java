package org.jmpi.coll;

import java.util.Map;

import org.jmpi.Intracomm;
import org.jmpi.Datatype;
import org.jmpi.DistGraphComm;
import org.jmpi.ErrorClass;
import org.jmpi.MpiException;
import org.jmpi.Ranks;
import org.jmpi.ThreadLevel;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import static org.jmpi.coll.NeighborCases.exercise;
import static org.jmpi.coll.NeighborTopologies.*;

/**
 * neighbor_allgatherv, neighbor_alltoallv and neighbor_alltoallw (blocking, nonblocking, persistent) on
 * Cartesian, graph and distributed-graph communicators, checked against a reference computed from every rank's
 * neighbour lists; the general distGraphCreate against distGraphCreateAdjacent; edge weights; bad arguments.
 *
 * <p>The reference pairs receive block i of rank r with the send block of its source s that MPI says it
 * receives: on a Cartesian grid the block s sent the other way along the same dimension (i ^ 1); on a graph
 * the k-th occurrence of r among s's destinations, where s occurs for the k-th time at i among r's sources.
 *
 * <p>The topologies are {@link NeighborTopologies}'; the three collectives' cases and the reference pairing are
 * {@link NeighborCases}'.
 */
@Timeout(120)
class NeighborCollectivesTest
{
    @ParameterizedTest
    @ValueSource(ints = {1, 2, 4, 5, 8})
    void shouldExchangeOnPeriodicCartesianGrid(final int size)
    {
        Ranks.run(size, (mpi, world) -> exercise(cart(world, true)));
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 4, 5, 8})
    void shouldLeaveProcNullBlocksOnNonPeriodicCartesianGrid(final int size)
    {
        Ranks.run(size, (mpi, world) -> exercise(cart(world, false)));
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 5, 8})
    void shouldExchangeOnGraphWithSelfLoopsAndDoubleEdges(final int size)
    {
        Ranks.run(size, (mpi, world) -> exercise(graph(world)));
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 5, 8})
    void shouldExchangeOnDistGraphWithMultiEdgesAndSelfLoops(final int size)
    {
        Ranks.run(size, (mpi, world) -> exercise(distAdjacent(world)));
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 5, 8})
    void shouldBuildDistGraphFromEdgesGivenByOtherRanks(final int size)
    {
        Ranks.run(size, (mpi, world) ->
        {
            final Topo general = distGeneral(world, true);
            exercise(general);
            distGeneral(world, false);
            // The same lists given to distGraphCreateAdjacent must give the same results.
            final int me = world.rank();
            final Topo adjacent = new Topo(world.distGraphCreateAdjacent(general.sources()[me], general.destinations()[me], false),
                general.sources(), general.destinations(), false);
            assertFalse(((DistGraphComm)adjacent.comm()).weighted());
            final NeighborCases.Alltoallw viaGeneral = NeighborCases.Alltoallw.of(general);
            final NeighborCases.Alltoallw viaAdjacent = NeighborCases.Alltoallw.of(adjacent);
            viaGeneral.prepare(7);
            viaAdjacent.prepare(7);
            viaGeneral.blocking();
            viaAdjacent.blocking();
            assertArrayEquals(viaAdjacent.recvBuf, viaGeneral.recvBuf);
            viaAdjacent.check(7, "adjacent");
        });
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 3})
    void shouldHandleEmptyGraphs(final int size)
    {
        Ranks.run(size, (mpi, world) ->
        {
            final DistGraphComm empty = world.distGraphCreate(new int[0], new int[0], new int[0], null, null, false);
            assertArrayEquals(new int[] {0, 0}, empty.neighborsCount());
            assertFalse(empty.weighted());
            empty.neighborAlltoallv(new int[0], 0, new int[0], new int[0], Datatype.INT, new int[0], 0, new int[0], new int[0], Datatype.INT);
            empty.ineighborAllgatherv(new int[1], 0, 1, Datatype.INT, new int[0], 0, new int[0], new int[0], Datatype.INT).await();
            // Weighted with no edges anywhere: still weighted, empty weight arrays.
            final DistGraphComm weighted = world.distGraphCreate(new int[0], new int[0], new int[0], new int[0], null, false);
            assertTrue(weighted.weighted());
            assertArrayEquals(new int[0], weighted.sourceWeights());
        });
    }

    @ParameterizedTest
    @ValueSource(ints = {3, 4})
    void shouldRunOnProgressThreadAndCatchMismatchedCalls(final int size)
    {
        Ranks.run(size, ThreadLevel.MULTIPLE, Map.of("jmpi.coll.check", "true"), (mpi, world) ->
        {
            exercise(distGeneral(world, true));
            final Topo cart = cart(world, true);
            exercise(cart);
            final int[] zeros = new int[4];
            final long[] noDispls = new long[4];
            final Datatype[] types = {Datatype.INT, Datatype.INT, Datatype.INT, Datatype.INT};
            final int[] buf = new int[1];
            final MpiException mismatch = assertThrows(MpiException.class, () ->
            {
                if (world.rank() == 0)
                {
                    cart.comm().neighborAlltoallv(buf, 0, zeros, zeros, Datatype.INT, buf, 0, zeros, zeros, Datatype.INT);
                }
                else
                {
                    cart.comm().neighborAlltoallw(buf, 0, zeros, noDispls, types, buf, 0, zeros, noDispls, types);
                }
            });
            assertEquals(ErrorClass.ERR_OTHER, mismatch.errorClass());
        });
    }

    @Test
    void shouldRejectBadArguments()
    {
        Ranks.run(4, (mpi, world) ->
        {
            final Topo cart = cart(world, false);
            final Intracomm c = cart.comm();
            final int[] four = new int[4];
            final int[] three = new int[3];
            final int[] buf = new int[64];
            assertError(ErrorClass.ERR_ARG, () -> c.neighborAllgatherv(buf, 0, 1, Datatype.INT, buf, 0, three, three, Datatype.INT));
            assertError(ErrorClass.ERR_COUNT, () -> c.neighborAllgatherv(buf, 0, 1, Datatype.INT, buf, 0, new int[] {1, -1, 1, 1}, four,
                Datatype.INT));
            assertError(ErrorClass.ERR_ARG, () -> c.ineighborAlltoallv(buf, 0, three, three, Datatype.INT, buf, 0, four, four, Datatype.INT));
            assertError(ErrorClass.ERR_ARG, () -> c.neighborAlltoallvInit(buf, 0, four, four, Datatype.INT, buf, 0, four, null, Datatype.INT));
            assertError(ErrorClass.ERR_COUNT, () -> c.neighborAlltoallv(buf, 0, new int[] {0, 0, -2, 0}, four, Datatype.INT, buf, 0, four,
                four, Datatype.INT));
            final Datatype[] ints = {Datatype.INT, Datatype.INT, Datatype.INT, Datatype.INT};
            final long[] zeros = new long[4];
            assertError(ErrorClass.ERR_TYPE, () -> c.neighborAlltoallw(buf, 0, four, zeros, new Datatype[4], buf, 0, four, zeros, ints));
            assertError(ErrorClass.ERR_TYPE, () -> c.neighborAlltoallw(buf, 0, four, zeros, ints, buf, 0, four, zeros,
                new Datatype[] {Datatype.INT, Datatype.INT, Datatype.contiguous(2, Datatype.INT), Datatype.INT}));
            assertError(ErrorClass.ERR_ARG, () -> c.neighborAlltoallwInit(buf, 0, four, new long[3], ints, buf, 0, four, zeros, ints));
            assertError(ErrorClass.ERR_BUFFER, () -> c.neighborAlltoallw(buf, 0, four, zeros, ints, buf, 0,
                new int[] {1, 1, 1, 1}, new long[] {0, 0, 4L * 64, 0}, ints));
            assertError(ErrorClass.ERR_TOPOLOGY, () -> world.neighborAlltoallv(buf, 0, four, four, Datatype.INT, buf, 0, four, four,
                Datatype.INT));
            // Graph constructors.
            final int me = world.rank();
            assertError(ErrorClass.ERR_RANK, () -> world.distGraphCreate(new int[] {me}, new int[] {1}, new int[] {4}, null, null, false));
            assertError(ErrorClass.ERR_ARG, () -> world.distGraphCreate(new int[] {me}, new int[] {2}, new int[] {0}, null, null, false));
            assertError(ErrorClass.ERR_ARG, () -> world.distGraphCreate(new int[] {me}, new int[] {-1}, new int[0], null, null, false));
            assertError(ErrorClass.ERR_ARG, () -> world.distGraphCreate(new int[] {me}, new int[] {1}, new int[] {0}, new int[] {-3}, null,
                false));
            assertError(ErrorClass.ERR_ARG, () -> world.distGraphCreate(new int[] {me}, new int[] {1}, new int[] {0}, new int[2], null, false));
            assertError(ErrorClass.ERR_ARG, () -> world.distGraphCreateAdjacent(new int[] {0}, new int[] {1}, new int[] {0}, null, null,
                false));
            assertError(ErrorClass.ERR_ARG, () -> world.distGraphCreateAdjacent(new int[] {0}, new int[] {1, 2}, new int[] {0}, new int[] {1},
                null, false));
            assertError(ErrorClass.ERR_ARG, () -> world.distGraphCreateAdjacent(new int[] {0}, new int[] {-1}, new int[] {0}, new int[] {1},
                null, false));
            assertError(ErrorClass.ERR_RANK, () -> world.distGraphCreateAdjacent(new int[] {0}, new int[] {-1, 0}, false));
            // Weighted and unweighted contributions mixed: every rank fails alike, and the communicator stays usable.
            final int[] edgeWeights = me == 2 ? null : new int[] {5};
            assertError(ErrorClass.ERR_ARG, () -> world.distGraphCreate(new int[] {me}, new int[] {1}, new int[] {(me + 1) % 4}, edgeWeights,
                null, false));
            world.barrier();
            final DistGraphComm ring = world.distGraphCreate(new int[] {me}, new int[] {1}, new int[] {(me + 1) % 4}, new int[] {me}, null,
                false);
            assertArrayEquals(new int[] {(me + 3) % 4}, ring.sources());
            assertArrayEquals(new int[] {(me + 3) % 4}, ring.sourceWeights());
            // Counts that disagree between neighbours fail the call instead of hanging.
            final int[] got = new int[3];
            assertThrows(MpiException.class, () -> ring.neighborAlltoallv(new int[] {me}, 0, new int[] {1}, new int[] {0}, Datatype.INT,
                got, 0, new int[] {2}, new int[] {0}, Datatype.INT));
        });
    }

    private static void assertError(final ErrorClass expected, final org.junit.jupiter.api.function.Executable call)
    {
        assertEquals(expected, assertThrows(MpiException.class, call).errorClass());
    }
}
