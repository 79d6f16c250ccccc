package org.jmpi.internal.coll;

import org.jmpi.Comm;
import org.jmpi.Datatype;
import org.jmpi.ErrorClass;
import org.jmpi.MpiException;
import org.jmpi.Op;
import java.util.function.Function;
import java.util.function.Supplier;

import org.jmpi.internal.coll.hier.HierCollectives;
import org.jmpi.internal.coll.hier.HierComm;
import org.jmpi.internal.coll.node.NodeCollectives;
import org.jmpi.internal.pt2pt.CommState;
import org.jmpi.internal.pt2pt.RequestImpl;

/**
 * The collective operations: argument checks (once, on the calling thread), algorithm choice, and the
 * {@link Schedule} that each algorithm builds. Every call returns a started {@link CollRequest}; blocking
 * calls wait for it, nonblocking calls hand it to the user, persistent calls keep the schedule and start it
 * again and again ({@link #plan}).
 *
 * <p>Algorithms (see docs/collectives.md): dissemination barrier; binomial and scatter + ring-allgather
 * bcast; ring and recursive-doubling allgather; Bruck, pairwise and linear alltoall; linear gather and
 * scatter; neighbourhood exchanges. This class holds the plans, the algorithm selection, the checks shared by
 * every family, barrier, and the public entry points; the families' algorithms are in {@link Broadcasts},
 * {@link GatherScatter}, {@link Allgathers}, {@link Alltoalls}, {@link Reductions} and {@link Neighbors}. Where the
 * communicator's ranks share a node (threads of this JVM, or JVMs reached through shm), barrier, bcast, reduce, allreduce, gather,
 * scatter, allgather and alltoall run as node collectives instead ({@link #nodeSelected},
 * org.jmpi.internal.coll.node).
 *
 * <p>Threading: any thread; the schedules run on the engine thread.
 */
public final class Collectives
{
    /** The IN_PLACE sentinel (see {@link Comm#IN_PLACE}). */
    public static final Object IN_PLACE = Comm.IN_PLACE;

    private static final byte[] NO_BYTES = new byte[0];

    /** Codes of the collectives for the mismatch check ({@code jmpi.coll.check}). */
    static final int K_BARRIER = 1;
    static final int K_BCAST = 2;
    static final int K_REDUCE = 3;
    static final int K_ALLREDUCE = 4;
    static final int K_GATHER = 5;
    static final int K_SCATTER = 6;
    static final int K_ALLGATHER = 7;
    static final int K_ALLTOALL = 8;
    static final int K_REDUCE_SCATTER = 9;
    static final int K_SCAN = 10;
    static final int K_EXSCAN = 11;
    static final int K_ALLGATHERV = 12;
    static final int K_GATHERV = 13;
    static final int K_SCATTERV = 14;
    static final int K_ALLTOALLV = 15;
    static final int K_ALLTOALLW = 16;
    static final int K_REDUCE_SCATTER_BLOCK = 17;
    static final int K_NEIGHBOR_ALLGATHER = 18;
    static final int K_NEIGHBOR_ALLTOALL = 19;

    private Collectives()
    {
    }

    /**
     * A schedule with its tag, ready to be started any number of times (persistent collectives); or, where the
     * node collectives were chosen ({@link #nodeSelected}), the {@code node} call that each start makes instead
     * (the schedule is then null).
     */
    public record Plan(CommState comm, String call, Schedule schedule, int tag, DirectFactory direct, Supplier<RequestImpl> node)
    {
        public Plan(final CommState comm, final String call, final Schedule schedule, final int tag)
        {
            this(comm, call, schedule, tag, null, null);
        }

        public RequestImpl start()
        {
            if (node != null)
            {
                return node.get();
            }
            if (PathTrace.on(comm))
            {
                PathTrace.note(comm, call, "point-to-point schedule, " + schedule.transferCount() + " transfers");
            }
            return new CollRequest(comm, call, schedule, tag).launch();
        }

