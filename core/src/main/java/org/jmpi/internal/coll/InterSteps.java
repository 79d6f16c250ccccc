package org.jmpi.internal.coll;

import java.util.ArrayList;
import java.util.List;

import org.jmpi.Comm;
import org.jmpi.Datatype;
import org.jmpi.ErrorClass;
import org.jmpi.MpiException;
import org.jmpi.Op;
import org.jmpi.internal.coll.Collectives.Plan;
import org.jmpi.internal.coll.InterCollectives.Groups;
import org.jmpi.internal.coll.Reductions.Reduction;

/**
 * The pieces {@link InterCollectives} and {@link InterReductions} build their schedules from: the steps inside one
 * group (binomial bcast, reduce and fan-in at the group's leader), the leaders' exchange, and the argument checks
 * (roots, IN_PLACE, per-rank slots) with the plan and its mismatch check; split out of {@link InterCollectives}.
 *
 * <p>Threading: the calling thread builds the plan; its schedule runs on the engine.
 */
final class InterSteps
{
    static final byte[] NO_BYTES = new byte[0];
    static final Buffers.Slot NOTHING = new Buffers.Slot(NO_BYTES, 0, 0, Datatype.BYTE);

    /** The role of a process in a rooted call. */
    enum Role
    {
        /** The root (passed ROOT). */
        ROOT,
        /** In the root's group, not the root (passed PROC_NULL). */
        IDLE,
        /** In the other group (passed the root's rank). */
        REMOTE
    }

    private InterSteps()
    {
    }

    // ------------------------------------------------------------------------------------------ group steps

    /**
     * Binomial bcast inside the local group from its leader (local rank 0):
     * <ol>
     * <li>A non-leader receives the data from local rank - lowbit(rank), its parent.</li>
     * <li>It then sends it to rank + m for every power of two m below lowbit(rank) (the leader: below L) with
     * rank + m &lt; L, largest subtree first.</li>
     * </ol>
     */
    static void groupBcast(final Schedule s, final Groups g, final Buffers.Slot data)
    {
        final int size = g.localSize();
        final int rank = g.rank();
        int mask = 1;
        while (mask < size)
        {
            if ((rank & mask) != 0)
            {
                recv(s, g.local(rank - mask), data);
                s.next();
                break;
            }
            mask <<= 1;
        }
        for (mask >>= 1; mask > 0; mask >>= 1)
        {
            if (rank + mask < size)
            {
                send(s, g.local(rank + mask), data);
            }
        }
        s.next();
    }

    /**
     * Binomial reduce of the packed operand {@code acc} inside the local group to its leader:
     * <ol>
     * <li>Receive the operands of the children rank + m (m a power of two below lowbit(rank), rank + m &lt; L),
     * all at once, each into its own buffer.</li>
     * <li>Combine them into {@code acc} in increasing m, that is in rank order: acc = acc op child.</li>
     * <li>Send {@code acc} to the parent rank - lowbit(rank).</li>
     * </ol>
     * Afterwards the leader's {@code acc} holds the group's reduction.
     */
    static void groupReduce(final Schedule s, final Groups g, final Reduction red, final byte[] acc, final int bytes)
    {
        final int size = g.localSize();
        final int rank = g.rank();
        int parent = -1;
        final List<byte[]> children = new ArrayList<>();
        for (int mask = 1; mask < size; mask <<= 1)
        {
            if ((rank & mask) != 0)
            {
                parent = rank - mask;
                break;
            }
            if (rank + mask < size)
            {
                final byte[] tmp = new byte[bytes];
                children.add(tmp);
                s.recvBytes(g.local(rank + mask), tmp, 0, bytes);
            }
        }
        s.next();
        for (final byte[] child : children)
        {
            s.local(() -> red.applyFromHigher(acc, 0, child, 0, bytes));
        }
        if (parent >= 0)
        {
            s.sendBytes(g.local(parent), acc, 0, bytes);
        }
        s.next();
    }

