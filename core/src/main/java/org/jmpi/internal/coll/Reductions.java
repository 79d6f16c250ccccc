package org.jmpi.internal.coll;

import static org.jmpi.internal.coll.Collectives.IN_PLACE;
import static org.jmpi.internal.coll.Collectives.K_ALLREDUCE;
import static org.jmpi.internal.coll.Collectives.K_EXSCAN;
import static org.jmpi.internal.coll.Collectives.K_REDUCE;
import static org.jmpi.internal.coll.Collectives.K_REDUCE_SCATTER;
import static org.jmpi.internal.coll.Collectives.K_REDUCE_SCATTER_BLOCK;
import static org.jmpi.internal.coll.Collectives.K_SCAN;
import static org.jmpi.internal.coll.Collectives.checkRoot;
import static org.jmpi.internal.coll.Collectives.plan;
import static org.jmpi.internal.coll.Collectives.real;

import org.jmpi.Datatype;
import org.jmpi.ErrorClass;
import org.jmpi.MpiException;
import org.jmpi.Op;
import org.jmpi.internal.coll.Collectives.Plan;
import org.jmpi.internal.coll.hier.HierCollectives;
import org.jmpi.internal.coll.node.NodeCollectives;
import org.jmpi.internal.pt2pt.CommState;
import org.jmpi.internal.reduce.Kernels;

/**
 * The reducing collectives: reduce, allreduce, reduce_scatter(_block), scan, exscan, reduce_local. They work
 * on packed scratch arrays (packed from the user's buffers when the schedule starts, unpacked at its end)
 * and combine with {@link Kernels}. Non-commutative ops are always combined in rank order.
 *
 * <p>Algorithms (see docs/collectives.md): binomial reduce; recursive-doubling, Rabenseifner and ring
 * allreduce; ring reduce-scatter; recursive-doubling scan and exscan.
 *
 * <p>Threading: any thread; the schedules run on the engine thread.
 */
public final class Reductions
{
    private Reductions()
    {
    }

    // ------------------------------------------------------------------------------------------ reductions

    /** An op on a type, with the unit the reduction may be split at. */
    record Reduction(Op op, Datatype type, int unitBytes)
    {
        static Reduction of(final String call, final Op op, final Datatype type)
        {
            Kernels.check(call, op, type);
            return new Reduction(op, type, Kernels.unitBytes(op, type));
        }

        /** inout[ioOff..] = in[inOff..] op inout[ioOff..] over {@code bytes} bytes. */
        void apply(final byte[] in, final int inOff, final byte[] inout, final int ioOff, final int bytes)
        {
            Kernels.reduce(op, type, in, inOff, inout, ioOff, bytes / unitBytes);
        }

        /** acc = acc op higher, for an operand from higher ranks (a copy unless the op commutes). */
        void applyFromHigher(final byte[] acc, final int accOff, final byte[] higher, final int hOff, final int bytes)
        {
            if (op.isCommutative())
            {
                apply(higher, hOff, acc, accOff, bytes);
            }
            else
            {
                apply(acc, accOff, higher, hOff, bytes);
                System.arraycopy(higher, hOff, acc, accOff, bytes);
            }
        }
    }

    public static Plan reduce(final CommState c, final Object sendBuf, final int sendOffset, final Object recvBuf, final int recvOffset,
        final int count, final Datatype type, final Op op, final int root)
    {
        return reduce(c, sendBuf, sendOffset, recvBuf, recvOffset, count, type, op, root, false);
    }

