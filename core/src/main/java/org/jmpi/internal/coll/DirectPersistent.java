package org.jmpi.internal.coll;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.AtomicReferenceArray;

import org.jmpi.Comm;
import org.jmpi.Datatype;
import org.jmpi.ErrorClass;
import org.jmpi.MpiException;
import org.jmpi.Status;
import org.jmpi.internal.datatype.BufferView;
import org.jmpi.internal.datatype.Convertor;
import org.jmpi.internal.engine.ProgressEngine;
import org.jmpi.internal.pt2pt.CommState;
import org.jmpi.internal.pt2pt.Protocol;
import org.jmpi.internal.pt2pt.RequestImpl;

/**
 * Put-based and get-based persistent collectives for communicators whose ranks all share this JVM's heap
 * (ranks as threads of one in-JVM job): each rank reads from or writes into its peers' buffers directly and
 * synchronises with counters, as in the RDMA persistent collectives design (issue 4, item 5). See
 * docs/collectives.md, "Put- and get-based persistent schedules".
 * <ol>
 * <li>At init every rank publishes a {@link Member} (its engine, its registered region, its counters) on a
 * {@link Board} shared through the job's shared map, keyed by the communicator's collective context id, the
 * world rank of its rank 0 (communicators of one split share context ids) and the operation's tag. The last
 * rank to join removes the key: from then on the ranks hold the board directly.</li>
 * <li>Each start is an epoch e = 1, 2, ...; every counter is an epoch number or a cumulative count, so a
 * late observer of epoch e-1 can never mistake it for e. A step that must wait polls a counter; steps run
 * on the engine thread as a {@link ProgressEngine.Activity}, never blocking it. Whoever bumps a peer's counter
 * wakes that peer's engine.</li>
 * </ol>
 * Counters of a member: {@code ready} (epoch the rank has started: its buffers may be written by others),
 * {@code data} (epoch whose data its bcast region holds), {@code reads} (children that have finished reading
 * its region, cumulative), {@code up} (epoch whose subtree reduction its accumulator holds),
 * {@code arrivals} (children's operands put into its slots, cumulative), {@code consumed} (get-based reduce: epoch whose
 * accumulator the parent has combined), {@code rounds} (barrier: per round, bumps received, or the epoch in which
 * this rank reached the round).
 *
 * <p>Threading: built on the calling thread at init; the steps of one rank run on its engine thread only;
 * peers touch a member only through its atomic counters and, after a counter says so, its buffers. The
 * users' buffers stay owned by the users; slots and accumulators are owned by this object.
 */
final class DirectPersistent
{
    /** put: the writer moves the data; get: the reader does. */
    enum Mode
    {
        PUT, GET
    }

    private static final Status OK = new Status(Comm.ANY_SOURCE, Comm.ANY_TAG, ErrorClass.SUCCESS, false, 0);

    /** One rank's published state for one persistent operation. */
    static final class Member
    {
        final ProgressEngine engine;
        final Object buf;
        final int offset;
        final int count;
        final Datatype type;
        final byte[][] slots;
        final AtomicLong ready = new AtomicLong();
        final AtomicLong data = new AtomicLong();
        final AtomicLong reads = new AtomicLong();
        final AtomicLong up = new AtomicLong();
        final AtomicLong arrivals = new AtomicLong();
        /** Get-based reduce: the epoch whose accumulator the parent has combined (the region may be reused). */
        final AtomicLong consumed = new AtomicLong();
        /** Barrier: per dissemination round, bumps received (put) or the epoch this rank reached it (get). */
        final AtomicLongArray rounds = new AtomicLongArray(32);
        /** Gather/scatter root: the block of each rank in its receive (gather) or send (scatter) buffer; else null. */
        Buffers.Slot[] blocks;
        /** A failure a peer found while copying to or from this rank, and the epoch it belongs to (written first). */
        volatile MpiException peerFailure;
        volatile long peerFailureEpoch;

        Member(final ProgressEngine engine, final Object buf, final int offset, final int count, final Datatype type, final byte[][] slots)
        {
            this.engine = engine;
            this.buf = buf;
            this.offset = offset;
            this.count = count;
            this.type = type;
            this.slots = slots;
        }

