package org.jmpi.internal.coll.node;

import org.jmpi.Datatype;
import org.jmpi.Op;
import org.jmpi.internal.coll.node.NodeOp.Kind;
import org.jmpi.internal.pt2pt.CommState;
import org.jmpi.internal.pt2pt.RequestImpl;

/**
 * Node collectives: barrier, bcast, reduce, allreduce, gather, scatter, allgather and alltoall through a
 * per-communicator region ({@link NodeRegion}, layout {@link NodeRegionDescriptor}) on communicators whose
 * ranks share a node: a heap array where they are threads of one JVM, a mapped file across JVMs. Small calls
 * go through each rank's slot in the region (flags and packed data, no frames, no matching); large ones copy
 * and reduce straight between the ranks' own buffers (threads), or go through the slots in rounds (JVMs). See
 * docs/collectives.md, "Node collectives", and {@link NodeOp} for the steps.
 *
 * <p>The callers ({@code Collectives}, {@code Reductions}) have checked the arguments and chosen this path
 * ({@link #available}); every rank must choose alike. {@code slotBytes} is the job's
 * {@code jmpi.coll.node.slot}. Each method starts the call and returns its request; with {@code blocking} it
 * waits for the call, reports a failure through the communicator's error handler and returns null (a blocking
 * call reuses the communicator's spare op and its parts: no allocation per call, {@code NodeCallCostTest}).
 *
 * <p>Threading: any thread, in the communicator's collective call order.
 */
public final class NodeCollectives
{
    private NodeCollectives()
    {
    }

    /**
     * Whether node collectives can run on {@code c}: every rank of its job is a thread of this JVM (a heap
     * region), or every member of {@code c} is on this node and reached through a node transport (shm, pvas,
     * jvm: a region in a file, {@link NodeRegionFile}; also where they share the heap with
     * {@code jmpi.coll.node.region=file}).
     */
    public static boolean available(final CommState c)
    {
        return NodeComm.of(c, 0).available;
    }

    /**
     * Whether the rooted calls (reduce, gather, scatter) should take the node path under {@code auto}: on the heap
     * always; across JVMs only while the job's ranks on this node do not outnumber its processors. Oversubscribed,
     * a descheduled root holds its readers (and, in a loop, its non-roots two calls later), where the
     * point-to-point non-roots send eagerly and return (docs/collectives.md, "Selection across JVMs").
     */
    public static boolean rootedOnNode(final CommState c)
    {
        final NodeComm n = NodeComm.of(c, 0);
        return n.heap || !n.oversubscribed();
    }

    /** How many node collective calls this rank has started on {@code c} (tests and benchmarks). Calling thread. */
    public static long callsStarted(final CommState c)
    {
        return NodeComm.of(c, 0).started();
    }

    /** Barrier: every rank posts its arrival and waits for every other's (one flag handoff). */
    public static RequestImpl barrier(final CommState c, final int slotBytes, final boolean blocking)
    {
        return NodeOp.take(NodeComm.of(c, slotBytes), "barrier", Kind.BARRIER, blocking).launch();
    }

    /** Bcast of {@code count} items of {@code type} at {@code buf}[{@code offset}] from {@code root}. */
    public static RequestImpl bcast(final CommState c, final int slotBytes, final boolean blocking, final Object buf, final int offset,
        final int count, final Datatype type, final int root)
    {
        final NodeOp o = NodeOp.take(NodeComm.of(c, slotBytes), "bcast", Kind.BCAST, blocking);
        final Part data = o.part(0).set(buf, offset, count, type);
        final boolean isRoot = c.rank() == root;
        return o.root(root).in(isRoot ? data : null).out(isRoot ? null : data).bytes(data.bytes()).launch();
    }

    /**
     * Reduce to {@code root} ({@code allToAll}: allreduce). {@code sendBuf} null: IN_PLACE (the input is the
     * receive buffer); {@code recvBuf} is used at the root only for reduce.
     */
    public static RequestImpl reduce(final CommState c, final int slotBytes, final boolean blocking, final boolean allToAll,
        final Object sendBuf, final int sendOffset, final Object recvBuf, final int recvOffset, final int count, final Datatype type,
        final Op op, final int root)
    {
        final NodeOp o = NodeOp.take(NodeComm.of(c, slotBytes), allToAll ? "allreduce" : "reduce", allToAll ? Kind.ALLREDUCE : Kind.REDUCE,
            blocking);
        final boolean receives = allToAll || c.rank() == root;
        final Part out = receives ? o.part(1).set(recvBuf, recvOffset, count, type) : null;
        final Part in = sendBuf == null ? out : o.part(0).set(sendBuf, sendOffset, count, type);
        return o.root(root).in(in).out(out).reduction(op, type).bytes(count * type.size()).launch();
    }

    /** Gather to {@code root}; {@code sendBuf} null at the root: IN_PLACE. */
    public static RequestImpl gather(final CommState c, final int slotBytes, final boolean blocking, final Object sendBuf,
        final int sendOffset, final int sendCount, final Datatype sendType, final Object recvBuf, final int recvOffset, final int recvCount,
        final Datatype recvType, final int root)
    {
        final NodeOp o = NodeOp.take(NodeComm.of(c, slotBytes), "gather", Kind.GATHER, blocking).root(root);
        if (c.rank() == root)
        {
            o.in(sendBuf == null ? null : o.part(0).set(sendBuf, sendOffset, sendCount, sendType))
                .blocks(blocks(o.blockParts(false), recvBuf, recvOffset, recvCount, recvType)).bytes(recvCount * recvType.size());
        }
        else
        {
            o.in(o.part(0).set(sendBuf, sendOffset, sendCount, sendType)).bytes(sendCount * sendType.size());
        }
        return o.launch();
    }

