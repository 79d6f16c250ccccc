package mpi;

import static mpi.Job.assertMpiError;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.IntBuffer;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** CartComm, GraphComm (graph and distributed graph), their Parms classes and the neighbourhood collectives. */
class TopologyTest
{
    @ParameterizedTest
    @ValueSource(ints = {2, 4})
    void shouldBuildAndQueryACartesianGrid(final int size)
    {
        Job.world(size, (world, rank, n) ->
        {
            final int[] dims = new int[2];
            CartComm.createDims(n, dims);
            assertEquals(n, dims[0] * dims[1]);
            final CartComm cart = world.createCart(dims, new boolean[] {true, false}, false);
            assertEquals(MPI.CART, cart.getTopology());
            final CartParms parms = cart.getTopo();
            assertEquals(2, parms.getDimCount());
            assertEquals(dims[0], parms.getDim(0));
            assertTrue(parms.getPeriod(0));
            assertFalse(parms.getPeriod(1));
            final int[] coords = cart.getCoords(rank);
            assertEquals(coords[0], parms.getCoord(0));
            assertEquals(rank, cart.getRank(coords));
            final ShiftParms shift = cart.shift(0, 1);
            assertEquals(cart.getRank(new int[] {(coords[0] + 1) % dims[0], coords[1]}), shift.getRankDest());
            final ShiftParms edge = cart.shift(1, 1);
            if (coords[1] == dims[1] - 1)
            {
                assertEquals(MPI.PROC_NULL, edge.getRankDest());
            }
            final CartComm row = cart.sub(new boolean[] {false, true});
            assertEquals(dims[1], row.getSize());
            assertEquals(rank, cart.map(dims, new boolean[] {true, false}));
            final CartComm dup = cart.dup();
            assertEquals(MPI.CART, dup.getTopology());
            assertEquals(dims[0], dup.getTopo().getDim(0));
            // neighbour allgather on a ring
            final CartComm ring = world.createCart(new int[] {n}, new boolean[] {true}, false);
            final int[] got = new int[2];
            ring.neighborAllGather(new int[] {rank}, 1, MPI.INT, got, 1, MPI.INT);
            assertArrayEquals(new int[] {(rank + n - 1) % n, (rank + 1) % n}, got);
            final int[] a2a = new int[2];
            ring.neighborAllToAll(new int[] {rank * 10, rank * 10 + 1}, 1, MPI.INT, a2a, 1, MPI.INT);
            assertArrayEquals(new int[] {((rank + n - 1) % n) * 10 + 1, ((rank + 1) % n) * 10}, a2a);
            final IntBuffer in = MPI.newIntBuffer(2);
            final IntBuffer out = MPI.newIntBuffer(1);
            out.put(0, rank);
            ring.iNeighborAllGather(out, 1, MPI.INT, in, 1, MPI.INT).waitFor();
            assertEquals((rank + 1) % n, in.get(1));
            assertMpiError(MPI.ERR_TOPOLOGY, () -> world.neighborAllGather(new int[1], 1, MPI.INT, new int[2], 1, MPI.INT));
            assertMpiError(MPI.ERR_DIMS, () -> cart.map(new int[] {n + 1}, new boolean[] {false}));
            for (final CartComm c : new CartComm[] {cart, row, dup, ring})
            {
                c.free();
            }
        });
    }

    @ParameterizedTest
    @ValueSource(ints = {2, 4})
    void shouldBuildGraphsAndDistributedGraphs(final int size)
    {
        Job.world(size, (world, rank, n) ->
        {
            // a ring as a graph: node i's neighbours are i-1 and i+1
            final int[] index = new int[n];
            final int[] edges = new int[2 * n];
            for (int i = 0; i < n; i++)
            {
                index[i] = 2 * (i + 1);
                edges[2 * i] = (i + n - 1) % n;
                edges[2 * i + 1] = (i + 1) % n;
            }
            final GraphComm graph = world.createGraph(index, edges, false);
            assertEquals(MPI.GRAPH, graph.getTopology());
            final GraphParms gp = graph.getDims();
            assertEquals(n, gp.getIndexCount());
            assertEquals(2 * n, gp.getEdgeCount());
            assertEquals(index[n - 1], gp.getIndex(n - 1));
            assertArrayEquals(new int[] {(rank + n - 1) % n, (rank + 1) % n}, graph.getNeighbors(rank));
            assertEquals(rank, graph.map(index, edges));
            final int[] got = new int[2];
            graph.neighborAllGather(new int[] {rank}, 1, MPI.INT, got, 1, MPI.INT);
            assertArrayEquals(graph.getNeighbors(rank), got);
            assertMpiError(MPI.ERR_TOPOLOGY, graph::getDistGraphNeighbors);
            final GraphComm gdup = graph.dup();
            assertEquals(MPI.GRAPH, gdup.getTopology());
            // a distributed graph: each rank receives from its left, sends to its right, weight = rank
            final int left = (rank + n - 1) % n;
            final int right = (rank + 1) % n;
            final GraphComm dist = world.createDistGraphAdjacent(new int[] {left}, new int[] {left}, new int[] {right}, new int[] {rank},
                MPI.INFO_NULL, false);
            assertEquals(MPI.DIST_GRAPH, dist.getTopology());
            final DistGraphNeighbors nb = dist.getDistGraphNeighbors();
            assertEquals(1, nb.getInDegree());
            assertEquals(1, nb.getOutDegree());
            assertTrue(nb.isWeighted());
            assertEquals(left, nb.getSource(0));
            assertEquals(right, nb.getDestination(0));
            assertEquals(rank, nb.getDestinationWeight(0));
            final int[] fromLeft = new int[1];
            dist.neighborAllToAll(new int[] {rank * 7}, 1, MPI.INT, fromLeft, 1, MPI.INT);
            assertEquals(left * 7, fromLeft[0]);
            final int[] v = new int[1];
            dist.neighborAllGatherv(new int[] {rank}, 1, MPI.INT, v, new int[] {1}, new int[] {0}, MPI.INT);
            assertEquals(left, v[0]);
            final int[] w = new int[1];
            dist.neighborAllToAllv(new int[] {rank}, new int[] {1}, new int[] {0}, MPI.INT, w, new int[] {1}, new int[] {0}, MPI.INT);
            assertEquals(left, w[0]);
            final GraphComm unweighted = world.createDistGraphAdjacent(new int[] {left}, new int[] {right}, MPI.INFO_NULL, false);
            assertFalse(unweighted.getDistGraphNeighbors().isWeighted());
            final GraphComm general = world.createDistGraph(new int[] {rank}, new int[] {1}, new int[] {right}, MPI.INFO_NULL, false);
            assertEquals(left, general.getDistGraphNeighbors().getSource(0));
            final GraphComm ddup = dist.dup();
            assertEquals(left, ddup.getDistGraphNeighbors().getSource(0));
            assertMpiError(MPI.ERR_TOPOLOGY, dist::getDims);
            for (final GraphComm c : new GraphComm[] {graph, gdup, dist, unweighted, general, ddup})
            {
                c.free();
            }
        });
    }
}