        /** This plan with a put/get alternative that a persistent request may use instead of the schedule. */
        Plan withDirect(final DirectFactory factory)
        {
            return new Plan(comm, call, schedule, tag, factory, node);
        }
    }

    /**
     * Whether a call on {@code c} whose algorithm parameter is {@code algorithm} runs as a node collective
     * (org.jmpi.internal.coll.node): forced with "node", or "auto", wherever the communicator's ranks share a node
     * (threads of this JVM, or JVMs reached through shm: {@code NodeCollectives.available}) and the communicator
     * has two ranks or more, unless {@code jmpi.coll.check} is on (its check
     * is a point-to-point schedule). Every input is the same on every rank, so all choose alike; the choice
     * does not depend on the message size (ranks that disagree on counts must not take different paths).
     */
    static boolean nodeSelected(final CommState c, final String algorithm)
    {
        return nodeSelected(c, algorithm, false);
    }

    /**
     * As above; for a {@code rooted} call (reduce, gather, scatter) "auto" picks the node collectives where the
     * region lies on the heap, and across JVMs only while the job's ranks on the node do not outnumber its
     * processors ({@code NodeCollectives.rootedOnNode}): quiet, at 2 JVMs, the region beat point-to-point for all
     * four rooted calls (session 9, 1 KiB: gather 0.47 against 2.27 us, scatter 0.33 against 1.43, reduce 1.42
     * against 2.17), while at 4 JVMs on 2 vCPUs (oversubscribed, loaded; bench/coll-osu.sh --rooted 4) reduce,
     * gather and scatter lost at 4 and 64 B by 1.7-14x. bcast passes {@code rooted} false: it won at every size
     * at 2 and 4 JVMs (docs/collectives.md, "Selection across JVMs").
     */
    static boolean nodeSelected(final CommState c, final String algorithm, final boolean rooted)
    {
        final CollParams p = CollContext.of(c).params;
        if (p.check || !NodeCollectives.available(c))
        {
            return false;
        }
        return algorithm.equals("node") || (algorithm.equals("auto") && c.size() > 1 && (!rooted || NodeCollectives.rootedOnNode(c)));
    }

    /** The plan of a node collective call: each start runs {@code node}. */
    static Plan nodePlan(final CommState c, final String call, final Supplier<RequestImpl> node)
    {
        return new Plan(c, call, null, context(c, call).nextTag(), null, node);
    }

    /**
     * A blocking call on the node path, run by the caller straight (no plan, no lambda): it takes the tag its plan
     * would have taken, so that the communicator's tags stay in step on every rank whichever form a call took.
     */
    static int nodeNow(final CommState c, final String call)
    {
        return context(c, call).nextTag();
    }

    /** Runs a blocking call's plan to completion; null: the call already ran (the node path, {@link #nodeNow}). */
    public static void run(final Plan plan)
    {
        if (plan != null)
        {
            plan.start().awaitCompletion();
        }
    }

    /** The node collectives' slot size on {@code c} ({@code jmpi.coll.node.slot}). */
    static int nodeSlot(final CommState c)
    {
        return CollContext.of(c).params.nodeSlotBytes;
    }

    /**
     * Builds the put- or get-based form of a persistent call ({@link DirectPersistent}) for the plan's tag, or
     * returns null to keep the point-to-point schedule. Only persistent requests call it (collectively, at init).
     */
    @FunctionalInterface
    interface DirectFactory
    {
        DirectPersistent create(int tag);
    }

    /**
     * The mode of a persistent {@code call} of {@code bytes} on {@code c}: null for the point-to-point schedule
     * (forced, or "auto" with ranks not sharing this heap and no device calibration named), else put or get (forced, or
     * the cost model's choice). Every rank
     * must pass the same {@code bytes} (the v-variants pass 0: their block sizes differ per rank), so that all
     * choose alike.
     */
    static DirectPersistent.Mode directMode(final CommState c, final String call, final long bytes)
    {
        return directMode(c, call, bytes, true);
    }

