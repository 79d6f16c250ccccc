package org.jmpi.internal.coll.node;

import org.jmpi.Comm;
import org.jmpi.Datatype;
import org.jmpi.ErrorClass;
import org.jmpi.MpiException;
import org.jmpi.Op;
import org.jmpi.Status;
import org.jmpi.internal.coll.PathTrace;
import org.jmpi.internal.datatype.Convertor;
import org.jmpi.internal.engine.ProgressEngine;
import org.jmpi.internal.pt2pt.RequestImpl;

/**
 * One rank's side of one node collective call through the communicator's {@link NodeRegion}: a request that
 * is also an engine activity, so blocking, nonblocking and persistent calls run it alike and it never blocks
 * the engine. Every call, on every rank, goes through the same steps, once per round (one round in a heap
 * region; in a mapped region as many as the chunks of the leader's data, {@link SlotRounds}):
 * <ol>
 * <li>Setup (first call, mapped regions): wait until the region is mapped ({@link NodeComm#mappedRegion}).</li>
 * <li>Guard: wait until this rank's own previous calls are done (posts stay in call order), then until every
 * rank's done flag has reached the last round posted in the half of the slots this round takes (its half, length
 * and total are free again). Rounds take the two halves in turn, so a rank may post a call while its peers still
 * read its previous one: a bcast root or a gather non-root runs one call ahead.</li>
 * <li>Post: small calls pack this rank's contribution into its slot; large ones post its buffers (the
 * user's, for peers to copy or reduce straight from and to); then the length (mode and bytes) and the
 * arrive flag = the call's number; wake the peers.</li>
 * <li>Input: wait for the arrive flags of the ranks whose data this rank reads (barrier: every rank waits for
 * every other's arrival, one flag handoff; a barrier posts no data, so it takes no half and guards nothing but
 * its own call order).</li>
 * <li>Work: check the peers' lengths, then copy or reduce (below).</li>
 * <li>Done: once this rank's previous call has set its done flag, set it to this round's flag (done flags go
 * up in call order, which the guards rely on); after the last round, to the call's last flag.</li>
 * <li>Finish: a rank that posted its own buffers waits until every rank is done with this call (and the creator
 * of a mapped region, until every rank has mapped it, to delete its file); then the request completes.</li>
 * </ol>
 * Reductions combine in rank order ({@code acc = in_j op acc} for j from P-2 down to 0, starting from rank
 * P-1's operand), so non-commutative ops get MPI's order. Small: every reducer folds all the slots. Large: the
 * stream is cut at unit boundaries into P slices; rank r packs slice r of every rank's input in chunks,
 * folds them and writes the result into every receiving rank's buffer (single copy in, single copy out).
 * A failure (mismatched lengths, a bad type or op result) is recorded and the steps still run to their end,
 * so no peer waits forever; a value read from a peer that cannot be right (a flag beyond any call the peers
 * can have reached, a length outside the slot) is ERR_INTERN.
 *
 * <p>Threading: armed on the calling thread ({@link #take}); {@link #progress()} runs on the engine thread.
 */
final class NodeOp extends RequestImpl implements ProgressEngine.Activity
{
    enum Kind
    {
        BARRIER, BCAST, REDUCE, ALLREDUCE, GATHER, SCATTER, ALLGATHER, ALLTOALL
    }

    /** How many calls a peer's flags can be beyond the highest call this rank's engine has seen ({@link #reachedFlag}). */
    private static final int MAX_LEAD = 3;
    private static final Status OK = new Status(Comm.ANY_SOURCE, Comm.ANY_TAG, ErrorClass.SUCCESS, false, 0);

    private enum Step
    {
        SETUP, GUARD, POST, INPUT, WORK, DONE, FINISH
    }