    /** As above; {@code now}: a blocking call, which runs the node path here and returns null ({@link Collectives#run}). */
    public static Plan reduce(final CommState c, final Object sendBuf, final int sendOffset, final Object recvBuf, final int recvOffset,
        final int count, final Datatype type, final Op op, final int root, final boolean now)
    {
        final String call = "reduce";
        checkRoot(call, c, root);
        final boolean isRoot = c.rank() == root;
        if (sendBuf == IN_PLACE && !isRoot)
        {
            throw new MpiException(ErrorClass.ERR_BUFFER, call + ": IN_PLACE is only allowed at the root");
        }
        if (sendBuf == IN_PLACE)
        {
            Buffers.checkSend(call, recvBuf, recvOffset, count, type);
        }
        else
        {
            Buffers.checkSend(call, sendBuf, sendOffset, count, type);
        }
        if (isRoot)
        {
            Buffers.checkRecv(call, recvBuf, recvOffset, count, type);
        }
        Kernels.check(call, op, type);
        final int bytes = Buffers.packedBytes(call, count, type);
        final CollParams p = CollContext.of(c).params;
        if (Collectives.twoLevelComm(c, p.reduceAlgorithm, op) != null)
        {
            return Collectives.twoLevel(c, call, p.reduceAlgorithm, op,
                h -> HierCollectives.reduce(h, sendBuf, sendOffset, recvBuf, recvOffset, count, type, op, root));
        }
        final boolean node = Collectives.nodeSelected(c, p.reduceAlgorithm, true);
        if (node && now)
        {
            Collectives.nodeNow(c, call);
            NodeCollectives.reduce(c, p.nodeSlotBytes, true, false, sendBuf == IN_PLACE ? null : sendBuf, sendOffset, recvBuf, recvOffset,
                count, type, op, root);
            return null;
        }
        final Buffers.Slot in = sendBuf == IN_PLACE ? new Buffers.Slot(recvBuf, recvOffset, count, type) :
            new Buffers.Slot(sendBuf, sendOffset, count, type);
        final Reduction red = new Reduction(op, type, Kernels.unitBytes(op, type));
        final Buffers.Slot out = isRoot ? new Buffers.Slot(recvBuf, recvOffset, count, type) : null;
        final Collectives.DirectFactory direct = tag ->
        {
            final DirectPersistent.Mode mode = Collectives.directMode(c, call, bytes, op.isCommutative());
            return mode == null ? null : DirectCollectives.reduce(c, tag, mode, in, out, red, bytes, root);
        };
        if (node)
        {
            return Collectives.nodePlan(c, call, () -> NodeCollectives.reduce(c, p.nodeSlotBytes, false, false, sendBuf == IN_PLACE ? null : sendBuf,
                sendOffset, recvBuf, recvOffset, count, type, op, root)).withDirect(direct);
        }
        final Schedule s = new Schedule();
        final byte[] acc = new byte[bytes];
        s.local(() -> Buffers.pack(in, acc, 0));
        reduceBinomial(s, c.rank(), c.size(), root, red, acc, bytes);
        if (isRoot)
        {
            s.local(() -> Buffers.unpack(acc, 0, out));
        }
        return plan(c, call, K_REDUCE, root, bytes, s).withDirect(direct);
    }

    /**
     * Binomial reduce of the packed operand {@code acc}, in ranks relative to the tree's root (the root for a
     * commutative op; rank 0 otherwise, so that operands combine in rank order):
     * <ol>
     * <li>Receive the operands of the children vr + m (m a power of two below lowbit(vr), vr + m &lt; size),
     * all at once, each into its own buffer.</li>
     * <li>Combine them into {@code acc} in increasing m (so in rank order): acc = acc op child.</li>
     * <li>Send {@code acc} to the parent vr - lowbit(vr).</li>
     * <li>Non-commutative op with root &ne; 0: rank 0 sends the result to the root.</li>
     * </ol>
     * On return {@code acc} holds the result at {@code root} (after the schedule's rounds so far).
     */
    private static void reduceBinomial(final Schedule s, final int rank, final int size, final int root, final Reduction red,
        final byte[] acc, final int bytes)
    {
        final int treeRoot = red.op().isCommutative() ? root : 0;
        final int vr = (rank - treeRoot + size) % size;
        int parent = -1;
        final java.util.ArrayList<byte[]> children = new java.util.ArrayList<>();
        for (int mask = 1; mask < size; mask <<= 1)
        {
            if ((vr & mask) != 0)
            {
                parent = real(vr - mask, treeRoot, size);
                break;
            }
            if (vr + mask < size)
            {
                final byte[] tmp = new byte[bytes];
                children.add(tmp);
                s.recvBytes(real(vr + mask, treeRoot, size), tmp, 0, bytes);
            }
        }
        s.next();
        for (final byte[] child : children)
        {
            s.local(() -> red.applyFromHigher(acc, 0, child, 0, bytes));
        }
        if (parent >= 0)
        {
            s.sendBytes(parent, acc, 0, bytes);
        }
        s.next();
        if (treeRoot != root)
        {
            if (rank == treeRoot)
            {
                s.sendBytes(root, acc, 0, bytes);
            }
            else if (rank == root)
            {
                s.recvBytes(treeRoot, acc, 0, bytes);
            }
            s.next();
        }
    }

