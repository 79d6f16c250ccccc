package org.jmpi.internal.coll;

import java.util.ArrayList;
import java.util.Arrays;

import org.agrona.UnsafeApi;
import org.jmpi.internal.datatype.BufferView;
import org.jmpi.internal.pt2pt.CommState;

/**
 * The put- and get-based persistent schedules (MPI-4 persistent collectives with direct access, as in the
 * RDMA persistent collectives design): which rank copies which part to or from whom, and who signals whom,
 * built on {@link DirectPersistent}'s steps. Each schedule lists, per mode, the signals each pair exchanges
 * in an epoch; a rank awaits a peer's signals in the order the peer sends them. See docs/collectives.md,
 * "Put- and get-based persistent schedules".
 *
 * <p>Threading: built on the calling thread at init; the steps run on the rank's engine thread.
 */
final class DirectCollectives
{
    private DirectCollectives()
    {
    }

    /** Binomial tree in ranks relative to {@code root}: the parent (or -1) and the children, smallest subtree first. */
    record Tree(int parent, int[] children)
    {
        static Tree of(final int rank, final int size, final int root)
        {
            final int vr = (rank - root + size) % size;
            int parent = -1;
            final ArrayList<Integer> children = new ArrayList<>();
            for (int mask = 1; mask < size; mask <<= 1)
            {
                if ((vr & mask) != 0)
                {
                    parent = Collectives.real(vr - mask, root, size);
                    break;
                }
                if (vr + mask < size)
                {
                    children.add(Collectives.real(vr + mask, root, size));
                }
            }
            return new Tree(parent, children.stream().mapToInt(Integer::intValue).toArray());
        }
    }

    /** Every peer copies to or from part 0. */
    private static int[] allExpose(final int size, final int part)
    {
        final int[] exposed = new int[size];
        Arrays.fill(exposed, part);
        return exposed;
    }

    // ------------------------------------------------------------------------------------------ bcast

    /**
     * Binomial bcast; the part is the user's buffer (or its packed copy).
     * <p>Put: a non-root signals its parent "ready" and awaits "data"; then per child, largest subtree first,
     * awaits the child's "ready" and puts its part into the child's, signalling "data".
     * <p>Get: a non-root awaits its parent's "data", gets the parent's part and signals "read"; then signals its
     * children "data" and awaits each child's "read" (the next epoch must not overwrite a part still read).
     */
    static DirectPersistent bcast(final CommState c, final int tag, final DirectPersistent.Mode mode, final Object buf, final int offset,
        final int count, final org.jmpi.Datatype type, final int root)
    {
        final DirectPersistent d = new DirectPersistent(c, "bcast", mode, tag,
            new Buffers.Slot[] {new Buffers.Slot(buf, offset, count, type)}, 0, 0, allExpose(c.size(), 0));
        final DirectMemory m = d.memory();
        final Tree tree = Tree.of(c.rank(), c.size(), root);
        if (tree.parent() < 0)
        {
            d.local(() -> m.pack(0));
        }
        if (mode == DirectPersistent.Mode.PUT)
        {
            if (tree.parent() >= 0)
            {
                d.signal(tree.parent());
                d.await(tree.parent());
            }
            putDown(d, tree, 0, true);
        }
        else
        {
            getDown(d, tree, 0);
        }
        if (tree.parent() >= 0)
        {
            d.local(() -> m.unpack(0));
        }
        return d;
    }

    /**
     * Put: per child, largest subtree first, put {@code part} into it, signalling "data"; with {@code awaitReady},
     * after awaiting its "ready" (else the schedule knows the child's part is free).
     */
    private static void putDown(final DirectPersistent d, final Tree tree, final int part, final boolean awaitReady)
    {
        final int[] children = tree.children();
        for (int i = children.length - 1; i >= 0; i--)
        {
            if (awaitReady)
            {
                d.await(children[i]);
            }
            d.putThenSignal(children[i], part);
        }
    }