    /** Zero-byte binomial fan-in to the leader: the tree of {@link #groupReduce}, with nothing to combine. */
    static void groupFanIn(final Schedule s, final Groups g)
    {
        final int size = g.localSize();
        final int rank = g.rank();
        int parent = -1;
        for (int mask = 1; mask < size; mask <<= 1)
        {
            if ((rank & mask) != 0)
            {
                parent = rank - mask;
                break;
            }
            if (rank + mask < size)
            {
                s.recvBytes(g.local(rank + mask), NO_BYTES, 0, 0);
            }
        }
        s.next();
        if (parent >= 0)
        {
            s.sendBytes(g.local(parent), NO_BYTES, 0, 0);
        }
        s.next();
    }

    /** The leaders send {@code out} to each other and receive into {@code in} ({@code bytes} each way); others do nothing. */
    static void exchangeLeaders(final Schedule s, final Groups g, final byte[] out, final byte[] in, final int bytes)
    {
        if (g.leader())
        {
            s.recvBytes(g.remote(0), in, 0, bytes);
            s.sendBytes(g.remote(0), out, 0, bytes);
            s.next();
        }
    }

    // ------------------------------------------------------------------------------------------ arguments

    static Plan plan(final Groups g, final String call, final int kind, final Schedule body)
    {
        final CollContext cc = CollContext.of(g.union());
        if (g.union().freed())
        {
            throw new MpiException(ErrorClass.ERR_COMM, call + ": intercommunicator was freed");
        }
        final Schedule s;
        if (cc.params.check)
        {
            s = new Schedule();
            appendCheck(s, g, call, kind);
            s.next();
            s.append(body);
        }
        else
        {
            s = body;
        }
        return new Plan(g.union(), call, s, cc.nextTag());
    }

    /**
     * With jmpi.coll.check: an allreduce(MAX) over both groups of {kind, -kind}; if the maximum and minimum
     * differ, processes called different collectives and every one fails at once. (Roots are not compared:
     * they legitimately differ between the groups.)
     */
    static void appendCheck(final Schedule s, final Groups g, final String call, final int kind)
    {
        final byte[] acc = new byte[8];
        final java.nio.ByteBuffer b = java.nio.ByteBuffer.wrap(acc).order(java.nio.ByteOrder.nativeOrder());
        s.local(() -> b.putInt(0, kind).putInt(4, -kind));
        Reductions.allreduceRecursiveDoubling(s, g.union().rank(), g.union().size(), new Reduction(Op.MAX, Datatype.INT, 4), acc, 8);
        s.local(() ->
        {
            if (b.getInt(0) != -b.getInt(4))
            {
                throw new Schedule.Stop(new MpiException(ErrorClass.ERR_OTHER, "collective mismatch: this process called " + call +
                    " on an intercommunicator, but the processes' calls range over collective codes " + (-b.getInt(4)) + ".." +
                    b.getInt(0)));
            }
        });
    }

    static void noInPlace(final String call, final Object... bufs)
    {
        for (final Object b : bufs)
        {
            if (b == Collectives.IN_PLACE)
            {
                throw new MpiException(ErrorClass.ERR_BUFFER, call + ": IN_PLACE is not allowed on an intercommunicator");
            }
        }
    }

    /** The role of this process for {@code root}: ROOT, PROC_NULL (its group's others) or a rank of the other group. */
    static Role role(final String call, final Groups g, final int root)
    {
        if (root == InterCollectives.ROOT)
        {
            return Role.ROOT;
        }
        if (root == Comm.PROC_NULL)
        {
            return Role.IDLE;
        }
        if (root < 0 || root >= g.remoteSize())
        {
            throw new MpiException(ErrorClass.ERR_ROOT, call + ": invalid root " + root + " (remote group of " + g.remoteSize() +
                "; in the root's group pass ROOT at the root and PROC_NULL elsewhere)");
        }
        return Role.REMOTE;
    }