    public static Plan allreduce(final CommState c, final Object sendBuf, final int sendOffset, final Object recvBuf, final int recvOffset,
        final int count, final Datatype type, final Op op)
    {
        return allreduce(c, sendBuf, sendOffset, recvBuf, recvOffset, count, type, op, false);
    }

    /** As above; {@code now}: a blocking call, which runs the node path here and returns null ({@link Collectives#run}). */
    public static Plan allreduce(final CommState c, final Object sendBuf, final int sendOffset, final Object recvBuf, final int recvOffset,
        final int count, final Datatype type, final Op op, final boolean now)
    {
        final String call = "allreduce";
        if (sendBuf == IN_PLACE)
        {
            Buffers.checkSend(call, recvBuf, recvOffset, count, type);
        }
        else
        {
            Buffers.checkSend(call, sendBuf, sendOffset, count, type);
        }
        Buffers.checkRecv(call, recvBuf, recvOffset, count, type);
        Kernels.check(call, op, type);
        final int bytes = Buffers.packedBytes(call, count, type);
        final int size = c.size();
        final CollParams p = CollContext.of(c).params;
        if (Collectives.twoLevelComm(c, p.allreduceAlgorithm, op) != null)
        {
            return Collectives.twoLevel(c, call, p.allreduceAlgorithm, op,
                h -> HierCollectives.allreduce(h, sendBuf, sendOffset, recvBuf, recvOffset, count, type, op));
        }
        final boolean node = Collectives.nodeSelected(c, p.allreduceAlgorithm);
        if (node && now)
        {
            Collectives.nodeNow(c, call);
            NodeCollectives.reduce(c, p.nodeSlotBytes, true, true, sendBuf == IN_PLACE ? null : sendBuf, sendOffset, recvBuf, recvOffset,
                count, type, op, 0);
            return null;
        }
        final Buffers.Slot in = sendBuf == IN_PLACE ? new Buffers.Slot(recvBuf, recvOffset, count, type) :
            new Buffers.Slot(sendBuf, sendOffset, count, type);
        final Reduction red = new Reduction(op, type, Kernels.unitBytes(op, type));
        final Buffers.Slot out = new Buffers.Slot(recvBuf, recvOffset, count, type);
        final Collectives.DirectFactory direct = tag ->
        {
            final DirectPersistent.Mode mode = Collectives.directMode(c, call, bytes, op.isCommutative());
            return mode == null ? null : DirectCollectives.allreduce(c, tag, mode, in, out, red, bytes);
        };
        if (node)
        {
            return Collectives.nodePlan(c, call, () -> NodeCollectives.reduce(c, p.nodeSlotBytes, false, true, sendBuf == IN_PLACE ? null : sendBuf,
                sendOffset, recvBuf, recvOffset, count, type, op, 0)).withDirect(direct);
        }
        final int pof2 = Integer.highestOneBit(Math.max(1, size));
        final int units = bytes / red.unitBytes();
        String algorithm = p.allreduceAlgorithm;
        if (algorithm.equals("auto") || algorithm.equals("node"))
        {
            algorithm = bytes <= p.allreduceShort || units < pof2 ? "recursive_doubling" : "rabenseifner";
        }
        if (!op.isCommutative())
        {
            algorithm = "recursive_doubling";
        }
        final Schedule s = new Schedule();
        final byte[] acc = new byte[bytes];
        s.local(() -> Buffers.pack(in, acc, 0));
        if (size > 1)
        {
            switch (algorithm)
            {
                case "rabenseifner" -> allreduceRabenseifner(s, c.rank(), size, red, acc, bytes);
                case "ring" -> allreduceRing(s, c.rank(), size, red, acc, bytes);
                default -> allreduceRecursiveDoubling(s, c.rank(), size, red, acc, bytes);
            }
        }
        s.local(() -> Buffers.unpack(acc, 0, out));
        return plan(c, call, K_ALLREDUCE, 0, bytes, s).withDirect(direct);
    }

