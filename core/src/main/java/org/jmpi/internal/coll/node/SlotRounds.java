package org.jmpi.internal.coll.node;

import org.agrona.concurrent.UnsafeBuffer;
import org.jmpi.ErrorClass;
import org.jmpi.MpiException;
import org.jmpi.internal.coll.node.NodeOp.Kind;
import org.jmpi.internal.reduce.Kernels;

/**
 * One call's rounds through a mapped region's slots (ranks in separate JVMs, where no rank can reach another's
 * buffers): every call but a barrier moves its data in chunks of half a slot, one chunk per round, each round
 * with its own flags ({@link NodeRegionDescriptor#flag}) and the rounds taking the slots' two halves in turn
 * (and their length and total fields; {@link NodeOp} picks the half), so that a large call is pipelined through
 * the slots: a rank posts round r + 1 while its peers still read round r, and waits only before round r + 2 for
 * every rank to be done with round r.
 * <ol>
 * <li>The leader (the root of a rooted call, else rank 0) writes its total (bytes per block) with its first
 * round; every rank waits for the leader's first round and takes the number of rounds from that total, so
 * that all agree on it even where counts differ. A rank whose own total differs fails with ERR_TRUNCATE and
 * posts failed lengths from its second round on, so its readers fail too (ERR_OTHER); nobody waits forever.</li>
 * <li>Round r covers stream bytes {@code [r * chunk, (r + 1) * chunk)} of each block, in the round's half of
 * the slot: the whole half for bcast, gather and allgather; a multiple of the reduction unit for reductions; the
 * half split into P block chunks for scatter and alltoall (block j's chunk at {@code j * chunk}).</li>
 * <li>Each round: pack this rank's chunk(s) into its slot and post the length; wait for the ranks it reads;
 * check their lengths against the chunk the leader's total gives, then unpack (or, reductions: fold every
 * rank's chunk in rank order into the scratch and unpack the result).</li>
 * </ol>
 *
 * <p>Threading: the engine thread, within {@link NodeOp#progress()}.
 */
final class SlotRounds
{
    private final NodeComm node;
    private final NodeRegion region;
    private final int me;
    private final int size;
    /** Bytes of half a slot: what one round posts at most. */
    private final long halfBytes;
    // The call's, set by bind():
    private NodeOp owner;
    private Kind kind;
    private int root;
    /** This rank's total (per block for gather, scatter, allgather, alltoall). */
    private long bytes;
    /** The call's parts and reduction, as {@link NodeOp} holds them. */
    private Part in;
    private Part out;
    private Part[] blocks;
    private Part[] outBlocks;
    private int unit;
    private int leader;
    /** Stream bytes of one block per round. */
    private long chunk;
    /** Why this call cannot run through the slots (a reduction unit larger than a slot), or null. */
    private String unfit;
    private long total;
    private long count;
    private boolean mismatch;
    /** The root of a gather or reduce of several rounds: the senders that posted one round only (they ran ahead), or null. */
    private boolean[] oneRound;

    /**
     * Rounds through {@code region} for {@code node}'s calls: one per call in flight, made once and reused
     * ({@link NodeComm#rounds}), so that a blocking call allocates none.
     */
    SlotRounds(final NodeComm node, final NodeRegion region)
    {
        this.node = node;
        this.region = region;
        this.me = node.rank;
        this.size = node.size;
        this.halfBytes = region.halfBytes();
    }

    /** Takes on {@code call}'s rounds (its kind, root, parts and reduction); returns this. */
    SlotRounds bind(final NodeOp call)
    {
        this.owner = call;
        this.kind = call.kind;
        this.root = call.root;
        this.bytes = call.bytes;
        this.in = call.in;
        this.out = call.out;
        this.blocks = call.blocks;
        this.outBlocks = call.outBlocks;
        this.unit = call.op == null ? 1 : Kernels.unitBytes(call.op, call.type);
        this.leader = switch (kind)
        {
            case BCAST, REDUCE, GATHER, SCATTER -> root;
            default -> 0;
        };
        this.chunk = switch (kind)
        {
            case REDUCE, ALLREDUCE -> Math.max(unit, halfBytes / unit * unit);
            case SCATTER, ALLTOALL -> halfBytes / size >= 8 ? halfBytes / size & -8 : Math.max(1, halfBytes / size);
            default -> halfBytes;
        };
        this.unfit = chunk * (kind == Kind.SCATTER || kind == Kind.ALLTOALL ? size : 1) > halfBytes ? "a round of " + chunk + " bytes" +
            (unit > 1 ? " (a reduction unit)" : " per rank") + " does not fit half the node collective slot of " + region.slotBytes() +
            " bytes (raise jmpi.coll.node.slot or choose another algorithm)" : null;
        this.total = -1;
        this.count = 1;
        this.mismatch = false;
        this.oneRound = null;
        return this;
    }

    /** Drops the finished call's references (its buffers), so that a spare holds none. */
    void release()
    {
        owner = null;
        in = null;
        out = null;
        blocks = null;
        outBlocks = null;
        oneRound = null;
    }

