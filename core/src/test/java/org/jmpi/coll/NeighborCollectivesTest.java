package org.jmpi.coll;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

import org.jmpi.Intracomm;
import org.jmpi.CartComm;
import org.jmpi.Comm;
import org.jmpi.Datatype;
import org.jmpi.DistGraphComm;
import org.jmpi.ErrorClass;
import org.jmpi.GraphComm;
import org.jmpi.MpiException;
import org.jmpi.Ranks;
import org.jmpi.Request;
import org.jmpi.ThreadLevel;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * neighbor_allgatherv, neighbor_alltoallv and neighbor_alltoallw (blocking, nonblocking, persistent) on
 * Cartesian, graph and distributed-graph communicators, checked against a reference computed from every rank's
 * neighbour lists; the general distGraphCreate against distGraphCreateAdjacent; edge weights; bad arguments.
 *
 * <p>The reference pairs receive block i of rank r with the send block of its source s that MPI says it
 * receives: on a Cartesian grid the block s sent the other way along the same dimension (i ^ 1); on a graph
 * the k-th occurrence of r among s's destinations, where s occurs for the k-th time at i among r's sources.
 */
@Timeout(120)
class NeighborCollectivesTest
{
    private static final int UNSET = -1;
    private static final int PROC_NULL_COUNT = 2;

    /** A topology communicator, every rank's neighbour lists, and how receive blocks pair with send blocks. */
    private record Topo(Intracomm comm, int[][] sources, int[][] destinations, boolean cartesian)
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
    private static int count(final int s, final int j)
    {
        return (s + 2 * j + 1) % 4;
    }

    private static int allgatherCount(final int s)
    {
        return s % 3;
    }

    private static int value(final int s, final int j, final int k, final int iter)
    {
        return 1_000_000 * iter + 10_000 * s + 100 * j + k;
    }

    // ------------------------------------------------------------------------------------------ topologies

    private static Topo cart(final Intracomm world, final boolean periodic)
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
    private static Topo graph(final Intracomm world)
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
    private static int[] distDestinations(final int r, final int size)
    {
        return new int[] {(r + 1) % size, r, (r + 1) % size, (r + 3) % size};
    }

    /** Rank r's in-edges (from r-3, r-1 twice, itself), in an order of their own. */
    private static int[] distSources(final int r, final int size)
    {
        return new int[] {Math.floorMod(r - 3, size), Math.floorMod(r - 1, size), r, Math.floorMod(r - 1, size)};
    }

    private static int weight(final int s, final int j)
    {
        return 10 * s + j;
    }

    /** The multigraph above with distGraphCreateAdjacent, weighted by the sender's block number. */
    private static Topo distAdjacent(final Intracomm world)
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
    private static Topo distGeneral(final Intracomm world, final boolean weighted)
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

    private static int[] ints(final List<Integer> list)
    {
        return list.stream().mapToInt(Integer::intValue).toArray();
    }

    // ------------------------------------------------------------------------------------------ the three collectives

    private enum Mode
    {
        BLOCKING, NONBLOCKING, PERSISTENT
    }

    /** The buffers and arguments of one neighbour collective on one rank, and its expected receive buffer. */
    private abstract static class Case
    {
        final Topo topo;
        final int me;
        final int[] sendBuf;
        final int[] recvBuf;

        Case(final Topo topo, final int sendLength, final int recvLength)
        {
            this.topo = topo;
            this.me = topo.comm().rank();
            this.sendBuf = new int[sendLength];
            this.recvBuf = new int[recvLength];
        }

        int indegree()
        {
            return topo.sources()[me].length;
        }

        int outdegree()
        {
            return topo.destinations()[me].length;
        }

        /** Fills the send buffer for start {@code iter} and clears the receive buffer. */
        abstract void prepare(int iter);

        abstract void blocking();

        abstract Request nonblocking();

        abstract Request persistent();

        abstract int[] expected(int iter);

        void check(final int iter, final String what)
        {
            assertArrayEquals(expected(iter), recvBuf, what + " on rank " + me + " of " + topo.comm().size() + ", start " + iter);
        }
    }

    /** Lays blocks of {@code counts} items out from the end backwards with a gap of {@code gap}; returns the length used. */
    private static int layoutBackwards(final int[] counts, final int[] displs, final int gap)
    {
        int pos = gap;
        for (int i = counts.length - 1; i >= 0; i--)
        {
            displs[i] = pos;
            pos += counts[i] + gap;
        }
        return pos;
    }

