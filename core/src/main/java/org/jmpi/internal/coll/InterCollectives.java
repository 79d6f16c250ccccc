package org.jmpi.internal.coll;

import java.util.ArrayList;
import java.util.List;

import org.jmpi.Comm;
import org.jmpi.Datatype;
import org.jmpi.ErrorClass;
import org.jmpi.MpiException;
import org.jmpi.Op;
import org.jmpi.internal.coll.Collectives.Plan;
import org.jmpi.internal.coll.Reductions.Reduction;
import org.jmpi.internal.pt2pt.CommState;

/**
 * Collectives over an intercommunicator (MPI 4.1 §6.2.2 and each collective's intercommunicator paragraph),
 * blocking and nonblocking, each one {@link Schedule} run by a {@link CollRequest} like the intracommunicator
 * collectives.
 *
 * <p><b>One communicator for both groups.</b> Every intercommunicator holds a communicator over the union of
 * its two groups on a context id of its own ({@link Groups#union}): the group whose leader (local rank 0) has
 * the lower world rank first, so both groups number the union alike. A collective is a schedule over it:
 * transfers to the remote group and transfers inside the local group (the local sub-steps: binomial trees
 * rooted at the group's leader) are rounds of the same schedule, under one tag. Every member of both groups
 * takes the union's next collective tag, so the groups agree on it as long as they call the intercommunicator's
 * collectives in the same order (which MPI requires); several operations may be in flight on one
 * intercommunicator and complete in any order.
 *
 * <p><b>Roots.</b> In rooted calls the root passes {@link #ROOT}, the rest of its group {@link Comm#PROC_NULL}
 * (they take part in nothing but the tag), and the other group passes the root's rank in the root's group.
 * IN_PLACE is not defined on intercommunicators: it is {@code ERR_BUFFER} wherever it is passed. Scan and
 * exscan are not defined on intercommunicators.
 *
 * <p>Algorithms (L = local group size, R = remote group size):
 * <ul>
 * <li>barrier: zero-byte binomial fan-in to each leader, the leaders exchange, binomial fan-out.</li>
 * <li>bcast: the root sends to the remote leader, which broadcasts in its group (binomial).</li>
 * <li>gather(v), scatter(v): linear between the root and every member of the other group.</li>
 * <li>allgather(v): each leader receives the other group's blocks straight into its receive buffer (linear),
 * then broadcasts them (packed) in its group.</li>
 * <li>alltoall(v, w): every pair across the groups exchanges its blocks directly: all at once (linear), or
 * for alltoall blocks above 32 KiB in max(L, R) pairwise steps.</li>
 * <li>reduce: the non-root group reduces to its leader (binomial, rank order kept), which sends to the root.</li>
 * <li>allreduce: each group reduces to its leader, the leaders exchange, each broadcasts the other group's
 * result in its group.</li>
 * <li>reduce_scatter(_block): each group reduces its whole vector to its leader, the leaders exchange, each
 * scatters the other group's result in its group by its own counts.</li>
 * </ul>
 *
 * <p>Threading: any thread; the schedules run on the engine thread.
 */
public final class InterCollectives
{
    /** MPI_ROOT: passed as root by the root process of the sending group. */
    public static final int ROOT = -3;

    /**
     * Alltoall blocks up to this size post everything at once, larger ones go pairwise: MPICH's
     * MPIR_CVAR_ALLTOALL_MEDIUM_MSG_SIZE, as for intracommunicators; not yet measured on jmpi.
     */
    private static final int ALLTOALL_MEDIUM_BYTES = 32768;

    private static final byte[] NO_BYTES = new byte[0];
    private static final Buffers.Slot NOTHING = new Buffers.Slot(NO_BYTES, 0, 0, Datatype.BYTE);

    /**
     * The two groups of an intercommunicator inside the communicator over both ({@code union}): local rank i
     * is union rank {@code localBase + i}, remote rank j is union rank {@code remoteBase + j}.
     */
    public record Groups(CommState union, int localBase, int localSize, int remoteBase, int remoteSize)
    {
        /**
         * The union of the local group (world ranks {@code localWorld}, this process at {@code localRank}) and
         * the remote group, on context id {@code contextId} (which both groups must have reserved): the group
         * whose first member has the lower world rank comes first.
         */
        public static Groups of(final CommState local, final int[] localWorld, final int[] remoteWorld, final int contextId)
        {
            final boolean localFirst = localWorld[0] < remoteWorld[0];
            final int[] all = new int[localWorld.length + remoteWorld.length];
            final int localBase = localFirst ? 0 : remoteWorld.length;
            final int remoteBase = localFirst ? localWorld.length : 0;
            System.arraycopy(localWorld, 0, all, localBase, localWorld.length);
            System.arraycopy(remoteWorld, 0, all, remoteBase, remoteWorld.length);
            final CommState union = local.derive(contextId, contextId, localBase + local.rank(), all, "intercomm");
            return new Groups(union, localBase, localWorld.length, remoteBase, remoteWorld.length);
        }