    /** What the trace says of this call's rounds ({@code jmpi.coll.trace}): as many as this rank's own total needs. */
    String describe()
    {
        final long rounds = Math.max(1, (bytes + chunk - 1) / chunk);
        return rounds + (rounds == 1 ? " round" : " rounds") + " of up to " + chunk + " bytes per block";
    }

    /** The number of rounds: 1 until the leader's total is known (after the first round's input). */
    long count()
    {
        return count;
    }

    /** Stream bytes of one block in round {@code r}: from the leader's total once known, else this rank's. */
    private long chunkBytes(final long r)
    {
        final long of = total >= 0 ? total : bytes;
        return Math.max(0, Math.min(chunk, of - r * chunk));
    }

    /** Packs this rank's chunk(s) of round {@code r} into half {@code h} and writes its length (and, round 0, its total). */
    void post(final long r, final int h)
    {
        long posted = 0;
        long failed = 0;
        try
        {
            if (unfit != null)
            {
                throw new MpiException(ErrorClass.ERR_UNSUPPORTED_OPERATION, unfit);
            }
            if (!mismatch)
            {
                posted = pack(r, h);
            }
            else
            {
                failed = NodeRegionDescriptor.LENGTH_FAILED;
            }
        }
        catch (final RuntimeException ex)
        {
            owner.fail(ex);
            failed = NodeRegionDescriptor.LENGTH_FAILED;
        }
        if (r == 0)
        {
            region.total(me, h, bytes);
        }
        region.length(me, h, failed | (posted & NodeRegionDescriptor.LENGTH_BYTES_MASK));
    }

    private long pack(final long r, final int h)
    {
        final long n = chunkBytes(r);
        final long from = r * chunk;
        final long at = (long)h * halfBytes;
        switch (kind)
        {
            case BCAST ->
            {
                if (me != root)
                {
                    return 0;
                }
                pack(in, from, n, at);
            }
            case REDUCE, ALLREDUCE -> pack(in, from, n, at);
            case GATHER ->
            {
                if (me == root)
                {
                    return 0;
                }
                pack(in, from, n, at);
            }
            case ALLGATHER -> pack(in != null ? in : blocks[me], from, n, at);
            case SCATTER, ALLTOALL ->
            {
                if (kind == Kind.SCATTER && me != root)
                {
                    return 0;
                }
                for (int j = 0; j < size; j++)
                {
                    pack(blocks[j], from, n, at + j * chunk);
                }
                return n * size;
            }
            default -> throw new IllegalStateException(kind.name());
        }
        return n;
    }

    /** Packs {@code n} stream bytes of {@code part} from {@code from} into this rank's slot at {@code at}. */
    private void pack(final Part part, final long from, final long n, final long at)
    {
        if (part.bytes() != bytes)
        {
            throw new MpiException(ErrorClass.ERR_TRUNCATE, "send part is " + part.bytes() + " bytes, receive part " + bytes +
                " bytes (counts or types do not match)");
        }
        part.pack(region.buffer(), region.slotOffset(me) + (int)at, from, (int)n);
    }

    /** Unpacks {@code n} stream bytes into {@code part} from {@code from}, out of rank {@code j}'s slot at {@code at}. */
    private void unpack(final Part part, final long from, final long n, final int j, final long at)
    {
        part.unpack(region.buffer(), region.slotOffset(j) + (int)at, from, (int)n);
    }

    /** Whether the ranks whose round {@code r} (in half {@code h}) this rank reads have posted it (round 0: the leader too). */
    boolean inputsArrived(final long r, final int h)
    {
        if ((kind == Kind.GATHER || kind == Kind.REDUCE) && me != root && r == 0 && bytes <= chunk)
        {
            // A sender whose whole part fits one round runs ahead: it need not learn the root's total, since it posts
            // one round whatever that total is; the root checks the totals and waits for no second round from it.
            total = bytes;
            count = 1;
            return true;
        }
        final boolean arrived = switch (kind)
        {
            case BCAST, SCATTER -> me == root || owner.arrived(root, r);
            case GATHER, REDUCE -> me == root ? sendersArrived(r) : r > 0 || owner.arrived(root, 0);
            default -> owner.allArrived(r);
        };
        if (arrived && r == 0)
        {
            learnTotal(h);
            if (me == root && count > 1 && (kind == Kind.GATHER || kind == Kind.REDUCE))
            {
                findOneRoundSenders(h);
            }
        }
        return arrived;
    }

    /** The root of a gather or reduce: whether every sender that posts round {@code r} has posted it. */
    private boolean sendersArrived(final long r)
    {
        if (oneRound == null)
        {
            return owner.allArrived(r);
        }
        for (int j = 0; j < size; j++)
        {
            if (j != me && !oneRound[j] && !owner.arrived(j, r))
            {
                return false;
            }
        }
        return true;
    }

