package org.jmpi;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;

import org.jmpi.internal.coll.Collectives;
import org.jmpi.internal.coll.CollContext;
import org.jmpi.internal.coll.InterCollectives;
import org.jmpi.internal.coll.PersistentCollRequest;
import org.jmpi.internal.comm.ContextIdPool;
import org.jmpi.internal.comm.InterContextIdAgreement;
import org.jmpi.internal.pt2pt.CommState;
import org.jmpi.internal.pt2pt.PointToPoint;
import org.jmpi.internal.pt2pt.SendMode;

/**
 * An intercommunicator (MPI 4.1 §7.6): two disjoint groups; point-to-point ranks name processes of the
 * <em>remote</em> group. Made by {@link #create}; {@link #merge} makes an intracommunicator of both groups.
 *
 * <p>Contexts: an intercommunicator takes two context-id pairs of the ranks' pools, agreed across both groups
 * ({@link InterContextIdAgreement}) and given back by {@link #free()}: the first for point-to-point and a private
 * one for its own agreements between the groups (merge), the second for its local group and for its
 * collectives, which run over both groups as one communicator (see docs/collectives.md, "Intercommunicators").
 *
 * <p>Collectives (MPI 4.1 §6.2.2), blocking and nonblocking ({@code i...}, returning a {@link Request}; any
 * number may be in flight and complete in any order) and persistent ({@code ...Init}, MPI-4: arguments checked
 * and the schedule built once, each {@link Request#start()} runs it again): barrier, bcast, gather(v), scatter(v), allgather(v),
 * alltoall(v, w), reduce, allreduce, reduceScatterBlock, reduceScatter. Data flows between the groups: in
 * rooted calls the root passes {@link #ROOT}, the rest of its group {@link Comm#PROC_NULL}, and the other group
 * the root's rank in the root's group; the per-rank arrays of the v- and w-variants and the blocks of
 * allgather and alltoall name ranks of the <em>remote</em> group. {@link Comm#IN_PLACE} is not allowed
 * ({@link ErrorClass#ERR_BUFFER}); scan and exscan are not defined on intercommunicators.
 *
 * <p>Threading: as {@link Comm}.
 */
public final class Intercomm
{
    private static final int[] NO_INTS = new int[0];
    private static final int LEADER_TAG = 0;

    /** Point-to-point towards the remote group: rank = local rank, world ranks = the remote group's. */
    private final CommState remote;
    /** Between the two groups, for the intercommunicator's own agreements. */
    private final CommState bridge;
    /** The local group as an intracommunicator. */
    private final CommState local;
    /** Both groups as one communicator, for the collectives (see {@link InterCollectives}). */
    private final InterCollectives.Groups groups;
    private final AtomicBoolean freed = new AtomicBoolean();

    private Intercomm(final CommState remote, final CommState bridge, final CommState local, final InterCollectives.Groups groups)
    {
        this.remote = remote;
        this.bridge = bridge;
        this.local = local;
        this.groups = groups;
    }