    /** The rank taking part in the power-of-two phase for new rank {@code newRank} (see the fold-in step). */
    private static int foldedRank(final int newRank, final int rem)
    {
        return newRank < rem ? newRank * 2 + 1 : newRank + rem;
    }

    /**
     * Recursive-doubling allreduce (MPICH's), for any size:
     * <ol>
     * <li>Fold to a power of two: with pof2 the largest power of two &le; size and rem = size - pof2, each even
     * rank below 2*rem sends its operand to the next odd rank and sits out; the odd rank combines them.</li>
     * <li>For mask = 1, 2, ... &lt; pof2, exchange {@code acc} with the partner (new rank XOR mask) and combine,
     * the lower rank's operand on the left.</li>
     * <li>Unfold: each odd rank below 2*rem sends the result to the even rank before it.</li>
     * </ol>
     */
    static void allreduceRecursiveDoubling(final Schedule s, final int rank, final int size, final Reduction red,
        final byte[] acc, final int bytes)
    {
        final int pof2 = Integer.highestOneBit(size);
        final int rem = size - pof2;
        final byte[] tmp = new byte[bytes];
        final int newRank = foldIn(s, rank, rem, red, acc, tmp, bytes);
        if (newRank >= 0)
        {
            for (int mask = 1; mask < pof2; mask <<= 1)
            {
                final int partner = foldedRank(newRank ^ mask, rem);
                s.sendBytes(partner, acc, 0, bytes);
                s.recvBytes(partner, tmp, 0, bytes);
                s.next();
                if (partner < rank)
                {
                    s.local(() -> red.apply(tmp, 0, acc, 0, bytes));
                }
                else
                {
                    s.local(() -> red.applyFromHigher(acc, 0, tmp, 0, bytes));
                }
            }
        }
        foldOut(s, rank, rem, acc, bytes);
    }

    /** Step 1 of the power-of-two algorithms; returns the rank's new rank, or -1 if it sits out. */
    private static int foldIn(final Schedule s, final int rank, final int rem, final Reduction red, final byte[] acc, final byte[] tmp,
        final int bytes)
    {
        if (rank < 2 * rem)
        {
            if ((rank & 1) == 0)
            {
                s.sendBytes(rank + 1, acc, 0, bytes);
                s.next();
                return -1;
            }
            s.recvBytes(rank - 1, tmp, 0, bytes);
            s.next();
            s.local(() -> red.apply(tmp, 0, acc, 0, bytes));
            return rank / 2;
        }
        return rank - rem;
    }

    private static void foldOut(final Schedule s, final int rank, final int rem, final byte[] acc, final int bytes)
    {
        if (rank < 2 * rem)
        {
            if ((rank & 1) != 0)
            {
                s.sendBytes(rank - 1, acc, 0, bytes);
            }
            else
            {
                s.recvBytes(rank + 1, acc, 0, bytes);
            }
            s.next();
        }
    }