    /**
     * The root of a gather or reduce of several rounds: the senders whose total fits one round ran ahead and post
     * no second round (their totals differ from the root's: ERR_TRUNCATE), so later rounds do not wait for them and
     * the root reads no more data (the call fails).
     */
    private void findOneRoundSenders(final int h)
    {
        for (int j = 0; j < size; j++)
        {
            final long theirs = j == me ? bytes : region.total(j, h);
            if (j != me && theirs <= chunk)
            {
                if (oneRound == null)
                {
                    oneRound = new boolean[size];
                }
                oneRound[j] = true;
                mismatch = true;
                owner.fail(new MpiException(ErrorClass.ERR_TRUNCATE, "rank " + j + " passes " + theirs + " bytes, rank " + me +
                    " passes " + bytes + " (do all ranks pass matching counts, types and root?)"));
            }
        }
    }

    /** Takes the number of rounds from the leader's total (checked: a total no call can have is ERR_INTERN). */
    private void learnTotal(final int h)
    {
        final long leaderTotal = me == leader ? bytes : region.total(leader, h);
        if (leaderTotal < 0 || leaderTotal > (long)Integer.MAX_VALUE * Math.max(1, size))
        {
            owner.fail(new MpiException(ErrorClass.ERR_INTERN, "rank " + leader + "'s total in the node collective region holds " +
                leaderTotal + " bytes"));
            total = 0;
            count = 1;
            mismatch = true;
            return;
        }
        total = leaderTotal;
        count = Math.max(1, (total + chunk - 1) / chunk);
        if (total != bytes)
        {
            mismatch = true;
            owner.fail(new MpiException(ErrorClass.ERR_TRUNCATE, "rank " + leader + " passes " + total + " bytes, rank " + me +
                " passes " + bytes + " (do all ranks pass matching counts, types and root?)"));
        }
    }

    /** Reads and unpacks (or reduces) round {@code r}, posted in half {@code h}. */
    void work(final long r, final int h)
    {
        final long n = chunkBytes(r);
        final long from = r * chunk;
        final long at = (long)h * halfBytes;
        if (r == 0)
        {
            copyOwn();
        }
        if (mismatch)
        {
            return;
        }
        switch (kind)
        {
            case BCAST ->
            {
                if (me != root && owner.checkLength(root, n))
                {
                    unpack(out, from, n, root, at);
                }
            }
            case REDUCE, ALLREDUCE -> reduce(n, from, (int)at);
            case GATHER, ALLGATHER ->
            {
                if (kind == Kind.GATHER && me != root)
                {
                    return;
                }
                for (int i = 1; i < size; i++)
                {
                    final int j = (me + i) % size;
                    if (owner.checkLength(j, n))
                    {
                        unpack(blocks[j], from, n, j, at);
                    }
                }
            }
            case SCATTER ->
            {
                if (me != root && owner.checkLength(root, n * size))
                {
                    unpack(out, from, n, root, at + me * chunk);
                }
            }
            case ALLTOALL ->
            {
                for (int i = 0; i < size; i++)
                {
                    final int j = (me + i) % size;
                    if (owner.checkLength(j, n * size))
                    {
                        unpack(outBlocks[j], from, n, j, at + me * chunk);
                    }
                }
            }
            default -> throw new IllegalStateException(kind.name());
        }
    }

    /** Round 0: this rank's own block into its own receive part (gather, allgather, scatter at the root). */
    private void copyOwn()
    {
        try
        {
            switch (kind)
            {
                case GATHER ->
                {
                    if (me == root && in != null)
                    {
                        NodeOp.copy(in, blocks[me]);
                    }
                }
                case ALLGATHER ->
                {
                    if (in != null)
                    {
                        NodeOp.copy(in, blocks[me]);
                    }
                }
                case SCATTER ->
                {
                    if (me == root && out != null)
                    {
                        NodeOp.copy(blocks[me], out);
                    }
                }
                default ->
                {
                }
            }
        }
        catch (final RuntimeException ex)
        {
            owner.fail(ex);
        }
    }

    /**
     * Folds round {@code r}'s chunks in rank order into the scratch (rank P-1's first, then {@code acc = in_j op
     * acc} for j = P-2 .. 0, each operand copied out of its slot first) and unpacks the result (reducers only).
     */
    private void reduce(final long n, final long from, final int at)
    {
        if (kind == Kind.REDUCE && me != root)
        {
            return;
        }
        boolean ok = true;
        for (int j = 0; j < size; j++)
        {
            ok &= owner.checkLength(j, n);
        }
        if (!ok || n == 0)
        {
            return;
        }
        final int length = (int)n;
        final int operandAt = (int)chunk;
        final byte[] acc = node.scratch(2 * (int)chunk);
        final UnsafeBuffer accBuffer = node.scratchBuffer();
        region.readSlot(size - 1, at, acc, 0, length);
        for (int j = size - 2; j >= 0; j--)
        {
            region.readSlot(j, at, acc, operandAt, length);
            Kernels.reduce(owner.op, owner.type, acc, operandAt, acc, 0, length / unit);
        }
        out.unpack(accBuffer, 0, from, length);
    }
}