        /** This process's rank in its (local) group. */
        int rank()
        {
            return union.rank() - localBase;
        }

        int local(final int rank)
        {
            return localBase + rank;
        }

        int remote(final int rank)
        {
            return remoteBase + rank;
        }

        boolean leader()
        {
            return union.rank() == localBase;
        }
    }

    /** The role of a process in a rooted call. */
    private enum Role
    {
        /** The root (passed ROOT). */
        ROOT,
        /** In the root's group, not the root (passed PROC_NULL). */
        IDLE,
        /** In the other group (passed the root's rank). */
        REMOTE
    }

    private InterCollectives()
    {
    }

    // ------------------------------------------------------------------------------------------ barrier, bcast

    /**
     * MPI_Barrier on an intercommunicator: no process leaves before every process of the other group has
     * entered.
     * <ol>
     * <li>Zero-byte binomial fan-in to each group's leader.</li>
     * <li>The leaders exchange a zero-byte message.</li>
     * <li>Zero-byte binomial fan-out from each leader.</li>
     * </ol>
     */
    public static Plan barrier(final Groups g)
    {
        final Schedule s = new Schedule();
        groupFanIn(s, g);
        exchangeLeaders(s, g, NO_BYTES, NO_BYTES, 0);
        groupBcast(s, g, NOTHING);
        return plan(g, "barrier", Collectives.K_BARRIER, s);
    }

    /**
     * MPI_Bcast from the root's group to the other group.
     * <ol>
     * <li>The root sends the message to the other group's leader.</li>
     * <li>The receiving group broadcasts it from its leader (binomial).</li>
     * </ol>
     */
    public static Plan bcast(final Groups g, final Object buf, final int offset, final int count, final Datatype type, final int root)
    {
        final String call = "bcast";
        noInPlace(call, buf);
        final Role role = role(call, g, root);
        final Schedule s = new Schedule();
        final Buffers.Slot data = new Buffers.Slot(buf, offset, count, type);
        if (role == Role.ROOT)
        {
            Buffers.checkSend(call, buf, offset, count, type);
            send(s, g.remote(0), data);
            s.next();
        }
        else if (role == Role.REMOTE)
        {
            Buffers.checkRecv(call, buf, offset, count, type);
            if (g.leader())
            {
                recv(s, g.remote(root), data);
                s.next();
            }
            groupBcast(s, g, data);
        }
        return plan(g, call, Collectives.K_BCAST, s);
    }

    // ------------------------------------------------------------------------------------------ gather, scatter

    /** MPI_Gather: the root receives block j (of {@code recvCount} items) from rank j of the other group. Linear. */
    public static Plan gather(final Groups g, final Object sendBuf, final int sendOffset, final int sendCount, final Datatype sendType,
        final Object recvBuf, final int recvOffset, final int recvCount, final Datatype recvType, final int root)
    {
        return gatherv(g, "gather", Collectives.K_GATHER, sendBuf, sendOffset, sendCount, sendType, recvBuf, recvOffset,
            evenCounts(g.remoteSize(), recvCount), evenDispls(g.remoteSize(), recvCount), recvType, root);
    }

    /** MPI_Gatherv: the root receives rank j's block of {@code recvCounts[j]} items at {@code displs[j]} extents. Linear. */
    public static Plan gatherv(final Groups g, final Object sendBuf, final int sendOffset, final int sendCount, final Datatype sendType,
        final Object recvBuf, final int recvOffset, final int[] recvCounts, final int[] displs, final Datatype recvType, final int root)
    {
        return gatherv(g, "gatherv", Collectives.K_GATHERV, sendBuf, sendOffset, sendCount, sendType, recvBuf, recvOffset, recvCounts,
            displs, recvType, root);
    }

    /**
     * Linear gather(v) across the groups:
     * <ol>
     * <li>The root posts one receive per member of the other group, straight into that member's slot.</li>
     * <li>Every member of the other group sends its block to the root.</li>
     * </ol>
     */
    private static Plan gatherv(final Groups g, final String call, final int kind, final Object sendBuf, final int sendOffset,
        final int sendCount, final Datatype sendType, final Object recvBuf, final int recvOffset, final int[] recvCounts,
        final int[] displs, final Datatype recvType, final int root)
    {
        noInPlace(call, sendBuf, recvBuf);
        final Role role = role(call, g, root);
        final Schedule s = new Schedule();
        if (role == Role.ROOT)
        {
            final Buffers.Slot[] slots = vectorSlots(call, g.remoteSize(), recvBuf, recvOffset, recvCounts, displs, recvType, true);
            for (int j = 0; j < slots.length; j++)
            {
                recv(s, g.remote(j), slots[j]);
            }
            s.next();
        }
        else if (role == Role.REMOTE)
        {
            Buffers.checkSend(call, sendBuf, sendOffset, sendCount, sendType);
            s.send(g.remote(root), sendBuf, sendOffset, sendCount, sendType);
            s.next();
        }
        return plan(g, call, kind, s);
    }

