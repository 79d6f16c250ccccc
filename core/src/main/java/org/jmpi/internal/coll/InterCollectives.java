package org.jmpi.internal.coll;

import static org.jmpi.internal.coll.InterSteps.*;

import org.jmpi.Comm;
import org.jmpi.Datatype;
import org.jmpi.Op;
import org.jmpi.internal.coll.Collectives.Plan;
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

    /** MPI_Reduce on an intercommunicator: see {@link InterReductions#reduce}. */
    public static Plan reduce(final Groups g, final Object sendBuf, final int sendOffset, final Object recvBuf, final int recvOffset,
        final int count, final Datatype type, final Op op, final int root)
    {
        return InterReductions.reduce(g, sendBuf, sendOffset, recvBuf, recvOffset, count, type, op, root);
    }

    /** MPI_Allreduce on an intercommunicator: see {@link InterReductions#allreduce}. */
    public static Plan allreduce(final Groups g, final Object sendBuf, final int sendOffset, final Object recvBuf, final int recvOffset,
        final int count, final Datatype type, final Op op)
    {
        return InterReductions.allreduce(g, sendBuf, sendOffset, recvBuf, recvOffset, count, type, op);
    }

    /** MPI_Reduce_scatter_block on an intercommunicator: see {@link InterReductions#reduceScatterBlock}. */
    public static Plan reduceScatterBlock(final Groups g, final Object sendBuf, final int sendOffset, final Object recvBuf,
        final int recvOffset, final int recvCount, final Datatype type, final Op op)
    {
        return InterReductions.reduceScatterBlock(g, sendBuf, sendOffset, recvBuf, recvOffset, recvCount, type, op);
    }

    /** MPI_Reduce_scatter on an intercommunicator: see {@link InterReductions#reduceScatter}. */
    public static Plan reduceScatter(final Groups g, final Object sendBuf, final int sendOffset, final Object recvBuf,
        final int recvOffset, final int[] recvCounts, final Datatype type, final Op op)
    {
        return InterReductions.reduceScatter(g, sendBuf, sendOffset, recvBuf, recvOffset, recvCounts, type, op);
    }
}