        Convertor reader()
        {
            return Convertor.create(BufferView.of(buf, "peer buffer"), offset, count, type);
        }

        Convertor writer()
        {
            return Convertor.createForReceive(BufferView.of(buf, "peer buffer"), offset, count, type);
        }
    }

    /** The members of one operation, one per rank. */
    static final class Board
    {
        final AtomicReferenceArray<Member> members;
        final AtomicInteger joined = new AtomicInteger();

        Board(final int size)
        {
            members = new AtomicReferenceArray<>(size);
        }
    }

    /** A step of one epoch: returns true once done (false: poll again later). */
    @FunctionalInterface
    interface Step
    {
        boolean run(long epoch);
    }

    private final CommState comm;
    private final String call;
    private final Mode mode;
    private final Board board;
    private final Member me;
    private final List<Step> steps = new ArrayList<>();
    private long epoch;

    private DirectPersistent(final CommState comm, final String call, final Mode mode, final int tag, final Member me)
    {
        this.comm = comm;
        this.call = call;
        this.mode = mode;
        this.me = me;
        final ConcurrentMap<String, Object> shared = comm.services().jobShared();
        final String key = "coll.direct." + comm.collContextId() + "." + comm.worldRank(0) + "." + tag;
        this.board = (Board)shared.computeIfAbsent(key, k -> new Board(comm.size()));
        board.members.set(comm.rank(), me);
        if (board.joined.incrementAndGet() == comm.size())
        {
            shared.remove(key);
        }
    }

    /** True when every rank of {@code c} shares this heap (ranks as threads of one in-JVM job): the rank's services say, whichever thread asks. */
    static boolean sharedHeap(final CommState c)
    {
        return c.services().sharedHeap();
    }

    Mode mode()
    {
        return mode;
    }

    /** Starts epoch e + 1. */
    RequestImpl start()
    {
        return new Run(++epoch).launch();
    }

    private Member peer(final int rank)
    {
        return board.members.get(rank);
    }

    private void wake(final Member m)
    {
        m.engine.wakeup();
    }

    /**
     * Two steps of a schedule: publish the epoch in one of this rank's counters and wake {@code rank} (if it has
     * joined), then wait until {@code handBack} reaches the epoch (the peer has taken or delivered the data).
     */
    private void publishThenAwait(final AtomicLong counter, final int rank, final AtomicLong handBack)
    {
        steps.add(e ->
        {
            counter.set(e);
            final Member m = peer(rank);
            if (m != null)
            {
                wake(m);
            }
            return true;
        });
        steps.add(e -> handBack.get() >= e);
    }

    /** As {@link #publishThenAwait} to every rank but {@code skip}, waiting for {@code peers} hand-backs per epoch. */
    private void publishToAllThenAwait(final AtomicLong counter, final int skip, final AtomicLong handBack,
        final int peers)
    {
        steps.add(e ->
        {
            counter.set(e);
            wakeAllBut(skip);
            return true;
        });
        steps.add(e -> handBack.get() >= e * peers);
    }

    // ------------------------------------------------------------------------------------------ trees

    /** Binomial tree in ranks relative to {@code root}: the parent (or -1) and the children, smallest subtree first. */
    private record Tree(int parent, int[] children, int indexInParent)
    {
        static Tree of(final int rank, final int size, final int root)
        {
            final int vr = (rank - root + size) % size;
            int parent = -1;
            int index = -1;
            final ArrayList<Integer> children = new ArrayList<>();
            int bit = 0;
            for (int mask = 1; mask < size; mask <<= 1, bit++)
            {
                if ((vr & mask) != 0)
                {
                    parent = Collectives.real(vr - mask, root, size);
                    index = bit;
                    break;
                }
                if (vr + mask < size)
                {
                    children.add(Collectives.real(vr + mask, root, size));
                }
            }
            return new Tree(parent, children.stream().mapToInt(Integer::intValue).toArray(), index);
        }
    }

    // ------------------------------------------------------------------------------------------ bcast