    /** MPI_Scatter: rank j of the other group receives the root's block j (of {@code sendCount} items). Linear. */
    public static Plan scatter(final Groups g, final Object sendBuf, final int sendOffset, final int sendCount, final Datatype sendType,
        final Object recvBuf, final int recvOffset, final int recvCount, final Datatype recvType, final int root)
    {
        return scatterv(g, "scatter", Collectives.K_SCATTER, sendBuf, sendOffset, evenCounts(g.remoteSize(), sendCount),
            evenDispls(g.remoteSize(), sendCount), sendType, recvBuf, recvOffset, recvCount, recvType, root);
    }

    /** MPI_Scatterv: rank j of the other group receives {@code sendCounts[j]} items at {@code displs[j]} extents. Linear. */
    public static Plan scatterv(final Groups g, final Object sendBuf, final int sendOffset, final int[] sendCounts, final int[] displs,
        final Datatype sendType, final Object recvBuf, final int recvOffset, final int recvCount, final Datatype recvType, final int root)
    {
        return scatterv(g, "scatterv", Collectives.K_SCATTERV, sendBuf, sendOffset, sendCounts, displs, sendType, recvBuf, recvOffset,
            recvCount, recvType, root);
    }

    /**
     * Linear scatter(v) across the groups:
     * <ol>
     * <li>The root posts one send per member of the other group, from that member's slot.</li>
     * <li>Every member of the other group receives its block from the root.</li>
     * </ol>
     */
    private static Plan scatterv(final Groups g, final String call, final int kind, final Object sendBuf, final int sendOffset,
        final int[] sendCounts, final int[] displs, final Datatype sendType, final Object recvBuf, final int recvOffset,
        final int recvCount, final Datatype recvType, final int root)
    {
        noInPlace(call, sendBuf, recvBuf);
        final Role role = role(call, g, root);
        final Schedule s = new Schedule();
        if (role == Role.ROOT)
        {
            final Buffers.Slot[] slots = vectorSlots(call, g.remoteSize(), sendBuf, sendOffset, sendCounts, displs, sendType, false);
            for (int j = 0; j < slots.length; j++)
            {
                send(s, g.remote(j), slots[j]);
            }
            s.next();
        }
        else if (role == Role.REMOTE)
        {
            Buffers.checkRecv(call, recvBuf, recvOffset, recvCount, recvType);
            s.recv(g.remote(root), recvBuf, recvOffset, recvCount, recvType);
            s.next();
        }
        return plan(g, call, kind, s);
    }

    // ------------------------------------------------------------------------------------------ allgather

    /** MPI_Allgather: every process receives block j (of {@code recvCount} items) from rank j of the other group. */
    public static Plan allgather(final Groups g, final Object sendBuf, final int sendOffset, final int sendCount, final Datatype sendType,
        final Object recvBuf, final int recvOffset, final int recvCount, final Datatype recvType)
    {
        return allgatherv(g, "allgather", Collectives.K_ALLGATHER, sendBuf, sendOffset, sendCount, sendType, recvBuf, recvOffset,
            evenCounts(g.remoteSize(), recvCount), evenDispls(g.remoteSize(), recvCount), recvType);
    }

    /** MPI_Allgatherv: every process receives rank j's block of {@code recvCounts[j]} items at {@code displs[j]} extents. */
    public static Plan allgatherv(final Groups g, final Object sendBuf, final int sendOffset, final int sendCount, final Datatype sendType,
        final Object recvBuf, final int recvOffset, final int[] recvCounts, final int[] displs, final Datatype recvType)
    {
        return allgatherv(g, "allgatherv", Collectives.K_ALLGATHERV, sendBuf, sendOffset, sendCount, sendType, recvBuf, recvOffset,
            recvCounts, displs, recvType);
    }