    final NodeComm node;
    NodeRegion region;
    private String call;
    Kind kind;
    /** This call's number. */
    private long seq;
    int root;
    final int me;
    final int size;
    /** This rank's contribution (bcast: the data at the root; reductions: the input; gather, allgather: the block; null: IN_PLACE). */
    Part in;
    /** This rank's receiving part (bcast: the data at non-roots; reductions: the result; scatter: the block), or null. */
    Part out;
    /** Per-rank blocks: gather's and allgather's receive blocks, scatter's and alltoall's send blocks. */
    Part[] blocks;
    /** Alltoall: the receive blocks. */
    Part[] outBlocks;
    Op op;
    Datatype type;
    /** Packed bytes this rank expects per rank (bcast, reductions: all; gather, scatter, allgather, alltoall: one block). */
    long bytes;
    boolean direct;
    /** Mapped regions: the rounds (null in a heap region, where a call is one round). */
    private SlotRounds rounds;
    private long round;
    /** The half of the slots the current round posted in (all ranks post a round in the same half). */
    int half;
    private Step step = Step.SETUP;
    private MpiException failure;
    /** The parts and block arrays this op lends its calls ({@link #part}, {@link #blockParts}): a spare op reuses them. */
    private final Part[] parts = {new Part(), new Part()};
    private Part[] blockParts;
    private Part[] outBlockParts;
    /** Whether the call runs to completion before {@link #launch} returns (a blocking call). */
    private boolean blocking;

    /**
     * A call of {@code node}'s: {@link #take} arms one for each call, and a blocking call's op is kept as the
     * communicator's spare for the next one.
     */
    private NodeOp(final NodeComm node)
    {
        super(node.comm.engine(), node.errors);
        this.node = node;
        this.me = node.rank;
        this.size = node.size;
    }

    /**
     * The op for the next call on {@code node}, armed as {@code kind} and numbered: for a {@code blocking} call in
     * direct mode (the calling thread drives the engine, so no other thread can still be inside a finished op) the
     * communicator's spare if it has one, else a new op. Calling thread; set the call's arguments, then
     * {@link #launch}.
     */
    static NodeOp take(final NodeComm node, final String call, final Kind kind, final boolean blocking)
    {
        NodeOp o = null;
        if (blocking && !node.comm.engine().offload())
        {
            o = node.spareOp;
            node.spareOp = null;
        }
        if (o == null)
        {
            o = new NodeOp(node);
        }
        else
        {
            o.rearm();
        }
        o.arm(call, kind, blocking);
        return o;
    }

    private void arm(final String call, final Kind kind, final boolean blocking)
    {
        this.region = node.heapRegion();
        this.call = call;
        this.kind = kind;
        this.blocking = blocking;
        this.root = 0;
        this.in = null;
        this.out = null;
        this.blocks = null;
        this.outBlocks = null;
        this.op = null;
        this.type = null;
        this.bytes = 0;
        this.direct = false;
        this.rounds = null;
        this.round = 0;
        this.half = 0;
        this.step = Step.SETUP;
        this.failure = null;
        this.seq = node.nextCall();
    }

    /** Part {@code i} (0 or 1) of the two this op lends its calls: set it and pass it as {@link #in} or {@link #out}. */
    Part part(final int i)
    {
        return parts[i];
    }

    /** P parts for per-rank blocks ({@code out}: the second set, alltoall's receive blocks), made once per op. */
    Part[] blockParts(final boolean out)
    {
        Part[] b = out ? outBlockParts : blockParts;
        if (b == null)
        {
            b = new Part[size];
            for (int j = 0; j < size; j++)
            {
                b[j] = new Part();
            }
            if (out)
            {
                outBlockParts = b;
            }
            else
            {
                blockParts = b;
            }
        }
        return b;
    }

    NodeOp root(final int r)
    {
        root = r;
        return this;
    }

    NodeOp in(final Part p)
    {
        in = p;
        return this;
    }

    NodeOp out(final Part p)
    {
        out = p;
        return this;
    }

    NodeOp blocks(final Part[] p)
    {
        blocks = p;
        return this;
    }

    NodeOp outBlocks(final Part[] p)
    {
        outBlocks = p;
        return this;
    }

    NodeOp reduction(final Op o, final Datatype t)
    {
        op = o;
        type = t;
        return this;
    }

