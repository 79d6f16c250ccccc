package org.jmpi.internal.coll.hier;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import org.jmpi.internal.coll.CollContext;
import org.jmpi.internal.pt2pt.CommState;
import org.jmpi.internal.rank.RankServices;

/**
 * How a communicator's ranks lie on nodes, and the two sub-communicators its two-level collectives run their
 * levels on: the ranks of this rank's node, and the nodes' leaders (each node's lowest rank), both ordered by
 * rank in the communicator. Kept per communicator (a {@link CommState} slot), made at its first collective
 * that may run in two levels.
 *
 * <p>Node identity is what split_type SHARED groups by ({@link RankServices#nodeOf}: {@code jmpi.node} from
 * the launcher, else the host name), known to every rank since init, so every rank computes the same layout
 * alone. Nodes are numbered in the order of their lowest rank, which is also the leaders' order.
 *
 * <p>The sub-communicators are views ({@link CommState#derive}) matching on the communicator's own collective
 * context, each with a tag range of its own ({@link CollContext#bindView}): making them needs no message and
 * no context id, so it is local and deterministic (it works when the first such call is a nonblocking one),
 * and there is nothing to give back when the communicator is freed; they go with it.
 *
 * <p>Threading: immutable but for the tail of the call chain (atomic); any thread.
 */
public final class HierComm
{
    private static final CommState.Slot<HierComm> SLOT = CommState.slot(HierComm::new);

    final CommState comm;
    /** The node index of every rank of {@link #comm}. */
    private final int[] nodeOf;
    /** The ranks of {@link #comm} on each node, ascending. */
    final int[][] members;
    /** This rank's node. */
    final int myNode;
    /** This rank's rank on its node (0: the node's leader). */
    final int nodeRank;
    /** Whether every node's ranks are consecutive in {@link #comm} (rank order then is node order, then node rank order). */
    private final boolean contiguous;
    /** Whether the two levels apply: more than one node, and more than one rank on some node. */
    private final boolean twoLevel;
    /** The node's sub-communicator, or null when {@link #twoLevel} does not hold. */
    final CommState node;
    /** The leaders' sub-communicator on a leader (rank = node index), else null. */
    final CommState leaders;
    /** The last two-level call started on this communicator: each waits for the one before it (the levels' order). */
    private final AtomicReference<HierOp> tail = new AtomicReference<>();
    private final AtomicLong started = new AtomicLong();

    private HierComm(final CommState comm)
    {
        this.comm = comm;
        final int size = comm.size();
        final RankServices services = comm.services();
        final Map<String, Integer> index = new HashMap<>();
        final List<List<Integer>> nodes = new ArrayList<>();
        nodeOf = new int[size];
        boolean consecutive = true;
        for (int r = 0; r < size; r++)
        {
            final String name = services.nodeOf(comm.worldRank(r));
            final Integer known = index.get(name);
            final int n = known != null ? known : nodes.size();
            if (known == null)
            {
                index.put(name, n);
                nodes.add(new ArrayList<>());
            }
            consecutive &= r == 0 || n == nodeOf[r - 1] || known == null;
            nodeOf[r] = n;
            nodes.get(n).add(r);
        }
        members = new int[nodes.size()][];
        int largest = 0;
        for (int n = 0; n < members.length; n++)
        {
            members[n] = nodes.get(n).stream().mapToInt(Integer::intValue).toArray();
            largest = Math.max(largest, members[n].length);
        }
        contiguous = consecutive;
        myNode = nodeOf[comm.rank()];
        nodeRank = nodes.get(myNode).indexOf(comm.rank());
        twoLevel = members.length > 1 && largest > 1;
        if (!twoLevel)
        {
            node = null;
            leaders = null;
            return;
        }
        final int context = comm.collContextId();
        node = comm.derive(context, context, nodeRank, worldRanks(members[myNode]), comm.name() + ".node");
        CollContext.bindView(node, comm, 0);
        if (nodeRank == 0)
        {
            final int[] leaderRanks = new int[members.length];
            for (int n = 0; n < members.length; n++)
            {
                leaderRanks[n] = members[n][0];
            }
            leaders = comm.derive(context, context, myNode, worldRanks(leaderRanks), comm.name() + ".leaders");
            CollContext.bindView(leaders, comm, 1);
        }
        else
        {
            leaders = null;
        }
    }

    /** The layout of {@code c}, made at the first call. */
    public static HierComm of(final CommState c)
    {
        return c.get(SLOT);
    }

    /** Whether two levels apply on this communicator: it spans more than one node, and some node holds more than one rank. */
    public boolean twoLevel()
    {
        return twoLevel;
    }

    /** Whether each node's ranks are consecutive (then reductions over the levels keep rank order). */
    public boolean contiguous()
    {
        return contiguous;
    }

    /** The node index of rank {@code r}. */
    int nodeOf(final int r)
    {
        return nodeOf[r];
    }

    /** The number of nodes. */
    int nodeCount()
    {
        return members.length;
    }

    /** The rank of {@code r} on its node. */
    int nodeRankOf(final int r)
    {
        final int[] m = members[nodeOf[r]];
        for (int i = 0; i < m.length; i++)
        {
            if (m[i] == r)
            {
                return i;
            }
        }
        throw new IllegalArgumentException("rank " + r);
    }

    /** Makes {@code op} the last call of the chain; returns the call before it (null if none). Calling thread, in call order. */
    HierOp enqueue(final HierOp op)
    {
        started.incrementAndGet();
        return tail.getAndSet(op);
    }

    /** How many two-level calls this rank has started on the communicator (tests and benchmarks). */
    public long callsStarted()
    {
        return started.get();
    }

    private int[] worldRanks(final int[] ranks)
    {
        final int[] world = new int[ranks.length];
        for (int i = 0; i < ranks.length; i++)
        {
            world[i] = comm.worldRank(ranks[i]);
        }
        return world;
    }
}