    /**
     * MPI_Intercomm_create: collective over {@code localComm} on each side.
     * <ol>
     * <li>The two leaders exchange their group sizes and then their groups' world ranks over {@code peerComm}
     * with {@code tag}; each broadcasts the remote group to its group.</li>
     * <li>Both groups agree two context-id pairs free on every member of both ({@link InterContextIdAgreement}:
     * each round reduces inside each group, the leaders combine over {@code peerComm} with {@code tag}), one after
     * the other: safe while other threads of the same ranks make communicators from other parents.</li>
     * <li>Every member builds the intercommunicator on them; {@link #free()} gives them back.</li>
     * </ol>
     *
     * @param localLeader  rank in {@code localComm} of this group's leader.
     * @param peerComm     a communicator holding both leaders (significant at the leader only).
     * @param remoteLeader rank in {@code peerComm} of the other group's leader (significant at the leader only).
     */
    public static Intercomm create(final Comm localComm, final int localLeader, final Comm peerComm, final int remoteLeader,
        final int tag)
    {
        final CommState lc = localComm.state();
        try
        {
            if (localLeader < 0 || localLeader >= lc.size())
            {
                throw new MpiException(ErrorClass.ERR_RANK, "intercommCreate: invalid local leader " + localLeader + " (local " +
                    "communicator size " + lc.size() + ")");
            }
            if (lc.rank() == localLeader && peerComm == null)
            {
                throw new MpiException(ErrorClass.ERR_COMM, "intercommCreate: the peer communicator is null at the local leader");
            }
            final int[] header = new int[1];
            int[] remoteWorld = NO_INTS;
            final CommState pc = lc.rank() == localLeader ? peerComm.state() : null;
            if (pc != null)
            {
                if (remoteLeader < 0 || remoteLeader >= pc.size())
                {
                    throw new MpiException(ErrorClass.ERR_RANK, "intercommCreate: invalid remote leader " + remoteLeader +
                        " (peer communicator size " + pc.size() + ")");
                }
                exchange(pc, new int[] {lc.size()}, header, remoteLeader, tag);
                remoteWorld = new int[header[0]];
                final int[] ours = lc.worldRanks();
                final var r = PointToPoint.irecv(pc, remoteWorld, 0, remoteWorld.length, Datatype.INT, remoteLeader, tag);
                PointToPoint.isend(pc, ours, 0, ours.length, Datatype.INT, remoteLeader, tag, SendMode.STANDARD).await();
                r.await();
            }
            Collectives.bcast(lc, header, 0, 1, Datatype.INT, localLeader).start().await();
            if (pc == null)
            {
                remoteWorld = new int[header[0]];
            }
            Collectives.bcast(lc, remoteWorld, 0, remoteWorld.length, Datatype.INT, localLeader).start().await();
            final InterContextIdAgreement.LeaderExchange overPeer = (out, in) -> exchange(pc, out, in, remoteLeader, tag);
            final int context = InterContextIdAgreement.agree(lc, localLeader, tag, overPeer);
            final int groupContext;
            try
            {
                groupContext = InterContextIdAgreement.agree(lc, localLeader, tag, overPeer);
            }
            catch (final MpiException ex)
            {
                lc.contextIds().free(lc.contextIds().slot(context));
                throw ex;
            }
            return new Intercomm(lc.derive(context, context + 1, lc.rank(), remoteWorld, "intercomm"),
                lc.derive(context + 1, context + 1, lc.rank(), remoteWorld, "intercomm.bridge"),
                lc.derive(groupContext, groupContext, lc.rank(), lc.worldRanks(), "intercomm.local"),
                InterCollectives.Groups.of(lc, lc.worldRanks(), remoteWorld, groupContext + 1));
        }
        catch (final MpiException ex)
        {
            throw lc.handle(ex);
        }
    }

    /** Sends {@code out} to {@code peer} of {@code c} and receives as many ints into {@code in}, with {@code tag}. */
    private static void exchange(final CommState c, final int[] out, final int[] in, final int peer, final int tag)
    {
        exchange(c, out, in, out.length, Datatype.INT, peer, tag);
    }

    /** As above, for longs (the rounds of the context-id agreement). */
    private static void exchange(final CommState c, final long[] out, final long[] in, final int peer, final int tag)
    {
        exchange(c, out, in, out.length, Datatype.LONG, peer, tag);
    }

    private static void exchange(final CommState c, final Object out, final Object in, final int count, final Datatype type,
        final int peer, final int tag)
    {
        final var r = PointToPoint.irecv(c, in, 0, count, type, peer, tag);
        PointToPoint.isend(c, out, 0, count, type, peer, tag, SendMode.STANDARD).await();
        r.await();
    }

    /** MPI_ROOT: the root of a rooted intercommunicator collective passes it; the rest of its group pass {@link Comm#PROC_NULL}. */
    public static final int ROOT = InterCollectives.ROOT;

    private void run(final Supplier<Collectives.Plan> plan)
    {
        try
        {
            plan.get().start().await();
        }
        catch (final MpiException ex)
        {
            throw local.handle(ex);
        }
    }

    private Request begin(final Supplier<Collectives.Plan> plan)
    {
        try
        {
            return plan.get().start();
        }
        catch (final MpiException ex)
        {
            throw local.handle(ex);
        }
    }

    private Request persistent(final Supplier<Collectives.Plan> plan)
    {
        try
        {
            final Collectives.Plan p = plan.get();
            return new PersistentCollRequest(p.comm(), p);
        }
        catch (final MpiException ex)
        {
            throw local.handle(ex);
        }
    }

    /** MPI_Barrier on an intercommunicator: no process returns before every process of both groups has called it. */
    public void barrier()
    {
        run(() -> InterCollectives.barrier(groups));
    }

    /** MPI_Ibarrier: nonblocking {@link #barrier}; completes once every process of both groups has called it. */
    public Request ibarrier()
    {
        return begin(() -> InterCollectives.barrier(groups));
    }

    /** MPI_Bcast on an intercommunicator: from one group to the other: the root passes {@link #ROOT}, the rest of its group {@link Comm#PROC_NULL}; every member of the other group passes the root's rank in the root's group and receives the root's {@code count} items. */
    public void bcast(final Object buf, final int offset, final int count, final Datatype type, final int root)
    {
        run(() -> InterCollectives.bcast(groups, buf, offset, count, type, root));
    }

    /** MPI_Ibcast: nonblocking {@link #bcast}; the buffers must not be touched until the request completes. */
    public Request ibcast(final Object buf, final int offset, final int count, final Datatype type, final int root)
    {
        return begin(() -> InterCollectives.bcast(groups, buf, offset, count, type, root));
    }