    /**
     * Rabenseifner's allreduce (commutative ops): reduce-scatter by recursive halving, then allgather by
     * recursive doubling.
     * <ol>
     * <li>Fold to pof2 ranks as in recursive doubling.</li>
     * <li>Cut the operand into pof2 blocks of whole units. For mask = 1, 2, ... &lt; pof2: exchange with new
     * rank XOR mask; the lower one keeps the lower half of its current range, sends the upper half, and
     * combines the partner's copy of the half it keeps. Each new rank ends with one fully reduced block.</li>
     * <li>For mask = pof2/2 ... 1: exchange the ranges held with new rank XOR mask, doubling them.</li>
     * <li>Unfold as in recursive doubling.</li>
     * </ol>
     */
    private static void allreduceRabenseifner(final Schedule s, final int rank, final int size, final Reduction red,
        final byte[] acc, final int bytes)
    {
        final int pof2 = Integer.highestOneBit(size);
        final int rem = size - pof2;
        final int unit = red.unitBytes();
        final int units = bytes / unit;
        final byte[] tmp = new byte[bytes];
        final int newRank = foldIn(s, rank, rem, red, acc, tmp, bytes);
        if (newRank >= 0)
        {
            final int[] disps = new int[pof2 + 1];
            for (int i = 0; i < pof2; i++)
            {
                disps[i + 1] = disps[i] + (units / pof2 + (i < units % pof2 ? 1 : 0)) * unit;
            }
            int sendIdx = 0;
            int recvIdx = 0;
            int lastIdx = pof2;
            int mask = 1;
            while (mask < pof2)
            {
                final int newDst = newRank ^ mask;
                final int dst = foldedRank(newDst, rem);
                final int half = pof2 / (mask * 2);
                final int sendLo;
                final int sendHi;
                final int recvLo;
                final int recvHi;
                if (newRank < newDst)
                {
                    sendIdx = recvIdx + half;
                    sendLo = sendIdx;
                    sendHi = lastIdx;
                    recvLo = recvIdx;
                    recvHi = sendIdx;
                }
                else
                {
                    recvIdx = sendIdx + half;
                    sendLo = sendIdx;
                    sendHi = recvIdx;
                    recvLo = recvIdx;
                    recvHi = lastIdx;
                }
                final int rOff = disps[recvLo];
                final int rLen = disps[recvHi] - rOff;
                s.sendBytes(dst, acc, disps[sendLo], disps[sendHi] - disps[sendLo]);
                s.recvBytes(dst, tmp, rOff, rLen);
                s.next();
                s.local(() -> red.apply(tmp, rOff, acc, rOff, rLen));
                sendIdx = recvIdx;
                mask <<= 1;
                if (mask < pof2)
                {
                    lastIdx = recvIdx + pof2 / mask;
                }
            }
            mask >>= 1;
            while (mask > 0)
            {
                final int newDst = newRank ^ mask;
                final int dst = foldedRank(newDst, rem);
                final int half = pof2 / (mask * 2);
                final int sendLo;
                final int sendHi;
                final int recvLo;
                final int recvHi;
                if (newRank < newDst)
                {
                    if (mask != pof2 / 2)
                    {
                        lastIdx = lastIdx + half;
                    }
                    recvIdx = sendIdx + half;
                    sendLo = sendIdx;
                    sendHi = recvIdx;
                    recvLo = recvIdx;
                    recvHi = lastIdx;
                }
                else
                {
                    recvIdx = sendIdx - half;
                    sendLo = sendIdx;
                    sendHi = lastIdx;
                    recvLo = recvIdx;
                    recvHi = sendIdx;
                }
                s.sendBytes(dst, acc, disps[sendLo], disps[sendHi] - disps[sendLo]);
                s.recvBytes(dst, acc, disps[recvLo], disps[recvHi] - disps[recvLo]);
                s.next();
                if (newRank > newDst)
                {
                    sendIdx = recvIdx;
                }
                mask >>= 1;
            }
        }
        foldOut(s, rank, rem, acc, bytes);
    }