    /** Get: await the parent's "data", get its part into {@code part}, signal "read"; signal the children "data", await their "read". */
    private static void getDown(final DirectPersistent d, final Tree tree, final int part)
    {
        if (tree.parent() >= 0)
        {
            d.await(tree.parent());
            d.getThenSignal(tree.parent(), part);
        }
        for (final int child : tree.children())
        {
            d.signal(child);
        }
        for (final int child : tree.children())
        {
            d.await(child);
        }
    }

    // ------------------------------------------------------------------------------------------ reductions

    /**
     * Allreduce: the reduce to rank 0 of {@link #reduceUp} over packed accumulators (children combined in
     * increasing subtree order, so operands combine in rank order and non-commutative ops are right), then the
     * bcast of rank 0's accumulator down the same tree (put: the parent puts into each child's accumulator,
     * free since the child's own put went up; get: as {@link #getDown}).
     */
    static DirectPersistent allreduce(final CommState c, final int tag, final DirectPersistent.Mode mode, final Buffers.Slot in,
        final Buffers.Slot out, final Reductions.Reduction red, final int bytes)
    {
        final Tree tree = Tree.of(c.rank(), c.size(), 0);
        final Accumulator a = new Accumulator(c, "allreduce", tag, mode, tree, bytes, 0);
        final DirectPersistent d = a.d;
        d.local(() -> Buffers.pack(in, a.scratch, 0));
        reduceUp(a, red, false);
        if (mode == DirectPersistent.Mode.PUT)
        {
            if (tree.parent() >= 0)
            {
                d.await(tree.parent());
            }
            // A child's accumulator is free once its "arrival" came: its put up was written before that signal.
            putDown(d, tree, 0, false);
        }
        else
        {
            getDown(d, tree, 0);
        }
        d.local(() -> Buffers.unpack(a.scratch, 0, out));
        return d;
    }

    /**
     * Reduce: the reduce to rank 0 of {@link #reduceUp}, then, for a root other than 0, one transfer of the
     * result from rank 0 to the root's accumulator (put: the root signals "ready", rank 0 puts and signals
     * "data"; get: rank 0 signals "data", the root gets and signals "read").
     */
    static DirectPersistent reduce(final CommState c, final int tag, final DirectPersistent.Mode mode, final Buffers.Slot in,
        final Buffers.Slot out, final Reductions.Reduction red, final int bytes, final int root)
    {
        final Tree tree = Tree.of(c.rank(), c.size(), 0);
        final Accumulator a = new Accumulator(c, "reduce", tag, mode, tree, bytes, root);
        final DirectPersistent d = a.d;
        final int rank = c.rank();
        d.local(() -> Buffers.pack(in, a.scratch, 0));
        reduceUp(a, red, true);
        final boolean put = mode == DirectPersistent.Mode.PUT;
        if (root != 0 && rank == 0)
        {
            if (put)
            {
                d.await(root);
                d.putThenSignal(root, 0);
            }
            else
            {
                d.signal(root);
                d.await(root);
            }
        }
        else if (root != 0 && rank == root)
        {
            if (put)
            {
                d.signal(0);
                d.await(0);
            }
            else
            {
                d.await(0);
                d.getThenSignal(0, 0);
            }
        }
        if (rank == root)
        {
            d.local(() -> Buffers.unpack(a.scratch, 0, out));
        }
        return d;
    }

    /**
     * A rank's packed accumulator, registered as part 0 of its scratch; after it, put: one slot per child
     * (parts 1..), which child i writes; get: one part (1) that receives a child's accumulator when it is not
     * read in place. The scratch is a byte[], or a ByteBuffer in the node's arena across JVMs; the reduction
     * kernels take arrays, so operands in the arena are combined through two arrays of this object.
     */
    private static final class Accumulator
    {
        final Tree tree;
        final int bytes;
        /** The registered scratch: a byte[], or a ByteBuffer in the arena. */
        final Object scratch;
        final DirectPersistent d;
        /** Array copies of the accumulator and of an operand, where either lies in the arena; else null. */
        private byte[] accCopy;
        private byte[] operandCopy;

