package org.jmpi.internal.coll;

import java.util.Arrays;

import org.jmpi.Comm;
import org.jmpi.Datatype;
import org.jmpi.ErrorClass;
import org.jmpi.MpiException;
import org.jmpi.internal.pt2pt.CommState;

/**
 * The neighbourhood collectives (MPI 4.1 §8.6, §8.7, §8.8) over explicit neighbour lists, and the edge exchange
 * of the general distributed graph constructor (MPI_Dist_graph_create).
 *
 * <p><b>Neighbour lists.</b> Every builder takes this rank's {@code sources} (receive block i comes from
 * {@code sources[i]}), {@code destinations} (send block j goes to {@code destinations[j]}) and a
 * {@code sendOrder} (the order the sends are posted in, or null for list order). PROC_NULL neighbours are
 * skipped: nothing is sent, their receive block is not touched. The topology communicators make the lists
 * (Cartesian: -1 then +1 neighbour of each dimension, sends posted +1 first; graph: the graph neighbours for
 * both; distributed graph: sources and destinations as created).
 *
 * <p><b>Pairing.</b> All blocks of one call carry the call's tag, so a receive is paired with a send by
 * per-pair message order: the k-th receive this rank posts from peer p takes the k-th block p sends to it.
 * With several edges between one pair (a multigraph, or a periodic Cartesian dimension of size 1 or 2) the
 * k-th occurrence of p among this rank's sources is therefore paired with the k-th occurrence of this rank
 * among p's destinations (in send posting order).
 *
 * <p>Stateless; any thread. The schedules read and write the users' buffers directly (no scratch).
 */
public final class Neighbors
{
    /**
     * Codes of the new neighbour collectives for the mismatch check ({@code jmpi.coll.check}); chosen far
     * from {@link Collectives}'s codes so that additions there do not collide.
     */
    static final int K_NEIGHBOR_ALLGATHERV = 120;
    static final int K_NEIGHBOR_ALLTOALLV = 121;
    static final int K_NEIGHBOR_ALLTOALLW = 122;

    /** Per-rank weight modes exchanged by {@link #distGraphEdges}: weights given, null with edges, null without. */
    private static final int NO_WEIGHTS_NO_EDGES = 0;
    private static final int NO_WEIGHTS = 1;
    private static final int WEIGHTS = 2;

    private Neighbors()
    {
    }

    // ------------------------------------------------------------------------------------------ allgather(v)

    /**
     * MPI_Neighbor_allgather: receive block i ({@code recvCount} items at {@code i * recvCount} extents) from
     * {@code sources[i]}, send the send buffer to every destination.
     * <ol>
     * <li>Check the send buffer and one receive slot per source.</li>
     * <li>One round: post every receive in source order, then every send in {@code sendOrder}.</li>
     * </ol>
     */
    public static Collectives.Plan neighborAllgather(final CommState c, final int[] sources, final int[] destinations,
        final int[] sendOrder, final Object sendBuf, final int sendOffset, final int sendCount, final Datatype sendType,
        final Object recvBuf, final int recvOffset, final int recvCount, final Datatype recvType)
    {
        final String call = "neighborAllgather";
        Buffers.checkSend(call, sendBuf, sendOffset, sendCount, sendType);
        final Buffers.Slot[] in = blockSlots(call, recvBuf, recvOffset, recvCount, recvType, sources.length, true);
        final Buffers.Slot[] out = sameSlot(new Buffers.Slot(sendBuf, sendOffset, sendCount, sendType), destinations.length);
        return Collectives.plan(c, call, Collectives.K_NEIGHBOR_ALLGATHER, 0, exchange(sources, destinations, sendOrder, in, out));
    }

    /**
     * MPI_Neighbor_allgatherv: as {@link #neighborAllgather}, block i being {@code recvCounts[i]} items at
     * {@code displs[i]} extents of {@code recvType}. Both arrays have one entry per source (the in-degree).
     * <ol>
     * <li>Check the send buffer, the arrays' lengths, the counts (&gt;= 0) and every receive slot.</li>
     * <li>One round: post every receive in source order, then every send in {@code sendOrder}.</li>
     * </ol>
     */
    public static Collectives.Plan neighborAllgatherv(final CommState c, final int[] sources, final int[] destinations,
        final int[] sendOrder, final Object sendBuf, final int sendOffset, final int sendCount, final Datatype sendType,
        final Object recvBuf, final int recvOffset, final int[] recvCounts, final int[] displs, final Datatype recvType)
    {
        final String call = "neighborAllgatherv";
        Buffers.checkSend(call, sendBuf, sendOffset, sendCount, sendType);
        final Buffers.Slot[] in = vectorSlots(call, "in", recvBuf, recvOffset, recvCounts, displs, recvType, sources.length, true);
        final Buffers.Slot[] out = sameSlot(new Buffers.Slot(sendBuf, sendOffset, sendCount, sendType), destinations.length);
        return Collectives.plan(c, call, K_NEIGHBOR_ALLGATHERV, 0, exchange(sources, destinations, sendOrder, in, out));
    }

