package org.jmpi.internal.coll.node;

import org.agrona.concurrent.UnsafeBuffer;
import org.jmpi.ErrorClass;
import org.jmpi.MpiException;
import org.jmpi.internal.coll.node.NodeOp.Kind;
import org.jmpi.internal.datatype.Convertor;
import org.jmpi.internal.reduce.Kernels;

/**
 * The post and work steps of a node collective call in a heap region ({@link NodeOp}, steps 3 and 5), where a call is
 * one round: small calls pack this rank's part into its slot and unpack or fold the peers' slots, large ones post
 * this rank's buffers and copy or reduce straight between the ranks' posted buffers. Each
 * method has checked the peers' lengths first ({@link NodeOp#checkLength}); a failure is recorded on the call and the
 * step goes on, so that no peer waits forever.
 *
 * <p>Threading: the engine thread of the rank whose call {@code o} is, within {@link NodeOp#progress()}.
 */
final class HeapRound
{
    /**
     * Bytes of each slice a large reduction packs and folds at a time: two such chunks (accumulator and
     * operand) stay in a core's L2. Not tuned yet.
     */
    private static final int REDUCE_CHUNK = 64 * 1024;

    private HeapRound()
    {
    }

    /** Packs this rank's contribution into its half of its slot. */
    static void packSlot(final NodeOp o)
    {
        final UnsafeBuffer slots = o.region.buffer();
        final int at = o.region.halfOffset(o.me, o.half);
        switch (o.kind)
        {
            case BCAST ->
            {
                if (o.me == o.root)
                {
                    pack(o, o.in, slots, at);
                }
            }
            case REDUCE, ALLREDUCE -> pack(o, o.in, slots, at);
            case GATHER ->
            {
                if (o.me != o.root)
                {
                    pack(o, o.in, slots, at);
                }
            }
            case ALLGATHER -> pack(o, o.in != null ? o.in : o.blocks[o.me], slots, at);
            case SCATTER ->
            {
                if (o.me == o.root)
                {
                    packBlocks(o, o.blocks, slots, at);
                }
            }
            case ALLTOALL -> packBlocks(o, o.blocks, slots, at);
            default ->
            {
            }
        }
    }

    private static void packBlocks(final NodeOp o, final Part[] parts, final UnsafeBuffer slots, final int at)
    {
        for (int j = 0; j < o.size; j++)
        {
            pack(o, parts[j], slots, at + (int)(j * o.bytes));
        }
    }

    /** Packs {@code part}, which must be the call's {@code bytes} (its own send and receive sizes may differ: ERR_TRUNCATE). */
    private static void pack(final NodeOp o, final Part part, final UnsafeBuffer slots, final int at)
    {
        if (part.bytes() != o.bytes)
        {
            throw new MpiException(ErrorClass.ERR_TRUNCATE, "send part is " + part.bytes() + " bytes, receive part " + o.bytes +
                " bytes (counts or types do not match)");
        }
        part.pack(slots, at, 0, (int)o.bytes);
    }

    static void postBuffers(final NodeOp o)
    {
        switch (o.kind)
        {
            case BCAST -> o.region.post(o.me, o.half, o.me == o.root ? o.in : null);
            case REDUCE, ALLREDUCE -> o.region.post(o.me, o.half, new Part[] {o.in, o.out});
            case GATHER -> o.region.post(o.me, o.half, o.me == o.root ? o.blocks : null);
            case SCATTER -> o.region.post(o.me, o.half, o.me == o.root ? o.blocks : null);
            case ALLGATHER ->
            {
                if (o.in != null)
                {
                    NodeOp.copy(o.in, o.blocks[o.me]);
                }
                o.region.post(o.me, o.half, o.blocks);
            }
            case ALLTOALL -> o.region.post(o.me, o.half, o.blocks);
            default -> o.region.post(o.me, o.half, null);
        }
    }

    static void gather(final NodeOp o)
    {
        if (o.me == o.root)
        {
            if (o.in != null)
            {
                NodeOp.copy(o.in, o.blocks[o.me]);
            }
            if (!o.direct)
            {
                for (int j = 0; j < o.size; j++)
                {
                    if (j != o.me && o.checkLength(j, o.bytes))
                    {
                        o.blocks[j].unpack(o.region.buffer(), o.region.halfOffset(j, o.half), 0, (int)o.bytes);
                    }
                }
            }
        }
        else if (o.direct && o.checkLength(o.root, o.bytes))
        {
            NodeOp.copy(o.in, ((Part[])o.region.posted(o.root, o.half))[o.me]);
        }
    }