    static int[] evenCounts(final int blocks, final int count)
    {
        final int[] counts = new int[blocks];
        java.util.Arrays.fill(counts, count);
        return counts;
    }

    static int[] evenDispls(final int blocks, final int count)
    {
        final int[] displs = new int[blocks];
        for (int i = 0; i < blocks; i++)
        {
            displs[i] = Math.multiplyExact(i, count);
        }
        return displs;
    }

    /** The slots of {@code blocks} per-rank blocks (displacements in extents of {@code type}), each checked. */
    static Buffers.Slot[] vectorSlots(final String call, final int blocks, final Object buf, final int offset, final int[] counts,
        final int[] displs, final Datatype type, final boolean receive)
    {
        if (counts == null || displs == null || counts.length < blocks || displs.length < blocks)
        {
            throw new MpiException(ErrorClass.ERR_ARG, call + ": counts and displacements need " + blocks + " entries (the remote group's " +
                "size), got " + (counts == null ? "null" : counts.length) + " and " + (displs == null ? "null" : displs.length));
        }
        if (type == null)
        {
            throw new MpiException(ErrorClass.ERR_TYPE, call + ": datatype is null");
        }
        return Buffers.extentSlots(call, buf, offset, counts, displs, type, blocks, receive);
    }

    /** The slots of alltoallw's blocks: per-rank types, displacements in bytes, each checked. */
    static Buffers.Slot[] bytewiseSlots(final String call, final int blocks, final Object buf, final int offset, final int[] counts,
        final long[] displs, final Datatype[] types, final boolean receive)
    {
        if (counts == null || displs == null || types == null || counts.length < blocks || displs.length < blocks ||
            types.length < blocks)
        {
            throw new MpiException(ErrorClass.ERR_ARG, call + ": counts, displacements and types need " + blocks +
                " entries each (the remote group's size)");
        }
        final Buffers.Slot[] slots = new Buffers.Slot[blocks];
        for (int i = 0; i < blocks; i++)
        {
            if (types[i] == null)
            {
                throw new MpiException(ErrorClass.ERR_TYPE, call + ": datatype for rank " + i + " is null");
            }
            if (counts[i] < 0)
            {
                throw new MpiException(ErrorClass.ERR_COUNT, call + ": negative count " + counts[i] + " for rank " + i);
            }
            slots[i] = Buffers.slot(buf, offset, displs[i], counts[i], types[i]);
            Buffers.check(call, slots[i], receive);
        }
        return slots;
    }

    /** Byte offsets of the slots packed one after another (length slots + 1). */
    static int[] packedOffsets(final String call, final Buffers.Slot[] slots)
    {
        final int[] offsets = new int[slots.length + 1];
        long total = 0;
        for (int i = 0; i < slots.length; i++)
        {
            total += slots[i].bytes();
            offsets[i + 1] = Buffers.packedBytes(call, total, Datatype.BYTE);
        }
        return offsets;
    }

    static void packSlots(final Buffers.Slot[] slots, final int[] offsets, final byte[] packed)
    {
        for (int i = 0; i < slots.length; i++)
        {
            Buffers.pack(slots[i], packed, offsets[i]);
        }
    }

    static void unpackSlots(final byte[] packed, final int[] offsets, final Buffers.Slot[] slots)
    {
        for (int i = 0; i < slots.length; i++)
        {
            Buffers.unpack(packed, offsets[i], slots[i]);
        }
    }

    static void send(final Schedule s, final int peer, final Buffers.Slot slot)
    {
        s.send(peer, slot.buf(), slot.offset(), slot.count(), slot.type());
    }

    static void recv(final Schedule s, final int peer, final Buffers.Slot slot)
    {
        s.recv(peer, slot.buf(), slot.offset(), slot.count(), slot.type());
    }
}
