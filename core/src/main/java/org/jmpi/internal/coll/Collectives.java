package org.jmpi.internal.coll;

import org.jmpi.Comm;
import org.jmpi.Datatype;
import org.jmpi.ErrorClass;
import org.jmpi.MpiException;
import org.jmpi.Op;
import org.jmpi.internal.pt2pt.CommState;

/**
 * The collective operations: argument checks (once, on the calling thread), algorithm choice, and the
 * {@link Schedule} that each algorithm builds. Every call returns a started {@link CollRequest}; blocking
 * calls wait for it, nonblocking calls hand it to the user, persistent calls keep the schedule and start it
 * again and again ({@link #plan}).
 *
 * <p>Algorithms (see docs/collectives.md): dissemination barrier; binomial and scatter + ring-allgather
 * bcast; binomial reduce; recursive-doubling, Rabenseifner and ring allreduce; ring and
 * recursive-doubling allgather; Bruck, pairwise and linear alltoall; ring reduce-scatter; recursive-doubling
 * scan and exscan; linear gather and scatter.
 *
 * <p>Threading: any thread; the schedules run on the engine thread.
 */
public final class Collectives
{
    /** The IN_PLACE sentinel (see {@link Comm#IN_PLACE}). */
    public static final Object IN_PLACE = Comm.IN_PLACE;

    private static final byte[] NO_BYTES = new byte[0];

    /** Codes of the collectives for the mismatch check ({@code jmpi.coll.check}). */
    private static final int K_BARRIER = 1;
    private static final int K_BCAST = 2;
    private static final int K_REDUCE = 3;
    private static final int K_ALLREDUCE = 4;
    private static final int K_GATHER = 5;
    private static final int K_SCATTER = 6;
    private static final int K_ALLGATHER = 7;
    private static final int K_ALLTOALL = 8;
    private static final int K_REDUCE_SCATTER = 9;
    private static final int K_SCAN = 10;
    private static final int K_EXSCAN = 11;
    private static final int K_ALLGATHERV = 12;
    private static final int K_GATHERV = 13;
    private static final int K_SCATTERV = 14;
    private static final int K_ALLTOALLV = 15;
    private static final int K_ALLTOALLW = 16;
    private static final int K_REDUCE_SCATTER_BLOCK = 17;

    private Collectives()
    {
    }

    /** A schedule with its tag, ready to be started any number of times (persistent collectives). */
    public record Plan(CommState comm, String call, Schedule schedule, int tag)
    {
        public CollRequest start()
        {
            return new CollRequest(comm, call, schedule, tag).launch();
        }
    }

    /** Builds the plan of a call: a fresh tag and, with {@code jmpi.coll.check}, the mismatch check first. */
    private static Plan plan(final CommState c, final String call, final int kind, final int root, final Schedule body)
    {
        final CollContext cc = context(c, call);
        final Schedule s;
        if (cc.params.check && c.size() > 1)
        {
            s = new Schedule();
            appendCheck(s, c, call, kind, root);
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
        if (cc.freed())
        {
            throw new MpiException(ErrorClass.ERR_COMM, call + ": communicator " + c.name() + " was freed");
        }
        return cc;
    }

    private static void checkRoot(final String call, final CommState c, final int root)
    {
        if (root < 0 || root >= c.size())
        {
            throw new MpiException(ErrorClass.ERR_ROOT, call + ": invalid root " + root + " (communicator size " + c.size() + ")");
        }
    }

    private static int real(final int vr, final int root, final int size)
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
        final Schedule s = new Schedule();
        final int size = c.size();
        final int rank = c.rank();
        for (int distance = 1; distance < size; distance <<= 1)
        {
            s.recvBytes((rank - distance + size) % size, NO_BYTES, 0, 0);
            s.sendBytes((rank + distance) % size, NO_BYTES, 0, 0);
            s.next();
        }
        return plan(c, "barrier", K_BARRIER, 0, s);
    }