    /** MPI_Gather on an intercommunicator: the root ({@link #ROOT}; the rest of its group {@link Comm#PROC_NULL}) receives rank j of the other group's block at {@code j * recvCount} items of {@code recvType}; the other group passes the root's rank and sends. Receive arguments matter at the root only, send arguments in the other group only. */
    public void gather(final Object sendBuf, final int sendOffset, final int sendCount, final Datatype sendType, final Object recvBuf, final int recvOffset, final int recvCount, final Datatype recvType, final int root)
    {
        run(() -> InterCollectives.gather(groups, sendBuf, sendOffset, sendCount, sendType, recvBuf, recvOffset, recvCount, recvType, root));
    }

    /** MPI_Igather: nonblocking {@link #gather}; the buffers must not be touched until the request completes. */
    public Request igather(final Object sendBuf, final int sendOffset, final int sendCount, final Datatype sendType, final Object recvBuf, final int recvOffset, final int recvCount, final Datatype recvType, final int root)
    {
        return begin(() -> InterCollectives.gather(groups, sendBuf, sendOffset, sendCount, sendType, recvBuf, recvOffset, recvCount, recvType, root));
    }

    /** MPI_Gatherv on an intercommunicator: as {@link #gather}, with {@code recvCounts[j]} items at {@code displs[j]} extents of {@code recvType} for rank j of the other group. */
    public void gatherv(final Object sendBuf, final int sendOffset, final int sendCount, final Datatype sendType, final Object recvBuf, final int recvOffset, final int[] recvCounts, final int[] displs, final Datatype recvType, final int root)
    {
        run(() -> InterCollectives.gatherv(groups, sendBuf, sendOffset, sendCount, sendType, recvBuf, recvOffset, recvCounts, displs, recvType, root));
    }

    /** MPI_Igatherv: nonblocking {@link #gatherv}; the buffers must not be touched until the request completes. */
    public Request igatherv(final Object sendBuf, final int sendOffset, final int sendCount, final Datatype sendType, final Object recvBuf, final int recvOffset, final int[] recvCounts, final int[] displs, final Datatype recvType, final int root)
    {
        return begin(() -> InterCollectives.gatherv(groups, sendBuf, sendOffset, sendCount, sendType, recvBuf, recvOffset, recvCounts, displs, recvType, root));
    }

    /** MPI_Scatter on an intercommunicator: rank j of the other group receives the root's block at {@code j * sendCount} items of {@code sendType}; the root passes {@link #ROOT}, the rest of its group {@link Comm#PROC_NULL}, the other group the root's rank. */
    public void scatter(final Object sendBuf, final int sendOffset, final int sendCount, final Datatype sendType, final Object recvBuf, final int recvOffset, final int recvCount, final Datatype recvType, final int root)
    {
        run(() -> InterCollectives.scatter(groups, sendBuf, sendOffset, sendCount, sendType, recvBuf, recvOffset, recvCount, recvType, root));
    }

    /** MPI_Iscatter: nonblocking {@link #scatter}; the buffers must not be touched until the request completes. */
    public Request iscatter(final Object sendBuf, final int sendOffset, final int sendCount, final Datatype sendType, final Object recvBuf, final int recvOffset, final int recvCount, final Datatype recvType, final int root)
    {
        return begin(() -> InterCollectives.scatter(groups, sendBuf, sendOffset, sendCount, sendType, recvBuf, recvOffset, recvCount, recvType, root));
    }

    /** MPI_Scatterv on an intercommunicator: as {@link #scatter}, with {@code sendCounts[j]} items at {@code displs[j]} extents of {@code sendType} for rank j of the other group. */
    public void scatterv(final Object sendBuf, final int sendOffset, final int[] sendCounts, final int[] displs, final Datatype sendType, final Object recvBuf, final int recvOffset, final int recvCount, final Datatype recvType, final int root)
    {
        run(() -> InterCollectives.scatterv(groups, sendBuf, sendOffset, sendCounts, displs, sendType, recvBuf, recvOffset, recvCount, recvType, root));
    }

    /** MPI_Iscatterv: nonblocking {@link #scatterv}; the buffers must not be touched until the request completes. */
    public Request iscatterv(final Object sendBuf, final int sendOffset, final int[] sendCounts, final int[] displs, final Datatype sendType, final Object recvBuf, final int recvOffset, final int recvCount, final Datatype recvType, final int root)
    {
        return begin(() -> InterCollectives.scatterv(groups, sendBuf, sendOffset, sendCounts, displs, sendType, recvBuf, recvOffset, recvCount, recvType, root));
    }

    /** MPI_Allgather on an intercommunicator: every process receives rank j of the <em>other</em> group's block at {@code j * recvCount} items of {@code recvType}. */
    public void allgather(final Object sendBuf, final int sendOffset, final int sendCount, final Datatype sendType, final Object recvBuf, final int recvOffset, final int recvCount, final Datatype recvType)
    {
        run(() -> InterCollectives.allgather(groups, sendBuf, sendOffset, sendCount, sendType, recvBuf, recvOffset, recvCount, recvType));
    }