    NodeOp bytes(final long b)
    {
        bytes = b;
        return this;
    }

    /**
     * Starts the call: in direct mode inline on the calling thread (no command object), else as a command for the
     * progress thread. A nonblocking call returns its request; a blocking one waits for it here, reports a failure
     * through the communicator's error handler, and returns null (its op becomes the communicator's spare when it
     * succeeded in direct mode: every peer is done with whatever it posted, since a call that posts its buffers
     * finishes only once all are done).
     */
    RequestImpl launch()
    {
        final ProgressEngine engine = node.comm.engine();
        if (!engine.enter())
        {
            engine.execute(this::begin);
            if (!blocking)
            {
                return this;
            }
            awaitCompletion();
            return null;
        }
        try
        {
            begin();
            if (!blocking)
            {
                return this;
            }
            awaitCompletion();
            dropArguments();
            node.spareOp = this;
            return null;
        }
        finally
        {
            engine.exit();
        }
    }

    /** Drops the user's buffers, types and op, so that a spare holds none. */
    private void dropArguments()
    {
        in = null;
        out = null;
        blocks = null;
        outBlocks = null;
        op = null;
        type = null;
        parts[0].clear();
        parts[1].clear();
        clear(blockParts);
        clear(outBlockParts);
    }

    private static void clear(final Part[] p)
    {
        if (p != null)
        {
            for (final Part part : p)
            {
                part.clear();
            }
        }
    }

    /** Runs the call's first steps and, unless it finished, hosts it on the engine. Engine thread. */
    private void begin()
    {
        if (!progress())
        {
            node.comm.protocol().engine().addActivity(this);
        }
    }

    /** Bytes this call needs in a slot: the same on every rank that passes matching arguments. */
    private long slotBytesNeeded()
    {
        return switch (kind)
        {
            case SCATTER, ALLTOALL -> bytes * size;
            default -> bytes;
        };
    }

    @Override
    public boolean progress()
    {
        if (seq > node.highestSeen)
        {
            node.highestSeen = seq;
        }
        while (true)
        {
            switch (step)
            {
                case SETUP ->
                {
                    if (region == null)
                    {
                        region = node.mappedRegion();
                        if (region == null && node.setupFailure() == null)
                        {
                            return false;
                        }
                    }
                    if (!setUp())
                    {
                        node.lastDone = Math.max(node.lastDone, seq);
                        complete(OK, failure);
                        return true;
                    }
                    step = Step.GUARD;
                }
                case GUARD ->
                {
                    // Posts stay in call order: this rank's previous calls are done. A barrier posts no data; any
                    // other round takes the next half of the slots, free once every peer is done with its last round.
                    if (round == 0 && node.lastDone < seq - 1)
                    {
                        return false;
                    }
                    if (kind != Kind.BARRIER)
                    {
                        half = node.nextHalf;
                        if (!peersDone(node.halfUser[half]))
                        {
                            return false;
                        }
                    }
                    step = Step.POST;
                }
                case POST ->
                {
                    post();
                    step = Step.INPUT;
                }
                case INPUT ->
                {
                    if (!inputsArrived())
                    {
                        return false;
                    }
                    step = Step.WORK;
                }
                case WORK ->
                {
                    try
                    {
                        if (rounds != null)
                        {
                            rounds.work(round, half);
                        }
                        else
                        {
                            work();
                        }
                    }
                    catch (final RuntimeException ex)
                    {
                        fail(ex);
                    }
                    step = Step.DONE;
                }
                case DONE ->
                {
                    if (node.lastDone != seq - 1)
                    {
                        return false;
                    }
                    if (kind == Kind.BARRIER)
                    {
                        // Nobody waits for a barrier's done flag (guards wait for the rounds that used a half, and a
                        // barrier uses none): it writes one flag per call, its arrival, and its line moves once.
                        node.lastDone = seq;
                        step = Step.FINISH;
                        continue;
                    }
                    final boolean last = rounds == null || round == rounds.count() - 1;
                    region.done(me, NodeRegionDescriptor.flag(seq, last ? NodeRegionDescriptor.ROUND_LAST : round));
                    if (doneAwaited())
                    {
                        region.wakeOthers(me);
                    }
                    if (!last)
                    {
                        round++;
                        step = Step.GUARD;
                        continue;
                    }
                    node.lastDone = seq;
                    step = Step.FINISH;
                }
                case FINISH ->
                {
                    if ((direct && postsBuffers() && !allDone()) || !node.fileReleased())
                    {
                        return false;
                    }
                    if (rounds != null)
                    {
                        node.release(rounds);
                        rounds = null;
                    }
                    complete(OK, failure);
                    return true;
                }
                default -> throw new IllegalStateException(step.name());
            }
        }
    }