    private static int layoutForwards(final int[] counts, final int[] displs, final int gap)
    {
        int pos = 0;
        for (int i = 0; i < counts.length; i++)
        {
            displs[i] = pos;
            pos += counts[i] + gap;
        }
        return pos;
    }

    private static final class Allgatherv extends Case
    {
        static final int RECV_OFFSET = 3;
        final int sendCount;
        final int[] recvCounts;
        final int[] displs;

        static Allgatherv of(final Topo topo)
        {
            final int me = topo.comm().rank();
            final int in = topo.sources()[me].length;
            final int[] counts = new int[in];
            for (int i = 0; i < in; i++)
            {
                final int[] p = topo.pair(me, i);
                counts[i] = p == null ? PROC_NULL_COUNT : allgatherCount(p[0]);
            }
            final int[] displs = new int[in];
            final int length = layoutBackwards(counts, displs, 1);
            return new Allgatherv(topo, counts, displs, RECV_OFFSET + length);
        }

        private Allgatherv(final Topo topo, final int[] recvCounts, final int[] displs, final int recvLength)
        {
            super(topo, allgatherCount(topo.comm().rank()) + 1, recvLength);
            this.sendCount = allgatherCount(me);
            this.recvCounts = recvCounts;
            this.displs = displs;
        }

        @Override
        void prepare(final int iter)
        {
            Arrays.fill(sendBuf, UNSET);
            for (int k = 0; k < sendCount; k++)
            {
                sendBuf[1 + k] = value(me, 0, k, iter);
            }
            Arrays.fill(recvBuf, UNSET);
        }

        @Override
        void blocking()
        {
            topo.comm().neighborAllgatherv(sendBuf, 1, sendCount, Datatype.INT, recvBuf, RECV_OFFSET, recvCounts, displs, Datatype.INT);
        }

        @Override
        Request nonblocking()
        {
            return topo.comm().ineighborAllgatherv(sendBuf, 1, sendCount, Datatype.INT, recvBuf, RECV_OFFSET, recvCounts, displs, Datatype.INT);
        }

        @Override
        Request persistent()
        {
            return topo.comm().neighborAllgathervInit(sendBuf, 1, sendCount, Datatype.INT, recvBuf, RECV_OFFSET, recvCounts, displs,
                Datatype.INT);
        }

        @Override
        int[] expected(final int iter)
        {
            final int[] want = new int[recvBuf.length];
            Arrays.fill(want, UNSET);
            for (int i = 0; i < indegree(); i++)
            {
                final int[] p = topo.pair(me, i);
                if (p != null)
                {
                    for (int k = 0; k < recvCounts[i]; k++)
                    {
                        want[RECV_OFFSET + displs[i] + k] = value(p[0], 0, k, iter);
                    }
                }
            }
            return want;
        }
    }

    /** neighborAlltoallv with a 2-int contiguous type on the send side and INT on the receive side. */
    private static final class Alltoallv extends Case
    {
        static final Datatype PAIR = Datatype.contiguous(2, Datatype.INT).commit();
        final int[] sendCounts;
        final int[] sdispls;
        final int[] recvCounts;
        final int[] rdispls;

        static Alltoallv of(final Topo topo)
        {
            final int me = topo.comm().rank();
            final int out = topo.destinations()[me].length;
            final int in = topo.sources()[me].length;
            final int[] sendCounts = new int[out];
            for (int j = 0; j < out; j++)
            {
                sendCounts[j] = count(me, j);
            }
            final int[] sdispls = new int[out];
            final int sendLength = 2 * layoutBackwards(sendCounts, sdispls, 1);
            final int[] recvCounts = new int[in];
            for (int i = 0; i < in; i++)
            {
                final int[] p = topo.pair(me, i);
                recvCounts[i] = 2 * (p == null ? PROC_NULL_COUNT : count(p[0], p[1]));
            }
            final int[] rdispls = new int[in];
            final int recvLength = layoutForwards(recvCounts, rdispls, 2);
            return new Alltoallv(topo, sendCounts, sdispls, sendLength, recvCounts, rdispls, recvLength);
        }

