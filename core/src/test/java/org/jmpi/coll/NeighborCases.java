package org.jmpi.coll;

import java.util.Arrays;
import java.util.List;

import org.jmpi.Datatype;
import org.jmpi.Request;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import static org.jmpi.coll.NeighborTopologies.*;

/**
 * neighbor_allgatherv, neighbor_alltoallv and neighbor_alltoallw as cases (buffers, arguments and the expected receive
 * buffer of one rank) and {@link #exercise}, which runs the three blocking, nonblocking and persistent on a topology.
 *
 * <p>The reference pairs receive block i of rank r with the send block of its source s that MPI says it
 * receives: on a Cartesian grid the block s sent the other way along the same dimension (i ^ 1); on a graph
 * the k-th occurrence of r among s's destinations, where s occurs for the k-th time at i among r's sources.
 */
final class NeighborCases
{
    private NeighborCases()
    {
    }

    enum Mode
    {
        BLOCKING, NONBLOCKING, PERSISTENT
    }

    /** The buffers and arguments of one neighbour collective on one rank, and its expected receive buffer. */
    abstract static class Case
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
    static int layoutBackwards(final int[] counts, final int[] displs, final int gap)
    {
        int pos = gap;
        for (int i = counts.length - 1; i >= 0; i--)
        {
            displs[i] = pos;
            pos += counts[i] + gap;
        }
        return pos;
    }

    static int layoutForwards(final int[] counts, final int[] displs, final int gap)
    {
        int pos = 0;
        for (int i = 0; i < counts.length; i++)
        {
            displs[i] = pos;
            pos += counts[i] + gap;
        }
        return pos;
    }

    static final class Allgatherv extends Case
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
    static final class Alltoallv extends Case
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
    static final class Alltoallw extends Case
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
    static void exercise(final Topo topo)
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
}