    static void scatter(final NodeOp o)
    {
        if (o.me == o.root)
        {
            if (o.out != null)
            {
                NodeOp.copy(o.blocks[o.me], o.out);
            }
        }
        else if (o.checkLength(o.root, o.direct ? o.bytes : o.bytes * o.size))
        {
            if (o.direct)
            {
                NodeOp.copy(((Part[])o.region.posted(o.root, o.half))[o.me], o.out);
            }
            else
            {
                o.out.unpack(o.region.buffer(), o.region.halfOffset(o.root, o.half) + (int)(o.me * o.bytes), 0, (int)o.bytes);
            }
        }
    }

    static void allgather(final NodeOp o)
    {
        if (!o.direct && o.in != null)
        {
            NodeOp.copy(o.in, o.blocks[o.me]);
        }
        for (int i = 1; i < o.size; i++)
        {
            final int j = (o.me + i) % o.size;
            if (!o.checkLength(j, o.bytes))
            {
                continue;
            }
            if (o.direct)
            {
                NodeOp.copy(((Part[])o.region.posted(j, o.half))[j], o.blocks[j]);
            }
            else
            {
                o.blocks[j].unpack(o.region.buffer(), o.region.halfOffset(j, o.half), 0, (int)o.bytes);
            }
        }
    }

    static void alltoall(final NodeOp o)
    {
        for (int i = 0; i < o.size; i++)
        {
            final int j = (o.me + i) % o.size;
            if (!o.checkLength(j, o.direct ? o.bytes : o.bytes * o.size))
            {
                continue;
            }
            if (o.direct)
            {
                NodeOp.copy(((Part[])o.region.posted(j, o.half))[o.me], o.outBlocks[j]);
            }
            else
            {
                o.outBlocks[j].unpack(o.region.buffer(), o.region.halfOffset(j, o.half) + (int)(o.me * o.bytes), 0, (int)o.bytes);
            }
        }
    }

    // ------------------------------------------------------------------------------------------ reductions

    static void reduce(final NodeOp o)
    {
        final boolean reducer = o.kind == Kind.ALLREDUCE || o.me == o.root;
        if (!o.direct && !reducer)
        {
            return;
        }
        boolean ok = true;
        for (int j = 0; j < o.size; j++)
        {
            ok &= o.checkLength(j, o.bytes);
        }
        if (!ok || o.bytes == 0)
        {
            return;
        }
        final int unit = Kernels.unitBytes(o.op, o.type);
        if (!o.direct)
        {
            // Rank order: rank P-1's operand first, then acc = in_j op acc for j = P-2 .. 0, straight from the slots.
            final int length = (int)o.bytes;
            final byte[] acc = o.node.scratch(length);
            final byte[] memory = o.region.memory();
            System.arraycopy(memory, o.region.halfOffset(o.size - 1, o.half), acc, 0, length);
            for (int j = o.size - 2; j >= 0; j--)
            {
                Kernels.reduce(o.op, o.type, memory, o.region.halfOffset(j, o.half), acc, 0, length / unit);
            }
            o.out.unpack(o.node.scratchBuffer(), 0, 0, length);
            return;
        }
        final long units = o.bytes / unit;
        final long from = units * o.me / o.size * unit;
        final long to = units * (o.me + 1) / o.size * unit;
        if (from == to)
        {
            return;
        }
        final int chunk = (int)Math.max(unit, REDUCE_CHUNK / unit * unit);
        final Convertor[] readers = new Convertor[o.size];
        for (int j = 0; j < o.size; j++)
        {
            readers[j] = ((Part[])o.region.posted(j, o.half))[0].reader();
        }
        final Convertor[] writers = new Convertor[o.size];
        for (int j = 0; j < o.size; j++)
        {
            final Part target = ((Part[])o.region.posted(j, o.half))[1];
            if (target != null && (o.kind == Kind.ALLREDUCE || j == o.root))
            {
                writers[j] = target.writer();
            }
        }
        final byte[] acc = o.node.scratch(2 * chunk);
        final UnsafeBuffer accBuffer = o.node.scratchBuffer();
        // Rank order, per chunk: the accumulator (at chunk) starts as rank P-1's operand, then acc = in_j op acc
        // for j = P-2 .. 0, each operand packed to the scratch's first chunk.
        for (long at = from; at < to; at += chunk)
        {
            final int n = (int)Math.min(chunk, to - at);
            readers[o.size - 1].seek(at);
            readers[o.size - 1].pack(accBuffer, chunk, n);
            for (int j = o.size - 2; j >= 0; j--)
            {
                readers[j].seek(at);
                readers[j].pack(accBuffer, 0, n);
                Kernels.reduce(o.op, o.type, acc, 0, acc, chunk, n / unit);
            }
            for (final Convertor w : writers)
            {
                if (w != null)
                {
                    w.seek(at);
                    w.unpack(accBuffer, chunk, n);
                }
            }
        }
    }
}