    /** As above, for a reduction with a {@code commutative} op or not (the get-based reduce copies a non-commutative operand first). */
    static DirectPersistent.Mode directMode(final CommState c, final String call, final long bytes, final boolean commutative)
    {
        final CollParams p = CollContext.of(c).params;
        // Forced, put and get run on every transport (across JVMs through the one-sided layer's active
        // messages). "auto": ranks sharing a heap use the model calibrated on copies between threads; others the
        // calibration measured on the device (RemoteCalibration), and the point-to-point schedule without one.
        if (p.persistentSchedule.equals("p2p"))
        {
            return null;
        }
        final PersistentCostModel.Calibration calibration = !p.persistentSchedule.equals("auto") ? null : c.services().sharedHeap() ?
            PersistentCostModel.calibration(c.services().jobShared(), p.persistentCalibration, c.size(), c.engine().idleSpec()) :
            RemoteCalibration.load(p.persistentCalibrationRemote, c.size());
        if (p.persistentSchedule.equals("auto") && calibration == null)
        {
            return null;
        }
        final String chosen = calibration != null ? PersistentCostModel.choose(call, c.size(), bytes, commutative, calibration) : p.persistentSchedule;
        return chosen.equals("put") ? DirectPersistent.Mode.PUT : DirectPersistent.Mode.GET;
    }

    /** Builds the plan of a call: a fresh tag and, with {@code jmpi.coll.check}, the mismatch check first. */
    static Plan plan(final CommState c, final String call, final int kind, final int root, final Schedule body)
    {
        return plan(c, call, kind, root, 0, body);
    }

    /** As above; {@code bytes} is the message size every rank must agree on (0 where sizes may differ per rank). */
    static Plan plan(final CommState c, final String call, final int kind, final int root, final int bytes, final Schedule body)
    {
        final CollContext cc = context(c, call);
        final Schedule s;
        if (cc.params.check && c.size() > 1)
        {
            s = new Schedule();
            appendCheck(s, c, call, kind, root, bytes);
            s.next();
            s.append(body);
        }
        else
        {
            s = body;
        }
        return new Plan(c, call, s, cc.nextTag());
    }

    private static CollContext context(final CommState c, final String call)
    {
        final CollContext cc = CollContext.of(c);
        if (c.freed())
        {
            throw new MpiException(ErrorClass.ERR_COMM, call + ": communicator " + c.name() + " was freed");
        }
        return cc;
    }

    static void checkRoot(final String call, final CommState c, final int root)
    {
        if (root < 0 || root >= c.size())
        {
            throw new MpiException(ErrorClass.ERR_ROOT, call + ": invalid root " + root + " (communicator size " + c.size() + ")");
        }
    }

    static int real(final int vr, final int root, final int size)
    {
        return (vr + root) % size;
    }

    // ------------------------------------------------------------------------------------------ barrier

    /**
     * MPI_Barrier by dissemination:
     * <ol>
     * <li>In round k = 0, 1, ... while 2^k &lt; size, send a zero-byte message to rank + 2^k and receive one
     * from rank - 2^k (mod size).</li>
     * <li>After ceil(log2(size)) rounds every rank has heard, directly or not, from every other.</li>
     * </ol>
     */
    public static Plan barrier(final CommState c)
    {
        return barrier(c, false);
    }