    // ------------------------------------------------------------------------------------------ alltoall(v,w)

    /**
     * MPI_Neighbor_alltoall: send block j ({@code sendCount} items at {@code j * sendCount} extents) to
     * {@code destinations[j]}, receive block i from {@code sources[i]}.
     * <ol>
     * <li>Check one send slot per destination and one receive slot per source.</li>
     * <li>One round: post every receive in source order, then every send in {@code sendOrder}.</li>
     * </ol>
     */
    public static Collectives.Plan neighborAlltoall(final CommState c, final int[] sources, final int[] destinations,
        final int[] sendOrder, final Object sendBuf, final int sendOffset, final int sendCount, final Datatype sendType,
        final Object recvBuf, final int recvOffset, final int recvCount, final Datatype recvType)
    {
        final String call = "neighborAlltoall";
        final Buffers.Slot[] in = blockSlots(call, recvBuf, recvOffset, recvCount, recvType, sources.length, true);
        final Buffers.Slot[] out = blockSlots(call, sendBuf, sendOffset, sendCount, sendType, destinations.length, false);
        return Collectives.plan(c, call, Collectives.K_NEIGHBOR_ALLTOALL, 0, exchange(sources, destinations, sendOrder, in, out));
    }

    /**
     * MPI_Neighbor_alltoallv: send block j ({@code sendCounts[j]} items at {@code sdispls[j]} extents of
     * {@code sendType}) to {@code destinations[j]}, receive block i ({@code recvCounts[i]} items at
     * {@code rdispls[i]} extents of {@code recvType}) from {@code sources[i]}.
     * <ol>
     * <li>Check the arrays' lengths (out-degree for the send side, in-degree for the receive side), the
     * counts (&gt;= 0) and every slot.</li>
     * <li>One round: post every receive in source order, then every send in {@code sendOrder}.</li>
     * </ol>
     */
    public static Collectives.Plan neighborAlltoallv(final CommState c, final int[] sources, final int[] destinations,
        final int[] sendOrder, final Object sendBuf, final int sendOffset, final int[] sendCounts, final int[] sdispls,
        final Datatype sendType, final Object recvBuf, final int recvOffset, final int[] recvCounts, final int[] rdispls,
        final Datatype recvType)
    {
        final String call = "neighborAlltoallv";
        final Buffers.Slot[] out = vectorSlots(call, "out", sendBuf, sendOffset, sendCounts, sdispls, sendType, destinations.length, false);
        final Buffers.Slot[] in = vectorSlots(call, "in", recvBuf, recvOffset, recvCounts, rdispls, recvType, sources.length, true);
        return Collectives.plan(c, call, K_NEIGHBOR_ALLTOALLV, 0, exchange(sources, destinations, sendOrder, in, out));
    }

    /**
     * MPI_Neighbor_alltoallw: as {@link #neighborAlltoallv} with a datatype per block and displacements in
     * bytes from element {@code sendOffset} / {@code recvOffset} of the buffers.
     * <ol>
     * <li>Check the arrays' lengths (out-degree for the send side, in-degree for the receive side), the
     * counts (&gt;= 0), the types and every slot.</li>
     * <li>One round: post every receive in source order, then every send in {@code sendOrder}.</li>
     * </ol>
     */
    public static Collectives.Plan neighborAlltoallw(final CommState c, final int[] sources, final int[] destinations,
        final int[] sendOrder, final Object sendBuf, final int sendOffset, final int[] sendCounts, final long[] sdisplsBytes,
        final Datatype[] sendTypes, final Object recvBuf, final int recvOffset, final int[] recvCounts, final long[] rdisplsBytes,
        final Datatype[] recvTypes)
    {
        final String call = "neighborAlltoallw";
        final Buffers.Slot[] out = bytewiseSlots(call, "out", sendBuf, sendOffset, sendCounts, sdisplsBytes, sendTypes,
            destinations.length, false);
        final Buffers.Slot[] in = bytewiseSlots(call, "in", recvBuf, recvOffset, recvCounts, rdisplsBytes, recvTypes, sources.length, true);
        return Collectives.plan(c, call, K_NEIGHBOR_ALLTOALLW, 0, exchange(sources, destinations, sendOrder, in, out));
    }