    /**
     * Chooses the mode once the region is known: a heap region copies directly when the data exceed the slot;
     * a mapped one runs in rounds through the slots. False when the call cannot run at all (the region's setup
     * failed on every rank alike): then it completes with that failure and touches no flag.
     */
    private boolean setUp()
    {
        final MpiException broken = node.setupFailure();
        if (broken != null)
        {
            fail(broken);
            return false;
        }
        if (region.heap())
        {
            direct = kind != Kind.BARRIER && slotBytesNeeded() > region.halfBytes();
        }
        else if (kind != Kind.BARRIER)
        {
            rounds = node.rounds(this, region);
        }
        if (node.trace)
        {
            PathTrace.note(node.comm, call, "node, " + (region.heap() ? "heap region, " : "file region, ") + (kind == Kind.BARRIER ?
                "arrive flags" : rounds != null ? rounds.describe() : (direct ? "direct (buffers posted)" : "slot") + ", " + bytes +
                " bytes per block"));
        }
        return true;
    }

    /**
     * Whether a peer may wait for this call's done flag, so that setting it must wake the peers. Not in a one-round
     * call through the slots where every rank reads every rank's arrival (allreduce, allgather, alltoall): a peer waits
     * for this rank's done flag of call n only in a guard of call n + 2 (or in call n's finish, which only a direct
     * post has), and to get there it read this rank's arrival at call n + 1, which stands for the done flag of n
     * ({@link #arriveOf}). Such a call then wakes its peers once (after its arrival) instead of twice: a wake-up is a
     * read of the peer's parked flag or doorbell, a cache miss each (about an eighth of a 4-byte allreduce's samples,
     * loaded; docs/collectives.md, "Session 11").
     */
    private boolean doneAwaited()
    {
        final boolean symmetric = kind == Kind.ALLREDUCE || kind == Kind.ALLGATHER || kind == Kind.ALLTOALL;
        return !symmetric || direct || (rounds != null && rounds.count() > 1);
    }

    // ------------------------------------------------------------------------------------------ steps

    private boolean postsBuffers()
    {
        return switch (kind)
        {
            case BARRIER -> false;
            case BCAST, GATHER, SCATTER -> me == root;
            case REDUCE, ALLREDUCE, ALLGATHER, ALLTOALL -> true;
        };
    }

    private void post()
    {
        if (kind == Kind.BARRIER)
        {
            region.arrive(me, NodeRegionDescriptor.flag(seq, 0));
            region.wakeOthers(me);
            return;
        }
        node.halfUser[half] = NodeRegionDescriptor.flag(seq, round);
        node.nextHalf = half ^ 1;
        if (rounds != null)
        {
            rounds.post(round, half);
            region.arrive(me, NodeRegionDescriptor.flag(seq, round));
            region.wakeOthers(me);
            return;
        }
        final long posted = direct ? bytes : slotBytesNeeded();
        long failed = 0;
        try
        {
            if (!direct)
            {
                HeapRound.packSlot(this);
            }
            else
            {
                HeapRound.postBuffers(this);
            }
        }
        catch (final RuntimeException ex)
        {
            fail(ex);
            failed = NodeRegionDescriptor.LENGTH_FAILED;
        }
        region.length(me, half, failed | (direct ? NodeRegionDescriptor.LENGTH_DIRECT : 0) |
            (posted & NodeRegionDescriptor.LENGTH_BYTES_MASK));
        region.arrive(me, NodeRegionDescriptor.flag(seq, 0));
        region.wakeOthers(me);
    }