    /**
     * Ring allreduce (commutative ops), for any size:
     * <ol>
     * <li>Cut the operand into size blocks of whole units.</li>
     * <li>Reduce-scatter: in step j = 0 .. size-2, send block rank - j to the right neighbour, receive block
     * rank - j - 1 from the left one and combine it into {@code acc}. Rank r ends with block r + 1 reduced.</li>
     * <li>Allgather: in step j, send block rank + 1 - j and receive block rank - j.</li>
     * </ol>
     */
    private static void allreduceRing(final Schedule s, final int rank, final int size, final Reduction red, final byte[] acc,
        final int bytes)
    {
        final int[] disps = blocks(size, bytes, red.unitBytes());
        final byte[] tmp = new byte[bytes];
        ringReduceScatter(s, rank, size, red, acc, tmp, disps, 0);
        final int right = (rank + 1) % size;
        final int left = (rank - 1 + size) % size;
        for (int j = 0; j < size - 1; j++)
        {
            final int sb = Math.floorMod(rank + 1 - j, size);
            final int rb = Math.floorMod(rank - j, size);
            s.sendBytes(right, acc, disps[sb], disps[sb + 1] - disps[sb]);
            s.recvBytes(left, acc, disps[rb], disps[rb + 1] - disps[rb]);
            s.next();
        }
    }

    /** Byte offsets of size blocks of whole units covering {@code bytes} (length size + 1). */
    private static int[] blocks(final int size, final int bytes, final int unit)
    {
        final int units = bytes / unit;
        final int[] disps = new int[size + 1];
        for (int i = 0; i < size; i++)
        {
            disps[i + 1] = disps[i] + (units / size + (i < units % size ? 1 : 0)) * unit;
        }
        return disps;
    }

    /**
     * Ring reduce-scatter over blocks {@code disps}: in step j send block rank - j + shift, receive block
     * rank - j - 1 + shift and combine it; afterwards block rank + 1 + shift is fully reduced ({@code shift}
     * = 0 for allreduce's layout, -1 for reduce_scatter's).
     */
    private static void ringReduceScatter(final Schedule s, final int rank, final int size, final Reduction red, final byte[] acc,
        final byte[] tmp, final int[] disps, final int shift)
    {
        final int right = (rank + 1) % size;
        final int left = (rank - 1 + size) % size;
        for (int j = 0; j < size - 1; j++)
        {
            final int sb = Math.floorMod(rank - j + shift, size);
            final int rb = Math.floorMod(rank - j - 1 + shift, size);
            final int rOff = disps[rb];
            final int rLen = disps[rb + 1] - rOff;
            s.sendBytes(right, acc, disps[sb], disps[sb + 1] - disps[sb]);
            s.recvBytes(left, tmp, rOff, rLen);
            s.next();
            s.local(() -> red.apply(tmp, rOff, acc, rOff, rLen));
        }
    }

    // ------------------------------------------------------------------------------------------ reduce_scatter, scans

    public static Plan reduceScatterBlock(final CommState c, final Object sendBuf, final int sendOffset, final Object recvBuf,
        final int recvOffset, final int recvCount, final Datatype type, final Op op)
    {
        final int[] counts = new int[c.size()];
        java.util.Arrays.fill(counts, recvCount);
        return reduceScatter(c, "reduceScatterBlock", K_REDUCE_SCATTER_BLOCK, sendBuf, sendOffset, recvBuf, recvOffset, counts, type, op);
    }

    public static Plan reduceScatter(final CommState c, final Object sendBuf, final int sendOffset, final Object recvBuf,
        final int recvOffset, final int[] recvCounts, final Datatype type, final Op op)
    {
        return reduceScatter(c, "reduceScatter", K_REDUCE_SCATTER, sendBuf, sendOffset, recvBuf, recvOffset, recvCounts, type, op);
    }

