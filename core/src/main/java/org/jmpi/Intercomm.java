package org.jmpi;

import org.jmpi.internal.coll.CollectiveOps;
import org.jmpi.internal.coll.Collectives;
import org.jmpi.internal.coll.InterCollectives;
import org.jmpi.internal.comm.Attributes;
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
 * <p>An intercommunicator is a {@link Comm}: point-to-point and the collectives above are its inherited methods;
 * {@link #rank()}, {@link #size()} and {@link #group()} are the local group's, {@link #remoteSize()} and
 * {@link #remoteGroup()} the remote group's, and point-to-point ranks name the remote group.
 *
 * <p>Threading: as {@link Comm}.
 */
public final class Intercomm extends Comm
{
    private static final int[] NO_INTS = new int[0];
    private static final int LEADER_TAG = 0;

    /** Between the two groups, for the intercommunicator's own agreements. */
    private final CommState bridge;
    /** Both groups as one communicator, for the collectives (see {@link InterCollectives}). */
    private final InterCollectives.Groups groups;

    /**
     * @param remote point-to-point towards the remote group: rank = local rank, world ranks = the remote group's.
     * @param local  the local group as an intracommunicator.
     */
    private Intercomm(final CommState remote, final CommState bridge, final CommState local, final InterCollectives.Groups groups)
    {
        super(remote, local, new CollectiveOps.Inter(groups));
        this.bridge = bridge;
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
        if (localComm == null)
        {
            throw new MpiException(ErrorClass.ERR_COMM, "intercommCreate: the local communicator is null");
        }
        return localComm.call("intercommCreate", () ->
        {
            if (localComm instanceof Intercomm)
            {
                throw new MpiException(ErrorClass.ERR_COMM, "intercommCreate: the local communicator must be an intracommunicator");
            }
            final CommState lc = localComm.state;
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
            final CommState pc = lc.rank() == localLeader ? peerComm.live("intercommCreate") : null;
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
            return build(lc, remoteWorld, context, groupContext, "intercomm");
        });
    }

    /**
     * The parts of an intercommunicator of {@code lc}'s group and the group {@code remoteWorld} on two agreed
     * pairs: {@code context} (point-to-point, then the bridge) owned by the remote part, {@code groupContext}
     * (the local group, then the union) owned by the local part.
     */
    private static Intercomm build(final CommState lc, final int[] remoteWorld, final int context, final int groupContext,
        final String name)
    {
        return new Intercomm(lc.deriveOwning(context, context, context + 1, lc.rank(), remoteWorld, name),
            lc.derive(context + 1, context + 1, lc.rank(), remoteWorld, name + ".bridge"),
            lc.deriveOwning(groupContext, groupContext, groupContext, lc.rank(), lc.worldRanks(), name + ".local"),
            InterCollectives.Groups.of(lc, lc.worldRanks(), remoteWorld, groupContext + 1));
    }

    /** The intercommunicator connect/accept made ({@link Intracomm#accept}, {@link Intracomm#connect}). */
    static Intercomm joined(final CommState lc, final org.jmpi.internal.comm.Ports.Joined joined, final String name)
    {
        return build(joined.local(), joined.remoteWorld(), joined.context(), joined.groupContext(), name);
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

    @Override
    CommState[] parts()
    {
        return new CommState[] {state, bridge, local, groups.union()};
    }

    /** The context ids of the parts: point-to-point, bridge, local group, union (for tests of the agreement). */
    int[] contextIds()
    {
        return new int[] {state.contextId(), bridge.contextId(), local.contextId(), groups.union().contextId()};
    }

    /** MPI_Comm_remote_size. */
    public int remoteSize()
    {
        return live("remoteSize").size();
    }

    /** MPI_Comm_remote_group. */
    public Group remoteGroup()
    {
        live("remoteGroup");
        return new Group(state.worldRanks(), local.worldRank(local.rank()));
    }

    /**
     * MPI_Comm_dup on an intercommunicator: the same two groups on two new context-id pairs, agreed across both
     * groups as {@link #merge} agrees its one ({@link InterContextIdAgreement}, the leaders combining over the
     * bridge); attributes copied by their keys' copy callbacks. Collective over both groups.
     */
    @Override
    public Intercomm dup()
    {
        return call("dup", () ->
        {
            final int[] pairs = agreeTwoPairs();
            final int context = pairs[0];
            final int groupContext = pairs[1];
            final Intercomm copy = build(local, state.worldRanks(), context, groupContext, state.name() + ".dup");
            Attributes.of(local).copyTo(this, copy, Attributes.of(copy.local));
            return copy;
        });
    }

    /** Two context-id pairs agreed across both groups, one after the other (the leaders combine over the bridge). */
    private int[] agreeTwoPairs()
    {
        final InterContextIdAgreement.LeaderExchange overBridge = (out, in) -> exchange(bridge, out, in, 0, LEADER_TAG);
        final int context = InterContextIdAgreement.agree(local, 0, bridge.contextId(), overBridge);
        try
        {
            return new int[] {context, InterContextIdAgreement.agree(local, 0, bridge.contextId(), overBridge)};
        }
        catch (final MpiException ex)
        {
            local.contextIds().free(local.contextIds().slot(context));
            throw ex;
        }
    }

    /**
     * MPI_Comm_split on an intercommunicator: the ranks of each group passing the same {@code color} (&gt;= 0),
     * ordered by {@code key} then by rank, form the local group of a new intercommunicator whose remote group is
     * the other group's ranks of that colour. A rank passing {@link #UNDEFINED}, or whose colour has no member in
     * the other group, gets {@code null}. Collective over both groups.
     * <ol>
     * <li>Allgather {color, key} over the local group; the leaders (local rank 0) swap their groups' arrays over
     * the bridge and broadcast the other group's to their group.</li>
     * <li>Both groups agree two context-id pairs as {@link #dup} does; every new intercommunicator of the split
     * takes them (they are disjoint); a rank that gets {@code null} gives them back.</li>
     * <li>Each rank picks its colour's members on both sides and builds the intercommunicator.</li>
     * </ol>
     */
    @Override
    public Intercomm split(final int color, final int key)
    {
        return call("split", () ->
        {
            if (color < 0 && color != UNDEFINED)
            {
                throw new MpiException(ErrorClass.ERR_ARG, "split: invalid color " + color + " (>= 0 or UNDEFINED)");
            }
            final int[] ours = new int[2 * local.size()];
            Collectives.allgather(local, new int[] {color, key}, 0, 2, Datatype.INT, ours, 0, 2, Datatype.INT).start().await();
            final int[] theirs = new int[2 * state.size()];
            if (local.rank() == 0)
            {
                final var r = PointToPoint.irecv(bridge, theirs, 0, theirs.length, Datatype.INT, 0, LEADER_TAG);
                PointToPoint.isend(bridge, ours, 0, ours.length, Datatype.INT, 0, LEADER_TAG, SendMode.STANDARD).await();
                r.await();
            }
            Collectives.bcast(local, theirs, 0, theirs.length, Datatype.INT, 0).start().await();
            final int[] pairs = agreeTwoPairs();
            final int context = pairs[0];
            final int groupContext = pairs[1];
            final int[] localMembers = members(ours, color);
            final int[] remoteMembers = members(theirs, color);
            if (color == UNDEFINED || remoteMembers.length == 0)
            {
                local.contextIds().free(local.contextIds().slot(context));
                local.contextIds().free(local.contextIds().slot(groupContext));
                return null;
            }
            final int[] localWorld = new int[localMembers.length];
            int newRank = -1;
            for (int i = 0; i < localMembers.length; i++)
            {
                localWorld[i] = local.worldRank(localMembers[i]);
                newRank = localMembers[i] == local.rank() ? i : newRank;
            }
            final int[] remoteWorld = new int[remoteMembers.length];
            for (int i = 0; i < remoteMembers.length; i++)
            {
                remoteWorld[i] = state.worldRank(remoteMembers[i]);
            }
            final CommState newLocal = local.derive(local.contextId(), local.collContextId(), newRank, localWorld, "split");
            return build(newLocal, remoteWorld, context, groupContext, state.name() + ".split(" + color + ")");
        });
    }

    /** The ranks whose {color, key} pair in {@code colorsAndKeys} has {@code color}, ordered by (key, rank). */
    private static int[] members(final int[] colorsAndKeys, final int color)
    {
        return java.util.stream.IntStream.range(0, colorsAndKeys.length / 2)
            .filter(r -> color != UNDEFINED && colorsAndKeys[2 * r] == color)
            .boxed()
            .sorted(java.util.Comparator.<Integer>comparingInt(r -> colorsAndKeys[2 * r + 1]).thenComparingInt(r -> r))
            .mapToInt(Integer::intValue)
            .toArray();
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
    public Intracomm merge(final boolean high)
    {
        return call("merge", () ->
        {
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
            final int[] remoteWorld = state.worldRanks();
            final boolean weFirst = ourHigh != theirHigh ? !ourHigh : localWorld[0] < remoteWorld[0];
            final int[] merged = new int[localWorld.length + remoteWorld.length];
            final int[] firstGroup = weFirst ? localWorld : remoteWorld;
            final int[] second = weFirst ? remoteWorld : localWorld;
            System.arraycopy(firstGroup, 0, merged, 0, firstGroup.length);
            System.arraycopy(second, 0, merged, firstGroup.length, second.length);
            final int newRank = (weFirst ? 0 : remoteWorld.length) + local.rank();
            return new Intracomm(local.deriveOwning(context, newRank, merged, "merged"));
        });
    }
}