    /** MPI_Iallgather: nonblocking {@link #allgather}; the buffers must not be touched until the request completes. */
    public Request iallgather(final Object sendBuf, final int sendOffset, final int sendCount, final Datatype sendType, final Object recvBuf, final int recvOffset, final int recvCount, final Datatype recvType)
    {
        return begin(() -> InterCollectives.allgather(groups, sendBuf, sendOffset, sendCount, sendType, recvBuf, recvOffset, recvCount, recvType));
    }

    /** MPI_Allgatherv on an intercommunicator: as {@link #allgather}, with {@code recvCounts[j]} items at {@code displs[j]} extents of {@code recvType} for rank j of the other group. */
    public void allgatherv(final Object sendBuf, final int sendOffset, final int sendCount, final Datatype sendType, final Object recvBuf, final int recvOffset, final int[] recvCounts, final int[] displs, final Datatype recvType)
    {
        run(() -> InterCollectives.allgatherv(groups, sendBuf, sendOffset, sendCount, sendType, recvBuf, recvOffset, recvCounts, displs, recvType));
    }

    /** MPI_Iallgatherv: nonblocking {@link #allgatherv}; the buffers must not be touched until the request completes. */
    public Request iallgatherv(final Object sendBuf, final int sendOffset, final int sendCount, final Datatype sendType, final Object recvBuf, final int recvOffset, final int[] recvCounts, final int[] displs, final Datatype recvType)
    {
        return begin(() -> InterCollectives.allgatherv(groups, sendBuf, sendOffset, sendCount, sendType, recvBuf, recvOffset, recvCounts, displs, recvType));
    }

    /** MPI_Alltoall on an intercommunicator: send block j goes to rank j of the other group, receive block j comes from it (blocks of the remote group's size). */
    public void alltoall(final Object sendBuf, final int sendOffset, final int sendCount, final Datatype sendType, final Object recvBuf, final int recvOffset, final int recvCount, final Datatype recvType)
    {
        run(() -> InterCollectives.alltoall(groups, sendBuf, sendOffset, sendCount, sendType, recvBuf, recvOffset, recvCount, recvType));
    }

    /** MPI_Ialltoall: nonblocking {@link #alltoall}; the buffers must not be touched until the request completes. */
    public Request ialltoall(final Object sendBuf, final int sendOffset, final int sendCount, final Datatype sendType, final Object recvBuf, final int recvOffset, final int recvCount, final Datatype recvType)
    {
        return begin(() -> InterCollectives.alltoall(groups, sendBuf, sendOffset, sendCount, sendType, recvBuf, recvOffset, recvCount, recvType));
    }

    /** MPI_Alltoallv on an intercommunicator: as {@link #alltoall}, with per-rank counts and displacements (in extents of the types), indexed by rank in the other group. */
    public void alltoallv(final Object sendBuf, final int sendOffset, final int[] sendCounts, final int[] sendDispls, final Datatype sendType, final Object recvBuf, final int recvOffset, final int[] recvCounts, final int[] recvDispls, final Datatype recvType)
    {
        run(() -> InterCollectives.alltoallv(groups, sendBuf, sendOffset, sendCounts, sendDispls, sendType, recvBuf, recvOffset, recvCounts, recvDispls, recvType));
    }

    /** MPI_Ialltoallv: nonblocking {@link #alltoallv}; the buffers must not be touched until the request completes. */
    public Request ialltoallv(final Object sendBuf, final int sendOffset, final int[] sendCounts, final int[] sendDispls, final Datatype sendType, final Object recvBuf, final int recvOffset, final int[] recvCounts, final int[] recvDispls, final Datatype recvType)
    {
        return begin(() -> InterCollectives.alltoallv(groups, sendBuf, sendOffset, sendCounts, sendDispls, sendType, recvBuf, recvOffset, recvCounts, recvDispls, recvType));
    }

    /** MPI_Alltoallw on an intercommunicator: as {@link #alltoallv}, with per-rank types and displacements in bytes. */
    public void alltoallw(final Object sendBuf, final int sendOffset, final int[] sendCounts, final long[] sendDisplsBytes, final Datatype[] sendTypes, final Object recvBuf, final int recvOffset, final int[] recvCounts, final long[] recvDisplsBytes, final Datatype[] recvTypes)
    {
        run(() -> InterCollectives.alltoallw(groups, sendBuf, sendOffset, sendCounts, sendDisplsBytes, sendTypes, recvBuf, recvOffset, recvCounts, recvDisplsBytes, recvTypes));
    }

