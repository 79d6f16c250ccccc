package org.jmpi.internal.coll.node;

import org.agrona.concurrent.UnsafeBuffer;
import org.jmpi.Comm;
import org.jmpi.Datatype;
import org.jmpi.ErrorClass;
import org.jmpi.MpiException;
import org.jmpi.Op;
import org.jmpi.Status;
import org.jmpi.internal.datatype.BufferView;
import org.jmpi.internal.datatype.Convertor;
import org.jmpi.internal.engine.ProgressEngine;
import org.jmpi.internal.pt2pt.RequestImpl;
import org.jmpi.internal.reduce.Kernels;

/**
 * One rank's side of one node collective call through the communicator's {@link NodeRegion}: a request that
 * is also an engine activity, so blocking, nonblocking and persistent calls run it alike and it never blocks
 * the engine. Every call, on every rank, goes through the same steps, once per round (one round in a heap
 * region; in a mapped region as many as the chunks of the leader's data, {@link SlotRounds}):
 * <ol>
 * <li>Setup (first call, mapped regions): wait until the region is mapped ({@link NodeComm#mappedRegion}).</li>
 * <li>Guard: wait until every rank's done flag has reached this rank's previous round (its slot, length and
 * posted buffers are free again).</li>
 * <li>Post: small calls pack this rank's contribution into its slot; large ones post its buffers (the
 * user's, for peers to copy or reduce straight from and to); then the length (mode and bytes) and the
 * arrive flag = the call's number; wake the peers.</li>
 * <li>Input: wait for the arrive flags of the ranks whose data this rank reads (barrier: rank 0 waits for all,
 * the others for rank 0's release flag).</li>
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
 * <p>Threading: made on the calling thread; {@link #progress()} runs on the engine thread.
 */
final class NodeOp extends RequestImpl implements ProgressEngine.Activity
{
    enum Kind
    {
        BARRIER, BCAST, REDUCE, ALLREDUCE, GATHER, SCATTER, ALLGATHER, ALLTOALL
    }

    /** {@code count} items of {@code type} at element {@code offset} of a user buffer. */
    record Part(Object buf, int offset, int count, Datatype type)
    {
        long bytes()
        {
            return count * type.size();
        }

        Convertor reader()
        {
            return Convertor.create(BufferView.of(buf, "send buffer"), offset, count, type);
        }

        Convertor writer()
        {
            return Convertor.createForReceive(BufferView.of(buf, "receive buffer"), offset, count, type);
        }
    }

    private static final Status OK = new Status(Comm.ANY_SOURCE, Comm.ANY_TAG, ErrorClass.SUCCESS, false, 0);
    /**
     * Bytes of each slice a large reduction packs and folds at a time: two such chunks (accumulator and
     * operand) stay in a core's L2. Not tuned yet.
     */
    private static final int REDUCE_CHUNK = 64 * 1024;

    private enum Step
    {
        SETUP, GUARD, POST, INPUT, WORK, DONE, FINISH
    }

    private final NodeComm node;
    private NodeRegion region;
    private final String call;
    final Kind kind;
    /** This call's number. */
    private final long seq;
    /** The number of this rank's previous call (0: none). */
    private final long guard;
    final int root;
    private final int me;
    private final int size;
    /** This rank's contribution (bcast: the data at the root; reductions: the input; gather, allgather: the block; null: IN_PLACE). */
    final Part in;
    /** This rank's receiving part (bcast: the data at non-roots; reductions: the result; scatter: the block), or null. */
    final Part out;
    /** Per-rank blocks: gather's and allgather's receive blocks, scatter's and alltoall's send blocks. */
    final Part[] blocks;
    /** Alltoall: the receive blocks. */
    final Part[] outBlocks;
    final Op op;
    final Datatype type;
    /** Packed bytes this rank expects per rank (bcast, reductions: all; gather, scatter, allgather, alltoall: one block). */
    final long bytes;
    private boolean direct;
    /** Mapped regions: the rounds (null in a heap region, where a call is one round). */
    private SlotRounds rounds;
    private long round;
    private Step step = Step.SETUP;
    private MpiException failure;