    private boolean inputsArrived()
    {
        if (rounds != null)
        {
            return rounds.inputsArrived(round, half);
        }
        switch (kind)
        {
            case BCAST, SCATTER ->
            {
                return me == root || reached(arriveOf(root), root);
            }
            case GATHER ->
            {
                return direct ? me == root || reached(arriveOf(root), root) : me != root || allArrived(0);
            }
            case REDUCE ->
            {
                return (!direct && me != root) || allArrived(0);
            }
            default ->
            {
                return allArrived(0);
            }
        }
    }

    private void work()
    {
        switch (kind)
        {
            case BARRIER ->
            {
            }
            case BCAST ->
            {
                if (me != root && checkLength(root, bytes))
                {
                    if (direct)
                    {
                        copy((Part)region.posted(root, half), out);
                    }
                    else
                    {
                        out.unpack(region.buffer(), region.halfOffset(root, half), 0, (int)bytes);
                    }
                }
            }
            case REDUCE, ALLREDUCE -> HeapRound.reduce(this);
            case GATHER -> HeapRound.gather(this);
            case SCATTER -> HeapRound.scatter(this);
            case ALLGATHER -> HeapRound.allgather(this);
            case ALLTOALL -> HeapRound.alltoall(this);
            default -> throw new IllegalStateException(kind.name());
        }
    }

    // ------------------------------------------------------------------------------------------ helpers

    /** Type-to-type copy between two ranks' parts; the packed sizes must agree. */
    static void copy(final Part from, final Part to)
    {
        if (from.copyRunTo(to))
        {
            return;
        }
        final Convertor src = from.reader();
        final Convertor dst = to.writer();
        if (src.totalBytes() != dst.totalBytes())
        {
            throw new MpiException(ErrorClass.ERR_TRUNCATE, "send part is " + src.totalBytes() + " bytes, receive part " +
                dst.totalBytes() + " bytes (do all ranks pass matching counts, types and root?)");
        }
        Convertor.copy(src, dst, 0, src.totalBytes());
    }

    /**
     * Checks rank {@code j}'s posted length against this rank's mode and {@code expected} bytes: a mismatch is
     * ERR_TRUNCATE (ranks disagree on counts), a length that is no length at all ERR_INTERN. True when they agree.
     */
    boolean checkLength(final int j, final long expected)
    {
        final long length = region.length(j, half);
        final long posted = length & NodeRegionDescriptor.LENGTH_BYTES_MASK;
        final boolean peerDirect = (length & NodeRegionDescriptor.LENGTH_DIRECT) != 0;
        if ((length & NodeRegionDescriptor.LENGTH_FAILED) != 0)
        {
            fail(new MpiException(ErrorClass.ERR_OTHER, "rank " + j + " could not post its part of the call (see its own error)"));
            return false;
        }
        if ((length & ~(NodeRegionDescriptor.LENGTH_DIRECT | NodeRegionDescriptor.LENGTH_BYTES_MASK)) != 0 ||
            (!peerDirect && posted > region.halfBytes()))
        {
            fail(new MpiException(ErrorClass.ERR_INTERN, "rank " + j + " posted length 0x" + Long.toHexString(length) +
                " in the node collective region (half a slot: " + region.halfBytes() + " bytes)"));
            return false;
        }
        if (peerDirect != direct || posted != expected)
        {
            fail(new MpiException(ErrorClass.ERR_TRUNCATE, "rank " + j + " posted " + posted + " bytes, rank " + me + " expected " +
                expected + " (do all ranks pass matching counts, types and root?)"));
            return false;
        }
        return true;
    }

    /** Whether every rank but this one has arrived at round {@code r} of this call. */
    boolean allArrived(final long r)
    {
        for (int j = 0; j < size; j++)
        {
            if (j != me && !reachedFlag(arriveOf(j), j, NodeRegionDescriptor.flag(seq, r)))
            {
                return false;
            }
        }
        return true;
    }

