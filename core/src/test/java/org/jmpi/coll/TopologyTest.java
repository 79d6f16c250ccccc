package org.jmpi.coll;

import org.jmpi.CartComm;
import org.jmpi.Comm;
import org.jmpi.Datatype;
import org.jmpi.DistGraphComm;
import org.jmpi.ErrorClass;
import org.jmpi.GraphComm;
import org.jmpi.MpiException;
import org.jmpi.Ranks;
import org.jmpi.Request;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** Cartesian, graph and distributed-graph topologies and the neighbour collectives on them. */
@Timeout(60)
class TopologyTest
{
    @Test
    void shouldCreateBalancedDimsHonouringFixedOnes()
    {
        assertArrayEquals(new int[] {3, 2}, CartComm.dimsCreate(6, new int[2]));
        assertArrayEquals(new int[] {2, 2, 2}, CartComm.dimsCreate(8, new int[3]));
        assertArrayEquals(new int[] {2, 3, 2}, CartComm.dimsCreate(12, new int[] {0, 3, 0}));
        assertArrayEquals(new int[] {4, 3}, CartComm.dimsCreate(12, new int[] {0, 3}));
        assertArrayEquals(new int[] {7, 1}, CartComm.dimsCreate(7, new int[2]));
        assertArrayEquals(new int[] {6, 5, 4}, CartComm.dimsCreate(120, new int[3]));
        assertArrayEquals(new int[] {1}, CartComm.dimsCreate(1, new int[1]));
        assertEquals(ErrorClass.ERR_DIMS, assertThrows(MpiException.class, () -> CartComm.dimsCreate(10, new int[] {3, 0})).errorClass());
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 4, 5, 8})
    void shouldShiftOnTheGridWithEdgesAndWraparound(final int size)
    {
        Ranks.run(size, (mpi, world) ->
        {
            final int rank = world.rank();
            final int[] dims = CartComm.dimsCreate(size, new int[2]);
            final CartComm cart = world.cartCreate(dims, new boolean[] {false, true}, true);
            assertEquals(Comm.CART, cart.topology());
            assertEquals(Comm.UNDEFINED, world.topology());
            final int[] c = cart.coords();
            assertEquals(rank, cart.rank(c));
            assertArrayEquals(new int[] {rank / dims[1], rank % dims[1]}, c);
            // Dimension 0 is not periodic: PROC_NULL at the edges.
            final int[] down = cart.shift(0, 1);
            assertEquals(c[0] == 0 ? Comm.PROC_NULL : rank - dims[1], down[0]);
            assertEquals(c[0] == dims[0] - 1 ? Comm.PROC_NULL : rank + dims[1], down[1]);
            // Dimension 1 wraps.
            final int[] right = cart.shift(1, 1);
            assertEquals(c[0] * dims[1] + Math.floorMod(c[1] - 1, dims[1]), right[0]);
            assertEquals(c[0] * dims[1] + Math.floorMod(c[1] + 1, dims[1]), right[1]);
            assertEquals(cart.rank(new int[] {c[0], c[1] + dims[1]}), rank, "periodic coordinates wrap");
            // Rows: keep dimension 1.
            final CartComm row = cart.sub(new boolean[] {false, true});
            assertEquals(dims[1], row.size());
            assertEquals(c[1], row.rank());
            assertArrayEquals(new int[] {dims[1]}, row.dims());
            // Neighbour allgather: my rank to the 4 neighbours; PROC_NULL blocks stay untouched.
            final int[] got = {-7, -7, -7, -7};
            cart.neighborAllgather(new int[] {rank}, 0, 1, Datatype.INT, got, 0, 1, Datatype.INT);
            assertArrayEquals(new int[] {down[0] == Comm.PROC_NULL ? -7 : down[0], down[1] == Comm.PROC_NULL ? -7 : down[1],
                right[0], right[1]}, got);
            // Neighbour alltoall: block j names (me, j); what comes from the -1 neighbour is what it sent to its +1.
            final int[] out = {rank * 10, rank * 10 + 1, rank * 10 + 2, rank * 10 + 3};
            final int[] in = {-7, -7, -7, -7};
            final Request r = cart.ineighborAlltoall(out, 0, 1, Datatype.INT, in, 0, 1, Datatype.INT);
            r.await();
            assertEquals(down[0] == Comm.PROC_NULL ? -7 : down[0] * 10 + 1, in[0]);
            assertEquals(down[1] == Comm.PROC_NULL ? -7 : down[1] * 10, in[1]);
            assertEquals(right[0] * 10 + 3, in[2]);
            assertEquals(right[1] * 10 + 2, in[3]);
            final int[] token = {0};
            final int[] fromNeighbours = new int[4];
            final Request persistent = cart.neighborAllgatherInit(token, 0, 1, Datatype.INT, fromNeighbours, 0, 1, Datatype.INT);
            for (int i = 0; i < 20; i++)
            {
                token[0] = rank * 1000 + i;
                persistent.start();
                persistent.await();
                assertEquals(right[0] * 1000 + i, fromNeighbours[2]);
                assertEquals(right[1] * 1000 + i, fromNeighbours[3]);
            }
            assertEquals(ErrorClass.ERR_TOPOLOGY, assertThrows(MpiException.class,
                () -> world.neighborAllgather(new int[1], 0, 1, Datatype.INT, new int[4], 0, 1, Datatype.INT)).errorClass());
        });
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 3, 5})
    void shouldLeaveRanksOutsideTheGrid(final int size)
    {
        Ranks.run(size, (mpi, world) ->
        {
            final CartComm line = world.cartCreate(new int[] {Math.max(1, size - 1)}, new boolean[] {true}, false);
            if (world.rank() >= Math.max(1, size - 1))
            {
                assertNull(line);
            }
            else
            {
                assertEquals(Math.max(1, size - 1), line.size());
            }
        });
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 4, 5, 8})
    void shouldExchangeOverGraphs(final int size)
    {
        Ranks.run(size, (mpi, world) ->
        {
            final int rank = world.rank();
            // A ring as a graph: node i's neighbours are i-1 and i+1.
            final int[] index = new int[size];
            final int[] edges = new int[2 * size];
            for (int i = 0; i < size; i++)
            {
                index[i] = 2 * (i + 1);
                edges[2 * i] = (i - 1 + size) % size;
                edges[2 * i + 1] = (i + 1) % size;
            }
            final GraphComm ring = world.graphCreate(index, edges, false);
            assertEquals(Comm.GRAPH, ring.topology());
            assertArrayEquals(new int[] {(rank - 1 + size) % size, (rank + 1) % size}, ring.neighbors(rank));
            final long[] got = new long[2];
            ring.neighborAllgather(new long[] {rank * 3L}, 0, 1, Datatype.LONG, got, 0, 1, Datatype.LONG);
            if (size > 2)
            {
                assertArrayEquals(new long[] {(rank - 1 + size) % size * 3L, (rank + 1) % size * 3L}, got);
            }
            // Distributed graph: rank r sends to r+1 and r+2, receives from r-1 and r-2.
            final int[] sources = {(rank - 1 + size) % size, (rank - 2 + 2 * size) % size};
            final int[] destinations = {(rank + 1) % size, (rank + 2) % size};
            final DistGraphComm dg = world.distGraphCreateAdjacent(sources, destinations, false);
            assertEquals(Comm.DIST_GRAPH, dg.topology());
            assertArrayEquals(new int[] {2, 2}, dg.neighborsCount());
            assertArrayEquals(sources, dg.sources());
            assertArrayEquals(destinations, dg.destinations());
            assertFalse(dg.weighted(), "made without weights: MPI_UNWEIGHTED");
            assertNull(dg.sourceWeights());
            assertNull(dg.destinationWeights());
            final double[] out = {rank + 0.25, rank + 0.5};
            final double[] in = new double[2];
            dg.neighborAlltoall(out, 0, 1, Datatype.DOUBLE, in, 0, 1, Datatype.DOUBLE);
            if (size > 2)
            {
                assertArrayEquals(new double[] {sources[0] + 0.25, sources[1] + 0.5}, in);
            }
        });
    }
}