    /**
     * Allgather(v) across the groups, in both directions at once:
     * <ol>
     * <li>Every process sends its block to the other group's leader; each leader receives the other group's
     * blocks straight into its receive slots.</li>
     * <li>Each leader packs its slots; the packed blocks are broadcast in its group (binomial).</li>
     * <li>The others unpack them into their slots.</li>
     * </ol>
     */
    private static Plan allgatherv(final Groups g, final String call, final int kind, final Object sendBuf, final int sendOffset,
        final int sendCount, final Datatype sendType, final Object recvBuf, final int recvOffset, final int[] recvCounts,
        final int[] displs, final Datatype recvType)
    {
        noInPlace(call, sendBuf, recvBuf);
        Buffers.checkSend(call, sendBuf, sendOffset, sendCount, sendType);
        final Buffers.Slot[] slots = vectorSlots(call, g.remoteSize(), recvBuf, recvOffset, recvCounts, displs, recvType, true);
        final int[] offsets = packedOffsets(call, slots);
        final int bytes = offsets[slots.length];
        final byte[] packed = new byte[bytes];
        final Schedule s = new Schedule();
        s.send(g.remote(0), sendBuf, sendOffset, sendCount, sendType);
        if (g.leader())
        {
            for (int j = 0; j < slots.length; j++)
            {
                recv(s, g.remote(j), slots[j]);
            }
        }
        s.next();
        if (g.localSize() > 1)
        {
            if (g.leader())
            {
                s.local(() -> packSlots(slots, offsets, packed));
            }
            groupBcast(s, g, new Buffers.Slot(packed, 0, bytes, Datatype.BYTE));
            if (!g.leader())
            {
                s.local(() -> unpackSlots(packed, offsets, slots));
            }
        }
        return plan(g, call, kind, s);
    }

    // ------------------------------------------------------------------------------------------ alltoall

    /** MPI_Alltoall: block j of the send buffer goes to rank j of the other group, block j of the receive buffer comes from it. */
    public static Plan alltoall(final Groups g, final Object sendBuf, final int sendOffset, final int sendCount, final Datatype sendType,
        final Object recvBuf, final int recvOffset, final int recvCount, final Datatype recvType)
    {
        final String call = "alltoall";
        noInPlace(call, sendBuf, recvBuf);
        final int r = g.remoteSize();
        final Buffers.Slot[] out = vectorSlots(call, r, sendBuf, sendOffset, evenCounts(r, sendCount), evenDispls(r, sendCount), sendType,
            false);
        final Buffers.Slot[] in = vectorSlots(call, r, recvBuf, recvOffset, evenCounts(r, recvCount), evenDispls(r, recvCount), recvType,
            true);
        final Schedule s = new Schedule();
        if (Buffers.packedBytes(call, recvCount, recvType) > ALLTOALL_MEDIUM_BYTES)
        {
            alltoallPairwise(s, g, out, in);
        }
        else
        {
            alltoallLinear(s, g, out, in);
        }
        return plan(g, call, Collectives.K_ALLTOALL, s);
    }

    /** MPI_Alltoallv: displacements in extents of the types. Linear. */
    public static Plan alltoallv(final Groups g, final Object sendBuf, final int sendOffset, final int[] sendCounts, final int[] sdispls,
        final Datatype sendType, final Object recvBuf, final int recvOffset, final int[] recvCounts, final int[] rdispls,
        final Datatype recvType)
    {
        final String call = "alltoallv";
        noInPlace(call, sendBuf, recvBuf);
        final Buffers.Slot[] out = vectorSlots(call, g.remoteSize(), sendBuf, sendOffset, sendCounts, sdispls, sendType, false);
        final Buffers.Slot[] in = vectorSlots(call, g.remoteSize(), recvBuf, recvOffset, recvCounts, rdispls, recvType, true);
        final Schedule s = new Schedule();
        alltoallLinear(s, g, out, in);
        return plan(g, call, Collectives.K_ALLTOALLV, s);
    }

    /** MPI_Alltoallw: per-rank types, displacements in bytes. Linear. */
    public static Plan alltoallw(final Groups g, final Object sendBuf, final int sendOffset, final int[] sendCounts,
        final long[] sdisplsBytes, final Datatype[] sendTypes, final Object recvBuf, final int recvOffset, final int[] recvCounts,
        final long[] rdisplsBytes, final Datatype[] recvTypes)
    {
        final String call = "alltoallw";
        noInPlace(call, sendBuf, recvBuf);
        final Buffers.Slot[] out = bytewiseSlots(call, g.remoteSize(), sendBuf, sendOffset, sendCounts, sdisplsBytes, sendTypes, false);
        final Buffers.Slot[] in = bytewiseSlots(call, g.remoteSize(), recvBuf, recvOffset, recvCounts, rdisplsBytes, recvTypes, true);
        final Schedule s = new Schedule();
        alltoallLinear(s, g, out, in);
        return plan(g, call, Collectives.K_ALLTOALLW, s);
    }

