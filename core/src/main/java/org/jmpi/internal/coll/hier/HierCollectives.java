package org.jmpi.internal.coll.hier;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;

import org.jmpi.Comm;
import org.jmpi.Datatype;
import org.jmpi.ErrorClass;
import org.jmpi.MpiException;
import org.jmpi.Op;
import org.jmpi.internal.coll.CollContext;
import org.jmpi.internal.coll.Collectives;
import org.jmpi.internal.coll.Reductions;
import org.jmpi.internal.coll.Schedule;
import org.jmpi.internal.pt2pt.RequestImpl;

/**
 * Two-level (node-aware) barrier, bcast, reduce, allreduce and allgather on a communicator that spans nodes:
 * within each node, then among the nodes' leaders, then within each node again, each level a collective of the
 * communicator's sub-communicators ({@link HierComm}), so each level runs whatever those choose (the node
 * collectives within a node where they are available, the point-to-point algorithms otherwise). See
 * docs/collectives.md, "Two-level collectives".
 *
 * <p>The callers ({@code Collectives}, {@code Reductions}) have checked the arguments and chosen this path; every
 * rank chooses alike. A non-commutative op comes here only when every node's ranks are consecutive, so that the
 * node level (rank order within a node) and the leaders' level (node order) together keep rank order. Every
 * method builds its stages' plans (tags are taken in call order, by every member of each sub-communicator alike)
 * and returns the started request ({@link HierOp}).
 *
 * <p>Threading: any thread, in the communicator's collective call order.
 */
public final class HierCollectives
{
    private static final Object IN_PLACE = Comm.IN_PLACE;

    private HierCollectives()
    {
    }

    /** Barrier: the node's ranks meet, the leaders meet, the node's ranks meet again (none leaves before every leader arrived). */
    public static RequestImpl barrier(final HierComm h)
    {
        final List<HierOp.Stage> stages = new ArrayList<>();
        final boolean alone = h.members[h.myNode].length == 1;
        if (!alone)
        {
            add(stages, Collectives.barrier(h.node));
        }
        if (h.leaders != null)
        {
            add(stages, Collectives.barrier(h.leaders));
        }
        if (!alone)
        {
            add(stages, Collectives.barrier(h.node));
        }
        return new HierOp(h, "barrier", stages).launch();
    }

    /**
     * Bcast from {@code root}:
     * <ol>
     * <li>If the root is not its node's leader: bcast on the root's node from the root.</li>
     * <li>Bcast among the leaders from the root's node's leader.</li>
     * <li>On every other node (and on the root's node when the root leads it): bcast from the leader.</li>
     * </ol>
     */
    public static RequestImpl bcast(final HierComm h, final Object buf, final int offset, final int count, final Datatype type, final int root)
    {
        final List<HierOp.Stage> stages = new ArrayList<>();
        final int rootNode = h.nodeOf(root);
        final boolean rootFirst = h.myNode == rootNode && h.members[rootNode][0] != root;
        final boolean alone = h.members[h.myNode].length == 1;
        if (rootFirst)
        {
            add(stages, Collectives.bcast(h.node, buf, offset, count, type, h.nodeRankOf(root)));
        }
        if (h.leaders != null)
        {
            add(stages, Collectives.bcast(h.leaders, buf, offset, count, type, rootNode));
        }
        if (!rootFirst && !alone)
        {
            add(stages, Collectives.bcast(h.node, buf, offset, count, type, 0));
        }
        return new HierOp(h, "bcast", stages).launch();
    }