    /** MPI_Ialltoallw: nonblocking {@link #alltoallw}; the buffers must not be touched until the request completes. */
    public Request ialltoallw(final Object sendBuf, final int sendOffset, final int[] sendCounts, final long[] sendDisplsBytes, final Datatype[] sendTypes, final Object recvBuf, final int recvOffset, final int[] recvCounts, final long[] recvDisplsBytes, final Datatype[] recvTypes)
    {
        return begin(() -> InterCollectives.alltoallw(groups, sendBuf, sendOffset, sendCounts, sendDisplsBytes, sendTypes, recvBuf, recvOffset, recvCounts, recvDisplsBytes, recvTypes));
    }

    /** MPI_Reduce on an intercommunicator: the root ({@link #ROOT}; the rest of its group {@link Comm#PROC_NULL}) receives the reduction, in rank order, of the other group's {@code count} items; the other group passes the root's rank. The send buffer matters in the other group only, the receive buffer at the root only. */
    public void reduce(final Object sendBuf, final int sendOffset, final Object recvBuf, final int recvOffset, final int count, final Datatype type, final Op op, final int root)
    {
        run(() -> InterCollectives.reduce(groups, sendBuf, sendOffset, recvBuf, recvOffset, count, type, op, root));
    }

    /** MPI_Ireduce: nonblocking {@link #reduce}; the buffers must not be touched until the request completes. */
    public Request ireduce(final Object sendBuf, final int sendOffset, final Object recvBuf, final int recvOffset, final int count, final Datatype type, final Op op, final int root)
    {
        return begin(() -> InterCollectives.reduce(groups, sendBuf, sendOffset, recvBuf, recvOffset, count, type, op, root));
    }

    /** MPI_Allreduce on an intercommunicator: each group receives the reduction, in rank order, of the <em>other</em> group's operands. */
    public void allreduce(final Object sendBuf, final int sendOffset, final Object recvBuf, final int recvOffset, final int count, final Datatype type, final Op op)
    {
        run(() -> InterCollectives.allreduce(groups, sendBuf, sendOffset, recvBuf, recvOffset, count, type, op));
    }

    /** MPI_Iallreduce: nonblocking {@link #allreduce}; the buffers must not be touched until the request completes. */
    public Request iallreduce(final Object sendBuf, final int sendOffset, final Object recvBuf, final int recvOffset, final int count, final Datatype type, final Op op)
    {
        return begin(() -> InterCollectives.allreduce(groups, sendBuf, sendOffset, recvBuf, recvOffset, count, type, op));
    }

    /** MPI_Reduce_scatter_block on an intercommunicator: each group contributes vectors of {@code size() * recvCount} items (the two groups' lengths must be equal); the reduction of the <em>other</em> group's vectors is scattered over this group in blocks of {@code recvCount} items, block i to local rank i. */
    public void reduceScatterBlock(final Object sendBuf, final int sendOffset, final Object recvBuf, final int recvOffset, final int recvCount, final Datatype type, final Op op)
    {
        run(() -> InterCollectives.reduceScatterBlock(groups, sendBuf, sendOffset, recvBuf, recvOffset, recvCount, type, op));
    }

    /** MPI_Ireduce_scatter_block: nonblocking {@link #reduceScatterBlock}; the buffers must not be touched until the request completes. */
    public Request ireduceScatterBlock(final Object sendBuf, final int sendOffset, final Object recvBuf, final int recvOffset, final int recvCount, final Datatype type, final Op op)
    {
        return begin(() -> InterCollectives.reduceScatterBlock(groups, sendBuf, sendOffset, recvBuf, recvOffset, recvCount, type, op));
    }

    /** MPI_Reduce_scatter on an intercommunicator: each group contributes vectors of sum({@code recvCounts}) items, {@code recvCounts} having one entry per member of this group (the two groups' lengths must be equal); the reduction of the <em>other</em> group's vectors is scattered over this group, local rank i receiving {@code recvCounts[i]} items. */
    public void reduceScatter(final Object sendBuf, final int sendOffset, final Object recvBuf, final int recvOffset, final int[] recvCounts, final Datatype type, final Op op)
    {
        run(() -> InterCollectives.reduceScatter(groups, sendBuf, sendOffset, recvBuf, recvOffset, recvCounts, type, op));
    }

    /** MPI_Ireduce_scatter: nonblocking {@link #reduceScatter}; the buffers must not be touched until the request completes. */
    public Request ireduceScatter(final Object sendBuf, final int sendOffset, final Object recvBuf, final int recvOffset, final int[] recvCounts, final Datatype type, final Op op)
    {
        return begin(() -> InterCollectives.reduceScatter(groups, sendBuf, sendOffset, recvBuf, recvOffset, recvCounts, type, op));
    }

    /** MPI_Barrier_init (MPI-4) on an intercommunicator: a persistent {@link #barrier}; arguments are checked and the schedule built once, each start() runs it (the buffers must not be touched while it is active). Collective: both groups make their requests in the same order. */
    public Request barrierInit()
    {
        return persistent(() -> InterCollectives.barrier(groups));
    }