    /** Whether every rank, this one included, has set its done flag to the last round of this call. */
    private boolean allDone()
    {
        return node.lastDone >= seq && peersDone(NodeRegionDescriptor.flag(seq, NodeRegionDescriptor.ROUND_LAST));
    }

    /**
     * Whether every rank but this one has set its done flag to {@code flag} (a call and round) or beyond. A done flag
     * only goes up, so a value seen once ({@link NodeComm#seenDone}) answers later guards without reading the peer's
     * control block again (in a loop of calls, every other guard reads no peer line).
     */
    private boolean peersDone(final long flag)
    {
        final long[] seen = node.seenDone;
        for (int j = 0; j < size; j++)
        {
            if (j == me || seen[j] >= flag)
            {
                continue;
            }
            final long done = region.done(j);
            if (!reachedFlag(done, j, flag))
            {
                return false;
            }
            if (validFlag(done))
            {
                seen[j] = done;
            }
        }
        return true;
    }

    /** Whether rank {@code j}'s flag has reached round 0 of this call. */
    private boolean reached(final long flag, final int j)
    {
        return reachedFlag(flag, j, NodeRegionDescriptor.flag(seq, 0));
    }

    /** Whether rank {@code j}'s arrive flag has reached round {@code r} of this call. */
    boolean arrived(final int j, final long r)
    {
        return reachedFlag(arriveOf(j), j, NodeRegionDescriptor.flag(seq, r));
    }

    /**
     * Whether a peer's flag has reached {@code target} (a call and round). A flag is never below 0, and no peer
     * can be more than {@link #MAX_LEAD} calls beyond the highest this rank's engine has seen (a rank posts data
     * for call t only once every rank is done with the round last posted in that half, from call t - 2 at the
     * latest, and it starts a barrier t + 1 once its own call t is done; a rank's other flags never pass its
     * arrive flag); one more is allowed for slack. Anything else is ERR_INTERN, and the wait ends so that the
     * call completes with it.
     */
    private boolean reachedFlag(final long flag, final int j, final long target)
    {
        if (!validFlag(flag))
        {
            fail(new MpiException(ErrorClass.ERR_INTERN, "rank " + j + "'s flag in the node collective region holds 0x" +
                Long.toHexString(flag) + " at call " + seq));
            return true;
        }
        return flag >= target;
    }

    /**
     * Rank {@code j}'s arrive flag. A rank posts call n only once its calls before n are done (their done flags
     * written, barriers aside, which write none and which no guard waits for), so an arrival at call n stands for
     * done flags up to call n - 1: recorded in {@link NodeComm#seenDone}, it spares the guards of calls that read
     * every peer's arrival (allreduce, allgather, alltoall, barrier in a loop) any read of a done flag.
     */
    private long arriveOf(final int j)
    {
        final long arrive = region.arrive(j);
        final long call = NodeRegionDescriptor.callOf(arrive);
        if (call > 1 && validFlag(arrive))
        {
            final long impliedDone = NodeRegionDescriptor.flag(call - 1, NodeRegionDescriptor.ROUND_LAST);
            if (node.seenDone[j] < impliedDone)
            {
                node.seenDone[j] = impliedDone;
            }
        }
        return arrive;
    }

    /** Whether a peer's flag can be right ({@link #reachedFlag}): not below 0, not beyond the calls peers can have reached. */
    private boolean validFlag(final long flag)
    {
        return flag >= 0 && NodeRegionDescriptor.callOf(flag) <= node.highestSeen + MAX_LEAD + 1;
    }

    /** Keeps the first failure, named after the call. */
    void fail(final RuntimeException ex)
    {
        if (failure == null)
        {
            failure = CallFailure.of(call, node.comm.name(), ex);
        }
    }

    @Override
    public void cancel()
    {
        // Collective operations cannot be cancelled (MPI 4.1 §3.8.4); the request completes normally.
    }
}