        private Alltoallv(final Topo topo, final int[] sendCounts, final int[] sdispls, final int sendLength, final int[] recvCounts,
            final int[] rdispls, final int recvLength)
        {
            super(topo, sendLength, recvLength);
            this.sendCounts = sendCounts;
            this.sdispls = sdispls;
            this.recvCounts = recvCounts;
            this.rdispls = rdispls;
        }

        @Override
        void prepare(final int iter)
        {
            Arrays.fill(sendBuf, UNSET);
            for (int j = 0; j < outdegree(); j++)
            {
                for (int k = 0; k < 2 * sendCounts[j]; k++)
                {
                    sendBuf[2 * sdispls[j] + k] = value(me, j, k, iter);
                }
            }
            Arrays.fill(recvBuf, UNSET);
        }

        @Override
        void blocking()
        {
            topo.comm().neighborAlltoallv(sendBuf, 0, sendCounts, sdispls, PAIR, recvBuf, 0, recvCounts, rdispls, Datatype.INT);
        }

        @Override
        Request nonblocking()
        {
            return topo.comm().ineighborAlltoallv(sendBuf, 0, sendCounts, sdispls, PAIR, recvBuf, 0, recvCounts, rdispls, Datatype.INT);
        }

        @Override
        Request persistent()
        {
            return topo.comm().neighborAlltoallvInit(sendBuf, 0, sendCounts, sdispls, PAIR, recvBuf, 0, recvCounts, rdispls, Datatype.INT);
        }

        @Override
        int[] expected(final int iter)
        {
            final int[] want = new int[recvBuf.length];
            Arrays.fill(want, UNSET);
            for (int i = 0; i < indegree(); i++)
            {
                final int[] p = topo.pair(me, i);
                if (p != null)
                {
                    for (int k = 0; k < recvCounts[i]; k++)
                    {
                        want[rdispls[i] + k] = value(p[0], p[1], k, iter);
                    }
                }
            }
            return want;
        }
    }

    /**
     * neighborAlltoallw: send blocks alternate INT and pairs of INTs (when the count is even), receive blocks
     * alternate INT and every other INT (a vector); displacements in bytes, blocks laid out backwards.
     */
    private static final class Alltoallw extends Case
    {
        final int[] sendCounts;
        final long[] sdispls;
        final Datatype[] sendTypes;
        final int[] recvCounts;
        final long[] rdispls;
        final Datatype[] recvTypes;
        /** Items (ints) of each receive block and where each lands, in ints from the buffer's start. */
        final int[][] recvPositions;

        static Alltoallw of(final Topo topo)
        {
            final int me = topo.comm().rank();
            final int out = topo.destinations()[me].length;
            final int in = topo.sources()[me].length;
            final int[] sendCounts = new int[out];
            final int[] sendInts = new int[out];
            final Datatype[] sendTypes = new Datatype[out];
            for (int j = 0; j < out; j++)
            {
                sendInts[j] = count(me, j);
                final boolean pairs = j % 2 == 1 && sendInts[j] % 2 == 0;
                sendTypes[j] = pairs ? Alltoallv.PAIR : Datatype.INT;
                sendCounts[j] = pairs ? sendInts[j] / 2 : sendInts[j];
            }
            final int[] sdisplInts = new int[out];
            final int sendLength = layoutBackwards(sendInts, sdisplInts, 1);
            final int[] recvInts = new int[in];
            final int[] recvCounts = new int[in];
            final Datatype[] recvTypes = new Datatype[in];
            final int[] span = new int[in];
            for (int i = 0; i < in; i++)
            {
                final int[] p = topo.pair(me, i);
                recvInts[i] = p == null ? PROC_NULL_COUNT : count(p[0], p[1]);
                final boolean strided = i % 2 == 1 && recvInts[i] > 0;
                recvTypes[i] = strided ? Datatype.vector(recvInts[i], 1, 2, Datatype.INT).commit() : Datatype.INT;
                recvCounts[i] = strided ? 1 : recvInts[i];
                span[i] = strided ? 2 * recvInts[i] - 1 : recvInts[i];
            }
            final int[] rdisplInts = new int[in];
            final int recvLength = layoutBackwards(span, rdisplInts, 1);
            final int[][] positions = new int[in][];
            for (int i = 0; i < in; i++)
            {
                positions[i] = new int[recvInts[i]];
                for (int k = 0; k < recvInts[i]; k++)
                {
                    positions[i][k] = rdisplInts[i] + (recvTypes[i] == Datatype.INT ? k : 2 * k);
                }
            }
            return new Alltoallw(topo, sendCounts, bytes(sdisplInts), sendTypes, sendLength, recvCounts, bytes(rdisplInts), recvTypes,
                recvLength, positions);
        }