    /** MPI_Bcast_init (MPI-4) on an intercommunicator: a persistent {@link #bcast}; arguments are checked and the schedule built once, each start() runs it (the buffers must not be touched while it is active). Collective: both groups make their requests in the same order. */
    public Request bcastInit(final Object buf, final int offset, final int count, final Datatype type, final int root)
    {
        return persistent(() -> InterCollectives.bcast(groups, buf, offset, count, type, root));
    }

    /** MPI_Gather_init (MPI-4) on an intercommunicator: a persistent {@link #gather}; arguments are checked and the schedule built once, each start() runs it (the buffers must not be touched while it is active). Collective: both groups make their requests in the same order. */
    public Request gatherInit(final Object sendBuf, final int sendOffset, final int sendCount, final Datatype sendType, final Object recvBuf, final int recvOffset, final int recvCount, final Datatype recvType, final int root)
    {
        return persistent(() -> InterCollectives.gather(groups, sendBuf, sendOffset, sendCount, sendType, recvBuf, recvOffset, recvCount, recvType, root));
    }

    /** MPI_Gatherv_init (MPI-4) on an intercommunicator: a persistent {@link #gatherv}; arguments are checked and the schedule built once, each start() runs it (the buffers must not be touched while it is active). Collective: both groups make their requests in the same order. */
    public Request gathervInit(final Object sendBuf, final int sendOffset, final int sendCount, final Datatype sendType, final Object recvBuf, final int recvOffset, final int[] recvCounts, final int[] displs, final Datatype recvType, final int root)
    {
        return persistent(() -> InterCollectives.gatherv(groups, sendBuf, sendOffset, sendCount, sendType, recvBuf, recvOffset, recvCounts, displs, recvType, root));
    }

    /** MPI_Scatter_init (MPI-4) on an intercommunicator: a persistent {@link #scatter}; arguments are checked and the schedule built once, each start() runs it (the buffers must not be touched while it is active). Collective: both groups make their requests in the same order. */
    public Request scatterInit(final Object sendBuf, final int sendOffset, final int sendCount, final Datatype sendType, final Object recvBuf, final int recvOffset, final int recvCount, final Datatype recvType, final int root)
    {
        return persistent(() -> InterCollectives.scatter(groups, sendBuf, sendOffset, sendCount, sendType, recvBuf, recvOffset, recvCount, recvType, root));
    }

    /** MPI_Scatterv_init (MPI-4) on an intercommunicator: a persistent {@link #scatterv}; arguments are checked and the schedule built once, each start() runs it (the buffers must not be touched while it is active). Collective: both groups make their requests in the same order. */
    public Request scattervInit(final Object sendBuf, final int sendOffset, final int[] sendCounts, final int[] displs, final Datatype sendType, final Object recvBuf, final int recvOffset, final int recvCount, final Datatype recvType, final int root)
    {
        return persistent(() -> InterCollectives.scatterv(groups, sendBuf, sendOffset, sendCounts, displs, sendType, recvBuf, recvOffset, recvCount, recvType, root));
    }

    /** MPI_Allgather_init (MPI-4) on an intercommunicator: a persistent {@link #allgather}; arguments are checked and the schedule built once, each start() runs it (the buffers must not be touched while it is active). Collective: both groups make their requests in the same order. */
    public Request allgatherInit(final Object sendBuf, final int sendOffset, final int sendCount, final Datatype sendType, final Object recvBuf, final int recvOffset, final int recvCount, final Datatype recvType)
    {
        return persistent(() -> InterCollectives.allgather(groups, sendBuf, sendOffset, sendCount, sendType, recvBuf, recvOffset, recvCount, recvType));
    }

    /** MPI_Allgatherv_init (MPI-4) on an intercommunicator: a persistent {@link #allgatherv}; arguments are checked and the schedule built once, each start() runs it (the buffers must not be touched while it is active). Collective: both groups make their requests in the same order. */
    public Request allgathervInit(final Object sendBuf, final int sendOffset, final int sendCount, final Datatype sendType, final Object recvBuf, final int recvOffset, final int[] recvCounts, final int[] displs, final Datatype recvType)
    {
        return persistent(() -> InterCollectives.allgatherv(groups, sendBuf, sendOffset, sendCount, sendType, recvBuf, recvOffset, recvCounts, displs, recvType));
    }

    /** MPI_Alltoall_init (MPI-4) on an intercommunicator: a persistent {@link #alltoall}; arguments are checked and the schedule built once, each start() runs it (the buffers must not be touched while it is active). Collective: both groups make their requests in the same order. */
    public Request alltoallInit(final Object sendBuf, final int sendOffset, final int sendCount, final Datatype sendType, final Object recvBuf, final int recvOffset, final int recvCount, final Datatype recvType)
    {
        return persistent(() -> InterCollectives.alltoall(groups, sendBuf, sendOffset, sendCount, sendType, recvBuf, recvOffset, recvCount, recvType));
    }