    /**
     * Persistent binomial bcast with direct access; the region registered is the user's buffer.
     * <p>Put: 1. start: ready = e, wake the parent. 2. non-root: wait data &ge; e. 3. per child, largest
     * subtree first: wait child.ready &ge; e, copy this rank's region into the child's, child.data = e, wake it.
     * <p>Get: 1. non-root: wait parent.data &ge; e, copy the parent's region into this rank's, parent.reads++,
     * wake it. 2. data = e, wake the children. 3. wait reads &ge; e * children (so that the next epoch cannot
     * overwrite the region while a child still reads it).
     */
    static DirectPersistent bcast(final CommState c, final int tag, final Mode mode, final Object buf, final int offset, final int count,
        final Datatype type, final int root)
    {
        final DirectPersistent d = new DirectPersistent(c, "bcast", mode, tag, new Member(c.engine(), buf, offset, count, type, null));
        final Tree tree = Tree.of(c.rank(), c.size(), root);
        if (mode == Mode.PUT)
        {
            d.putDown(tree, d.me);
        }
        else
        {
            d.getDown(tree);
        }
        return d;
    }

    /** The put-based bcast steps over the registered regions (see {@link #bcast}). */
    private void putDown(final Tree tree, final Member mine)
    {
        steps.add(e ->
        {
            me.ready.set(e);
            if (tree.parent() >= 0)
            {
                final Member p = peer(tree.parent());
                if (p != null)
                {
                    wake(p);
                }
            }
            return true;
        });
        if (tree.parent() >= 0)
        {
            steps.add(e -> me.data.get() >= e);
        }
        final int[] children = tree.children();
        for (int i = children.length - 1; i >= 0; i--)
        {
            final int child = children[i];
            final Convertor[] pair = new Convertor[2];
            steps.add(e ->
            {
                final Member m = peer(child);
                if (m == null || m.ready.get() < e)
                {
                    return false;
                }
                if (pair[0] == null)
                {
                    pair[0] = mine.reader();
                    pair[1] = m.writer();
                }
                try
                {
                    copyAll(pair[0], pair[1], child, m, e);
                }
                finally
                {
                    m.data.set(e);
                    wake(m);
                }
                return true;
            });
        }
    }

    /** The get-based bcast steps over the registered regions (see {@link #bcast}). */
    private void getDown(final Tree tree)
    {
        if (tree.parent() >= 0)
        {
            final Convertor[] pair = new Convertor[2];
            steps.add(e ->
            {
                final Member p = peer(tree.parent());
                if (p == null || p.data.get() < e)
                {
                    return false;
                }
                if (pair[0] == null)
                {
                    pair[0] = p.reader();
                    pair[1] = me.writer();
                }
                try
                {
                    copyAll(pair[0], pair[1], tree.parent(), p, e);
                }
                finally
                {
                    p.reads.incrementAndGet();
                    wake(p);
                }
                return true;
            });
        }
        final int[] children = tree.children();
        steps.add(e ->
        {
            me.data.set(e);
            for (final int child : children)
            {
                final Member m = peer(child);
                if (m != null)
                {
                    wake(m);
                }
            }
            return true;
        });
        steps.add(e -> me.reads.get() >= e * children.length);
    }

    /** Copies a whole region; on a size mismatch fails here and tells the peer, so that both report it. */
    private void copyAll(final Convertor src, final Convertor dst, final int peer, final Member other, final long e)
    {
        if (src.totalBytes() != dst.totalBytes())
        {
            final MpiException ex = new MpiException(ErrorClass.ERR_TRUNCATE, "rank " + comm.rank() + " and rank " + peer +
                " disagree on the message size (" + src.totalBytes() + " and " + dst.totalBytes() +
                " bytes; do all ranks pass matching counts, types and root?)");
            other.peerFailure = ex;
            other.peerFailureEpoch = e;
            throw ex;
        }
        Convertor.copy(src, dst, 0, src.totalBytes());
    }

    // ------------------------------------------------------------------------------------------ allreduce

