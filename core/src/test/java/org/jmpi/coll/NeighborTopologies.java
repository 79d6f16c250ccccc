package org.jmpi.coll;

import java.util.ArrayList;
import java.util.List;

import org.jmpi.Intracomm;
import org.jmpi.CartComm;
import org.jmpi.Comm;
import org.jmpi.DistGraphComm;
import org.jmpi.GraphComm;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The topologies the neighbourhood collective tests run on ({@link Topo}: a topology communicator with every rank's
 * neighbour lists and how receive blocks pair with send blocks) and the data each rank sends: Cartesian grids
 * (periodic or not), a graph with self-loops and double edges, distributed graphs built adjacent or general.
 */
final class NeighborTopologies
{
    static final int UNSET = -1;
    static final int PROC_NULL_COUNT = 2;

    /** A topology communicator, every rank's neighbour lists, and how receive blocks pair with send blocks. */
    record Topo(Intracomm comm, int[][] sources, int[][] destinations, boolean cartesian)
    {
        /** {sending rank, its send block} of receive block i on rank r, or null for a PROC_NULL neighbour. */
        int[] pair(final int r, final int i)
        {
            final int s = sources[r][i];
            if (s == Comm.PROC_NULL)
            {
                return null;
            }
            if (cartesian)
            {
                return new int[] {s, i ^ 1};
            }
            int occurrence = 0;
            for (int a = 0; a < i; a++)
            {
                occurrence += sources[r][a] == s ? 1 : 0;
            }
            for (int j = 0; j < destinations[s].length; j++)
            {
                if (destinations[s][j] == r && occurrence-- == 0)
                {
                    return new int[] {s, j};
                }
            }
            throw new AssertionError("rank " + s + " has too few edges to " + r + ": the test's graph is inconsistent");
        }
    }

    /** Items rank s sends in its block j (some are 0), at start number iter. */
    static int count(final int s, final int j)
    {
        return (s + 2 * j + 1) % 4;
    }

    static int allgatherCount(final int s)
    {
        return s % 3;
    }

    static int value(final int s, final int j, final int k, final int iter)
    {
        return 1_000_000 * iter + 10_000 * s + 100 * j + k;
    }

    private NeighborTopologies()
    {
    }

    // ------------------------------------------------------------------------------------------ topologies

    static Topo cart(final Intracomm world, final boolean periodic)
    {
        final int size = world.size();
        final int[] dims = CartComm.dimsCreate(size, new int[2]);
        final CartComm cart = world.cartCreate(dims, new boolean[] {periodic, periodic}, false);
        final int[][] lists = new int[size][];
        for (int r = 0; r < size; r++)
        {
            final int[] c = {r / dims[1], r % dims[1]};
            lists[r] = new int[4];
            for (int d = 0; d < 2; d++)
            {
                for (int side = 0; side < 2; side++)
                {
                    final int[] n = c.clone();
                    n[d] += side == 0 ? -1 : 1;
                    if (n[d] < 0 || n[d] >= dims[d])
                    {
                        if (!periodic)
                        {
                            lists[r][2 * d + side] = Comm.PROC_NULL;
                            continue;
                        }
                        n[d] = Math.floorMod(n[d], dims[d]);
                    }
                    lists[r][2 * d + side] = n[0] * dims[1] + n[1];
                }
            }
        }
        final int me = world.rank();
        for (int d = 0; d < 2; d++)
        {
            assertArrayEquals(cart.shift(d, 1), new int[] {lists[me][2 * d], lists[me][2 * d + 1]}, "reference grid disagrees with shift");
        }
        return new Topo(cart, lists, lists, true);
    }

    /** A symmetric graph: i+1, i-1, a self-loop on even nodes and a second one on node 0 (size 2: a double edge). */
    static Topo graph(final Intracomm world)
    {
        final int size = world.size();
        final int[][] lists = new int[size][];
        final int[] index = new int[size];
        final ArrayList<Integer> edges = new ArrayList<>();
        for (int i = 0; i < size; i++)
        {
            final ArrayList<Integer> mine = new ArrayList<>(List.of((i + 1) % size, (i - 1 + size) % size));
            if (i % 2 == 0)
            {
                mine.add(i);
            }
            if (i == 0)
            {
                mine.add(1, 0);
            }
            lists[i] = mine.stream().mapToInt(Integer::intValue).toArray();
            edges.addAll(mine);
            index[i] = edges.size();
        }
        final GraphComm g = world.graphCreate(index, edges.stream().mapToInt(Integer::intValue).toArray(), false);
        assertArrayEquals(lists[world.rank()], g.neighbors(world.rank()));
        return new Topo(g, lists, lists, false);
    }

    /** Rank r sends to r+1 twice, to itself, and to r+3 (mod size), in that interleaved order. */
    static int[] distDestinations(final int r, final int size)
    {
        return new int[] {(r + 1) % size, r, (r + 1) % size, (r + 3) % size};
    }