    /**
     * Reduce to {@code root} ({@code sendBuf} IN_PLACE at the root only):
     * <ol>
     * <li>Reduce on every node to its leader: into the receive buffer if the leader is the root, else into a
     * scratch buffer shaped like the user's (count items of the type).</li>
     * <li>Reduce among the leaders to the root's node's leader (IN_PLACE there).</li>
     * <li>If the root is not its node's leader: the leader sends the result to the root.</li>
     * </ol>
     */
    public static RequestImpl reduce(final HierComm h, final Object sendBuf, final int sendOffset, final Object recvBuf, final int recvOffset,
        final int count, final Datatype type, final Op op, final int root)
    {
        final List<HierOp.Stage> stages = new ArrayList<>();
        final int rank = h.comm.rank();
        final int rootNode = h.nodeOf(root);
        final int rootOnNode = h.nodeRankOf(root);
        final boolean isRoot = rank == root;
        // This rank's operand: the receive buffer at an IN_PLACE root, else the send buffer.
        final Object in = sendBuf == IN_PLACE ? recvBuf : sendBuf;
        final int inOffset = sendBuf == IN_PLACE ? recvOffset : sendOffset;
        if (h.nodeRank == 0)
        {
            final Object acc;
            final int accOffset;
            if (isRoot)
            {
                acc = recvBuf;
                accOffset = recvOffset;
            }
            else
            {
                final ByteBuffer scratch = scratch(count, type);
                acc = scratch;
                accOffset = scratch.position();
            }
            add(stages, Reductions.reduce(h.node, isRoot && sendBuf == IN_PLACE ? IN_PLACE : in, inOffset, acc, accOffset, count, type, op, 0));
            if (h.myNode == rootNode)
            {
                add(stages, Reductions.reduce(h.leaders, IN_PLACE, 0, acc, accOffset, count, type, op, rootNode));
            }
            else
            {
                add(stages, Reductions.reduce(h.leaders, acc, accOffset, null, 0, count, type, op, rootNode));
            }
            if (h.myNode == rootNode && !isRoot)
            {
                final Schedule s = new Schedule().send(rootOnNode, acc, accOffset, count, type).next();
                add(stages, new Collectives.Plan(h.node, "reduce", s, CollContext.of(h.node).nextTag()));
            }
        }
        else
        {
            add(stages, Reductions.reduce(h.node, in, inOffset, null, 0, count, type, op, 0));
            if (h.myNode == rootNode && rootOnNode != 0)
            {
                // Every rank of the node takes the tag of the last step, so that their tags stay in step.
                final int tag = CollContext.of(h.node).nextTag();
                if (isRoot)
                {
                    add(stages, new Collectives.Plan(h.node, "reduce", new Schedule().recv(0, recvBuf, recvOffset, count, type).next(), tag));
                }
            }
        }
        return new HierOp(h, "reduce", stages).launch();
    }

    /**
     * Allreduce:
     * <ol>
     * <li>Reduce on every node to its leader, into the leader's receive buffer.</li>
     * <li>Allreduce among the leaders, in place.</li>
     * <li>Bcast on every node from its leader.</li>
     * </ol>
     */
    public static RequestImpl allreduce(final HierComm h, final Object sendBuf, final int sendOffset, final Object recvBuf,
        final int recvOffset, final int count, final Datatype type, final Op op)
    {
        final List<HierOp.Stage> stages = new ArrayList<>();
        final boolean alone = h.members[h.myNode].length == 1;
        if (h.nodeRank == 0)
        {
            add(stages, Reductions.reduce(h.node, sendBuf, sendOffset, recvBuf, recvOffset, count, type, op, 0));
            add(stages, Reductions.allreduce(h.leaders, IN_PLACE, 0, recvBuf, recvOffset, count, type, op));
        }
        else
        {
            add(stages, Reductions.reduce(h.node, sendBuf == IN_PLACE ? recvBuf : sendBuf, sendBuf == IN_PLACE ? recvOffset : sendOffset,
                null, 0, count, type, op, 0));
        }
        if (!alone)
        {
            add(stages, Collectives.bcast(h.node, recvBuf, recvOffset, count, type, 0));
        }
        return new HierOp(h, "allreduce", stages).launch();
    }