    /**
     * Persistent allreduce with direct access: a binomial reduce to rank 0 (children combined in increasing
     * subtree order, so operands combine in rank order and non-commutative ops are right), then a binomial
     * bcast from rank 0, both over each rank's packed accumulator (the registered region).
     * <ol>
     * <li>Pack the input into the accumulator.</li>
     * <li>The reduce to rank 0 ({@link #reduceUp}).</li>
     * <li>The bcast of the accumulator from rank 0, as {@link #bcast} with the same mode (put: every child is
     * known ready, since it has arrived; get: a child's accumulator is overwritten only after its parent has
     * read it, as data &ge; e at the parent follows that read).</li>
     * <li>Unpack the accumulator into the receive buffer.</li>
     * </ol>
     */
    static DirectPersistent allreduce(final CommState c, final int tag, final Mode mode, final Buffers.Slot in, final Buffers.Slot out,
        final Reductions.Reduction red, final int bytes)
    {
        final Tree tree = Tree.of(c.rank(), c.size(), 0);
        final byte[] acc = new byte[bytes];
        final DirectPersistent d = new DirectPersistent(c, "allreduce", mode, tag,
            new Member(c.engine(), acc, 0, bytes, Datatype.BYTE, mode == Mode.PUT ? slots(tree, bytes) : null));
        d.steps.add(e ->
        {
            Buffers.pack(in, acc, 0);
            return true;
        });
        d.reduceUp(tree, acc, red, bytes, false);
        if (mode == Mode.PUT)
        {
            // ready was set by the reduce, so putDown's first step only repeats it.
            d.putDown(tree, d.me);
        }
        else
        {
            d.getDown(tree);
        }
        d.steps.add(e ->
        {
            Buffers.unpack(acc, 0, out);
            return true;
        });
        return d;
    }

    /**
     * Persistent reduce with direct access: the reduce to rank 0 of {@link #allreduce} (rank order for every
     * op), then, for a root other than 0, one transfer of the result from rank 0 to the root.
     * <ol>
     * <li>Pack the input into the accumulator.</li>
     * <li>The reduce to rank 0 ({@link #reduceUp}).</li>
     * <li>Root &ne; 0. Put: rank 0 waits root.ready &ge; e, copies its accumulator into the root's,
     * root.data = e, wakes it; the root waits data &ge; e. Get: rank 0 sets data = e, wakes the root and waits
     * reads &ge; e; the root waits rank0.data &ge; e, copies rank 0's accumulator into its own, reads++, wakes
     * rank 0. (Every accumulator is idle by then: the root's went up the tree before rank 0 could finish.)</li>
     * <li>The root unpacks the accumulator into the receive buffer.</li>
     * </ol>
     */
    static DirectPersistent reduce(final CommState c, final int tag, final Mode mode, final Buffers.Slot in, final Buffers.Slot out,
        final Reductions.Reduction red, final int bytes, final int root)
    {
        final Tree tree = Tree.of(c.rank(), c.size(), 0);
        final byte[] acc = new byte[bytes];
        final DirectPersistent d = new DirectPersistent(c, "reduce", mode, tag,
            new Member(c.engine(), acc, 0, bytes, Datatype.BYTE, mode == Mode.PUT ? slots(tree, bytes) : null));
        final int rank = c.rank();
        d.steps.add(e ->
        {
            Buffers.pack(in, acc, 0);
            return true;
        });
        d.reduceUp(tree, acc, red, bytes, true);
        if (root != 0 && rank == 0)
        {
            if (mode == Mode.PUT)
            {
                d.steps.add(e ->
                {
                    final Member r = d.peer(root);
                    if (r == null || r.ready.get() < e)
                    {
                        return false;
                    }
                    System.arraycopy(acc, 0, (byte[])r.buf, 0, bytes);
                    r.data.set(e);
                    d.wake(r);
                    return true;
                });
            }
            else
            {
                d.publishThenAwait(d.me.data, root, d.me.reads);
            }
        }
        else if (root != 0 && rank == root)
        {
            if (mode == Mode.PUT)
            {
                d.steps.add(e -> d.me.data.get() >= e);
            }
            else
            {
                d.steps.add(e ->
                {
                    final Member zero = d.peer(0);
                    if (zero == null || zero.data.get() < e)
                    {
                        return false;
                    }
                    System.arraycopy((byte[])zero.buf, 0, acc, 0, bytes);
                    zero.reads.incrementAndGet();
                    d.wake(zero);
                    return true;
                });
            }
        }
        if (rank == root)
        {
            d.steps.add(e ->
            {
                Buffers.unpack(acc, 0, out);
                return true;
            });
        }
        return d;
    }

