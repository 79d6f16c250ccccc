package org.jmpi;

import org.jmpi.internal.coll.Collectives;
import org.jmpi.internal.coll.InterCollectives;
import org.jmpi.internal.coll.Reductions;
import org.jmpi.internal.pt2pt.CommState;
import org.jmpi.internal.pt2pt.PointToPoint;
import org.jmpi.internal.pt2pt.SendMode;

/**
 * An intercommunicator (MPI 4.1 §7.6): two disjoint groups; point-to-point ranks name processes of the
 * <em>remote</em> group. Made by {@link #create}; {@link #merge} makes an intracommunicator of both groups.
 *
 * <p>Contexts: an intercommunicator takes four context ids agreed across both groups: point-to-point, a
 * private one for its own agreements between the groups (merge), and one for its local group's internal
 * collectives. Collectives over it: {@link #barrier}, {@link #bcast}, {@link #allreduce} (blocking); the
 * others are not implemented yet (issue 4).
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

    private Intercomm(final CommState remote, final CommState bridge, final CommState local)
    {
        this.remote = remote;
        this.bridge = bridge;
        this.local = local;
    }

    /**
     * MPI_Intercomm_create: collective over {@code localComm} on each side.
     * <ol>
     * <li>Each group agrees the maximum of its members' lowest free context ids (allreduce over localComm).</li>
     * <li>The two leaders exchange {id, group size} and then their groups' world ranks over {@code peerComm}
     * with {@code tag}.</li>
     * <li>Each leader broadcasts the remote group and id to its group; every member takes the larger id,
     * reserves four from it and builds the intercommunicator.</li>
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
                throw new MpiException(ErrorClass.ERR_RANK, "intercommCreate: invalid local leader " + localLeader);
            }
            final int[] mine = {lc.nextContextId()};
            final int[] localMax = new int[1];
            Reductions.allreduce(lc, mine, 0, localMax, 0, 1, Datatype.INT, Op.MAX).start().await();
            final int[] header = new int[2];
            int[] remoteWorld = NO_INTS;
            if (lc.rank() == localLeader)
            {
                final CommState pc = peerComm.state();
                final int[] out = {localMax[0], lc.size()};
                exchange(pc, out, header, remoteLeader, tag);
                remoteWorld = new int[header[1]];
                final int[] ours = lc.worldRanks();
                final var r = PointToPoint.irecv(pc, remoteWorld, 0, remoteWorld.length, Datatype.INT, remoteLeader, tag);
                PointToPoint.isend(pc, ours, 0, ours.length, Datatype.INT, remoteLeader, tag, SendMode.STANDARD).await();
                r.await();
            }
            Collectives.bcast(lc, header, 0, 2, Datatype.INT, localLeader).start().await();
            if (lc.rank() != localLeader)
            {
                remoteWorld = new int[header[1]];
            }
            Collectives.bcast(lc, remoteWorld, 0, remoteWorld.length, Datatype.INT, localLeader).start().await();
            final int context = Math.max(localMax[0], header[0]);
            lc.reserveContextIds(context + 4);
            return new Intercomm(lc.derive(context, context + 1, lc.rank(), remoteWorld, "intercomm"),
                lc.derive(context + 1, context + 1, lc.rank(), remoteWorld, "intercomm.bridge"),
                lc.derive(context + 2, context + 2, lc.rank(), lc.worldRanks(), "intercomm.local"));
        }
        catch (final MpiException ex)
        {
            throw lc.handle(ex);
        }
    }

    private static void exchange(final CommState c, final int[] out, final int[] in, final int peer, final int tag)
    {
        final var r = PointToPoint.irecv(c, in, 0, in.length, Datatype.INT, peer, tag);
        PointToPoint.isend(c, out, 0, out.length, Datatype.INT, peer, tag, SendMode.STANDARD).await();
        r.await();
    }

    /** MPI_ROOT: the root of an intercommunicator {@link #bcast} passes it; the rest of its group pass {@link Comm#PROC_NULL}. */
    public static final int ROOT = InterCollectives.ROOT;

    /** MPI_Barrier over both groups: returns once every member of both has called it. */
    public void barrier()
    {
        try
        {
            InterCollectives.barrier(local, bridge);
        }
        catch (final MpiException ex)
        {
            throw local.handle(ex);
        }
    }

    /**
     * MPI_Bcast from one group to the other: the root passes {@link #ROOT}, the rest of its group
     * {@link Comm#PROC_NULL}; every member of the other group passes the root's rank in the root's group.
     */
    public void bcast(final Object buf, final int offset, final int count, final Datatype type, final int root)
    {
        try
        {
            InterCollectives.bcast(local, bridge, buf, offset, count, type, root);
        }
        catch (final MpiException ex)
        {
            throw local.handle(ex);
        }
    }

    /** MPI_Allreduce over an intercommunicator: each group receives the reduction of the other group's operands. */
    public void allreduce(final Object sendBuf, final int sendOffset, final Object recvBuf, final int recvOffset, final int count,
        final Datatype type, final Op op)
    {
        try
        {
            InterCollectives.allreduce(local, bridge, sendBuf, sendOffset, recvBuf, recvOffset, count, type, op);
        }
        catch (final MpiException ex)
        {
            throw local.handle(ex);
        }
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
     * <li>Each group agrees its maximum lowest free context id.</li>
     * <li>The leaders (local rank 0) exchange {id, high} over the private context; each broadcasts the
     * other's to its group.</li>
     * <li>Everyone takes the larger id, reserves two and orders the groups.</li>
     * </ol>
     */
    public Comm merge(final boolean high)
    {
        try
        {
            final int[] mine = {local.nextContextId()};
            final int[] localMax = new int[1];
            Reductions.allreduce(local, mine, 0, localMax, 0, 1, Datatype.INT, Op.MAX).start().await();
            final int[] theirs = new int[2];
            final int[] ours = {localMax[0], high ? 1 : 0};
            if (local.rank() == 0)
            {
                exchange(bridge, ours, theirs, 0, LEADER_TAG);
            }
            Collectives.bcast(local, theirs, 0, 2, Datatype.INT, 0).start().await();
            Collectives.bcast(local, ours, 1, 1, Datatype.INT, 0).start().await();
            final boolean ourHigh = ours[1] != 0;
            final boolean theirHigh = theirs[1] != 0;
            final int[] localWorld = local.worldRanks();
            final int[] remoteWorld = remote.worldRanks();
            final boolean weFirst = ourHigh != theirHigh ? !ourHigh : localWorld[0] < remoteWorld[0];
            final int[] merged = new int[localWorld.length + remoteWorld.length];
            final int[] firstGroup = weFirst ? localWorld : remoteWorld;
            final int[] second = weFirst ? remoteWorld : localWorld;
            System.arraycopy(firstGroup, 0, merged, 0, firstGroup.length);
            System.arraycopy(second, 0, merged, firstGroup.length, second.length);
            final int context = Math.max(localMax[0], theirs[0]);
            local.reserveContextIds(context + 2);
            final int newRank = (weFirst ? 0 : remoteWorld.length) + local.rank();
            return new Comm(local.derive(context, context + 1, newRank, merged, "merged"));
        }
        catch (final MpiException ex)
        {
            throw local.handle(ex);
        }
    }
}