    /**
     * Allgather (block i of the receive buffer from rank i, whichever node holds it):
     * <ol>
     * <li>Gatherv on every node to its leader, each block straight into its place in the leader's receive buffer.</li>
     * <li>Ring among the leaders, each node's blocks as one message: in step j, send the blocks of node (own - j)
     * to the next leader and receive those of node (own - j - 1) from the previous one, each node's blocks
     * described by an hindexed type over the receive type (a node's ranks need not be consecutive).</li>
     * <li>Bcast of the whole receive buffer on every node from its leader.</li>
     * </ol>
     */
    public static RequestImpl allgather(final HierComm h, final Object sendBuf, final int sendOffset, final int sendCount,
        final Datatype sendType, final Object recvBuf, final int recvOffset, final int recvCount, final Datatype recvType)
    {
        final String call = "allgather";
        final List<HierOp.Stage> stages = new ArrayList<>();
        final int rank = h.comm.rank();
        final int[] mine = h.members[h.myNode];
        final int all = multiply(call, h.comm.size(), recvCount);
        final int[] counts = new int[mine.length];
        final int[] displs = new int[mine.length];
        for (int j = 0; j < mine.length; j++)
        {
            counts[j] = recvCount;
            displs[j] = multiply(call, mine[j], recvCount);
        }
        if (h.nodeRank == 0)
        {
            add(stages, Collectives.gatherv(h.node, sendBuf, sendOffset, sendCount, sendType, recvBuf, recvOffset, counts, displs, recvType, 0));
        }
        else if (sendBuf == IN_PLACE)
        {
            final Datatype own = blocks(new int[] {rank}, recvCount, recvType);
            add(stages, Collectives.gatherv(h.node, recvBuf, recvOffset, 1, own, null, 0, counts, displs, recvType, 0));
        }
        else
        {
            add(stages, Collectives.gatherv(h.node, sendBuf, sendOffset, sendCount, sendType, null, 0, counts, displs, recvType, 0));
        }
        if (h.leaders != null && recvCount > 0)
        {
            final int nodes = h.nodeCount();
            final Datatype[] nodeBlocks = new Datatype[nodes];
            for (int n = 0; n < nodes; n++)
            {
                nodeBlocks[n] = blocks(h.members[n], recvCount, recvType);
            }
            final Schedule s = new Schedule();
            final int right = (h.myNode + 1) % nodes;
            final int left = (h.myNode - 1 + nodes) % nodes;
            for (int j = 0; j < nodes - 1; j++)
            {
                s.send(right, recvBuf, recvOffset, 1, nodeBlocks[Math.floorMod(h.myNode - j, nodes)]);
                s.recv(left, recvBuf, recvOffset, 1, nodeBlocks[Math.floorMod(h.myNode - j - 1, nodes)]);
                s.next();
            }
            add(stages, new Collectives.Plan(h.leaders, call, s, CollContext.of(h.leaders).nextTag()));
        }
        if (mine.length > 1)
        {
            add(stages, Collectives.bcast(h.node, recvBuf, recvOffset, all, recvType, 0));
        }
        return new HierOp(h, call, stages).launch();
    }

    // ------------------------------------------------------------------------------------------ helpers

    private static void add(final List<HierOp.Stage> stages, final Collectives.Plan plan)
    {
        stages.add(plan::start);
    }

    /** The blocks of {@code ranks} ({@code count} items of {@code type} at rank x count extents each), in that order, as one type. */
    private static Datatype blocks(final int[] ranks, final int count, final Datatype type)
    {
        final int[] lengths = new int[ranks.length];
        final long[] displacements = new long[ranks.length];
        for (int j = 0; j < ranks.length; j++)
        {
            lengths[j] = count;
            displacements[j] = (long)ranks[j] * count * type.extent();
        }
        return Datatype.hindexed(lengths, displacements, type).commit();
    }

    /**
     * A scratch buffer for {@code count} items of {@code type}, laid out as a user buffer would be: a native-order
     * heap ByteBuffer (any type fits one), positioned at the byte offset to pass with it (room for a negative
     * lower bound).
     */
    static ByteBuffer scratch(final int count, final Datatype type)
    {
        final long reach = count == 0 ? 0 : (count - 1) * type.extent();
        final long lo = type.trueLb() + Math.min(0, reach);
        final long hi = type.trueLb() + type.trueExtent() + Math.max(0, reach);
        final long offset = Math.max(0, -lo);
        final long capacity = Math.max(offset, offset + hi);
        if (capacity > Integer.MAX_VALUE - 16)
        {
            throw new MpiException(ErrorClass.ERR_COUNT, "two-level reduce: " + count + " items of " + type.name() + " span " + capacity +
                " bytes, more than a scratch buffer holds");
        }
        return ByteBuffer.allocate((int)capacity).order(ByteOrder.nativeOrder()).position((int)offset);
    }

    private static int multiply(final String call, final int a, final int b)
    {
        final long product = (long)a * b;
        if (product > Integer.MAX_VALUE)
        {
            throw new MpiException(ErrorClass.ERR_COUNT, call + ": " + a + " x " + b + " items exceed the largest count");
        }
        return (int)product;
    }
}