    /** As above; {@code now}: a blocking call, which runs the node path here and returns null ({@link #run}). */
    public static Plan barrier(final CommState c, final boolean now)
    {
        final Plan twoLevel = twoLevel(c, "barrier", CollContext.of(c).params.barrierAlgorithm, null, HierCollectives::barrier);
        if (twoLevel != null)
        {
            return twoLevel;
        }
        final boolean node = nodeSelected(c, CollContext.of(c).params.barrierAlgorithm);
        if (node && now)
        {
            nodeNow(c, "barrier");
            NodeCollectives.barrier(c, nodeSlot(c), true);
            return null;
        }
        final DirectFactory direct = tag ->
        {
            final DirectPersistent.Mode mode = directMode(c, "barrier", 0);
            return mode == null ? null : DirectCollectives.barrier(c, tag, mode);
        };
        if (node)
        {
            return nodePlan(c, "barrier", () -> NodeCollectives.barrier(c, nodeSlot(c), false)).withDirect(direct);
        }
        final Schedule s = new Schedule();
        final int size = c.size();
        final int rank = c.rank();
        for (int distance = 1; distance < size; distance <<= 1)
        {
            s.recvBytes((rank - distance + size) % size, NO_BYTES, 0, 0);
            s.sendBytes((rank + distance) % size, NO_BYTES, 0, 0);
            s.next();
        }
        return plan(c, "barrier", K_BARRIER, 0, s).withDirect(direct);
    }

    // ------------------------------------------------------------------------------------------ bcast, gather, scatter, allgather

    /** MPI_Bcast's plan: see {@link Broadcasts#bcast}. */
    public static Plan bcast(final CommState c, final Object buf, final int offset, final int count, final Datatype type, final int root)
    {
        return Broadcasts.bcast(c, buf, offset, count, type, root, false);
    }

    /** As above; {@code now}: a blocking call, which runs the node path here and returns null ({@link #run}). */
    public static Plan bcast(final CommState c, final Object buf, final int offset, final int count, final Datatype type, final int root,
        final boolean now)
    {
        return Broadcasts.bcast(c, buf, offset, count, type, root, now);
    }

    /** MPI_Gather's plan: see {@link GatherScatter#gather}. */
    public static Plan gather(final CommState c, final Object sendBuf, final int sendOffset, final int sendCount, final Datatype sendType,
        final Object recvBuf, final int recvOffset, final int recvCount, final Datatype recvType, final int root)
    {
        return GatherScatter.gather(c, sendBuf, sendOffset, sendCount, sendType, recvBuf, recvOffset, recvCount, recvType, root, false);
    }

    /** As above; {@code now}: a blocking call, which runs the node path here and returns null ({@link #run}). */
    public static Plan gather(final CommState c, final Object sendBuf, final int sendOffset, final int sendCount, final Datatype sendType,
        final Object recvBuf, final int recvOffset, final int recvCount, final Datatype recvType, final int root, final boolean now)
    {
        return GatherScatter.gather(c, sendBuf, sendOffset, sendCount, sendType, recvBuf, recvOffset, recvCount, recvType, root, now);
    }

    /** MPI_Gatherv's plan: see {@link GatherScatter#gatherv}. */
    public static Plan gatherv(final CommState c, final Object sendBuf, final int sendOffset, final int sendCount, final Datatype sendType,
        final Object recvBuf, final int recvOffset, final int[] recvCounts, final int[] displs, final Datatype recvType, final int root)
    {
        return GatherScatter.gatherv(c, sendBuf, sendOffset, sendCount, sendType, recvBuf, recvOffset, recvCounts, displs, recvType, root);
    }

    /** MPI_Scatter's plan: see {@link GatherScatter#scatter}. */
    public static Plan scatter(final CommState c, final Object sendBuf, final int sendOffset, final int sendCount, final Datatype sendType,
        final Object recvBuf, final int recvOffset, final int recvCount, final Datatype recvType, final int root)
    {
        return GatherScatter.scatter(c, sendBuf, sendOffset, sendCount, sendType, recvBuf, recvOffset, recvCount, recvType, root, false);
    }

    /** As above; {@code now}: a blocking call, which runs the node path here and returns null ({@link #run}). */
    public static Plan scatter(final CommState c, final Object sendBuf, final int sendOffset, final int sendCount, final Datatype sendType,
        final Object recvBuf, final int recvOffset, final int recvCount, final Datatype recvType, final int root, final boolean now)
    {
        return GatherScatter.scatter(c, sendBuf, sendOffset, sendCount, sendType, recvBuf, recvOffset, recvCount, recvType, root, now);
    }