    /**
     * Linear alltoall across the groups: post every receive and every send at once, starting at remote rank
     * (own rank mod R) so that not every process starts with the same peer. Each pair across the groups
     * exchanges exactly one message each way.
     */
    private static void alltoallLinear(final Schedule s, final Groups g, final Buffers.Slot[] out, final Buffers.Slot[] in)
    {
        final int r = g.remoteSize();
        for (int i = 0; i < r; i++)
        {
            final int j = (g.rank() + i) % r;
            recv(s, g.remote(j), in[j]);
        }
        for (int i = 0; i < r; i++)
        {
            final int j = (g.rank() + i) % r;
            send(s, g.remote(j), out[j]);
        }
        s.next();
    }

    /**
     * Pairwise alltoall across the groups (large blocks), with M = max(L, R):
     * <ol>
     * <li>In step i = 0 .. M-1, send to remote rank (rank + i) mod M and receive from remote rank
     * (rank - i) mod M, skipping ranks at or above R.</li>
     * <li>Rank a of one group sends to rank b of the other in the step where b receives from a, so every step
     * pairs up sends with receives.</li>
     * </ol>
     */
    private static void alltoallPairwise(final Schedule s, final Groups g, final Buffers.Slot[] out, final Buffers.Slot[] in)
    {
        final int r = g.remoteSize();
        final int m = Math.max(g.localSize(), r);
        final int rank = g.rank();
        for (int i = 0; i < m; i++)
        {
            final int to = (rank + i) % m;
            final int from = (rank - i + m) % m;
            if (from < r)
            {
                recv(s, g.remote(from), in[from]);
            }
            if (to < r)
            {
                send(s, g.remote(to), out[to]);
            }
            s.next();
        }
    }

    // ------------------------------------------------------------------------------------------ reductions

    /**
     * MPI_Reduce: the root receives the reduction (in rank order) of the other group's operands.
     * <ol>
     * <li>The other group packs its operands and reduces them to its leader (binomial tree rooted at the
     * leader: children combined in increasing rank, so non-commutative ops keep rank order).</li>
     * <li>Its leader sends the result to the root, which unpacks it into its receive buffer.</li>
     * </ol>
     */
    public static Plan reduce(final Groups g, final Object sendBuf, final int sendOffset, final Object recvBuf, final int recvOffset,
        final int count, final Datatype type, final Op op, final int root)
    {
        final String call = "reduce";
        noInPlace(call, sendBuf, recvBuf);
        final Role role = role(call, g, root);
        final Schedule s = new Schedule();
        if (role == Role.ROOT)
        {
            Buffers.checkRecv(call, recvBuf, recvOffset, count, type);
            Reduction.of(call, op, type);
            final int bytes = Buffers.packedBytes(call, count, type);
            final byte[] result = new byte[bytes];
            s.recvBytes(g.remote(0), result, 0, bytes);
            s.next();
            final Buffers.Slot out = new Buffers.Slot(recvBuf, recvOffset, count, type);
            s.local(() -> Buffers.unpack(result, 0, out));
        }
        else if (role == Role.REMOTE)
        {
            Buffers.checkSend(call, sendBuf, sendOffset, count, type);
            final Reduction red = Reduction.of(call, op, type);
            final int bytes = Buffers.packedBytes(call, count, type);
            final byte[] acc = new byte[bytes];
            final Buffers.Slot in = new Buffers.Slot(sendBuf, sendOffset, count, type);
            s.local(() -> Buffers.pack(in, acc, 0));
            groupReduce(s, g, red, acc, bytes);
            if (g.leader())
            {
                s.sendBytes(g.remote(root), acc, 0, bytes);
                s.next();
            }
        }
        return plan(g, call, Collectives.K_REDUCE, s);
    }

    /**
     * MPI_Allreduce: each group receives the reduction (in rank order) of the other group's operands.
     * <ol>
     * <li>Each group packs its operands and reduces them to its leader (binomial, rank order kept).</li>
     * <li>The leaders exchange their groups' results.</li>
     * <li>Each leader broadcasts the other group's result in its group (binomial); everyone unpacks it.</li>
     * </ol>
     */
    public static Plan allreduce(final Groups g, final Object sendBuf, final int sendOffset, final Object recvBuf, final int recvOffset,
        final int count, final Datatype type, final Op op)
    {
        final String call = "allreduce";
        noInPlace(call, sendBuf, recvBuf);
        Buffers.checkSend(call, sendBuf, sendOffset, count, type);
        Buffers.checkRecv(call, recvBuf, recvOffset, count, type);
        final Reduction red = Reduction.of(call, op, type);
        final int bytes = Buffers.packedBytes(call, count, type);
        final byte[] acc = new byte[bytes];
        final byte[] theirs = new byte[bytes];
        final Buffers.Slot in = new Buffers.Slot(sendBuf, sendOffset, count, type);
        final Buffers.Slot out = new Buffers.Slot(recvBuf, recvOffset, count, type);
        final Schedule s = new Schedule();
        s.local(() -> Buffers.pack(in, acc, 0));
        groupReduce(s, g, red, acc, bytes);
        exchangeLeaders(s, g, acc, theirs, bytes);
        groupBcast(s, g, new Buffers.Slot(theirs, 0, bytes, Datatype.BYTE));
        s.local(() -> Buffers.unpack(theirs, 0, out));
        return plan(g, call, Collectives.K_ALLREDUCE, s);
    }