    /** The put-mode slots of a rank: one per child (a binomial tree has at most 31 levels). */
    private static byte[][] slots(final Tree tree, final int bytes)
    {
        final byte[][] slots = new byte[32][];
        for (int i = 0; i < tree.children().length; i++)
        {
            slots[i] = new byte[bytes];
        }
        return slots;
    }

    /**
     * The reduce to the tree's root over the packed accumulators (the registered regions), children combined
     * in increasing subtree order (rank order for a tree rooted at 0).
     * <p>Put: ready = e and wake the children; wait arrivals &ge; e * children; combine the slots in order;
     * non-root: wait parent.ready &ge; e, copy the accumulator into the parent's slot for this rank,
     * parent.arrivals++, wake it. Get: per child in order, wait child.up &ge; e and combine the child's
     * accumulator straight from its memory (a private copy first for a non-commutative op, whose combine
     * writes its second operand); up = e, wake the parent. With {@code releaseChildren} (a reduce, where no
     * bcast follows to hold the child back) the parent then sets child.consumed = e and wakes it, and a
     * non-root waits consumed &ge; e before completing, so that its next start cannot repack the accumulator
     * while the parent still reads it.
     */
    private void reduceUp(final Tree tree, final byte[] acc, final Reductions.Reduction red, final int bytes, final boolean releaseChildren)
    {
        final int[] children = tree.children();
        if (mode == Mode.PUT)
        {
            final byte[][] mySlots = me.slots;
            steps.add(e ->
            {
                me.ready.set(e);
                for (final int child : children)
                {
                    final Member m = peer(child);
                    if (m != null)
                    {
                        wake(m);
                    }
                }
                return true;
            });
            steps.add(e -> me.arrivals.get() >= e * children.length);
            steps.add(e ->
            {
                for (int i = 0; i < children.length; i++)
                {
                    red.applyFromHigher(acc, 0, mySlots[i], 0, bytes);
                }
                return true;
            });
            if (tree.parent() >= 0)
            {
                steps.add(e ->
                {
                    final Member p = peer(tree.parent());
                    if (p == null || p.ready.get() < e)
                    {
                        return false;
                    }
                    System.arraycopy(acc, 0, p.slots[tree.indexInParent()], 0, bytes);
                    p.arrivals.incrementAndGet();
                    wake(p);
                    return true;
                });
            }
            return;
        }
        final byte[] scratch = red.op().isCommutative() ? null : new byte[bytes];
        for (final int child : children)
        {
            steps.add(e ->
            {
                final Member m = peer(child);
                if (m == null || m.up.get() < e)
                {
                    return false;
                }
                byte[] higher = (byte[])m.buf;
                if (scratch != null)
                {
                    System.arraycopy(higher, 0, scratch, 0, bytes);
                    higher = scratch;
                }
                red.applyFromHigher(acc, 0, higher, 0, bytes);
                if (releaseChildren)
                {
                    m.consumed.set(e);
                    wake(m);
                }
                return true;
            });
        }
        steps.add(e ->
        {
            me.up.set(e);
            if (tree.parent() >= 0)
            {
                final Member p = peer(tree.parent());
                if (p != null)
                {
                    wake(p);
                }
            }
            return true;
        });
        if (releaseChildren && tree.parent() >= 0)
        {
            steps.add(e -> me.consumed.get() >= e);
        }
    }

    // ------------------------------------------------------------------------------------------ barrier