    /** MPI_Scatterv's plan: see {@link GatherScatter#scatterv}. */
    public static Plan scatterv(final CommState c, final Object sendBuf, final int sendOffset, final int[] sendCounts, final int[] displs,
        final Datatype sendType, final Object recvBuf, final int recvOffset, final int recvCount, final Datatype recvType, final int root)
    {
        return GatherScatter.scatterv(c, sendBuf, sendOffset, sendCounts, displs, sendType, recvBuf, recvOffset, recvCount, recvType, root);
    }

    /** MPI_Allgather's plan: see {@link Allgathers#allgather}. */
    public static Plan allgather(final CommState c, final Object sendBuf, final int sendOffset, final int sendCount, final Datatype sendType,
        final Object recvBuf, final int recvOffset, final int recvCount, final Datatype recvType)
    {
        return Allgathers.allgather(c, sendBuf, sendOffset, sendCount, sendType, recvBuf, recvOffset, recvCount, recvType, false);
    }

    /** As above; {@code now}: a blocking call, which runs the node path here and returns null ({@link #run}). */
    public static Plan allgather(final CommState c, final Object sendBuf, final int sendOffset, final int sendCount, final Datatype sendType,
        final Object recvBuf, final int recvOffset, final int recvCount, final Datatype recvType, final boolean now)
    {
        return Allgathers.allgather(c, sendBuf, sendOffset, sendCount, sendType, recvBuf, recvOffset, recvCount, recvType, now);
    }

    /** MPI_Allgatherv's plan: see {@link Allgathers#allgatherv}. */
    public static Plan allgatherv(final CommState c, final Object sendBuf, final int sendOffset, final int sendCount, final Datatype sendType,
        final Object recvBuf, final int recvOffset, final int[] recvCounts, final int[] displs, final Datatype recvType)
    {
        return Allgathers.allgatherv(c, sendBuf, sendOffset, sendCount, sendType, recvBuf, recvOffset, recvCounts, displs, recvType);
    }

    /** The put/get form of {@code plan}'s call for {@code tag} (a persistent node collective's init), or null. */
    static DirectPersistent directOf(final Plan plan, final int tag)
    {
        return plan.direct() == null ? null : plan.direct().create(tag);
    }

    /** A schedule step's send of {@code slot} to {@code peer}. */
    static void send(final Schedule s, final int peer, final Buffers.Slot slot)
    {
        s.send(peer, slot.buf(), slot.offset(), slot.count(), slot.type());
    }

    static void recv(final Schedule s, final int peer, final Buffers.Slot slot)
    {
        s.recv(peer, slot.buf(), slot.offset(), slot.count(), slot.type());
    }

    /** The slots of a v-variant's per-rank blocks (displacements in extents of {@code type}), each checked. */
    static Buffers.Slot[] vectorSlots(final String call, final CommState c, final Object buf, final int offset, final int[] counts,
        final int[] displs, final Datatype type, final boolean receive)
    {
        final int size = c.size();
        if (counts == null || displs == null || counts.length < size || displs.length < size)
        {
            throw new MpiException(ErrorClass.ERR_ARG, call + ": counts and displacements need " + size + " entries (got " +
                (counts == null ? "null" : counts.length) + " and " + (displs == null ? "null" : displs.length) + ")");
        }
        return Buffers.extentSlots(call, buf, offset, counts, displs, type, size, receive);
    }

    // ------------------------------------------------------------------------------------------ neighbourhood

    /** MPI_Neighbor_allgather over explicit neighbour lists: see {@link Neighbors#neighborAllgather}. */
    public static Plan neighborAllgather(final CommState c, final int[] sources, final int[] destinations, final int[] sendOrder,
        final Object sendBuf, final int sendOffset, final int sendCount, final Datatype sendType, final Object recvBuf,
        final int recvOffset, final int recvCount, final Datatype recvType)
    {
        return Neighbors.neighborAllgather(c, sources, destinations, sendOrder, sendBuf, sendOffset, sendCount, sendType, recvBuf,
            recvOffset, recvCount, recvType);
    }