    /** The one round of every neighbour collective: receives in source order, then sends in {@code sendOrder}. */
    private static Schedule exchange(final int[] sources, final int[] destinations, final int[] sendOrder, final Buffers.Slot[] in,
        final Buffers.Slot[] out)
    {
        assert in.length == sources.length && out.length == destinations.length;
        assert sendOrder == null || sendOrder.length == destinations.length;
        final Schedule s = new Schedule();
        for (int i = 0; i < sources.length; i++)
        {
            if (sources[i] != Comm.PROC_NULL)
            {
                s.recv(sources[i], in[i].buf(), in[i].offset(), in[i].count(), in[i].type());
            }
        }
        for (int k = 0; k < destinations.length; k++)
        {
            final int j = sendOrder == null ? k : sendOrder[k];
            if (destinations[j] != Comm.PROC_NULL)
            {
                s.send(destinations[j], out[j].buf(), out[j].offset(), out[j].count(), out[j].type());
            }
        }
        s.next();
        return s;
    }

    // ------------------------------------------------------------------------------------------ slots

    private static Buffers.Slot[] sameSlot(final Buffers.Slot slot, final int blocks)
    {
        final Buffers.Slot[] slots = new Buffers.Slot[blocks];
        Arrays.fill(slots, slot);
        return slots;
    }

    /** {@code blocks} consecutive slots of {@code count} items each. */
    private static Buffers.Slot[] blockSlots(final String call, final Object buf, final int offset, final int count, final Datatype type,
        final int blocks, final boolean receive)
    {
        if (type == null)
        {
            throw new MpiException(ErrorClass.ERR_TYPE, call + ": datatype is null");
        }
        if (count < 0)
        {
            throw new MpiException(ErrorClass.ERR_COUNT, call + ": negative count " + count);
        }
        final Buffers.Slot[] slots = new Buffers.Slot[blocks];
        for (int i = 0; i < blocks; i++)
        {
            slots[i] = Buffers.slot(buf, offset, (long)i * count * type.extent(), count, type);
            Buffers.check(call, slots[i], receive);
        }
        return slots;
    }

    private static void checkLength(final String call, final String what, final int length, final String side, final int degree)
    {
        if (length != degree)
        {
            throw new MpiException(ErrorClass.ERR_ARG, call + ": " + what + " has " + length + " entries, the " + side +
                "-degree of this rank is " + degree);
        }
    }

    private static String side(final boolean receive)
    {
        return receive ? "recv" : "send";
    }

    private static void checkCounts(final String call, final String direction, final int[] counts, final int[] displs,
        final int degree, final boolean receive)
    {
        if (counts == null || displs == null)
        {
            throw new MpiException(ErrorClass.ERR_ARG, call + ": " + side(receive) + " counts and displacements must not be null");
        }
        checkLength(call, side(receive) + "Counts", counts.length, direction, degree);
        checkLength(call, side(receive) + " displacements", displs.length, direction, degree);
        for (int i = 0; i < degree; i++)
        {
            if (counts[i] < 0)
            {
                throw new MpiException(ErrorClass.ERR_COUNT, call + ": negative " + side(receive) + " count " + counts[i] + " for neighbour " + i);
            }
        }
    }

    /** One slot per neighbour: {@code counts[i]} items at {@code displs[i]} extents of {@code type}. */
    private static Buffers.Slot[] vectorSlots(final String call, final String direction, final Object buf, final int offset,
        final int[] counts, final int[] displs, final Datatype type, final int degree, final boolean receive)
    {
        checkCounts(call, direction, counts, displs, degree, receive);
        if (type == null)
        {
            throw new MpiException(ErrorClass.ERR_TYPE, call + ": " + side(receive) + " datatype is null");
        }
        return Buffers.extentSlots(call, buf, offset, counts, displs, type, degree, receive);
    }