    /**
     * Persistent barrier with counters only, by dissemination: in round k = 0, 1, ... while 2^k &lt; size,
     * <ul>
     * <li>put: bump the round-k counter of rank + 2^k and wake it; wait until this rank's own round-k counter
     * has reached e (one bump per epoch arrives from rank - 2^k, so the cumulative count is the epoch);</li>
     * <li>get: set this rank's round-k counter to e and wake rank + 2^k (the one that reads it); wait until the
     * round-k counter of rank - 2^k has reached e.</li>
     * </ul>
     * After ceil(log2 size) rounds every rank has heard, directly or not, from every other.
     */
    static DirectPersistent barrier(final CommState c, final int tag, final Mode mode)
    {
        final DirectPersistent d = new DirectPersistent(c, "barrier", mode, tag, new Member(c.engine(), null, 0, 0, Datatype.BYTE, null));
        final int size = c.size();
        final int rank = c.rank();
        int k = 0;
        for (int distance = 1; distance < size; distance <<= 1, k++)
        {
            final int round = k;
            final int to = (rank + distance) % size;
            final int from = (rank - distance + size) % size;
            d.steps.add(e ->
            {
                final Member m = d.peer(to);
                if (m == null)
                {
                    return false;
                }
                if (mode == Mode.PUT)
                {
                    m.rounds.incrementAndGet(round);
                }
                else
                {
                    d.me.rounds.set(round, e);
                }
                d.wake(m);
                return true;
            });
            d.steps.add(e ->
            {
                if (mode == Mode.PUT)
                {
                    return d.me.rounds.get(round) >= e;
                }
                final Member m = d.peer(from);
                return m != null && m.rounds.get(round) >= e;
            });
        }
        return d;
    }

    // ------------------------------------------------------------------------------------------ gather / scatter

    private static Convertor reader(final Buffers.Slot slot)
    {
        return Convertor.create(BufferView.of(slot.buf(), "peer buffer"), slot.offset(), slot.count(), slot.type());
    }

    private static Convertor writer(final Buffers.Slot slot)
    {
        return Convertor.createForReceive(BufferView.of(slot.buf(), "peer buffer"), slot.offset(), slot.count(), slot.type());
    }

    /**
     * Persistent (v-)gather with direct access, flat: every rank's block goes straight between its send buffer
     * and its place in the root's receive buffer ({@code blocks}, at the root; {@code mine}, a non-root's send
     * slot; {@code own}, the root's send slot, null for IN_PLACE).
     * <p>Put: the root copies its own block, sets ready = e, wakes the others and waits arrivals &ge; e * (P-1);
     * a non-root waits root.ready &ge; e, copies its block into the root's buffer, root.arrivals++, wakes it.
     * The copies run on the P-1 senders at once.
     * <p>Get: a non-root sets up = e, wakes the root and waits consumed &ge; e (its send buffer is the user's
     * again only then); the root copies its own block, then per rank in order waits up &ge; e, copies the
     * block out of that rank's send buffer, sets its consumed = e and wakes it. The root makes every copy.
     */
    static DirectPersistent gather(final CommState c, final String call, final int tag, final Mode mode, final Buffers.Slot mine,
        final Buffers.Slot[] blocks, final Buffers.Slot own, final int root)
    {
        final int rank = c.rank();
        final int size = c.size();
        final Member member = rank == root ? new Member(c.engine(), null, 0, 0, Datatype.BYTE, null) :
            new Member(c.engine(), mine.buf(), mine.offset(), mine.count(), mine.type(), null);
        member.blocks = blocks;
        final DirectPersistent d = new DirectPersistent(c, call, mode, tag, member);
        if (rank == root)
        {
            if (own != null)
            {
                d.steps.add(e ->
                {
                    Buffers.copy(call, own, blocks[root]);
                    return true;
                });
            }
            if (mode == Mode.PUT)
            {
                d.publishToAllThenAwait(d.me.ready, root, d.me.arrivals, size - 1);
            }
            else
            {
                for (int i = 1; i < size; i++)
                {
                    final int from = (root + i) % size;
                    final Convertor[] pair = new Convertor[2];
                    d.steps.add(e ->
                    {
                        final Member m = d.peer(from);
                        if (m == null || m.up.get() < e)
                        {
                            return false;
                        }
                        if (pair[0] == null)
                        {
                            pair[0] = m.reader();
                            pair[1] = writer(blocks[from]);
                        }
                        try
                        {
                            d.copyAll(pair[0], pair[1], from, m, e);
                        }
                        finally
                        {
                            m.consumed.set(e);
                            d.wake(m);
                        }
                        return true;
                    });
                }
            }
            return d;
        }
        if (mode == Mode.PUT)
        {
            final Convertor[] pair = new Convertor[2];
            d.steps.add(e ->
            {
                final Member r = d.peer(root);
                if (r == null || r.ready.get() < e)
                {
                    return false;
                }
                if (pair[0] == null)
                {
                    pair[0] = d.me.reader();
                    pair[1] = writer(r.blocks[rank]);
                }
                try
                {
                    d.copyAll(pair[0], pair[1], root, r, e);
                }
                finally
                {
                    r.arrivals.incrementAndGet();
                    d.wake(r);
                }
                return true;
            });
        }
        else
        {
            d.publishThenAwait(d.me.up, root, d.me.consumed);
        }
        return d;
    }