        private static long[] bytes(final int[] ints)
        {
            return Arrays.stream(ints).mapToLong(i -> 4L * i).toArray();
        }

        private Alltoallw(final Topo topo, final int[] sendCounts, final long[] sdispls, final Datatype[] sendTypes, final int sendLength,
            final int[] recvCounts, final long[] rdispls, final Datatype[] recvTypes, final int recvLength, final int[][] recvPositions)
        {
            super(topo, sendLength, recvLength);
            this.sendCounts = sendCounts;
            this.sdispls = sdispls;
            this.sendTypes = sendTypes;
            this.recvCounts = recvCounts;
            this.rdispls = rdispls;
            this.recvTypes = recvTypes;
            this.recvPositions = recvPositions;
        }

        @Override
        void prepare(final int iter)
        {
            Arrays.fill(sendBuf, UNSET);
            for (int j = 0; j < outdegree(); j++)
            {
                final int ints = sendCounts[j] * (int)(sendTypes[j].size() / 4);
                for (int k = 0; k < ints; k++)
                {
                    sendBuf[(int)(sdispls[j] / 4) + k] = value(me, j, k, iter);
                }
            }
            Arrays.fill(recvBuf, UNSET);
        }

        @Override
        void blocking()
        {
            topo.comm().neighborAlltoallw(sendBuf, 0, sendCounts, sdispls, sendTypes, recvBuf, 0, recvCounts, rdispls, recvTypes);
        }

        @Override
        Request nonblocking()
        {
            return topo.comm().ineighborAlltoallw(sendBuf, 0, sendCounts, sdispls, sendTypes, recvBuf, 0, recvCounts, rdispls, recvTypes);
        }

        @Override
        Request persistent()
        {
            return topo.comm().neighborAlltoallwInit(sendBuf, 0, sendCounts, sdispls, sendTypes, recvBuf, 0, recvCounts, rdispls, recvTypes);
        }

        @Override
        int[] expected(final int iter)
        {
            final int[] want = new int[recvBuf.length];
            Arrays.fill(want, UNSET);
            for (int i = 0; i < indegree(); i++)
            {
                final int[] p = topo.pair(me, i);
                if (p != null)
                {
                    for (int k = 0; k < recvPositions[i].length; k++)
                    {
                        want[recvPositions[i][k]] = value(p[0], p[1], k, iter);
                    }
                }
            }
            return want;
        }
    }

    /**
     * Runs the three collectives on {@code topo}: blocking one after the other; nonblocking all in flight at once,
     * completed in reverse order; persistent, each started three times with new data, all in flight at once.
     */
    private static void exercise(final Topo topo)
    {
        final List<Case> cases = List.of(Allgatherv.of(topo), Alltoallv.of(topo), Alltoallw.of(topo));
        int iter = 0;
        for (final Case c : cases)
        {
            c.prepare(iter);
            c.blocking();
            c.check(iter, "blocking " + c.getClass().getSimpleName());
        }
        iter++;
        final Request[] requests = new Request[cases.size()];
        for (int k = 0; k < cases.size(); k++)
        {
            cases.get(k).prepare(iter);
            requests[k] = cases.get(k).nonblocking();
        }
        for (int k = cases.size() - 1; k >= 0; k--)
        {
            requests[k].await();
            cases.get(k).check(iter, "nonblocking " + cases.get(k).getClass().getSimpleName());
        }
        for (int k = 0; k < cases.size(); k++)
        {
            requests[k] = cases.get(k).persistent();
        }
        for (int start = 0; start < 3; start++)
        {
            iter++;
            for (int k = 0; k < cases.size(); k++)
            {
                cases.get(k).prepare(iter);
                requests[k].start();
            }
            Request.waitAll(requests);
            for (final Case c : cases)
            {
                c.check(iter, "persistent " + c.getClass().getSimpleName());
            }
        }
    }

    // ------------------------------------------------------------------------------------------ tests

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
            final Alltoallw viaGeneral = Alltoallw.of(general);
            final Alltoallw viaAdjacent = Alltoallw.of(adjacent);
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