    /**
     * MPI_Reduce_scatter_block: each group's vector of L * recvCount items (L its own size) is reduced, and
     * the other group's result is scattered in blocks of {@code recvCount} items over this group (local rank
     * i gets block i). Both groups' vectors must have the same length.
     */
    public static Plan reduceScatterBlock(final Groups g, final Object sendBuf, final int sendOffset, final Object recvBuf,
        final int recvOffset, final int recvCount, final Datatype type, final Op op)
    {
        return reduceScatter(g, "reduceScatterBlock", Collectives.K_REDUCE_SCATTER_BLOCK, sendBuf, sendOffset, recvBuf, recvOffset,
            evenCounts(g.localSize(), recvCount), type, op);
    }

    /**
     * MPI_Reduce_scatter: each group's vector of sum(recvCounts) items ({@code recvCounts} has one entry per
     * member of this group) is reduced, and the other group's result is scattered over this group, local rank
     * i getting {@code recvCounts[i]} items. Both groups' vectors must have the same length.
     */
    public static Plan reduceScatter(final Groups g, final Object sendBuf, final int sendOffset, final Object recvBuf,
        final int recvOffset, final int[] recvCounts, final Datatype type, final Op op)
    {
        return reduceScatter(g, "reduceScatter", Collectives.K_REDUCE_SCATTER, sendBuf, sendOffset, recvBuf, recvOffset, recvCounts,
            type, op);
    }

    /**
     * Reduce-scatter across the groups:
     * <ol>
     * <li>Each group packs its whole vectors and reduces them to its leader (binomial, rank order kept).</li>
     * <li>The leaders exchange their groups' results.</li>
     * <li>Each leader sends local rank i its part (bytes of {@code recvCounts[i]} items) of the other group's
     * result; everyone unpacks its part.</li>
     * </ol>
     */
    private static Plan reduceScatter(final Groups g, final String call, final int kind, final Object sendBuf, final int sendOffset,
        final Object recvBuf, final int recvOffset, final int[] recvCounts, final Datatype type, final Op op)
    {
        noInPlace(call, sendBuf, recvBuf);
        final int size = g.localSize();
        final int rank = g.rank();
        final Reductions.ScatterBlocks blocks = Reductions.ScatterBlocks.of(call, recvCounts, size, " (the local group's size)", type);
        final int[] disps = blocks.disps();
        final int bytes = disps[size];
        final int totalCount = blocks.totalCount();
        Buffers.checkSend(call, sendBuf, sendOffset, totalCount, type);
        Buffers.checkRecv(call, recvBuf, recvOffset, recvCounts[rank], type);
        final Reduction red = Reduction.of(call, op, type);
        final byte[] acc = new byte[bytes];
        final byte[] theirs = new byte[bytes];
        final Buffers.Slot in = new Buffers.Slot(sendBuf, sendOffset, totalCount, type);
        final Buffers.Slot out = new Buffers.Slot(recvBuf, recvOffset, recvCounts[rank], type);
        final Schedule s = new Schedule();
        s.local(() -> Buffers.pack(in, acc, 0));
        groupReduce(s, g, red, acc, bytes);
        exchangeLeaders(s, g, acc, theirs, bytes);
        if (g.leader())
        {
            for (int i = 1; i < size; i++)
            {
                s.sendBytes(g.local(i), theirs, disps[i], disps[i + 1] - disps[i]);
            }
        }
        else
        {
            s.recvBytes(g.local(0), theirs, disps[rank], disps[rank + 1] - disps[rank]);
        }
        s.next();
        s.local(() -> Buffers.unpack(theirs, disps[rank], out));
        return plan(g, call, kind, s);
    }

    // ------------------------------------------------------------------------------------------ group steps

    /**
     * Binomial bcast inside the local group from its leader (local rank 0):
     * <ol>
     * <li>A non-leader receives the data from local rank - lowbit(rank), its parent.</li>
     * <li>It then sends it to rank + m for every power of two m below lowbit(rank) (the leader: below L) with
     * rank + m &lt; L, largest subtree first.</li>
     * </ol>
     */
    private static void groupBcast(final Schedule s, final Groups g, final Buffers.Slot data)
    {
        final int size = g.localSize();
        final int rank = g.rank();
        int mask = 1;
        while (mask < size)
        {
            if ((rank & mask) != 0)
            {
                recv(s, g.local(rank - mask), data);
                s.next();
                break;
            }
            mask <<= 1;
        }
        for (mask >>= 1; mask > 0; mask >>= 1)
        {
            if (rank + mask < size)
            {
                send(s, g.local(rank + mask), data);
            }
        }
        s.next();
    }

