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
 * scatter; neighbourhood exchanges. The reductions are in {@link Reductions}. Where the communicator's ranks
 * share a node (threads of this JVM, or JVMs reached through shm), barrier, bcast, reduce, allreduce, gather,
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

    // ------------------------------------------------------------------------------------------ bcast

    public static Plan bcast(final CommState c, final Object buf, final int offset, final int count, final Datatype type, final int root)
    {
        return bcast(c, buf, offset, count, type, root, false);
    }

    /** As above; {@code now}: a blocking call, which runs the node path here and returns null ({@link #run}). */
    public static Plan bcast(final CommState c, final Object buf, final int offset, final int count, final Datatype type, final int root,
        final boolean now)
    {
        final String call = "bcast";
        checkRoot(call, c, root);
        if (c.rank() == root)
        {
            Buffers.checkSend(call, buf, offset, count, type);
        }
        else
        {
            Buffers.checkRecv(call, buf, offset, count, type);
        }
        final int bytes = Buffers.packedBytes(call, count, type);
        final CollParams p = CollContext.of(c).params;
        if (twoLevelComm(c, p.bcastAlgorithm, null) != null)
        {
            return twoLevel(c, call, p.bcastAlgorithm, null, h -> HierCollectives.bcast(h, buf, offset, count, type, root));
        }
        final boolean node = nodeSelected(c, p.bcastAlgorithm);
        if (node && now)
        {
            nodeNow(c, call);
            NodeCollectives.bcast(c, p.nodeSlotBytes, true, buf, offset, count, type, root);
            return null;
        }
        final DirectFactory direct = tag ->
        {
            final DirectPersistent.Mode mode = directMode(c, call, bytes);
            return mode == null ? null : DirectCollectives.bcast(c, tag, mode, buf, offset, count, type, root);
        };
        if (node)
        {
            return nodePlan(c, call, () -> NodeCollectives.bcast(c, p.nodeSlotBytes, false, buf, offset, count, type, root)).withDirect(direct);
        }
        // "node" where the node collectives are not available (ranks on other nodes): as auto.
        final String algorithm = p.bcastAlgorithm.equals("auto") || p.bcastAlgorithm.equals("node") ?
            (bytes < p.bcastShort || c.size() < 8 ? "binomial" : "scatter_allgather") : p.bcastAlgorithm;
        final Schedule s = new Schedule();
        final Buffers.Slot data = new Buffers.Slot(buf, offset, count, type);
        if (algorithm.equals("binomial") || c.size() == 1 || bytes == 0)
        {
            bcastBinomial(s, c.rank(), c.size(), root, data);
        }
        else
        {
            bcastScatterAllgather(s, c.rank(), c.size(), root, data, bytes);
        }
        return plan(c, call, K_BCAST, root, bytes, s).withDirect(direct);
    }

    /**
     * Binomial-tree bcast, in ranks relative to the root (vr = rank - root mod size):
     * <ol>
     * <li>A non-root receives the whole message from vr - lowbit(vr), its parent.</li>
     * <li>It then sends it to vr + m for every power of two m below lowbit(vr) (the root: below size) with
     * vr + m &lt; size, largest subtree first.</li>
     * </ol>
     */
    private static void bcastBinomial(final Schedule s, final int rank, final int size, final int root, final Buffers.Slot data)
    {
        final int vr = (rank - root + size) % size;
        int mask = 1;
        while (mask < size)
        {
            if ((vr & mask) != 0)
            {
                s.recv(real(vr - mask, root, size), data.buf(), data.offset(), data.count(), data.type());
                s.next();
                break;
            }
            mask <<= 1;
        }
        for (mask >>= 1; mask > 0; mask >>= 1)
        {
            if (vr + mask < size)
            {
                s.send(real(vr + mask, root, size), data.buf(), data.offset(), data.count(), data.type());
            }
        }
        s.next();
    }

    /**
     * Bcast for large messages (van de Geijn): scatter, then ring allgather, on the packed message.
     * <ol>
     * <li>The root packs the message; it is cut into size chunks of ceil(bytes / size) bytes (the last ones
     * may be short or empty), chunk i belonging to relative rank i.</li>
     * <li>Binomial scatter: relative rank vr receives chunks [vr, vr + lowbit(vr)) from its parent and
     * passes each child vr + m its chunks [vr + m, vr + 2m).</li>
     * <li>Ring allgather: in step j = 0 .. size-2, send chunk vr - j to the right neighbour and receive chunk
     * vr - j - 1 from the left one.</li>
     * <li>Non-roots unpack the message into their buffers.</li>
     * </ol>
     */
    private static void bcastScatterAllgather(final Schedule s, final int rank, final int size, final int root,
        final Buffers.Slot data, final int bytes)
    {
        final byte[] packed = new byte[bytes];
        final int chunk = (bytes + size - 1) / size;
        final int vr = (rank - root + size) % size;
        if (vr == 0)
        {
            s.local(() -> Buffers.pack(data, packed, 0));
        }
        int mask = 1;
        while (mask < size)
        {
            if ((vr & mask) != 0)
            {
                final int lo = chunkStart(vr, chunk, bytes);
                final int hi = chunkStart(Math.min(vr + mask, size), chunk, bytes);
                s.recvBytes(real(vr - mask, root, size), packed, lo, hi - lo);
                s.next();
                break;
            }
            mask <<= 1;
        }
        for (mask >>= 1; mask > 0; mask >>= 1)
        {
            if (vr + mask < size)
            {
                final int lo = chunkStart(vr + mask, chunk, bytes);
                final int hi = chunkStart(Math.min(vr + 2 * mask, size), chunk, bytes);
                s.sendBytes(real(vr + mask, root, size), packed, lo, hi - lo);
            }
        }
        s.next();
        final int right = real((vr + 1) % size, root, size);
        final int left = real((vr - 1 + size) % size, root, size);
        for (int j = 0; j < size - 1; j++)
        {
            final int sendChunk = (vr - j + size) % size;
            final int recvChunk = (vr - j - 1 + size) % size;
            final int slo = chunkStart(sendChunk, chunk, bytes);
            final int rlo = chunkStart(recvChunk, chunk, bytes);
            s.sendBytes(right, packed, slo, chunkStart(sendChunk + 1, chunk, bytes) - slo);
            s.recvBytes(left, packed, rlo, chunkStart(recvChunk + 1, chunk, bytes) - rlo);
            s.next();
        }
        if (vr != 0)
        {
            s.local(() -> Buffers.unpack(packed, 0, data));
        }
    }

    private static int chunkStart(final int index, final int chunk, final int bytes)
    {
        return (int)Math.min((long)index * chunk, bytes);
    }

    // ------------------------------------------------------------------------------------------ gather / scatter

    /**
     * Linear gather: the root posts one receive per rank straight into its slot; the others send. As a node
     * collective, the arguments are checked as the linear gather's builder checks them, without building it.
     */
    public static Plan gather(final CommState c, final Object sendBuf, final int sendOffset, final int sendCount, final Datatype sendType,
        final Object recvBuf, final int recvOffset, final int recvCount, final Datatype recvType, final int root)
    {
        return gather(c, sendBuf, sendOffset, sendCount, sendType, recvBuf, recvOffset, recvCount, recvType, root, false);
    }

    /** As above; {@code now}: a blocking call, which runs the node path here and returns null ({@link #run}). */
    public static Plan gather(final CommState c, final Object sendBuf, final int sendOffset, final int sendCount, final Datatype sendType,
        final Object recvBuf, final int recvOffset, final int recvCount, final Datatype recvType, final int root, final boolean now)
    {
        if (nodeSelected(c, CollContext.of(c).params.gatherAlgorithm, true))
        {
            final String call = "gather";
            checkRooted(call, c, root, sendBuf, sendOffset, sendCount, sendType, false);
            if (c.rank() == root)
            {
                Buffers.checkBlocks(call, recvBuf, recvOffset, recvCount, recvType, c.size(), true);
            }
            if (now)
            {
                nodeNow(c, call);
                NodeCollectives.gather(c, nodeSlot(c), true, sendBuf == IN_PLACE ? null : sendBuf, sendOffset, sendCount, sendType, recvBuf,
                    recvOffset, recvCount, recvType, root);
                return null;
            }
            return nodePlan(c, call, () -> NodeCollectives.gather(c, nodeSlot(c), false, sendBuf == IN_PLACE ? null : sendBuf, sendOffset,
                sendCount, sendType, recvBuf, recvOffset, recvCount, recvType, root)).withDirect(tag -> directOf(linearGather(c, sendBuf,
                sendOffset, sendCount, sendType, recvBuf, recvOffset, recvCount, recvType, root), tag));
        }
        return linearGather(c, sendBuf, sendOffset, sendCount, sendType, recvBuf, recvOffset, recvCount, recvType, root);
    }

    private static Plan linearGather(final CommState c, final Object sendBuf, final int sendOffset, final int sendCount,
        final Datatype sendType, final Object recvBuf, final int recvOffset, final int recvCount, final Datatype recvType, final int root)
    {
        final int size = c.size();
        final int[] counts = new int[size];
        final int[] displs = new int[size];
        for (int i = 0; i < size; i++)
        {
            counts[i] = recvCount;
            displs[i] = i * recvCount;
        }
        return gatherv(c, "gather", K_GATHER, sendBuf, sendOffset, sendCount, sendType, recvBuf, recvOffset, counts, displs, recvType,
            root);
    }

    /**
     * The checks a rooted call's builder makes of the argument every rank passes ({@code own}: gather's send part,
     * scatter's receive part, where {@code receive}): a valid root, IN_PLACE only at the root, the part inside its buffer.
     */
    private static void checkRooted(final String call, final CommState c, final int root, final Object own, final int ownOffset,
        final int ownCount, final Datatype ownType, final boolean receive)
    {
        checkRoot(call, c, root);
        if (own == IN_PLACE)
        {
            if (c.rank() != root)
            {
                throw new MpiException(ErrorClass.ERR_BUFFER, call + ": IN_PLACE is only allowed at the root");
            }
        }
        else if (receive)
        {
            Buffers.checkRecv(call, own, ownOffset, ownCount, ownType);
        }
        else
        {
            Buffers.checkSend(call, own, ownOffset, ownCount, ownType);
        }
    }

    /** The put/get form of {@code plan}'s call for {@code tag} (a persistent node collective's init), or null. */
    private static DirectPersistent directOf(final Plan plan, final int tag)
    {
        return plan.direct() == null ? null : plan.direct().create(tag);
    }

    public static Plan gatherv(final CommState c, final Object sendBuf, final int sendOffset, final int sendCount, final Datatype sendType,
        final Object recvBuf, final int recvOffset, final int[] recvCounts, final int[] displs, final Datatype recvType, final int root)
    {
        return gatherv(c, "gatherv", K_GATHERV, sendBuf, sendOffset, sendCount, sendType, recvBuf, recvOffset, recvCounts, displs,
            recvType, root);
    }

    private static Plan gatherv(final CommState c, final String call, final int kind, final Object sendBuf, final int sendOffset,
        final int sendCount, final Datatype sendType, final Object recvBuf, final int recvOffset, final int[] recvCounts,
        final int[] displs, final Datatype recvType, final int root)
    {
        checkRoot(call, c, root);
        final int rank = c.rank();
        final int size = c.size();
        final Schedule s = new Schedule();
        if (rank != root)
        {
            if (sendBuf == IN_PLACE)
            {
                throw new MpiException(ErrorClass.ERR_BUFFER, call + ": IN_PLACE is only allowed at the root");
            }
            Buffers.checkSend(call, sendBuf, sendOffset, sendCount, sendType);
            s.send(root, sendBuf, sendOffset, sendCount, sendType);
            s.next();
            final Buffers.Slot mine = new Buffers.Slot(sendBuf, sendOffset, sendCount, sendType);
            return plan(c, call, kind, root, s).withDirect(tag ->
            {
                final DirectPersistent.Mode mode = directMode(c, "gather", kind == K_GATHER ? Buffers.packedBytes(call, sendCount, sendType) : 0);
                return mode == null ? null : DirectCollectives.gather(c, call, tag, mode, mine, null, null, root);
            });
        }
        final Buffers.Slot[] slots = vectorSlots(call, c, recvBuf, recvOffset, recvCounts, displs, recvType, true);
        Buffers.Slot own = null;
        if (sendBuf != IN_PLACE)
        {
            Buffers.checkSend(call, sendBuf, sendOffset, sendCount, sendType);
            final Buffers.Slot mine = new Buffers.Slot(sendBuf, sendOffset, sendCount, sendType);
            own = mine;
            s.local(() -> Buffers.copy(call, mine, slots[root]));
        }
        for (int i = 1; i < size; i++)
        {
            final int from = (root + i) % size;
            recv(s, from, slots[from]);
        }
        s.next();
        final Buffers.Slot rootOwn = own;
        return plan(c, call, kind, root, s).withDirect(tag ->
        {
            final DirectPersistent.Mode mode = directMode(c, "gather", kind == K_GATHER ? Buffers.packedBytes(call, recvCounts[root], recvType) : 0);
            return mode == null ? null : DirectCollectives.gather(c, call, tag, mode, null, slots, rootOwn, root);
        });
    }

    /** Linear scatter: the root posts one send per rank from its slot; the others receive. As a node collective, as gather. */
    public static Plan scatter(final CommState c, final Object sendBuf, final int sendOffset, final int sendCount, final Datatype sendType,
        final Object recvBuf, final int recvOffset, final int recvCount, final Datatype recvType, final int root)
    {
        return scatter(c, sendBuf, sendOffset, sendCount, sendType, recvBuf, recvOffset, recvCount, recvType, root, false);
    }

    /** As above; {@code now}: a blocking call, which runs the node path here and returns null ({@link #run}). */
    public static Plan scatter(final CommState c, final Object sendBuf, final int sendOffset, final int sendCount, final Datatype sendType,
        final Object recvBuf, final int recvOffset, final int recvCount, final Datatype recvType, final int root, final boolean now)
    {
        if (nodeSelected(c, CollContext.of(c).params.scatterAlgorithm, true))
        {
            final String call = "scatter";
            checkRooted(call, c, root, recvBuf, recvOffset, recvCount, recvType, true);
            if (c.rank() == root)
            {
                Buffers.checkBlocks(call, sendBuf, sendOffset, sendCount, sendType, c.size(), false);
            }
            if (now)
            {
                nodeNow(c, call);
                NodeCollectives.scatter(c, nodeSlot(c), true, sendBuf, sendOffset, sendCount, sendType, recvBuf == IN_PLACE ? null : recvBuf,
                    recvOffset, recvCount, recvType, root);
                return null;
            }
            return nodePlan(c, call, () -> NodeCollectives.scatter(c, nodeSlot(c), false, sendBuf, sendOffset, sendCount, sendType,
                recvBuf == IN_PLACE ? null : recvBuf, recvOffset, recvCount, recvType, root)).withDirect(tag -> directOf(linearScatter(c,
                sendBuf, sendOffset, sendCount, sendType, recvBuf, recvOffset, recvCount, recvType, root), tag));
        }
        return linearScatter(c, sendBuf, sendOffset, sendCount, sendType, recvBuf, recvOffset, recvCount, recvType, root);
    }

    private static Plan linearScatter(final CommState c, final Object sendBuf, final int sendOffset, final int sendCount,
        final Datatype sendType, final Object recvBuf, final int recvOffset, final int recvCount, final Datatype recvType, final int root)
    {
        final int size = c.size();
        final int[] counts = new int[size];
        final int[] displs = new int[size];
        for (int i = 0; i < size; i++)
        {
            counts[i] = sendCount;
            displs[i] = i * sendCount;
        }
        return scatterv(c, "scatter", K_SCATTER, sendBuf, sendOffset, counts, displs, sendType, recvBuf, recvOffset, recvCount, recvType,
            root);
    }

    public static Plan scatterv(final CommState c, final Object sendBuf, final int sendOffset, final int[] sendCounts, final int[] displs,
        final Datatype sendType, final Object recvBuf, final int recvOffset, final int recvCount, final Datatype recvType, final int root)
    {
        return scatterv(c, "scatterv", K_SCATTERV, sendBuf, sendOffset, sendCounts, displs, sendType, recvBuf, recvOffset, recvCount,
            recvType, root);
    }

    private static Plan scatterv(final CommState c, final String call, final int kind, final Object sendBuf, final int sendOffset,
        final int[] sendCounts, final int[] displs, final Datatype sendType, final Object recvBuf, final int recvOffset,
        final int recvCount, final Datatype recvType, final int root)
    {
        checkRoot(call, c, root);
        final int rank = c.rank();
        final int size = c.size();
        final Schedule s = new Schedule();
        if (rank != root)
        {
            if (recvBuf == IN_PLACE)
            {
                throw new MpiException(ErrorClass.ERR_BUFFER, call + ": IN_PLACE is only allowed at the root");
            }
            Buffers.checkRecv(call, recvBuf, recvOffset, recvCount, recvType);
            s.recv(root, recvBuf, recvOffset, recvCount, recvType);
            s.next();
            final Buffers.Slot mine = new Buffers.Slot(recvBuf, recvOffset, recvCount, recvType);
            return plan(c, call, kind, root, s).withDirect(tag ->
            {
                final DirectPersistent.Mode mode = directMode(c, "scatter", kind == K_SCATTER ? Buffers.packedBytes(call, recvCount, recvType) : 0);
                return mode == null ? null : DirectCollectives.scatter(c, call, tag, mode, mine, null, null, root);
            });
        }
        final Buffers.Slot[] slots = vectorSlots(call, c, sendBuf, sendOffset, sendCounts, displs, sendType, false);
        Buffers.Slot own = null;
        if (recvBuf != IN_PLACE)
        {
            Buffers.checkRecv(call, recvBuf, recvOffset, recvCount, recvType);
            final Buffers.Slot mine = new Buffers.Slot(recvBuf, recvOffset, recvCount, recvType);
            own = mine;
            s.local(() -> Buffers.copy(call, slots[root], mine));
        }
        for (int i = 1; i < size; i++)
        {
            final int to = (root + i) % size;
            send(s, to, slots[to]);
        }
        s.next();
        final Buffers.Slot rootOwn = own;
        return plan(c, call, kind, root, s).withDirect(tag ->
        {
            final DirectPersistent.Mode mode = directMode(c, "scatter", kind == K_SCATTER ? Buffers.packedBytes(call, sendCounts[root], sendType) : 0);
            return mode == null ? null : DirectCollectives.scatter(c, call, tag, mode, null, slots, rootOwn, root);
        });
    }

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

    // ------------------------------------------------------------------------------------------ allgather

    public static Plan allgather(final CommState c, final Object sendBuf, final int sendOffset, final int sendCount, final Datatype sendType,
        final Object recvBuf, final int recvOffset, final int recvCount, final Datatype recvType)
    {
        return allgather(c, sendBuf, sendOffset, sendCount, sendType, recvBuf, recvOffset, recvCount, recvType, false);
    }

    /** As above; {@code now}: a blocking call, which runs the node path here and returns null ({@link #run}). */
    public static Plan allgather(final CommState c, final Object sendBuf, final int sendOffset, final int sendCount, final Datatype sendType,
        final Object recvBuf, final int recvOffset, final int recvCount, final Datatype recvType, final boolean now)
    {
        final String call = "allgather";
        final String algorithm = CollContext.of(c).params.allgatherAlgorithm;
        if (nodeSelected(c, algorithm) && twoLevelComm(c, algorithm, null) == null)
        {
            // The checks of the builder below, without building it.
            Buffers.checkBlocks(call, recvBuf, recvOffset, recvCount, recvType, c.size(), true);
            if (sendBuf != IN_PLACE)
            {
                Buffers.checkSend(call, sendBuf, sendOffset, sendCount, sendType);
            }
            if (now)
            {
                nodeNow(c, call);
                NodeCollectives.allgather(c, nodeSlot(c), true, sendBuf == IN_PLACE ? null : sendBuf, sendOffset, sendCount, sendType, recvBuf,
                    recvOffset, recvCount, recvType);
                return null;
            }
            return nodePlan(c, call, () -> NodeCollectives.allgather(c, nodeSlot(c), false, sendBuf == IN_PLACE ? null : sendBuf, sendOffset,
                sendCount, sendType, recvBuf, recvOffset, recvCount, recvType)).withDirect(tag -> directOf(allgatherP2p(c, sendBuf,
                sendOffset, sendCount, sendType, recvBuf, recvOffset, recvCount, recvType), tag));
        }
        return allgatherP2p(c, sendBuf, sendOffset, sendCount, sendType, recvBuf, recvOffset, recvCount, recvType);
    }

    private static Plan allgatherP2p(final CommState c, final Object sendBuf, final int sendOffset, final int sendCount,
        final Datatype sendType, final Object recvBuf, final int recvOffset, final int recvCount, final Datatype recvType)
    {
        final String call = "allgather";
        final int size = c.size();
        final int rank = c.rank();
        final int[] counts = new int[size];
        final int[] displs = new int[size];
        for (int i = 0; i < size; i++)
        {
            counts[i] = recvCount;
            displs[i] = i * recvCount;
        }
        final Buffers.Slot[] slots = vectorSlots(call, c, recvBuf, recvOffset, counts, displs, recvType, true);
        final Schedule s = new Schedule();
        copyOwn(call, s, sendBuf, sendOffset, sendCount, sendType, slots[rank]);
        final String algorithm = CollContext.of(c).params.allgatherAlgorithm;
        final Plan twoLevel = twoLevel(c, call, algorithm, null, h -> HierCollectives.allgather(h, sendBuf, sendOffset, sendCount, sendType,
            recvBuf, recvOffset, recvCount, recvType));
        if (twoLevel != null)
        {
            return twoLevel;
        }
        if (!algorithm.equals("ring") && Integer.bitCount(size) == 1)
        {
            // Recursive doubling: in step k exchange the 2^k blocks held with rank XOR 2^k; they lie contiguously.
            for (int mask = 1; mask < size; mask <<= 1)
            {
                final int partner = rank ^ mask;
                final int mine = rank & ~(mask - 1);
                final int theirs = partner & ~(mask - 1);
                final Buffers.Slot out = Buffers.slot(recvBuf, recvOffset, (long)mine * recvCount * recvType.extent(), mask * recvCount,
                    recvType);
                final Buffers.Slot in = Buffers.slot(recvBuf, recvOffset, (long)theirs * recvCount * recvType.extent(), mask * recvCount,
                    recvType);
                send(s, partner, out);
                recv(s, partner, in);
                s.next();
            }
        }
        else
        {
            ringAllgather(s, rank, size, slots);
        }
        final Buffers.Slot own = sendBuf == IN_PLACE ? null : new Buffers.Slot(sendBuf, sendOffset, sendCount, sendType);
        final int bytes = Buffers.packedBytes(call, recvCount, recvType);
        return plan(c, call, K_ALLGATHER, 0, bytes, s).withDirect(tag ->
        {
            final DirectPersistent.Mode mode = directMode(c, call, bytes);
            return mode == null ? null : DirectCollectives.allgather(c, tag, mode, slots, own);
        });
    }

    public static Plan allgatherv(final CommState c, final Object sendBuf, final int sendOffset, final int sendCount, final Datatype sendType,
        final Object recvBuf, final int recvOffset, final int[] recvCounts, final int[] displs, final Datatype recvType)
    {
        final String call = "allgatherv";
        final Buffers.Slot[] slots = vectorSlots(call, c, recvBuf, recvOffset, recvCounts, displs, recvType, true);
        final Schedule s = new Schedule();
        copyOwn(call, s, sendBuf, sendOffset, sendCount, sendType, slots[c.rank()]);
        ringAllgather(s, c.rank(), c.size(), slots);
        return plan(c, call, K_ALLGATHERV, 0, s);
    }

    private static void copyOwn(final String call, final Schedule s, final Object sendBuf, final int sendOffset, final int sendCount,
        final Datatype sendType, final Buffers.Slot own)
    {
        if (sendBuf != IN_PLACE)
        {
            Buffers.checkSend(call, sendBuf, sendOffset, sendCount, sendType);
            final Buffers.Slot mine = new Buffers.Slot(sendBuf, sendOffset, sendCount, sendType);
            s.local(() -> Buffers.copy(call, mine, own));
        }
    }

    /**
     * Ring allgather straight between the ranks' receive buffers:
     * <ol>
     * <li>Each rank's own block is in place (copied from the send buffer, or IN_PLACE).</li>
     * <li>In step j = 0 .. size-2, send block rank - j to the right neighbour and receive block rank - j - 1
     * from the left one.</li>
     * </ol>
     */
    private static void ringAllgather(final Schedule s, final int rank, final int size, final Buffers.Slot[] slots)
    {
        final int right = (rank + 1) % size;
        final int left = (rank - 1 + size) % size;
        for (int j = 0; j < size - 1; j++)
        {
            send(s, right, slots[Math.floorMod(rank - j, size)]);
            recv(s, left, slots[Math.floorMod(rank - j - 1, size)]);
            s.next();
        }
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