    /**
     * Reduce-scatter: with a commutative op, the ring reduce-scatter (as in ring allreduce, shifted so that
     * rank r ends with block r); otherwise a binomial reduce to rank 0 (rank order kept) and a scatter of the
     * packed blocks.
     */
    private static Plan reduceScatter(final CommState c, final String call, final int kind, final Object sendBuf, final int sendOffset,
        final Object recvBuf, final int recvOffset, final int[] recvCounts, final Datatype type, final Op op)
    {
        final int size = c.size();
        final int rank = c.rank();
        final ScatterBlocks blocks = ScatterBlocks.of(call, recvCounts, size, "", type);
        final int[] disps = blocks.disps();
        final int bytes = disps[size];
        final int totalCount = blocks.totalCount();
        final Buffers.Slot in = sendBuf == IN_PLACE ? new Buffers.Slot(recvBuf, recvOffset, totalCount, type) :
            new Buffers.Slot(sendBuf, sendOffset, totalCount, type);
        Buffers.checkSend(call, in.buf(), in.offset(), totalCount, type);
        Buffers.checkRecv(call, recvBuf, recvOffset, recvCounts[rank], type);
        final Reduction red = Reduction.of(call, op, type);
        final Buffers.Slot out = new Buffers.Slot(recvBuf, recvOffset, recvCounts[rank], type);
        final Schedule s = new Schedule();
        final byte[] acc = new byte[bytes];
        s.local(() -> Buffers.pack(in, acc, 0));
        final String algorithm = CollContext.of(c).params.reduceScatterAlgorithm;
        if (op.isCommutative() && !algorithm.equals("reduce_scatterv"))
        {
            ringReduceScatter(s, rank, size, red, acc, new byte[bytes], disps, -1);
        }
        else
        {
            reduceBinomial(s, rank, size, 0, red, acc, bytes);
            if (rank == 0)
            {
                for (int i = 1; i < size; i++)
                {
                    s.sendBytes(i, acc, disps[i], disps[i + 1] - disps[i]);
                }
            }
            else
            {
                s.recvBytes(0, acc, disps[rank], disps[rank + 1] - disps[rank]);
            }
            s.next();
        }
        s.local(() -> Buffers.unpack(acc, disps[rank], out));
        return plan(c, call, kind, 0, s);
    }

    /**
     * Inclusive scan by recursive doubling (MPICH's):
     * <ol>
     * <li>{@code partial} and {@code result} start as the rank's operand.</li>
     * <li>For mask = 1, 2, ... &lt; size with partner = rank XOR mask &lt; size: exchange {@code partial}; a
     * rank above its partner folds the partner's partial into both (partner's on the left); a rank below
     * folds it into {@code partial} only (on the right).</li>
     * </ol>
     */
    public static Plan scan(final CommState c, final Object sendBuf, final int sendOffset, final Object recvBuf, final int recvOffset,
        final int count, final Datatype type, final Op op)
    {
        return scan(c, "scan", K_SCAN, false, sendBuf, sendOffset, recvBuf, recvOffset, count, type, op);
    }

    /** Exclusive scan: as {@link #scan}, but {@code result} takes only lower ranks' partials; rank 0's buffer is untouched. */
    public static Plan exscan(final CommState c, final Object sendBuf, final int sendOffset, final Object recvBuf, final int recvOffset,
        final int count, final Datatype type, final Op op)
    {
        return scan(c, "exscan", K_EXSCAN, true, sendBuf, sendOffset, recvBuf, recvOffset, count, type, op);
    }