    /** MPI_Neighbor_alltoall over explicit neighbour lists: see {@link Neighbors#neighborAlltoall}. */
    public static Plan neighborAlltoall(final CommState c, final int[] sources, final int[] destinations, final int[] sendOrder,
        final Object sendBuf, final int sendOffset, final int sendCount, final Datatype sendType, final Object recvBuf,
        final int recvOffset, final int recvCount, final Datatype recvType)
    {
        return Neighbors.neighborAlltoall(c, sources, destinations, sendOrder, sendBuf, sendOffset, sendCount, sendType, recvBuf,
            recvOffset, recvCount, recvType);
    }

    // ------------------------------------------------------------------------------------------ two-level

    /**
     * The two-level plan of {@code call} (org.jmpi.internal.coll.hier) where it is chosen, else null: with its
     * algorithm parameter at "auto" (CollParams reads "hier" as "auto"), without {@code jmpi.coll.check}, not on the
     * sub-communicators of a two-level call, on a communicator that spans more than one node with more than one
     * rank on some node; with a non-commutative {@code op} (null: none) only if each node's ranks are consecutive.
     * Every input is the same on every rank, so all choose alike. Each start of the plan runs {@code start}.
     */
    static Plan twoLevel(final CommState c, final String call, final String algorithm, final Op op,
        final Function<HierComm, RequestImpl> start)
    {
        final HierComm h = twoLevelComm(c, algorithm, op);
        return h == null ? null : new Plan(c, call, null, context(c, call).nextTag(), null, () -> start.apply(h));
    }

    /**
     * The layout {@link #twoLevel} runs over, or null where a call with {@code algorithm} and {@code op} takes one
     * level: a check that makes nothing, so that a call on one node (the node collectives) makes no lambda for it.
     */
    static HierComm twoLevelComm(final CommState c, final String algorithm, final Op op)
    {
        final CollContext cc = CollContext.of(c);
        if (!algorithm.equals("auto") || cc.params.check || !cc.twoLevelAllowed())
        {
            return null;
        }
        final HierComm h = HierComm.of(c);
        return !h.twoLevel() || (op != null && !op.isCommutative() && !h.contiguous()) ? null : h;
    }

    // ------------------------------------------------------------------------------------------ check

    /**
     * With jmpi.coll.check: an allreduce(MAX) of {kind, root, bytes, -kind, -root, -bytes}; if the maxima and
     * minima differ, ranks called different collectives, roots or sizes, and every rank fails at once.
     */
    private static void appendCheck(final Schedule s, final CommState c, final String call, final int kind, final int root, final int bytes)
    {
        final byte[] acc = new byte[24];
        final java.nio.ByteBuffer b = java.nio.ByteBuffer.wrap(acc).order(java.nio.ByteOrder.nativeOrder());
        s.local(() -> b.putInt(0, kind).putInt(4, root).putInt(8, bytes).putInt(12, -kind).putInt(16, -root).putInt(20, -bytes));
        Reductions.allreduceRecursiveDoubling(s, c.rank(), c.size(), new Reductions.Reduction(org.jmpi.Op.MAX, Datatype.INT, 4), acc, 24);
        s.local(() ->
        {
            if (b.getInt(0) != -b.getInt(12) || b.getInt(4) != -b.getInt(16) || b.getInt(8) != -b.getInt(20))
            {
                throw new Schedule.Stop(new MpiException(ErrorClass.ERR_OTHER, "collective mismatch: this rank called " + call +
                    " (root " + root + ", " + bytes + " bytes), but the ranks' calls range over collective codes " + (-b.getInt(12)) +
                    ".." + b.getInt(0) + ", roots " + (-b.getInt(16)) + ".." + b.getInt(4) + ", sizes " + (-b.getInt(20)) + ".." +
                    b.getInt(8) + " bytes"));
            }
        });
    }
}