    /**
     * Persistent (v-)scatter with direct access, flat: the mirror of {@link #gather} ({@code blocks}: the
     * root's send blocks; {@code mine}: a non-root's receive slot; {@code own}: the root's receive slot, null
     * for IN_PLACE).
     * <p>Put: a non-root sets ready = e, wakes the root and waits data &ge; e; the root copies its own block,
     * then per rank in order waits ready &ge; e, copies the block into that rank's receive buffer, sets its
     * data = e and wakes it. The root makes every copy.
     * <p>Get: the root copies its own block, sets data = e, wakes the others and waits reads &ge; e * (P-1); a
     * non-root waits root.data &ge; e, copies its block out of the root's send buffer, root.reads++, wakes it.
     * The copies run on the P-1 receivers at once.
     */
    static DirectPersistent scatter(final CommState c, final String call, final int tag, final Mode mode, final Buffers.Slot mine,
        final Buffers.Slot[] blocks, final Buffers.Slot own, final int root)
    {
        final int rank = c.rank();
        final int size = c.size();
        final Member member = rank == root ? new Member(c.engine(), null, 0, 0, Datatype.BYTE, null) :
            new Member(c.engine(), mine.buf(), mine.offset(), mine.count(), mine.type(), null);
        member.blocks = blocks;
        final DirectPersistent d = new DirectPersistent(c, call, mode, tag, member);
        if (rank == root)
        {
            if (own != null)
            {
                d.steps.add(e ->
                {
                    Buffers.copy(call, blocks[root], own);
                    return true;
                });
            }
            if (mode == Mode.PUT)
            {
                for (int i = 1; i < size; i++)
                {
                    final int to = (root + i) % size;
                    final Convertor[] pair = new Convertor[2];
                    d.steps.add(e ->
                    {
                        final Member m = d.peer(to);
                        if (m == null || m.ready.get() < e)
                        {
                            return false;
                        }
                        if (pair[0] == null)
                        {
                            pair[0] = reader(blocks[to]);
                            pair[1] = m.writer();
                        }
                        try
                        {
                            d.copyAll(pair[0], pair[1], to, m, e);
                        }
                        finally
                        {
                            m.data.set(e);
                            d.wake(m);
                        }
                        return true;
                    });
                }
            }
            else
            {
                d.publishToAllThenAwait(d.me.data, root, d.me.reads, size - 1);
            }
            return d;
        }
        if (mode == Mode.PUT)
        {
            d.publishThenAwait(d.me.ready, root, d.me.data);
        }
        else
        {
            final Convertor[] pair = new Convertor[2];
            d.steps.add(e ->
            {
                final Member r = d.peer(root);
                if (r == null || r.data.get() < e)
                {
                    return false;
                }
                if (pair[0] == null)
                {
                    pair[0] = reader(r.blocks[rank]);
                    pair[1] = d.me.writer();
                }
                try
                {
                    d.copyAll(pair[0], pair[1], root, r, e);
                }
                finally
                {
                    r.reads.incrementAndGet();
                    d.wake(r);
                }
                return true;
            });
        }
        return d;
    }