    // ------------------------------------------------------------------------------------------ bcast

    public static Plan bcast(final CommState c, final Object buf, final int offset, final int count, final Datatype type, final int root)
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
        final String algorithm = p.bcastAlgorithm.equals("auto") ?
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
        return plan(c, call, K_BCAST, root, s);
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

    // ------------------------------------------------------------------------------------------ reductions

    /** An op on a type, with the unit the reduction may be split at. */
    private record Reduction(Op op, Datatype type, int unitBytes)
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
        final String call = "reduce";
        checkRoot(call, c, root);
        final boolean isRoot = c.rank() == root;
        if (sendBuf == IN_PLACE && !isRoot)
        {
            throw new MpiException(ErrorClass.ERR_BUFFER, call + ": IN_PLACE is only allowed at the root");
        }
        final Buffers.Slot in = sendBuf == IN_PLACE ? new Buffers.Slot(recvBuf, recvOffset, count, type) :
            new Buffers.Slot(sendBuf, sendOffset, count, type);
        Buffers.checkSend(call, in.buf(), in.offset(), count, type);
        if (isRoot)
        {
            Buffers.checkRecv(call, recvBuf, recvOffset, count, type);
        }
        final Reduction red = Reduction.of(call, op, type);
        final int bytes = Buffers.packedBytes(call, count, type);
        final Schedule s = new Schedule();
        final byte[] acc = new byte[bytes];
        s.local(() -> Buffers.pack(in, acc, 0));
        reduceBinomial(s, c.rank(), c.size(), root, red, acc, bytes);
        if (isRoot)
        {
            final Buffers.Slot out = new Buffers.Slot(recvBuf, recvOffset, count, type);
            s.local(() -> Buffers.unpack(acc, 0, out));
        }
        return plan(c, call, K_REDUCE, root, s);
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
        final String call = "allreduce";
        final Buffers.Slot in = sendBuf == IN_PLACE ? new Buffers.Slot(recvBuf, recvOffset, count, type) :
            new Buffers.Slot(sendBuf, sendOffset, count, type);
        Buffers.checkSend(call, in.buf(), in.offset(), count, type);
        Buffers.checkRecv(call, recvBuf, recvOffset, count, type);
        final Reduction red = Reduction.of(call, op, type);
        final int bytes = Buffers.packedBytes(call, count, type);
        final int size = c.size();
        final CollParams p = CollContext.of(c).params;
        final int pof2 = Integer.highestOneBit(Math.max(1, size));
        final int units = bytes / red.unitBytes();
        String algorithm = p.allreduceAlgorithm;
        if (algorithm.equals("auto"))
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
        final Buffers.Slot out = new Buffers.Slot(recvBuf, recvOffset, count, type);
        s.local(() -> Buffers.unpack(acc, 0, out));
        return plan(c, call, K_ALLREDUCE, 0, s);
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
    private static void allreduceRecursiveDoubling(final Schedule s, final int rank, final int size, final Reduction red,
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

    // ------------------------------------------------------------------------------------------ gather / scatter

    /** Linear gather: the root posts one receive per rank straight into its slot; the others send. */
    public static Plan gather(final CommState c, final Object sendBuf, final int sendOffset, final int sendCount, final Datatype sendType,
        final Object recvBuf, final int recvOffset, final int recvCount, final Datatype recvType, final int root)
    {
        final int size = c.size();
        final int[] counts = new int[size];
        final int[] displs = new int[size];
        for (int i = 0; i < size; i++)
        {
            counts[i] = recvCount;
            displs[i] = i * recvCount;
        }
        return gatherv(c, "gather", K_GATHER, sendBuf, sendOffset, sendCount, sendType, recvBuf, recvOffset, counts, displs, recvType, root);
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
            return plan(c, call, kind, root, s);
        }
        final Buffers.Slot[] slots = vectorSlots(call, c, recvBuf, recvOffset, recvCounts, displs, recvType, true);
        if (sendBuf != IN_PLACE)
        {
            Buffers.checkSend(call, sendBuf, sendOffset, sendCount, sendType);
            final Buffers.Slot mine = new Buffers.Slot(sendBuf, sendOffset, sendCount, sendType);
            s.local(() -> Buffers.copy(call, mine, slots[root]));
        }
        for (int i = 1; i < size; i++)
        {
            final int from = (root + i) % size;
            recv(s, from, slots[from]);
        }
        s.next();
        return plan(c, call, kind, root, s);
    }