    /** One slot per neighbour: {@code counts[i]} items of {@code types[i]} at byte displacement {@code displs[i]}. */
    private static Buffers.Slot[] bytewiseSlots(final String call, final String direction, final Object buf, final int offset,
        final int[] counts, final long[] displs, final Datatype[] types, final int degree, final boolean receive)
    {
        if (counts == null || displs == null || types == null)
        {
            throw new MpiException(ErrorClass.ERR_ARG, call + ": " + side(receive) + " counts, displacements and types must not be null");
        }
        checkLength(call, side(receive) + "Counts", counts.length, direction, degree);
        checkLength(call, side(receive) + " displacements", displs.length, direction, degree);
        checkLength(call, side(receive) + "Types", types.length, direction, degree);
        final Buffers.Slot[] slots = new Buffers.Slot[degree];
        for (int i = 0; i < degree; i++)
        {
            if (counts[i] < 0)
            {
                throw new MpiException(ErrorClass.ERR_COUNT, call + ": negative " + side(receive) + " count " + counts[i] + " for neighbour " + i);
            }
            if (types[i] == null)
            {
                throw new MpiException(ErrorClass.ERR_TYPE, call + ": " + side(receive) + " datatype for neighbour " + i + " is null");
            }
            if (!types[i].isCommitted())
            {
                throw new MpiException(ErrorClass.ERR_TYPE, call + ": " + side(receive) + " datatype " + types[i].name() +
                    " for neighbour " + i + " is not committed");
            }
            slots[i] = Buffers.slot(buf, offset, displs[i], counts[i], types[i]);
            Buffers.check(call, slots[i], receive);
        }
        return slots;
    }

    // ------------------------------------------------------------------------------------------ dist_graph_create

    /**
     * The neighbours of this rank in a distributed graph, with their weights (both null when unweighted).
     *
     * @param sources       ranks this one receives from, in neighbour order
     * @param sourceWeights the weight of each source edge, or null
     * @param destinations  ranks this one sends to, in neighbour order
     * @param destWeights   the weight of each destination edge, or null
     */
    public record Edges(int[] sources, int[] sourceWeights, int[] destinations, int[] destWeights)
    {
        /** Whether the graph carries weights (MPI_Dist_graph_neighbors_count's {@code weighted}). */
        public boolean weighted()
        {
            return sourceWeights != null;
        }
    }