    /**
     * Persistent allgather with direct access: every rank's block goes straight from its place in the owner's
     * receive buffer (copied there from the send buffer first, or IN_PLACE) to its place in every other rank's
     * ({@code blocks}: this rank's receive blocks; {@code own}: its send slot, null for IN_PLACE).
     * <p>Put: ready = e, wake all; per other rank j from rank + 1 on, wait j.ready &ge; e, copy this rank's
     * block into j's, j.arrivals++, wake j; wait arrivals &ge; e * (P-1).
     * <p>Get: up = e, wake all; per other rank j from rank + 1 on, wait j.up &ge; e, copy j's block out of its
     * receive buffer into this rank's, j.reads++, wake j; wait reads &ge; e * (P-1) (the next start overwrites
     * the own block, which the others read).
     */
    static DirectPersistent allgather(final CommState c, final int tag, final Mode mode, final Buffers.Slot[] blocks,
        final Buffers.Slot own)
    {
        final int rank = c.rank();
        final int size = c.size();
        final Buffers.Slot mine = blocks[rank];
        final Member member = new Member(c.engine(), mine.buf(), mine.offset(), mine.count(), mine.type(), null);
        member.blocks = blocks;
        final DirectPersistent d = new DirectPersistent(c, "allgather", mode, tag, member);
        if (own != null)
        {
            d.steps.add(e ->
            {
                Buffers.copy("allgather", own, mine);
                return true;
            });
        }
        d.steps.add(e ->
        {
            if (mode == Mode.PUT)
            {
                d.me.ready.set(e);
            }
            else
            {
                d.me.up.set(e);
            }
            d.wakeAllBut(rank);
            return true;
        });
        for (int i = 1; i < size; i++)
        {
            final int j = (rank + i) % size;
            final Convertor[] pair = new Convertor[2];
            d.steps.add(e ->
            {
                final Member m = d.peer(j);
                if (m == null || (mode == Mode.PUT ? m.ready.get() : m.up.get()) < e)
                {
                    return false;
                }
                if (pair[0] == null)
                {
                    pair[0] = mode == Mode.PUT ? d.me.reader() : m.reader();
                    pair[1] = mode == Mode.PUT ? writer(m.blocks[rank]) : writer(blocks[j]);
                }
                try
                {
                    d.copyAll(pair[0], pair[1], j, m, e);
                }
                finally
                {
                    if (mode == Mode.PUT)
                    {
                        m.arrivals.incrementAndGet();
                    }
                    else
                    {
                        m.reads.incrementAndGet();
                    }
                    d.wake(m);
                }
                return true;
            });
        }
        d.steps.add(e -> (mode == Mode.PUT ? d.me.arrivals.get() : d.me.reads.get()) >= e * (size - 1));
        return d;
    }

    /** Wakes every member but {@code skip} (those that have joined). */
    private void wakeAllBut(final int skip)
    {
        for (int r = 0; r < board.members.length(); r++)
        {
            final Member m = r == skip ? null : peer(r);
            if (m != null)
            {
                wake(m);
            }
        }
    }

    // ------------------------------------------------------------------------------------------ execution

    /** One epoch: a request advanced by the engine, step by step. */
    private final class Run extends RequestImpl implements ProgressEngine.Activity
    {
        private final long e;
        private int step;
        private MpiException failure;

        Run(final long epoch)
        {
            super(comm.engine(), comm::handle);
            this.e = epoch;
        }

        Run launch()
        {
            comm.engine().execute(() ->
            {
                if (!progress())
                {
                    comm.protocol().engine().addActivity(this);
                }
            });
            return this;
        }

        @Override
        public boolean progress()
        {
            while (step < steps.size())
            {
                boolean done;
                try
                {
                    done = steps.get(step).run(e);
                }
                catch (final RuntimeException ex)
                {
                    // Record and go on: the later steps still signal the peers, so none is left waiting.
                    if (failure == null)
                    {
                        failure = ex instanceof MpiException mpiEx ?
                            new MpiException(mpiEx.errorClass(), call + " on " + comm.name() + ": " + withoutClass(mpiEx), mpiEx) :
                            new MpiException(ErrorClass.ERR_OTHER, call + " on " + comm.name() + " failed: " + ex, ex);
                    }
                    done = true;
                }
                if (!done)
                {
                    return false;
                }
                step++;
            }
            if (failure == null && me.peerFailureEpoch == e)
            {
                failure = new MpiException(ErrorClass.ERR_TRUNCATE, call + " on " + comm.name() + ": " + withoutClass(me.peerFailure));
            }
            complete(OK, failure);
            return true;
        }

        @Override
        public void cancel()
        {
            // Collective operations cannot be cancelled.
        }
    }

    private static String withoutClass(final MpiException ex)
    {
        final String m = ex.getMessage();
        final String prefix = ex.errorClass().name() + ": ";
        return m != null && m.startsWith(prefix) ? m.substring(prefix.length()) : m;
    }
}