    /** Linear scatter: the root posts one send per rank from its slot; the others receive. */
    public static Plan scatter(final CommState c, final Object sendBuf, final int sendOffset, final int sendCount, final Datatype sendType,
        final Object recvBuf, final int recvOffset, final int recvCount, final Datatype recvType, final int root)
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
            return plan(c, call, kind, root, s);
        }
        final Buffers.Slot[] slots = vectorSlots(call, c, sendBuf, sendOffset, sendCounts, displs, sendType, false);
        if (recvBuf != IN_PLACE)
        {
            Buffers.checkRecv(call, recvBuf, recvOffset, recvCount, recvType);
            final Buffers.Slot mine = new Buffers.Slot(recvBuf, recvOffset, recvCount, recvType);
            s.local(() -> Buffers.copy(call, slots[root], mine));
        }
        for (int i = 1; i < size; i++)
        {
            final int to = (root + i) % size;
            send(s, to, slots[to]);
        }
        s.next();
        return plan(c, call, kind, root, s);
    }

    private static void send(final Schedule s, final int peer, final Buffers.Slot slot)
    {
        s.send(peer, slot.buf(), slot.offset(), slot.count(), slot.type());
    }

    private static void recv(final Schedule s, final int peer, final Buffers.Slot slot)
    {
        s.recv(peer, slot.buf(), slot.offset(), slot.count(), slot.type());
    }

    /** The slots of a v-variant's per-rank blocks (displacements in extents of {@code type}), each checked. */
    private static Buffers.Slot[] vectorSlots(final String call, final CommState c, final Object buf, final int offset, final int[] counts,
        final int[] displs, final Datatype type, final boolean receive)
    {
        final int size = c.size();
        if (counts == null || displs == null || counts.length < size || displs.length < size)
        {
            throw new MpiException(ErrorClass.ERR_ARG, call + ": counts and displacements need " + size + " entries (got " +
                (counts == null ? "null" : counts.length) + " and " + (displs == null ? "null" : displs.length) + ")");
        }
        final Buffers.Slot[] slots = new Buffers.Slot[size];
        for (int i = 0; i < size; i++)
        {
            if (counts[i] < 0)
            {
                throw new MpiException(ErrorClass.ERR_COUNT, call + ": negative count " + counts[i] + " for rank " + i);
            }
            if (type == null)
            {
                throw new MpiException(ErrorClass.ERR_TYPE, call + ": datatype is null");
            }
            slots[i] = Buffers.slot(buf, offset, (long)displs[i] * type.extent(), counts[i], type);
            if (receive)
            {
                Buffers.checkRecv(call, slots[i].buf(), slots[i].offset(), slots[i].count(), slots[i].type());
            }
            else
            {
                Buffers.checkSend(call, slots[i].buf(), slots[i].offset(), slots[i].count(), slots[i].type());
            }
        }
        return slots;
    }

    // ------------------------------------------------------------------------------------------ allgather

    public static Plan allgather(final CommState c, final Object sendBuf, final int sendOffset, final int sendCount, final Datatype sendType,
        final Object recvBuf, final int recvOffset, final int recvCount, final Datatype recvType)
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
        return plan(c, call, K_ALLGATHER, 0, s);
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

    // ------------------------------------------------------------------------------------------ alltoall

    public static Plan alltoall(final CommState c, final Object sendBuf, final int sendOffset, final int sendCount, final Datatype sendType,
        final Object recvBuf, final int recvOffset, final int recvCount, final Datatype recvType)
    {
        final String call = "alltoall";
        final int size = c.size();
        final int rank = c.rank();
        final int[] rc = new int[size];
        final int[] rd = new int[size];
        for (int i = 0; i < size; i++)
        {
            rc[i] = recvCount;
            rd[i] = i * recvCount;
        }
        final Buffers.Slot[] in = vectorSlots(call, c, recvBuf, recvOffset, rc, rd, recvType, true);
        final Schedule s = new Schedule();
        final Buffers.Slot[] out = alltoallSendSlots(call, c, s, sendBuf, sendOffset, sendCount, sendType, in);
        final int blockBytes = Buffers.packedBytes(call, recvCount, recvType);
        final CollParams p = CollContext.of(c).params;
        String algorithm = p.alltoallAlgorithm;
        if (algorithm.equals("auto"))
        {
            algorithm = blockBytes <= p.alltoallShort && size >= 8 ? "bruck" : blockBytes <= 32768 ? "linear" : "pairwise";
        }
        if (out[rank].bytes() != in[rank].bytes())
        {
            throw new MpiException(ErrorClass.ERR_TRUNCATE, call + ": send blocks are " + out[rank].bytes() + " bytes, receive blocks " +
                in[rank].bytes() + " bytes (counts or types do not match)");
        }
        switch (algorithm)
        {
            case "bruck" -> alltoallBruck(call, s, rank, size, out, in, blockBytes);
            case "pairwise" -> alltoallPairwise(call, s, rank, size, out, in);
            default -> alltoallLinear(call, s, rank, size, out, in);
        }
        return plan(c, call, K_ALLTOALL, 0, s);
    }

    /** The send blocks; with IN_PLACE a packed snapshot of the receive buffer taken when the schedule starts. */
    private static Buffers.Slot[] alltoallSendSlots(final String call, final CommState c, final Schedule s, final Object sendBuf,
        final int sendOffset, final int sendCount, final Datatype sendType, final Buffers.Slot[] in)
    {
        final int size = c.size();
        final Buffers.Slot[] out = new Buffers.Slot[size];
        if (sendBuf == IN_PLACE)
        {
            final int[] offsets = new int[size + 1];
            for (int i = 0; i < size; i++)
            {
                offsets[i + 1] = offsets[i] + Buffers.packedBytes(call, in[i].bytes(), Datatype.BYTE);
            }
            final byte[] snapshot = new byte[offsets[size]];
            s.local(() ->
            {
                for (int i = 0; i < size; i++)
                {
                    Buffers.pack(in[i], snapshot, offsets[i]);
                }
            });
            for (int i = 0; i < size; i++)
            {
                out[i] = new Buffers.Slot(snapshot, offsets[i], offsets[i + 1] - offsets[i], Datatype.BYTE);
            }
            return out;
        }
        if (sendType == null)
        {
            throw new MpiException(ErrorClass.ERR_TYPE, call + ": datatype is null");
        }
        for (int i = 0; i < size; i++)
        {
            out[i] = Buffers.slot(sendBuf, sendOffset, (long)i * sendCount * sendType.extent(), sendCount, sendType);
            Buffers.checkSend(call, out[i].buf(), out[i].offset(), out[i].count(), out[i].type());
        }
        return out;
    }

    /** Linear alltoall: copy the own block, then post every receive and every send at once (from rank + 1 on). */
    private static void alltoallLinear(final String call, final Schedule s, final int rank, final int size, final Buffers.Slot[] out,
        final Buffers.Slot[] in)
    {
        s.local(() -> Buffers.copy(call, out[rank], in[rank]));
        for (int i = 1; i < size; i++)
        {
            recv(s, (rank - i + size) % size, in[(rank - i + size) % size]);
        }
        for (int i = 1; i < size; i++)
        {
            send(s, (rank + i) % size, out[(rank + i) % size]);
        }
        s.next();
    }

    /** Pairwise alltoall: in step i = 1 .. size-1, send to rank + i and receive from rank - i. */
    private static void alltoallPairwise(final String call, final Schedule s, final int rank, final int size, final Buffers.Slot[] out,
        final Buffers.Slot[] in)
    {
        s.local(() -> Buffers.copy(call, out[rank], in[rank]));
        for (int i = 1; i < size; i++)
        {
            final int to = (rank + i) % size;
            final int from = (rank - i + size) % size;
            send(s, to, out[to]);
            recv(s, from, in[from]);
            s.next();
        }
    }

    /**
     * Bruck's alltoall (small blocks: ceil(log2 size) messages per rank instead of size - 1):
     * <ol>
     * <li>Pack the send blocks rotated: scratch block i = the block for rank + i.</li>
     * <li>For k = 1, 2, 4, ... &lt; size: send the scratch blocks whose index has bit k to rank + k (packed
     * together), receive the same indices from rank - k and put them in place.</li>
     * <li>Scratch block i now holds the block of rank - i: unpack it into receive block rank - i.</li>
     * </ol>
     */
    private static void alltoallBruck(final String call, final Schedule s, final int rank, final int size, final Buffers.Slot[] out,
        final Buffers.Slot[] in, final int b)
    {
        final byte[] tmp = new byte[Math.multiplyExact(size, b)];
        final byte[] sendPack = new byte[Math.multiplyExact(size / 2 + 1, b)];
        final byte[] recvPack = new byte[sendPack.length];
        s.local(() ->
        {
            for (int i = 0; i < size; i++)
            {
                Buffers.pack(out[(rank + i) % size], tmp, i * b);
            }
        });
        for (int k = 1; k < size; k <<= 1)
        {
            final int bit = k;
            int n = 0;
            for (int i = 1; i < size; i++)
            {
                n += (i & bit) != 0 ? 1 : 0;
            }
            final int[] picked = new int[n];
            for (int i = 1, j = 0; i < size; i++)
            {
                if ((i & bit) != 0)
                {
                    picked[j++] = i;
                }
            }
            s.local(() ->
            {
                for (int j = 0; j < picked.length; j++)
                {
                    System.arraycopy(tmp, picked[j] * b, sendPack, j * b, b);
                }
            });
            s.sendBytes((rank + k) % size, sendPack, 0, n * b);
            s.recvBytes((rank - k + size) % size, recvPack, 0, n * b);
            s.next();
            s.local(() ->
            {
                for (int j = 0; j < picked.length; j++)
                {
                    System.arraycopy(recvPack, j * b, tmp, picked[j] * b, b);
                }
            });
        }
        s.local(() ->
        {
            for (int i = 0; i < size; i++)
            {
                Buffers.unpack(tmp, i * b, in[(rank - i + size) % size]);
            }
        });
    }

    public static Plan alltoallv(final CommState c, final Object sendBuf, final int sendOffset, final int[] sendCounts, final int[] sdispls,
        final Datatype sendType, final Object recvBuf, final int recvOffset, final int[] recvCounts, final int[] rdispls,
        final Datatype recvType)
    {
        final String call = "alltoallv";
        final Buffers.Slot[] in = vectorSlots(call, c, recvBuf, recvOffset, recvCounts, rdispls, recvType, true);
        final Schedule s = new Schedule();
        final Buffers.Slot[] out;
        if (sendBuf == IN_PLACE)
        {
            out = alltoallSendSlots(call, c, s, IN_PLACE, 0, 0, null, in);
        }
        else
        {
            out = vectorSlots(call, c, sendBuf, sendOffset, sendCounts, sdispls, sendType, false);
        }
        alltoallLinear(call, s, c.rank(), c.size(), out, in);
        return plan(c, call, K_ALLTOALLV, 0, s);
    }

    /** MPI_Alltoallw: per-rank types, displacements in bytes. Linear. */
    public static Plan alltoallw(final CommState c, final Object sendBuf, final int sendOffset, final int[] sendCounts,
        final long[] sdisplsBytes, final Datatype[] sendTypes, final Object recvBuf, final int recvOffset, final int[] recvCounts,
        final long[] rdisplsBytes, final Datatype[] recvTypes)
    {
        final String call = "alltoallw";
        final int size = c.size();
        final Buffers.Slot[] in = bytewiseSlots(call, size, recvBuf, recvOffset, recvCounts, rdisplsBytes, recvTypes, true);
        final Schedule s = new Schedule();
        final Buffers.Slot[] out = sendBuf == IN_PLACE ? alltoallSendSlots(call, c, s, IN_PLACE, 0, 0, null, in) :
            bytewiseSlots(call, size, sendBuf, sendOffset, sendCounts, sdisplsBytes, sendTypes, false);
        alltoallLinear(call, s, c.rank(), size, out, in);
        return plan(c, call, K_ALLTOALLW, 0, s);
    }

    private static Buffers.Slot[] bytewiseSlots(final String call, final int size, final Object buf, final int offset, final int[] counts,
        final long[] displs, final Datatype[] types, final boolean receive)
    {
        if (counts == null || displs == null || types == null || counts.length < size || displs.length < size || types.length < size)
        {
            throw new MpiException(ErrorClass.ERR_ARG, call + ": counts, displacements and types need " + size + " entries each");
        }
        final Buffers.Slot[] slots = new Buffers.Slot[size];
        for (int i = 0; i < size; i++)
        {
            if (types[i] == null)
            {
                throw new MpiException(ErrorClass.ERR_TYPE, call + ": datatype for rank " + i + " is null");
            }
            slots[i] = Buffers.slot(buf, offset, displs[i], counts[i], types[i]);
            if (receive)
            {
                Buffers.checkRecv(call, slots[i].buf(), slots[i].offset(), slots[i].count(), slots[i].type());
            }
            else
            {
                Buffers.checkSend(call, slots[i].buf(), slots[i].offset(), slots[i].count(), slots[i].type());
            }
        }
        return slots;
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
        if (recvCounts == null || recvCounts.length < size)
        {
            throw new MpiException(ErrorClass.ERR_ARG, call + ": recvCounts needs " + size + " entries");
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
        final int bytes = disps[size];
        final int totalCount = Math.toIntExact(total);
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
        return plan(c, call, kind, 0, s);
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

    // ------------------------------------------------------------------------------------------ check

    /** With jmpi.coll.check: an allreduce(MAX) of {kind, root, -kind, -root}; any disagreement fails every rank. */
    private static void appendCheck(final Schedule s, final CommState c, final String call, final int kind, final int root)
    {
        final byte[] acc = new byte[16];
        final java.nio.ByteBuffer b = java.nio.ByteBuffer.wrap(acc).order(java.nio.ByteOrder.nativeOrder());
        s.local(() -> b.putInt(0, kind).putInt(4, root).putInt(8, -kind).putInt(12, -root));
        allreduceRecursiveDoubling(s, c.rank(), c.size(), new Reduction(org.jmpi.Op.MAX, Datatype.INT, 4), acc, 16);
        s.local(() ->
        {
            if (b.getInt(0) != -b.getInt(8) || b.getInt(4) != -b.getInt(12))
            {
                throw new MpiException(ErrorClass.ERR_OTHER, "collective mismatch: this rank called " + call + " (root " + root +
                    "), but ranks of the communicator called collectives " + b.getInt(0) + "/" + (-b.getInt(8)) + " with roots " +
                    b.getInt(4) + "/" + (-b.getInt(12)) + " (max/min of kind codes and roots)");
            }
        });
    }
}
