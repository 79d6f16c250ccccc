package org.jmpi.internal.coll;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
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
import org.jmpi.internal.runtime.RankContext;

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
 * on the engine thread as a {@link Protocol.Activity}, never blocking it. Whoever bumps a peer's counter
 * wakes that peer's engine.</li>
 * </ol>
 * Counters of a member: {@code ready} (epoch the rank has started: its buffers may be written by others),
 * {@code data} (epoch whose data its bcast region holds), {@code reads} (children that have finished reading
 * its region, cumulative), {@code up} (epoch whose subtree reduction its accumulator holds),
 * {@code arrivals} (children's operands put into its slots, cumulative).
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
        final ConcurrentHashMap<String, Object> shared = RankContext.current().job().shared();
        final String key = "coll.direct." + comm.collContextId() + "." + comm.worldRank(0) + "." + tag;
        this.board = (Board)shared.computeIfAbsent(key, k -> new Board(comm.size()));
        board.members.set(comm.rank(), me);
        if (board.joined.incrementAndGet() == comm.size())
        {
            shared.remove(key);
        }
    }

    /** True when every rank of every communicator of this job shares this heap (ranks as threads of a {@link org.jmpi.internal.runtime.LocalJob}). */
    static boolean sharedHeap()
    {
        return RankContext.current() != null;
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
     * <li>Put: ready = e and wake the children; wait arrivals &ge; e * children; combine the slots in order;
     * non-root: wait parent.ready &ge; e, copy the accumulator into the parent's slot for this rank,
     * parent.arrivals++, wake it. Get: per child in order, wait child.up &ge; e and combine the child's
     * accumulator straight from its memory; up = e, wake the parent.</li>
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
        final int[] children = tree.children();
        final byte[] acc = new byte[bytes];
        byte[][] slots = null;
        if (mode == Mode.PUT)
        {
            slots = new byte[32][];
            for (int i = 0; i < children.length; i++)
            {
                slots[i] = new byte[bytes];
            }
        }
        final DirectPersistent d = new DirectPersistent(c, "allreduce", mode, tag, new Member(c.engine(), acc, 0, bytes, Datatype.BYTE, slots));
        d.steps.add(e ->
        {
            Buffers.pack(in, acc, 0);
            return true;
        });
        if (mode == Mode.PUT)
        {
            final byte[][] mySlots = slots;
            d.steps.add(e ->
            {
                d.me.ready.set(e);
                for (final int child : children)
                {
                    final Member m = d.peer(child);
                    if (m != null)
                    {
                        d.wake(m);
                    }
                }
                return true;
            });
            d.steps.add(e -> d.me.arrivals.get() >= e * children.length);
            d.steps.add(e ->
            {
                for (int i = 0; i < children.length; i++)
                {
                    red.applyFromHigher(acc, 0, mySlots[i], 0, bytes);
                }
                return true;
            });
            if (tree.parent() >= 0)
            {
                d.steps.add(e ->
                {
                    final Member p = d.peer(tree.parent());
                    if (p == null || p.ready.get() < e)
                    {
                        return false;
                    }
                    System.arraycopy(acc, 0, p.slots[tree.indexInParent()], 0, bytes);
                    p.arrivals.incrementAndGet();
                    d.wake(p);
                    return true;
                });
            }
            // The bcast phase: ready was set above, so putDown's first step only repeats it.
            d.putDown(tree, d.me);
        }
        else
        {
            // A non-commutative combine writes into its second operand: take a private copy of the child's.
            final byte[] scratch = red.op().isCommutative() ? null : new byte[bytes];
            for (final int child : children)
            {
                d.steps.add(e ->
                {
                    final Member m = d.peer(child);
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
                    return true;
                });
            }
            d.steps.add(e ->
            {
                d.me.up.set(e);
                if (tree.parent() >= 0)
                {
                    final Member p = d.peer(tree.parent());
                    if (p != null)
                    {
                        d.wake(p);
                    }
                }
                return true;
            });
            d.getDown(tree);
        }
        d.steps.add(e ->
        {
            Buffers.unpack(acc, 0, out);
            return true;
        });
        return d;
    }

    // ------------------------------------------------------------------------------------------ execution

    /** One epoch: a request advanced by the engine, step by step. */
    private final class Run extends RequestImpl implements Protocol.Activity
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
                    comm.protocol().addActivity(this);
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