    private static Plan scan(final CommState c, final String call, final int kind, final boolean exclusive, final Object sendBuf,
        final int sendOffset, final Object recvBuf, final int recvOffset, final int count, final Datatype type, final Op op)
    {
        final Buffers.Slot in = sendBuf == IN_PLACE ? new Buffers.Slot(recvBuf, recvOffset, count, type) :
            new Buffers.Slot(sendBuf, sendOffset, count, type);
        Buffers.checkSend(call, in.buf(), in.offset(), count, type);
        Buffers.checkRecv(call, recvBuf, recvOffset, count, type);
        final Reduction red = Reduction.of(call, op, type);
        final int bytes = Buffers.packedBytes(call, count, type);
        final int rank = c.rank();
        final int size = c.size();
        final Schedule s = new Schedule();
        final byte[] partial = new byte[bytes];
        final byte[] result = new byte[bytes];
        final byte[] tmp = new byte[bytes];
        s.local(() ->
        {
            Buffers.pack(in, partial, 0);
            if (!exclusive)
            {
                System.arraycopy(partial, 0, result, 0, bytes);
            }
        });
        boolean haveResult = !exclusive;
        for (int mask = 1; mask < size; mask <<= 1)
        {
            final int partner = rank ^ mask;
            if (partner >= size)
            {
                continue;
            }
            s.sendBytes(partner, partial, 0, bytes);
            s.recvBytes(partner, tmp, 0, bytes);
            s.next();
            if (rank > partner)
            {
                final boolean first = !haveResult;
                s.local(() ->
                {
                    red.apply(tmp, 0, partial, 0, bytes);
                    if (first)
                    {
                        System.arraycopy(tmp, 0, result, 0, bytes);
                    }
                    else
                    {
                        red.apply(tmp, 0, result, 0, bytes);
                    }
                });
                haveResult = true;
            }
            else
            {
                s.local(() -> red.applyFromHigher(partial, 0, tmp, 0, bytes));
            }
        }
        if (!exclusive || rank > 0)
        {
            final Buffers.Slot out = new Buffers.Slot(recvBuf, recvOffset, count, type);
            s.local(() -> Buffers.unpack(result, 0, out));
        }
        return plan(c, call, kind, 0, bytes, s);
    }

    /** MPI_Reduce_local: inout = in op inout, on this rank only. */
    public static void reduceLocal(final Object inBuf, final int inOffset, final Object inoutBuf, final int inoutOffset, final int count,
        final Datatype type, final Op op)
    {
        final String call = "reduceLocal";
        Buffers.checkSend(call, inBuf, inOffset, count, type);
        Buffers.checkRecv(call, inoutBuf, inoutOffset, count, type);
        final Reduction red = Reduction.of(call, op, type);
        final int bytes = Buffers.packedBytes(call, count, type);
        final byte[] a = new byte[bytes];
        final byte[] b = new byte[bytes];
        final Buffers.Slot io = new Buffers.Slot(inoutBuf, inoutOffset, count, type);
        Buffers.pack(new Buffers.Slot(inBuf, inOffset, count, type), a, 0);
        Buffers.pack(io, b, 0);
        red.apply(a, 0, b, 0, bytes);
        Buffers.unpack(b, 0, io);
    }

    /**
     * reduce_scatter's blocks: {@code recvCounts} checked (at least {@code size} entries, none negative), the
     * packed byte offset of each block ({@code disps}, length size + 1) and the total item count.
     */
    record ScatterBlocks(int[] disps, int totalCount)
    {
        static ScatterBlocks of(final String call, final int[] recvCounts, final int size, final String sizeNote,
            final Datatype type)
        {
            if (recvCounts == null || recvCounts.length < size)
            {
                throw new MpiException(ErrorClass.ERR_ARG, call + ": recvCounts needs " + size + " entries" + sizeNote +
                    (sizeNote.isEmpty() ? "" : ", got " + (recvCounts == null ? "null" : recvCounts.length)));
            }
            if (type == null)
            {
                throw new MpiException(ErrorClass.ERR_TYPE, call + ": datatype is null");
            }
            final int[] disps = new int[size + 1];
            long total = 0;
            for (int i = 0; i < size; i++)
            {
                if (recvCounts[i] < 0)
                {
                    throw new MpiException(ErrorClass.ERR_COUNT, call + ": negative count " + recvCounts[i] + " for rank " + i);
                }
                total += recvCounts[i];
                disps[i + 1] = Buffers.packedBytes(call, total, type);
            }
            return new ScatterBlocks(disps, Math.toIntExact(total));
        }
    }
}