    /**
     * Binomial reduce of the packed operand {@code acc} inside the local group to its leader:
     * <ol>
     * <li>Receive the operands of the children rank + m (m a power of two below lowbit(rank), rank + m &lt; L),
     * all at once, each into its own buffer.</li>
     * <li>Combine them into {@code acc} in increasing m, that is in rank order: acc = acc op child.</li>
     * <li>Send {@code acc} to the parent rank - lowbit(rank).</li>
     * </ol>
     * Afterwards the leader's {@code acc} holds the group's reduction.
     */
    private static void groupReduce(final Schedule s, final Groups g, final Reduction red, final byte[] acc, final int bytes)
    {
        final int size = g.localSize();
        final int rank = g.rank();
        int parent = -1;
        final List<byte[]> children = new ArrayList<>();
        for (int mask = 1; mask < size; mask <<= 1)
        {
            if ((rank & mask) != 0)
            {
                parent = rank - mask;
                break;
            }
            if (rank + mask < size)
            {
                final byte[] tmp = new byte[bytes];
                children.add(tmp);
                s.recvBytes(g.local(rank + mask), tmp, 0, bytes);
            }
        }
        s.next();
        for (final byte[] child : children)
        {
            s.local(() -> red.applyFromHigher(acc, 0, child, 0, bytes));
        }
        if (parent >= 0)
        {
            s.sendBytes(g.local(parent), acc, 0, bytes);
        }
        s.next();
    }

    /** Zero-byte binomial fan-in to the leader: the tree of {@link #groupReduce}, with nothing to combine. */
    private static void groupFanIn(final Schedule s, final Groups g)
    {
        final int size = g.localSize();
        final int rank = g.rank();
        int parent = -1;
        for (int mask = 1; mask < size; mask <<= 1)
        {
            if ((rank & mask) != 0)
            {
                parent = rank - mask;
                break;
            }
            if (rank + mask < size)
            {
                s.recvBytes(g.local(rank + mask), NO_BYTES, 0, 0);
            }
        }
        s.next();
        if (parent >= 0)
        {
            s.sendBytes(g.local(parent), NO_BYTES, 0, 0);
        }
        s.next();
    }

    /** The leaders send {@code out} to each other and receive into {@code in} ({@code bytes} each way); others do nothing. */
    private static void exchangeLeaders(final Schedule s, final Groups g, final byte[] out, final byte[] in, final int bytes)
    {
        if (g.leader())
        {
            s.recvBytes(g.remote(0), in, 0, bytes);
            s.sendBytes(g.remote(0), out, 0, bytes);
            s.next();
        }
    }

    // ------------------------------------------------------------------------------------------ arguments

    private static Plan plan(final Groups g, final String call, final int kind, final Schedule body)
    {
        final CollContext cc = CollContext.of(g.union());
        if (g.union().freed())
        {
            throw new MpiException(ErrorClass.ERR_COMM, call + ": intercommunicator was freed");
        }
        final Schedule s;
        if (cc.params.check)
        {
            s = new Schedule();
            appendCheck(s, g, call, kind);
            s.next();
            s.append(body);
        }
        else
        {
            s = body;
        }
        return new Plan(g.union(), call, s, cc.nextTag());
    }

    /**
     * With jmpi.coll.check: an allreduce(MAX) over both groups of {kind, -kind}; if the maximum and minimum
     * differ, processes called different collectives and every one fails at once. (Roots are not compared:
     * they legitimately differ between the groups.)
     */
    private static void appendCheck(final Schedule s, final Groups g, final String call, final int kind)
    {
        final byte[] acc = new byte[8];
        final java.nio.ByteBuffer b = java.nio.ByteBuffer.wrap(acc).order(java.nio.ByteOrder.nativeOrder());
        s.local(() -> b.putInt(0, kind).putInt(4, -kind));
        Reductions.allreduceRecursiveDoubling(s, g.union().rank(), g.union().size(), new Reduction(Op.MAX, Datatype.INT, 4), acc, 8);
        s.local(() ->
        {
            if (b.getInt(0) != -b.getInt(4))
            {
                throw new Schedule.Stop(new MpiException(ErrorClass.ERR_OTHER, "collective mismatch: this process called " + call +
                    " on an intercommunicator, but the processes' calls range over collective codes " + (-b.getInt(4)) + ".." +
                    b.getInt(0)));
            }
        });
    }