    /**
     * MPI_Dist_graph_create's exchange: every rank contributes edges {@code sources[i] -> destinations[...]}
     * ({@code degrees[i]} consecutive destinations per source, with {@code weights} in the same order, or
     * null for an unweighted graph); every rank learns its own in- and out-edges. Collective over {@code c}.
     * <ol>
     * <li>Check the arguments (ranks in range, degrees and weights non-negative, array lengths).</li>
     * <li>For every edge s -&gt; d (weight w), in the order given, append the record (d, w) "out" for rank s
     * and the record (s, w) "in" for rank d (both to one rank for a self-loop, out first).</li>
     * <li>Alltoall of {ints for you, weight mode}: the weight mode (weights given; null with edges; null with
     * no edges) lets every rank apply the same rule: the graph is weighted if any rank gave weights, and
     * then a rank giving null weights with edges is ERR_ARG, on every rank alike.</li>
     * <li>Alltoallv of the records.</li>
     * <li>Read the records in order of contributing rank, then of the contributor's edge order: "out"
     * records are the destinations, "in" records the sources.</li>
     * </ol>
     * The k-th edge s -&gt; d among s's destinations and among d's sources is thus the same edge, so neighbour
     * collectives pair multi-edges up in order.
     */
    public static Edges distGraphEdges(final CommState c, final int[] sources, final int[] degrees, final int[] destinations,
        final int[] weights)
    {
        final String call = "distGraphCreate";
        final int size = c.size();
        // 1. Arguments.
        if (sources == null || degrees == null || destinations == null)
        {
            throw new MpiException(ErrorClass.ERR_ARG, call + ": sources, degrees and destinations must not be null");
        }
        if (sources.length != degrees.length)
        {
            throw new MpiException(ErrorClass.ERR_ARG, call + ": " + sources.length + " sources but " + degrees.length + " degrees");
        }
        long edges = 0;
        for (int i = 0; i < sources.length; i++)
        {
            checkRank(call, "source", sources[i], size);
            if (degrees[i] < 0)
            {
                throw new MpiException(ErrorClass.ERR_ARG, call + ": negative degree " + degrees[i] + " for source " + sources[i]);
            }
            edges += degrees[i];
        }
        if (destinations.length != edges)
        {
            throw new MpiException(ErrorClass.ERR_ARG, call + ": the degrees add up to " + edges + " edges, but " + destinations.length +
                " destinations are given");
        }
        if (weights != null && weights.length != edges)
        {
            throw new MpiException(ErrorClass.ERR_ARG, call + ": " + edges + " edges but " + weights.length + " weights");
        }
        for (int e = 0; e < destinations.length; e++)
        {
            checkRank(call, "destination", destinations[e], size);
            if (weights != null && weights[e] < 0)
            {
                throw new MpiException(ErrorClass.ERR_ARG, call + ": negative weight " + weights[e] + " on edge " + e);
            }
        }
        // 2. Two ints (peer, weight) per record; the peer of an "in" record is stored as ~peer.
        final int[] sendCounts = new int[size];
        for (int i = 0, e = 0; i < sources.length; i++)
        {
            for (int k = 0; k < degrees[i]; k++, e++)
            {
                sendCounts[sources[i]] += 2;
                sendCounts[destinations[e]] += 2;
            }
        }
        final int[] sendDispls = prefix(sendCounts);
        final int[] records = new int[sendDispls[size - 1] + sendCounts[size - 1]];
        final int[] fill = sendDispls.clone();
        for (int i = 0, e = 0; i < sources.length; i++)
        {
            for (int k = 0; k < degrees[i]; k++, e++)
            {
                final int w = weights == null ? 1 : weights[e];
                records[fill[sources[i]]++] = destinations[e];
                records[fill[sources[i]]++] = w;
                records[fill[destinations[e]]++] = ~sources[i];
                records[fill[destinations[e]]++] = w;
            }
        }
        // 3. Counts and weight modes.
        final int mode = weights != null ? WEIGHTS : edges > 0 ? NO_WEIGHTS : NO_WEIGHTS_NO_EDGES;
        final int[] header = new int[2 * size];
        for (int r = 0; r < size; r++)
        {
            header[2 * r] = sendCounts[r];
            header[2 * r + 1] = mode;
        }
        final int[] heard = new int[2 * size];
        Alltoalls.alltoall(c, header, 0, 2, Datatype.INT, heard, 0, 2, Datatype.INT).start().await();
        int weighted = -1;
        int unweighted = -1;
        final int[] recvCounts = new int[size];
        for (int r = 0; r < size; r++)
        {
            recvCounts[r] = heard[2 * r];
            if (heard[2 * r + 1] == WEIGHTS && weighted < 0)
            {
                weighted = r;
            }
            if (heard[2 * r + 1] == NO_WEIGHTS && unweighted < 0)
            {
                unweighted = r;
            }
        }
        if (weighted >= 0 && unweighted >= 0)
        {
            throw new MpiException(ErrorClass.ERR_ARG, call + ": rank " + unweighted + " gave edges without weights (unweighted) but rank " +
                weighted + " gave weights: all ranks must agree");
        }
        // 4. The records.
        final int[] recvDispls = prefix(recvCounts);
        final int[] mine = new int[recvDispls[size - 1] + recvCounts[size - 1]];
        Alltoalls.alltoallv(c, records, 0, sendCounts, sendDispls, Datatype.INT, mine, 0, recvCounts, recvDispls, Datatype.INT)
            .start().await();
        // 5. Split into sources and destinations, keeping the order.
        int in = 0;
        for (int k = 0; k < mine.length; k += 2)
        {
            if (mine[k] < 0)
            {
                in++;
            }
        }
        final int out = mine.length / 2 - in;
        final int[] src = new int[in];
        final int[] srcWeights = new int[in];
        final int[] dst = new int[out];
        final int[] dstWeights = new int[out];
        for (int k = 0, i = 0, o = 0; k < mine.length; k += 2)
        {
            if (mine[k] < 0)
            {
                src[i] = ~mine[k];
                srcWeights[i++] = mine[k + 1];
            }
            else
            {
                dst[o] = mine[k];
                dstWeights[o++] = mine[k + 1];
            }
        }
        return weighted >= 0 ? new Edges(src, srcWeights, dst, dstWeights) : new Edges(src, null, dst, null);
    }

    private static void checkRank(final String call, final String what, final int rank, final int size)
    {
        if (rank < 0 || rank >= size)
        {
            throw new MpiException(ErrorClass.ERR_RANK, call + ": invalid " + what + " rank " + rank + " (communicator size " + size + ")");
        }
    }

    private static int[] prefix(final int[] counts)
    {
        final int[] displs = new int[counts.length];
        for (int r = 1; r < counts.length; r++)
        {
            displs[r] = displs[r - 1] + counts[r - 1];
        }
        return displs;
    }
}