    /** MPI_Alltoallv_init (MPI-4) on an intercommunicator: a persistent {@link #alltoallv}; arguments are checked and the schedule built once, each start() runs it (the buffers must not be touched while it is active). Collective: both groups make their requests in the same order. */
    public Request alltoallvInit(final Object sendBuf, final int sendOffset, final int[] sendCounts, final int[] sendDispls, final Datatype sendType, final Object recvBuf, final int recvOffset, final int[] recvCounts, final int[] recvDispls, final Datatype recvType)
    {
        return persistent(() -> InterCollectives.alltoallv(groups, sendBuf, sendOffset, sendCounts, sendDispls, sendType, recvBuf, recvOffset, recvCounts, recvDispls, recvType));
    }

    /** MPI_Alltoallw_init (MPI-4) on an intercommunicator: a persistent {@link #alltoallw}; arguments are checked and the schedule built once, each start() runs it (the buffers must not be touched while it is active). Collective: both groups make their requests in the same order. */
    public Request alltoallwInit(final Object sendBuf, final int sendOffset, final int[] sendCounts, final long[] sendDisplsBytes, final Datatype[] sendTypes, final Object recvBuf, final int recvOffset, final int[] recvCounts, final long[] recvDisplsBytes, final Datatype[] recvTypes)
    {
        return persistent(() -> InterCollectives.alltoallw(groups, sendBuf, sendOffset, sendCounts, sendDisplsBytes, sendTypes, recvBuf, recvOffset, recvCounts, recvDisplsBytes, recvTypes));
    }

    /** MPI_Reduce_init (MPI-4) on an intercommunicator: a persistent {@link #reduce}; arguments are checked and the schedule built once, each start() runs it (the buffers must not be touched while it is active). Collective: both groups make their requests in the same order. */
    public Request reduceInit(final Object sendBuf, final int sendOffset, final Object recvBuf, final int recvOffset, final int count, final Datatype type, final Op op, final int root)
    {
        return persistent(() -> InterCollectives.reduce(groups, sendBuf, sendOffset, recvBuf, recvOffset, count, type, op, root));
    }

    /** MPI_Allreduce_init (MPI-4) on an intercommunicator: a persistent {@link #allreduce}; arguments are checked and the schedule built once, each start() runs it (the buffers must not be touched while it is active). Collective: both groups make their requests in the same order. */
    public Request allreduceInit(final Object sendBuf, final int sendOffset, final Object recvBuf, final int recvOffset, final int count, final Datatype type, final Op op)
    {
        return persistent(() -> InterCollectives.allreduce(groups, sendBuf, sendOffset, recvBuf, recvOffset, count, type, op));
    }

    /** MPI_Reduce_scatter_block_init (MPI-4) on an intercommunicator: a persistent {@link #reduceScatterBlock}; arguments are checked and the schedule built once, each start() runs it (the buffers must not be touched while it is active). Collective: both groups make their requests in the same order. */
    public Request reduceScatterBlockInit(final Object sendBuf, final int sendOffset, final Object recvBuf, final int recvOffset, final int recvCount, final Datatype type, final Op op)
    {
        return persistent(() -> InterCollectives.reduceScatterBlock(groups, sendBuf, sendOffset, recvBuf, recvOffset, recvCount, type, op));
    }

    /** MPI_Reduce_scatter_init (MPI-4) on an intercommunicator: a persistent {@link #reduceScatter}; arguments are checked and the schedule built once, each start() runs it (the buffers must not be touched while it is active). Collective: both groups make their requests in the same order. */
    public Request reduceScatterInit(final Object sendBuf, final int sendOffset, final Object recvBuf, final int recvOffset, final int[] recvCounts, final Datatype type, final Op op)
    {
        return persistent(() -> InterCollectives.reduceScatter(groups, sendBuf, sendOffset, recvBuf, recvOffset, recvCounts, type, op));
    }

    /**
     * Internal (tests): the context ids this intercommunicator matches on: point-to-point, bridge (both from its
     * first pair), local group, both groups (its second pair).
     */
    public int[] contextIds()
    {
        return new int[] {remote.contextId(), bridge.contextId(), local.contextId(), groups.union().contextId()};
    }

    /** MPI_Comm_size on an intercommunicator: the local group's size. */
    public int size()
    {
        return local.size();
    }

    /** MPI_Comm_rank: this process's rank in the local group. */
    public int rank()
    {
        return local.rank();
    }

    /** MPI_Comm_remote_size. */
    public int remoteSize()
    {
        return remote.size();
    }

    /** MPI_Comm_group: the local group. */
    public Group group()
    {
        return new Group(local.worldRanks(), local.worldRank(local.rank()));
    }