        Accumulator(final CommState c, final String call, final int tag, final DirectPersistent.Mode mode, final Tree tree, final int bytes,
            final int root)
        {
            this.tree = tree;
            this.bytes = bytes;
            final int[] children = tree.children();
            final int[] exposed = allExpose(c.size(), 0);
            if (mode == DirectPersistent.Mode.PUT)
            {
                for (int i = 0; i < children.length; i++)
                {
                    exposed[children[i]] = 1 + i;
                }
            }
            final int parts = mode == DirectPersistent.Mode.PUT ? 1 + children.length : 2;
            Buffers.packedBytes(call, (long)parts * bytes, org.jmpi.Datatype.BYTE);
            this.d = new DirectPersistent(c, call, mode, tag, null, parts, bytes, exposed);
            this.scratch = d.memory().memory();
        }

        /**
         * acc = acc op operand, the operand being {@code bytes} at byte {@code operandOffset} of {@code operandMemory}
         * (this scratch, or a child's reached directly), from higher ranks. Engine thread.
         */
        void combine(final Reductions.Reduction red, final Object operandMemory, final long operandOffset)
        {
            if (scratch instanceof byte[] acc && operandMemory instanceof byte[] operand)
            {
                red.applyFromHigher(acc, 0, operand, (int)operandOffset, bytes);
                return;
            }
            if (accCopy == null)
            {
                accCopy = new byte[bytes];
                operandCopy = new byte[bytes];
            }
            copy(scratch, 0, accCopy, 0);
            copy(operandMemory, operandOffset, operandCopy, 0);
            red.applyFromHigher(accCopy, 0, operandCopy, 0, bytes);
            copy(accCopy, 0, scratch, 0);
        }

        /** Copies this accumulator's {@code bytes} between two memories (byte[] or ByteBuffer) at byte offsets. */
        private void copy(final Object from, final long fromOffset, final Object to, final long toOffset)
        {
            final BufferView src = BufferView.of(from, "scratch");
            final BufferView dst = BufferView.of(to, "scratch");
            UnsafeApi.copyMemory(src.base(), src.address() + fromOffset, dst.base(), dst.address() + toOffset, bytes);
        }
    }

    /**
     * The reduce to rank 0 over the accumulators, children combined in increasing subtree order.
     * <p>Put: signal each child "ready", await each one's "arrival" (its accumulator put into its slot here),
     * combine the slots in order; a non-root awaits its parent's "ready", puts its accumulator into its slot
     * there and signals "arrival".
     * <p>Get: per child in order, await its "up", combine its accumulator (read in place where this rank reaches
     * it and the op commutes, else got into part 1 first), and with {@code releaseChildren} (a reduce, where no
     * bcast follows to hold the child back) signal it "consumed"; a non-root then signals its parent "up" and,
     * with {@code releaseChildren}, awaits "consumed" before its next start may repack the accumulator.
     */
    private static void reduceUp(final Accumulator a, final Reductions.Reduction red, final boolean releaseChildren)
    {
        final DirectPersistent d = a.d;
        final Tree tree = a.tree;
        final int bytes = a.bytes;
        final int[] children = tree.children();
        if (d.mode() == DirectPersistent.Mode.PUT)
        {
            for (final int child : children)
            {
                d.signal(child);
            }
            for (final int child : children)
            {
                d.await(child);
            }
            d.local(() ->
            {
                for (int i = 0; i < children.length; i++)
                {
                    a.combine(red, a.scratch, (long)(1 + i) * bytes);
                }
            });
            if (tree.parent() >= 0)
            {
                d.await(tree.parent());
                d.putThenSignal(tree.parent(), 0);
            }
            return;
        }
        final boolean commutative = red.op().isCommutative();
        for (final int child : children)
        {
            d.await(child);
            // A child's accumulator this rank reaches (its heap, or its part of the arena) is combined where it lies.
            d.readPeer(child, 1, commutative ? (memory, offset) ->
            {
                a.combine(red, memory, offset);
                return true;
            } : null, () -> a.combine(red, a.scratch, bytes), releaseChildren);
        }
        if (tree.parent() >= 0)
        {
            d.signal(tree.parent());
            if (releaseChildren)
            {
                d.await(tree.parent());
            }
        }
    }