    /** Scatter from {@code root}; {@code recvBuf} null at the root: IN_PLACE. */
    public static RequestImpl scatter(final CommState c, final int slotBytes, final boolean blocking, final Object sendBuf,
        final int sendOffset, final int sendCount, final Datatype sendType, final Object recvBuf, final int recvOffset, final int recvCount,
        final Datatype recvType, final int root)
    {
        final NodeOp o = NodeOp.take(NodeComm.of(c, slotBytes), "scatter", Kind.SCATTER, blocking).root(root);
        if (c.rank() == root)
        {
            o.blocks(blocks(o.blockParts(false), sendBuf, sendOffset, sendCount, sendType))
                .out(recvBuf == null ? null : o.part(1).set(recvBuf, recvOffset, recvCount, recvType)).bytes(sendCount * sendType.size());
        }
        else
        {
            o.out(o.part(1).set(recvBuf, recvOffset, recvCount, recvType)).bytes(recvCount * recvType.size());
        }
        return o.launch();
    }

    /** Allgather; {@code sendBuf} null: IN_PLACE (the own block is in place). */
    public static RequestImpl allgather(final CommState c, final int slotBytes, final boolean blocking, final Object sendBuf,
        final int sendOffset, final int sendCount, final Datatype sendType, final Object recvBuf, final int recvOffset, final int recvCount,
        final Datatype recvType)
    {
        final NodeOp o = NodeOp.take(NodeComm.of(c, slotBytes), "allgather", Kind.ALLGATHER, blocking);
        return o.in(sendBuf == null ? null : o.part(0).set(sendBuf, sendOffset, sendCount, sendType))
            .blocks(blocks(o.blockParts(false), recvBuf, recvOffset, recvCount, recvType)).bytes(recvCount * recvType.size()).launch();
    }

    /**
     * Alltoall; {@code sendBuf} null: IN_PLACE (data taken from the receive buffer), which only the slot path
     * can do ({@link #alltoallInPlaceFits}).
     */
    public static RequestImpl alltoall(final CommState c, final int slotBytes, final boolean blocking, final Object sendBuf,
        final int sendOffset, final int sendCount, final Datatype sendType, final Object recvBuf, final int recvOffset, final int recvCount,
        final Datatype recvType)
    {
        final NodeOp o = NodeOp.take(NodeComm.of(c, slotBytes), "alltoall", Kind.ALLTOALL, blocking);
        final Part[] out = blocks(o.blockParts(true), recvBuf, recvOffset, recvCount, recvType);
        final Part[] in = sendBuf == null ? out : blocks(o.blockParts(false), sendBuf, sendOffset, sendCount, sendType);
        return o.blocks(in).outBlocks(out).bytes(recvCount * recvType.size()).launch();
    }

    /**
     * Whether an IN_PLACE alltoall of {@code blockBytes} per block goes through the slots (a rank's whole
     * receive buffer packed into its slot first); larger ones are left to the point-to-point algorithms,
     * which snapshot the buffer.
     */
    public static boolean alltoallInPlaceFits(final CommState c, final int slotBytes, final long blockBytes)
    {
        return blockBytes * c.size() <= NodeRegionDescriptor.halfBytes(NodeRegionDescriptor.alignSlot(slotBytes));
    }

    /** Sets {@code parts} (one per rank) to the P blocks of {@code count} items of {@code type} each, one extent of {@code count} apart. */
    private static Part[] blocks(final Part[] parts, final Object buf, final int offset, final int count, final Datatype type)
    {
        final int size = parts.length;
        if (org.jmpi.internal.datatype.BufferView.arrayLength(buf, type) >= 0)
        {
            // An array of the predefined type (the common case): block j starts j * count elements on, no view needed.
            for (int j = 0; j < size; j++)
            {
                parts[j].set(buf, offset + j * count, count, type);
            }
            return parts;
        }
        for (int j = 0; j < size; j++)
        {
            block(parts[j], buf, offset, (long)j * count * type.extent(), count, type);
        }
        return parts;
    }

    /** Sets {@code part} to {@code count} items at byte displacement {@code byteDisp} from element {@code offset}. */
    private static void block(final Part part, final Object buf, final int offset, final long byteDisp, final int count, final Datatype type)
    {
        // A ByteBuffer's elements are bytes: no view needed (direct buffers in a loop of small calls made one per block).
        final long elementSize = buf instanceof java.nio.ByteBuffer ? 1 : org.jmpi.internal.datatype.BufferView.of(buf, "buffer").elementSize();
        if (byteDisp % elementSize == 0)
        {
            part.set(buf, Math.toIntExact(offset + byteDisp / elementSize), count, type);
            return;
        }
        final Datatype shifted = Datatype.hindexed(new int[] {count}, new long[] {byteDisp}, type).commit();
        part.set(buf, offset, 1, shifted);
    }
}