    /** MPI_Comm_remote_group. */
    public Group remoteGroup()
    {
        return new Group(remote.worldRanks(), local.worldRank(local.rank()));
    }

    /** MPI_Comm_test_inter: true. */
    public boolean isInter()
    {
        return true;
    }

    /** Point-to-point over this intercommunicator (ranks name the remote group), as a {@link Comm}. */
    public Comm remote()
    {
        return new Comm(remote);
    }

    /** MPI_Send to rank {@code dest} of the remote group. */
    public void send(final Object buf, final int offset, final int count, final Datatype type, final int dest, final int tag)
    {
        remote().send(buf, offset, count, type, dest, tag);
    }

    /** MPI_Recv from rank {@code source} of the remote group (or ANY_SOURCE). */
    public Status recv(final Object buf, final int offset, final int count, final Datatype type, final int source, final int tag)
    {
        return remote().recv(buf, offset, count, type, source, tag);
    }

    /** MPI_Isend to the remote group. */
    public Request isend(final Object buf, final int offset, final int count, final Datatype type, final int dest, final int tag)
    {
        return remote().isend(buf, offset, count, type, dest, tag);
    }

    /** MPI_Irecv from the remote group. */
    public Request irecv(final Object buf, final int offset, final int count, final Datatype type, final int source, final int tag)
    {
        return remote().irecv(buf, offset, count, type, source, tag);
    }

    /**
     * MPI_Intercomm_merge: an intracommunicator of both groups, the group passing {@code high = false}
     * first (if both pass the same, the group whose leader has the lower world rank). Collective over both
     * groups; all members of one group must pass the same {@code high}.
     * <ol>
     * <li>The leaders (local rank 0) exchange {@code high} over the bridge; each broadcasts both to its group.</li>
     * <li>Both groups agree a context-id pair free on every member of both ({@link InterContextIdAgreement}, the
     * leaders combining over the bridge); the merged communicator owns it ({@link Comm#free()} gives it back).</li>
     * <li>Everyone orders the groups and builds the merged communicator.</li>
     * </ol>
     */
    public Comm merge(final boolean high)
    {
        try
        {
            checkNotFreed("merge");
            final int[] theirs = new int[1];
            final int[] flags = {high ? 1 : 0, 0};
            if (local.rank() == 0)
            {
                exchange(bridge, new int[] {flags[0]}, theirs, 0, LEADER_TAG);
                flags[1] = theirs[0];
            }
            Collectives.bcast(local, flags, 0, 2, Datatype.INT, 0).start().await();
            final boolean ourHigh = flags[0] != 0;
            final boolean theirHigh = flags[1] != 0;
            final int context = InterContextIdAgreement.agree(local, 0, bridge.contextId(),
                (out, in) -> exchange(bridge, out, in, 0, LEADER_TAG));
            final int[] localWorld = local.worldRanks();
            final int[] remoteWorld = remote.worldRanks();
            final boolean weFirst = ourHigh != theirHigh ? !ourHigh : localWorld[0] < remoteWorld[0];
            final int[] merged = new int[localWorld.length + remoteWorld.length];
            final int[] firstGroup = weFirst ? localWorld : remoteWorld;
            final int[] second = weFirst ? remoteWorld : localWorld;
            System.arraycopy(firstGroup, 0, merged, 0, firstGroup.length);
            System.arraycopy(second, 0, merged, firstGroup.length, second.length);
            final int newRank = (weFirst ? 0 : remoteWorld.length) + local.rank();
            return new Comm(local.deriveOwning(context, newRank, merged, "merged"));
        }
        catch (final MpiException ex)
        {
            throw local.handle(ex);
        }
    }

    /**
     * MPI_Comm_free on an intercommunicator: collectives on it (and {@link #merge}) then fail with
     * {@link ErrorClass#ERR_COMM}; its two context-id pairs go back to the rank's pool for later communicators.
     * Local in jmpi, as {@link Comm#free()}. Freeing it twice is ERR_COMM.
     */
    public void free()
    {
        if (!freed.compareAndSet(false, true))
        {
            throw local.handle(new MpiException(ErrorClass.ERR_COMM, "free: intercommunicator (context " + remote.contextId() +
                ") was already freed"));
        }
        CollContext.free(groups.union());
        CollContext.free(local);
        CollContext.free(bridge);
        final ContextIdPool pool = local.contextIds();
        pool.free(pool.slot(remote.contextId()));
        pool.free(pool.slot(local.contextId()));
    }

    /** Whether {@link #free()} was called on this intercommunicator. */
    public boolean isFreed()
    {
        return freed.get();
    }

    private void checkNotFreed(final String call)
    {
        if (freed.get())
        {
            throw new MpiException(ErrorClass.ERR_COMM, call + ": intercommunicator (context " + remote.contextId() + ") was freed");
        }
    }
}