    // ------------------------------------------------------------------------------------------ barrier

    /**
     * Barrier by dissemination, with signals only (both modes alike): in round k = 0, 1, ... while 2^k &lt; size,
     * signal rank + 2^k and await rank - 2^k. After ceil(log2 size) rounds every rank has heard, directly or
     * not, from every other. The peers of different rounds differ, so each pair exchanges at most one signal
     * per epoch.
     */
    static DirectPersistent barrier(final CommState c, final int tag, final DirectPersistent.Mode mode)
    {
        final int size = c.size();
        final int rank = c.rank();
        final DirectPersistent d = new DirectPersistent(c, "barrier", mode, tag, null, 0, 0, allExpose(size, -1));
        for (int distance = 1; distance < size; distance <<= 1)
        {
            d.signal((rank + distance) % size);
            d.await((rank - distance + size) % size);
        }
        return d;
    }

    // ------------------------------------------------------------------------------------------ gather / scatter

    /** The parts of a flat collective: at the root its blocks but its own, elsewhere the one slot; and who copies which. */
    private static DirectPersistent flat(final CommState c, final String call, final int tag, final DirectPersistent.Mode mode,
        final Buffers.Slot mine, final Buffers.Slot[] blocks, final int root)
    {
        final int size = c.size();
        if (c.rank() == root)
        {
            final Buffers.Slot[] parts = blocks.clone();
            parts[root] = null;
            final int[] exposed = new int[size];
            Arrays.setAll(exposed, q -> q == root ? -1 : q);
            return new DirectPersistent(c, call, mode, tag, parts, 0, 0, exposed);
        }
        final int[] exposed = allExpose(size, -1);
        exposed[root] = 0;
        return new DirectPersistent(c, call, mode, tag, new Buffers.Slot[] {mine}, 0, 0, exposed);
    }

    /**
     * (V-)gather, flat: each rank's block goes straight between its send buffer ({@code mine}) and its place in
     * the root's receive buffer ({@code blocks}, at the root; {@code own}: the root's send slot, null for
     * IN_PLACE).
     * <p>Put: the root signals every rank "ready" and awaits every "arrival"; a non-root awaits "ready", puts its
     * block and signals "arrival". The P-1 senders copy at once.
     * <p>Get: a non-root signals "up" and awaits "consumed" (its send buffer is the user's again only then); the
     * root, per rank in order, awaits "up", gets the block and signals "consumed".
     */
    static DirectPersistent gather(final CommState c, final String call, final int tag, final DirectPersistent.Mode mode,
        final Buffers.Slot mine, final Buffers.Slot[] blocks, final Buffers.Slot own, final int root)
    {
        final DirectPersistent d = flat(c, call, tag, mode, mine, blocks, root);
        final DirectMemory m = d.memory();
        final int size = c.size();
        if (c.rank() != root)
        {
            d.local(() -> m.pack(0));
            if (mode == DirectPersistent.Mode.PUT)
            {
                d.await(root);
                d.putThenSignal(root, 0);
            }
            else
            {
                d.signal(root);
                d.await(root);
            }
            return d;
        }
        if (own != null)
        {
            d.local(() -> Buffers.copy(call, own, blocks[root]));
        }
        if (mode == DirectPersistent.Mode.PUT)
        {
            d.signalAll();
            d.awaitAll();
        }
        else
        {
            for (int i = 1; i < size; i++)
            {
                final int from = (root + i) % size;
                d.await(from);
                d.getThenSignal(from, from);
            }
        }
        for (int i = 1; i < size; i++)
        {
            final int from = (root + i) % size;
            d.local(() -> m.unpack(from));
        }
        return d;
    }