    /** Rank r's in-edges (from r-3, r-1 twice, itself), in an order of their own. */
    static int[] distSources(final int r, final int size)
    {
        return new int[] {Math.floorMod(r - 3, size), Math.floorMod(r - 1, size), r, Math.floorMod(r - 1, size)};
    }

    static int weight(final int s, final int j)
    {
        return 10 * s + j;
    }

    /** The multigraph above with distGraphCreateAdjacent, weighted by the sender's block number. */
    static Topo distAdjacent(final Intracomm world)
    {
        final int size = world.size();
        final int me = world.rank();
        final int[][] sources = new int[size][];
        final int[][] destinations = new int[size][];
        for (int r = 0; r < size; r++)
        {
            sources[r] = distSources(r, size);
            destinations[r] = distDestinations(r, size);
        }
        final Topo plain = new Topo(null, sources, destinations, false);
        final int[] sourceWeights = new int[sources[me].length];
        final int[] destWeights = new int[destinations[me].length];
        for (int i = 0; i < sourceWeights.length; i++)
        {
            final int[] p = plain.pair(me, i);
            sourceWeights[i] = weight(p[0], p[1]);
        }
        for (int j = 0; j < destWeights.length; j++)
        {
            destWeights[j] = weight(me, j);
        }
        final DistGraphComm dg = world.distGraphCreateAdjacent(sources[me], sourceWeights, destinations[me], destWeights, null, false);
        assertTrue(dg.weighted());
        assertArrayEquals(sourceWeights, dg.sourceWeights());
        assertArrayEquals(destWeights, dg.destinationWeights());
        assertArrayEquals(new int[] {4, 4}, dg.neighborsCount());
        return new Topo(dg, sources, destinations, false);
    }

    /**
     * The same multigraph's edges given to distGraphCreate by ranks that are (mostly) not their endpoints: edge j
     * of rank s is contributed by rank (s + 2j + 1) mod size, grouped by source with degrees, after an empty
     * entry (degree 0). Returns the created communicator with the neighbour lists the documented order
     * predicts (by contributing rank, then by position in its arguments).
     */
    static Topo distGeneral(final Intracomm world, final boolean weighted)
    {
        final int size = world.size();
        final int me = world.rank();
        final List<List<int[]>> contributed = new ArrayList<>();
        for (int c = 0; c < size; c++)
        {
            contributed.add(new ArrayList<>());
        }
        for (int s = 0; s < size; s++)
        {
            final int[] d = distDestinations(s, size);
            for (int j = 0; j < d.length; j++)
            {
                contributed.get((s + 2 * j + 1) % size).add(new int[] {s, d[j], weight(s, j)});
            }
        }
        final ArrayList<Integer> sources = new ArrayList<>(List.of(me));
        final ArrayList<Integer> degrees = new ArrayList<>(List.of(0));
        final ArrayList<Integer> destinations = new ArrayList<>();
        final ArrayList<Integer> weights = new ArrayList<>();
        for (final int[] e : contributed.get(me))
        {
            if (sources.get(sources.size() - 1) != e[0] || degrees.size() == 1)
            {
                sources.add(e[0]);
                degrees.add(0);
            }
            degrees.set(degrees.size() - 1, degrees.get(degrees.size() - 1) + 1);
            destinations.add(e[1]);
            weights.add(e[2]);
        }
        final DistGraphComm dg = world.distGraphCreate(ints(sources), ints(degrees), ints(destinations), weighted ? ints(weights) : null,
            null, false);
        final int[][] in = new int[size][];
        final int[][] out = new int[size][];
        final int[][] inWeights = new int[size][];
        final int[][] outWeights = new int[size][];
        for (int r = 0; r < size; r++)
        {
            final ArrayList<int[]> ins = new ArrayList<>();
            final ArrayList<int[]> outs = new ArrayList<>();
            for (final List<int[]> list : contributed)
            {
                for (final int[] e : list)
                {
                    if (e[1] == r)
                    {
                        ins.add(new int[] {e[0], e[2]});
                    }
                    if (e[0] == r)
                    {
                        outs.add(new int[] {e[1], e[2]});
                    }
                }
            }
            in[r] = ins.stream().mapToInt(e -> e[0]).toArray();
            inWeights[r] = ins.stream().mapToInt(e -> e[1]).toArray();
            out[r] = outs.stream().mapToInt(e -> e[0]).toArray();
            outWeights[r] = outs.stream().mapToInt(e -> e[1]).toArray();
        }
        assertArrayEquals(in[me], dg.sources(), "sources");
        assertArrayEquals(out[me], dg.destinations(), "destinations");
        assertEquals(weighted, dg.weighted());
        if (weighted)
        {
            assertArrayEquals(inWeights[me], dg.sourceWeights(), "source weights");
            assertArrayEquals(outWeights[me], dg.destinationWeights(), "destination weights");
        }
        else
        {
            assertNull(dg.sourceWeights());
            assertNull(dg.destinationWeights());
        }
        return new Topo(dg, in, out, false);
    }

    static int[] ints(final List<Integer> list)
    {
        return list.stream().mapToInt(Integer::intValue).toArray();
    }
}