    /** Made by {@link NodeCall#start()}. */
    NodeOp(final NodeCall b)
    {
        super(b.node.comm.engine(), b.node.comm::handle);
        this.node = b.node;
        this.region = b.node.heapRegion();
        this.call = b.call;
        this.kind = b.kind;
        this.root = b.root;
        this.me = node.rank;
        this.size = node.size;
        this.in = b.in;
        this.out = b.out;
        this.blocks = b.blocks;
        this.outBlocks = b.outBlocks;
        this.op = b.op;
        this.type = b.type;
        this.bytes = b.bytes;
        this.seq = node.nextCall();
        this.guard = node.lastPost;
        node.lastPost = seq;
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
                    // Rounds alternate between the slots' halves: round r reuses round r - 2's, which every rank
                    // must be done with; round 1's was last used by the previous call, done before round 0.
                    final boolean free = round == 0 ? guard == 0 || allDone(guard, NodeRegionDescriptor.ROUND_LAST) :
                        round == 1 || allDone(seq, round - 2);
                    if (!free)
                    {
                        return false;
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
                            rounds.work(round);
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
                    final boolean last = rounds == null || round == rounds.count() - 1;
                    region.done(me, NodeRegionDescriptor.flag(seq, last ? NodeRegionDescriptor.ROUND_LAST : round));
                    region.wakeOthers(me);
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
                    if ((direct && postsBuffers() && !allDone(seq, NodeRegionDescriptor.ROUND_LAST)) || !node.fileReleased())
                    {
                        return false;
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
            direct = kind != Kind.BARRIER && slotBytesNeeded() > region.slotBytes();
        }
        else if (kind != Kind.BARRIER)
        {
            rounds = new SlotRounds(this, node, region);
        }
        return true;
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
        if (rounds != null)
        {
            rounds.post(round);
            region.arrive(me, NodeRegionDescriptor.flag(seq, round));
            region.wakeOthers(me);
            return;
        }
        final long posted = direct ? bytes : slotBytesNeeded();
        long failed = 0;
        try
        {
            if (kind != Kind.BARRIER && !direct)
            {
                packSlot();
            }
            else if (direct)
            {
                postBuffers();
            }
        }
        catch (final RuntimeException ex)
        {
            fail(ex);
            failed = NodeRegionDescriptor.LENGTH_FAILED;
        }
        region.length(me, failed | (direct ? NodeRegionDescriptor.LENGTH_DIRECT : 0) | (posted & NodeRegionDescriptor.LENGTH_BYTES_MASK));
        region.arrive(me, NodeRegionDescriptor.flag(seq, 0));
        region.wakeOthers(me);
    }

    /** Packs this rank's contribution into its slot. */
    private void packSlot()
    {
        final UnsafeBuffer slots = region.buffer();
        final int at = region.slotOffset(me);
        switch (kind)
        {
            case BCAST ->
            {
                if (me == root)
                {
                    pack(in, slots, at);
                }
            }
            case REDUCE, ALLREDUCE -> pack(in, slots, at);
            case GATHER ->
            {
                if (me != root)
                {
                    pack(in, slots, at);
                }
            }
            case ALLGATHER -> pack(in != null ? in : blocks[me], slots, at);
            case SCATTER ->
            {
                if (me == root)
                {
                    packBlocks(blocks, slots, at);
                }
            }
            case ALLTOALL -> packBlocks(blocks, slots, at);
            default ->
            {
            }
        }
    }

    private void packBlocks(final Part[] parts, final UnsafeBuffer slots, final int at)
    {
        for (int j = 0; j < size; j++)
        {
            pack(parts[j], slots, at + (int)(j * bytes));
        }
    }

    /** Packs {@code part}, which must be the call's {@code bytes} (its own send and receive sizes may differ: ERR_TRUNCATE). */
    private void pack(final Part part, final UnsafeBuffer slots, final int at)
    {
        if (part.bytes() != bytes)
        {
            throw new MpiException(ErrorClass.ERR_TRUNCATE, "send part is " + part.bytes() + " bytes, receive part " + bytes +
                " bytes (counts or types do not match)");
        }
        part.reader().pack(slots, at, (int)bytes);
    }

    private void postBuffers()
    {
        switch (kind)
        {
            case BCAST -> region.post(me, me == root ? in : null);
            case REDUCE, ALLREDUCE -> region.post(me, new Part[] {in, out});
            case GATHER -> region.post(me, me == root ? blocks : null);
            case SCATTER -> region.post(me, me == root ? blocks : null);
            case ALLGATHER ->
            {
                if (in != null)
                {
                    copy(in, blocks[me]);
                }
                region.post(me, blocks);
            }
            case ALLTOALL -> region.post(me, blocks);
            default -> region.post(me, null);
        }
    }

    private boolean inputsArrived()
    {
        if (rounds != null)
        {
            return rounds.inputsArrived(round);
        }
        switch (kind)
        {
            case BARRIER ->
            {
                if (me != 0)
                {
                    return reached(region.release(0), 0);
                }
                return allArrived();
            }
            case BCAST, SCATTER ->
            {
                return me == root || reached(region.arrive(root), root);
            }
            case GATHER ->
            {
                return direct ? me == root || reached(region.arrive(root), root) : me != root || allArrived();
            }
            case REDUCE ->
            {
                return (!direct && me != root) || allArrived();
            }
            default ->
            {
                return allArrived();
            }
        }
    }

    private void work()
    {
        switch (kind)
        {
            case BARRIER ->
            {
                if (me == 0)
                {
                    region.release(0, NodeRegionDescriptor.flag(seq, 0));
                    region.wakeOthers(me);
                }
            }
            case BCAST ->
            {
                if (me != root && checkLength(root, bytes))
                {
                    if (direct)
                    {
                        copy((Part)region.posted(root), out);
                    }
                    else
                    {
                        out.writer().unpack(region.buffer(), region.slotOffset(root), (int)bytes);
                    }
                }
            }
            case REDUCE, ALLREDUCE -> reduce();
            case GATHER -> gather();
            case SCATTER -> scatter();
            case ALLGATHER -> allgather();
            case ALLTOALL -> alltoall();
            default -> throw new IllegalStateException(kind.name());
        }
    }

    private void gather()
    {
        if (me == root)
        {
            if (in != null)
            {
                copy(in, blocks[me]);
            }
            if (!direct)
            {
                for (int j = 0; j < size; j++)
                {
                    if (j != me && checkLength(j, bytes))
                    {
                        blocks[j].writer().unpack(region.buffer(), region.slotOffset(j), (int)bytes);
                    }
                }
            }
        }
        else if (direct && checkLength(root, bytes))
        {
            copy(in, ((Part[])region.posted(root))[me]);
        }
    }

    private void scatter()
    {
        if (me == root)
        {
            if (out != null)
            {
                copy(blocks[me], out);
            }
        }
        else if (checkLength(root, direct ? bytes : bytes * size))
        {
            if (direct)
            {
                copy(((Part[])region.posted(root))[me], out);
            }
            else
            {
                out.writer().unpack(region.buffer(), region.slotOffset(root) + (int)(me * bytes), (int)bytes);
            }
        }
    }

    private void allgather()
    {
        if (!direct && in != null)
        {
            copy(in, blocks[me]);
        }
        for (int i = 1; i < size; i++)
        {
            final int j = (me + i) % size;
            if (!checkLength(j, bytes))
            {
                continue;
            }
            if (direct)
            {
                copy(((Part[])region.posted(j))[j], blocks[j]);
            }
            else
            {
                blocks[j].writer().unpack(region.buffer(), region.slotOffset(j), (int)bytes);
            }
        }
    }

    private void alltoall()
    {
        for (int i = 0; i < size; i++)
        {
            final int j = (me + i) % size;
            if (!checkLength(j, direct ? bytes : bytes * size))
            {
                continue;
            }
            if (direct)
            {
                copy(((Part[])region.posted(j))[me], outBlocks[j]);
            }
            else
            {
                outBlocks[j].writer().unpack(region.buffer(), region.slotOffset(j) + (int)(me * bytes), (int)bytes);
            }
        }
    }

    // ------------------------------------------------------------------------------------------ reductions

    private void reduce()
    {
        final boolean reducer = kind == Kind.ALLREDUCE || me == root;
        if (!direct && !reducer)
        {
            return;
        }
        boolean ok = true;
        for (int j = 0; j < size; j++)
        {
            ok &= checkLength(j, bytes);
        }
        if (!ok || bytes == 0)
        {
            return;
        }
        final int unit = Kernels.unitBytes(op, type);
        if (!direct)
        {
            final byte[] acc = node.scratch((int)bytes);
            fold(acc, 0, (int)bytes, unit, (j, dst, dstOff, n) ->
                System.arraycopy(region.memory(), region.slotOffset(j), dst, dstOff, n));
            out.writer().unpack(node.scratchBuffer(), 0, (int)bytes);
            return;
        }
        final long units = bytes / unit;
        final long from = units * me / size * unit;
        final long to = units * (me + 1) / size * unit;
        if (from == to)
        {
            return;
        }
        final int chunk = (int)Math.max(unit, REDUCE_CHUNK / unit * unit);
        final Convertor[] readers = new Convertor[size];
        for (int j = 0; j < size; j++)
        {
            readers[j] = ((Part[])region.posted(j))[0].reader();
        }
        final Convertor[] writers = new Convertor[size];
        for (int j = 0; j < size; j++)
        {
            final Part target = ((Part[])region.posted(j))[1];
            if (target != null && (kind == Kind.ALLREDUCE || j == root))
            {
                writers[j] = target.writer();
            }
        }
        final byte[] acc = node.scratch(2 * chunk);
        final UnsafeBuffer accBuffer = node.scratchBuffer();
        for (long at = from; at < to; at += chunk)
        {
            final int n = (int)Math.min(chunk, to - at);
            final long position = at;
            fold(acc, chunk, n, unit, (j, dst, dstOff, len) ->
            {
                readers[j].seek(position);
                readers[j].pack(accBuffer, dstOff, len);
            });
            for (final Convertor w : writers)
            {
                if (w != null)
                {
                    w.seek(position);
                    w.unpack(accBuffer, chunk, n);
                }
            }
        }
    }

    /** Fetches {@code length} bytes of rank {@code j}'s operand into {@code dst} at {@code dstOff}. */
    @FunctionalInterface
    private interface Operand
    {
        void fetch(int j, byte[] dst, int dstOff, int length);
    }

    /**
     * Folds the ranks' operands in rank order into {@code acc} at {@code accOff}: rank P-1's first, then
     * {@code acc = in_j op acc} for j = P-2 .. 0. Operands are fetched to {@code acc}'s first {@code length}
     * bytes unless the accumulator is at 0 (small calls: they are read straight from the slots).
     */
    private void fold(final byte[] acc, final int accOff, final int length, final int unit, final Operand operand)
    {
        final int units = length / unit;
        operand.fetch(size - 1, acc, accOff, length);
        for (int j = size - 2; j >= 0; j--)
        {
            if (accOff == 0)
            {
                Kernels.reduce(op, type, region.memory(), region.slotOffset(j), acc, 0, units);
            }
            else
            {
                operand.fetch(j, acc, 0, length);
                Kernels.reduce(op, type, acc, 0, acc, accOff, units);
            }
        }
    }

    // ------------------------------------------------------------------------------------------ helpers

    /** Type-to-type copy between two ranks' parts; the packed sizes must agree. */
    static void copy(final Part from, final Part to)
    {
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
    private boolean checkLength(final int j, final long expected)
    {
        return checkLength(j, expected, 0);
    }

    /** As above, for round {@code r} of a call in rounds. */
    boolean checkLength(final int j, final long expected, final long r)
    {
        final long length = region.roundLength(j, r);
        final long posted = length & NodeRegionDescriptor.LENGTH_BYTES_MASK;
        final boolean peerDirect = (length & NodeRegionDescriptor.LENGTH_DIRECT) != 0;
        if ((length & NodeRegionDescriptor.LENGTH_FAILED) != 0)
        {
            fail(new MpiException(ErrorClass.ERR_OTHER, "rank " + j + " could not post its part of the call (see its own error)"));
            return false;
        }
        if ((length & ~(NodeRegionDescriptor.LENGTH_DIRECT | NodeRegionDescriptor.LENGTH_BYTES_MASK)) != 0 ||
            (!peerDirect && posted > region.slotBytes()))
        {
            fail(new MpiException(ErrorClass.ERR_INTERN, "rank " + j + " posted length 0x" + Long.toHexString(length) +
                " in the node collective region (slot " + region.slotBytes() + " bytes)"));
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
            if (j != me && !reachedFlag(region.arrive(j), j, NodeRegionDescriptor.flag(seq, r)))
            {
                return false;
            }
        }
        return true;
    }

    private boolean allArrived()
    {
        return allArrived(0);
    }

    /**
     * Whether every rank, this one included, has set its done flag to round {@code r} of call {@code call} or
     * beyond (this rank's own rounds of the running call are done before its next one starts).
     */
    private boolean allDone(final long call, final long r)
    {
        if (node.lastDone < call && (call != seq || r == NodeRegionDescriptor.ROUND_LAST))
        {
            return false;
        }
        final long flag = NodeRegionDescriptor.flag(call, r);
        for (int j = 0; j < size; j++)
        {
            if (j != me && !reachedFlag(region.done(j), j, flag))
            {
                return false;
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
        return reachedFlag(region.arrive(j), j, NodeRegionDescriptor.flag(seq, r));
    }

    /**
     * Whether a peer's flag has reached {@code target} (a call and round). A flag is never below 0, and no peer
     * can be more than one call beyond the highest this rank's engine has seen (a rank posts call t only once
     * every rank, this one included, is done with its call t - 1, and a rank's other flags never pass its arrive
     * flag); one more is allowed for slack. Anything else is ERR_INTERN, and the wait ends so that the call
     * completes with it.
     */
    private boolean reachedFlag(final long flag, final int j, final long target)
    {
        if (flag < 0 || NodeRegionDescriptor.callOf(flag) > node.highestSeen + 2)
        {
            fail(new MpiException(ErrorClass.ERR_INTERN, "rank " + j + "'s flag in the node collective region holds 0x" +
                Long.toHexString(flag) + " at call " + seq));
            return true;
        }
        return flag >= target;
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