    /**
     * (V-)scatter, flat: the mirror of {@link #gather} ({@code blocks}: the root's send blocks; {@code mine}: a
     * non-root's receive slot; {@code own}: the root's receive slot, null for IN_PLACE).
     * <p>Put: a non-root signals "ready" and awaits "data"; the root, per rank in order, awaits "ready", puts the
     * block and signals "data".
     * <p>Get: the root signals every rank "data" and awaits every "read"; a non-root awaits "data", gets its block
     * and signals "read". The P-1 receivers copy at once.
     */
    static DirectPersistent scatter(final CommState c, final String call, final int tag, final DirectPersistent.Mode mode,
        final Buffers.Slot mine, final Buffers.Slot[] blocks, final Buffers.Slot own, final int root)
    {
        final DirectPersistent d = flat(c, call, tag, mode, mine, blocks, root);
        final DirectMemory m = d.memory();
        final int size = c.size();
        if (c.rank() != root)
        {
            if (mode == DirectPersistent.Mode.PUT)
            {
                d.signal(root);
                d.await(root);
            }
            else
            {
                d.await(root);
                d.getThenSignal(root, 0);
            }
            d.local(() -> m.unpack(0));
            return d;
        }
        for (int i = 1; i < size; i++)
        {
            final int to = (root + i) % size;
            d.local(() -> m.pack(to));
        }
        if (own != null)
        {
            d.local(() -> Buffers.copy(call, blocks[root], own));
        }
        if (mode == DirectPersistent.Mode.PUT)
        {
            for (int i = 1; i < size; i++)
            {
                final int to = (root + i) % size;
                d.await(to);
                d.putThenSignal(to, to);
            }
        }
        else
        {
            d.signalAll();
            d.awaitAll();
        }
        return d;
    }

    /**
     * Allgather: every rank's block goes straight from its place in the owner's receive buffer (copied there
     * from the send slot {@code own} first, unless IN_PLACE) to its place in every other rank's ({@code blocks}).
     * <p>Put: signal everyone "ready"; per other rank j from rank + 1 on, await j's "ready", put this rank's block
     * into j's and signal "arrival"; await every "arrival".
     * <p>Get: signal everyone "up"; per other rank j from rank + 1 on, await j's "up", get j's block and signal
     * "read"; await every "read" (the next start overwrites the own block, which the others read).
     */
    static DirectPersistent allgather(final CommState c, final int tag, final DirectPersistent.Mode mode, final Buffers.Slot[] blocks,
        final Buffers.Slot own)
    {
        final int rank = c.rank();
        final int size = c.size();
        final boolean put = mode == DirectPersistent.Mode.PUT;
        final int[] exposed = new int[size];
        Arrays.setAll(exposed, j -> put ? j : rank);
        final DirectPersistent d = new DirectPersistent(c, "allgather", mode, tag, blocks, 0, 0, exposed);
        final DirectMemory m = d.memory();
        if (own != null)
        {
            d.local(() -> Buffers.copy("allgather", own, blocks[rank]));
        }
        d.local(() -> m.pack(rank));
        d.signalAll();
        for (int i = 1; i < size; i++)
        {
            final int j = (rank + i) % size;
            d.await(j);
            if (put)
            {
                d.putThenSignal(j, rank);
            }
            else
            {
                d.getThenSignal(j, j);
            }
        }
        d.awaitAll();
        for (int i = 1; i < size; i++)
        {
            final int j = (rank + i) % size;
            d.local(() -> m.unpack(j));
        }
        return d;
    }
}