    private static void noInPlace(final String call, final Object... bufs)
    {
        for (final Object b : bufs)
        {
            if (b == Collectives.IN_PLACE)
            {
                throw new MpiException(ErrorClass.ERR_BUFFER, call + ": IN_PLACE is not allowed on an intercommunicator");
            }
        }
    }

    /** The role of this process for {@code root}: ROOT, PROC_NULL (its group's others) or a rank of the other group. */
    private static Role role(final String call, final Groups g, final int root)
    {
        if (root == ROOT)
        {
            return Role.ROOT;
        }
        if (root == Comm.PROC_NULL)
        {
            return Role.IDLE;
        }
        if (root < 0 || root >= g.remoteSize())
        {
            throw new MpiException(ErrorClass.ERR_ROOT, call + ": invalid root " + root + " (remote group of " + g.remoteSize() +
                "; in the root's group pass ROOT at the root and PROC_NULL elsewhere)");
        }
        return Role.REMOTE;
    }

    private static int[] evenCounts(final int blocks, final int count)
    {
        final int[] counts = new int[blocks];
        java.util.Arrays.fill(counts, count);
        return counts;
    }

    private static int[] evenDispls(final int blocks, final int count)
    {
        final int[] displs = new int[blocks];
        for (int i = 0; i < blocks; i++)
        {
            displs[i] = Math.multiplyExact(i, count);
        }
        return displs;
    }

    /** The slots of {@code blocks} per-rank blocks (displacements in extents of {@code type}), each checked. */
    private static Buffers.Slot[] vectorSlots(final String call, final int blocks, final Object buf, final int offset, final int[] counts,
        final int[] displs, final Datatype type, final boolean receive)
    {
        if (counts == null || displs == null || counts.length < blocks || displs.length < blocks)
        {
            throw new MpiException(ErrorClass.ERR_ARG, call + ": counts and displacements need " + blocks + " entries (the remote group's " +
                "size), got " + (counts == null ? "null" : counts.length) + " and " + (displs == null ? "null" : displs.length));
        }
        if (type == null)
        {
            throw new MpiException(ErrorClass.ERR_TYPE, call + ": datatype is null");
        }
        return Buffers.extentSlots(call, buf, offset, counts, displs, type, blocks, receive);
    }

    /** The slots of alltoallw's blocks: per-rank types, displacements in bytes, each checked. */
    private static Buffers.Slot[] bytewiseSlots(final String call, final int blocks, final Object buf, final int offset, final int[] counts,
        final long[] displs, final Datatype[] types, final boolean receive)
    {
        if (counts == null || displs == null || types == null || counts.length < blocks || displs.length < blocks ||
            types.length < blocks)
        {
            throw new MpiException(ErrorClass.ERR_ARG, call + ": counts, displacements and types need " + blocks +
                " entries each (the remote group's size)");
        }
        final Buffers.Slot[] slots = new Buffers.Slot[blocks];
        for (int i = 0; i < blocks; i++)
        {
            if (types[i] == null)
            {
                throw new MpiException(ErrorClass.ERR_TYPE, call + ": datatype for rank " + i + " is null");
            }
            if (counts[i] < 0)
            {
                throw new MpiException(ErrorClass.ERR_COUNT, call + ": negative count " + counts[i] + " for rank " + i);
            }
            slots[i] = Buffers.slot(buf, offset, displs[i], counts[i], types[i]);
            Buffers.check(call, slots[i], receive);
        }
        return slots;
    }

    /** Byte offsets of the slots packed one after another (length slots + 1). */
    private static int[] packedOffsets(final String call, final Buffers.Slot[] slots)
    {
        final int[] offsets = new int[slots.length + 1];
        long total = 0;
        for (int i = 0; i < slots.length; i++)
        {
            total += slots[i].bytes();
            offsets[i + 1] = Buffers.packedBytes(call, total, Datatype.BYTE);
        }
        return offsets;
    }

    private static void packSlots(final Buffers.Slot[] slots, final int[] offsets, final byte[] packed)
    {
        for (int i = 0; i < slots.length; i++)
        {
            Buffers.pack(slots[i], packed, offsets[i]);
        }
    }

    private static void unpackSlots(final byte[] packed, final int[] offsets, final Buffers.Slot[] slots)
    {
        for (int i = 0; i < slots.length; i++)
        {
            Buffers.unpack(packed, offsets[i], slots[i]);
        }
    }

    private static void send(final Schedule s, final int peer, final Buffers.Slot slot)
    {
        s.send(peer, slot.buf(), slot.offset(), slot.count(), slot.type());
    }

    private static void recv(final Schedule s, final int peer, final Buffers.Slot slot)
    {
        s.recv(peer, slot.buf(), slot.offset(), slot.count(), slot.type());
    }
}
