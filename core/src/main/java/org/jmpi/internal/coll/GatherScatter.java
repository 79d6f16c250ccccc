package org.jmpi.internal.coll;

import org.jmpi.Datatype;
import org.jmpi.ErrorClass;
import org.jmpi.MpiException;
import org.jmpi.internal.coll.node.NodeCollectives;
import org.jmpi.internal.pt2pt.CommState;

import static org.jmpi.internal.coll.Collectives.*;

/**
 * MPI_Gather, MPI_Gatherv, MPI_Scatter and MPI_Scatterv: linear schedules (the root posts one receive or send per
 * rank straight into or out of its slot), through the node region where selected, with their put/get forms for
 * persistent requests; split out of {@link Collectives}, whose helpers (plans, slots, selection) they share.
 *
 * <p>Threading: the calling thread builds the plan; its schedule runs on the engine.
 */
final class GatherScatter
{
    private GatherScatter()
    {
    }

    /**
     * Linear gather: the root posts one receive per rank straight into its slot; the others send. As a node
     * collective, the arguments are checked as the linear gather's builder checks them, without building it.
     * {@code now}: a blocking call, which runs the node path here and returns null ({@link Collectives#run}).
     */
    static Plan gather(final CommState c, final Object sendBuf, final int sendOffset, final int sendCount, final Datatype sendType,
        final Object recvBuf, final int recvOffset, final int recvCount, final Datatype recvType, final int root, final boolean now)
    {
        if (nodeSelected(c, CollContext.of(c).params.gatherAlgorithm, true))
        {
            final String call = "gather";
            checkRooted(call, c, root, sendBuf, sendOffset, sendCount, sendType, false);
            if (c.rank() == root)
            {
                Buffers.checkBlocks(call, recvBuf, recvOffset, recvCount, recvType, c.size(), true);
            }
            if (now)
            {
                nodeNow(c, call);
                NodeCollectives.gather(c, nodeSlot(c), true, sendBuf == IN_PLACE ? null : sendBuf, sendOffset, sendCount, sendType, recvBuf,
                    recvOffset, recvCount, recvType, root);
                return null;
            }
            return nodePlan(c, call, () -> NodeCollectives.gather(c, nodeSlot(c), false, sendBuf == IN_PLACE ? null : sendBuf, sendOffset,
                sendCount, sendType, recvBuf, recvOffset, recvCount, recvType, root)).withDirect(tag -> directOf(linearGather(c, sendBuf,
                sendOffset, sendCount, sendType, recvBuf, recvOffset, recvCount, recvType, root), tag));
        }
        return linearGather(c, sendBuf, sendOffset, sendCount, sendType, recvBuf, recvOffset, recvCount, recvType, root);
    }

    private static Plan linearGather(final CommState c, final Object sendBuf, final int sendOffset, final int sendCount,
        final Datatype sendType, final Object recvBuf, final int recvOffset, final int recvCount, final Datatype recvType, final int root)
    {
        final int size = c.size();
        final int[] counts = new int[size];
        final int[] displs = new int[size];
        for (int i = 0; i < size; i++)
        {
            counts[i] = recvCount;
            displs[i] = i * recvCount;
        }
        return gatherv(c, "gather", K_GATHER, sendBuf, sendOffset, sendCount, sendType, recvBuf, recvOffset, counts, displs, recvType,
            root);
    }

    /**
     * The checks a rooted call's builder makes of the argument every rank passes ({@code own}: gather's send part,
     * scatter's receive part, where {@code receive}): a valid root, IN_PLACE only at the root, the part inside its buffer.
     */
    private static void checkRooted(final String call, final CommState c, final int root, final Object own, final int ownOffset,
        final int ownCount, final Datatype ownType, final boolean receive)
    {
        checkRoot(call, c, root);
        if (own == IN_PLACE)
        {
            if (c.rank() != root)
            {
                throw new MpiException(ErrorClass.ERR_BUFFER, call + ": IN_PLACE is only allowed at the root");
            }
        }
        else if (receive)
        {
            Buffers.checkRecv(call, own, ownOffset, ownCount, ownType);
        }
        else
        {
            Buffers.checkSend(call, own, ownOffset, ownCount, ownType);
        }
    }

    static Plan gatherv(final CommState c, final Object sendBuf, final int sendOffset, final int sendCount, final Datatype sendType,
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
            final Buffers.Slot mine = new Buffers.Slot(sendBuf, sendOffset, sendCount, sendType);
            return plan(c, call, kind, root, s).withDirect(tag ->
            {
                final DirectPersistent.Mode mode = directMode(c, "gather", kind == K_GATHER ? Buffers.packedBytes(call, sendCount, sendType) : 0);
                return mode == null ? null : DirectCollectives.gather(c, call, tag, mode, mine, null, null, root);
            });
        }
        final Buffers.Slot[] slots = vectorSlots(call, c, recvBuf, recvOffset, recvCounts, displs, recvType, true);
        Buffers.Slot own = null;
        if (sendBuf != IN_PLACE)
        {
            Buffers.checkSend(call, sendBuf, sendOffset, sendCount, sendType);
            final Buffers.Slot mine = new Buffers.Slot(sendBuf, sendOffset, sendCount, sendType);
            own = mine;
            s.local(() -> Buffers.copy(call, mine, slots[root]));
        }
        for (int i = 1; i < size; i++)
        {
            final int from = (root + i) % size;
            recv(s, from, slots[from]);
        }
        s.next();
        final Buffers.Slot rootOwn = own;
        return plan(c, call, kind, root, s).withDirect(tag ->
        {
            final DirectPersistent.Mode mode = directMode(c, "gather", kind == K_GATHER ? Buffers.packedBytes(call, recvCounts[root], recvType) : 0);
            return mode == null ? null : DirectCollectives.gather(c, call, tag, mode, null, slots, rootOwn, root);
        });
    }

    /**
     * Linear scatter: the root posts one send per rank from its slot; the others receive. As a node collective, as gather.
     * {@code now}: a blocking call, which runs the node path here and returns null ({@link Collectives#run}).
     */
    static Plan scatter(final CommState c, final Object sendBuf, final int sendOffset, final int sendCount, final Datatype sendType,
        final Object recvBuf, final int recvOffset, final int recvCount, final Datatype recvType, final int root, final boolean now)
    {
        if (nodeSelected(c, CollContext.of(c).params.scatterAlgorithm, true))
        {
            final String call = "scatter";
            checkRooted(call, c, root, recvBuf, recvOffset, recvCount, recvType, true);
            if (c.rank() == root)
            {
                Buffers.checkBlocks(call, sendBuf, sendOffset, sendCount, sendType, c.size(), false);
            }
            if (now)
            {
                nodeNow(c, call);
                NodeCollectives.scatter(c, nodeSlot(c), true, sendBuf, sendOffset, sendCount, sendType, recvBuf == IN_PLACE ? null : recvBuf,
                    recvOffset, recvCount, recvType, root);
                return null;
            }
            return nodePlan(c, call, () -> NodeCollectives.scatter(c, nodeSlot(c), false, sendBuf, sendOffset, sendCount, sendType,
                recvBuf == IN_PLACE ? null : recvBuf, recvOffset, recvCount, recvType, root)).withDirect(tag -> directOf(linearScatter(c,
                sendBuf, sendOffset, sendCount, sendType, recvBuf, recvOffset, recvCount, recvType, root), tag));
        }
        return linearScatter(c, sendBuf, sendOffset, sendCount, sendType, recvBuf, recvOffset, recvCount, recvType, root);
    }

    private static Plan linearScatter(final CommState c, final Object sendBuf, final int sendOffset, final int sendCount,
        final Datatype sendType, final Object recvBuf, final int recvOffset, final int recvCount, final Datatype recvType, final int root)
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

    static Plan scatterv(final CommState c, final Object sendBuf, final int sendOffset, final int[] sendCounts, final int[] displs,
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
            final Buffers.Slot mine = new Buffers.Slot(recvBuf, recvOffset, recvCount, recvType);
            return plan(c, call, kind, root, s).withDirect(tag ->
            {
                final DirectPersistent.Mode mode = directMode(c, "scatter", kind == K_SCATTER ? Buffers.packedBytes(call, recvCount, recvType) : 0);
                return mode == null ? null : DirectCollectives.scatter(c, call, tag, mode, mine, null, null, root);
            });
        }
        final Buffers.Slot[] slots = vectorSlots(call, c, sendBuf, sendOffset, sendCounts, displs, sendType, false);
        Buffers.Slot own = null;
        if (recvBuf != IN_PLACE)
        {
            Buffers.checkRecv(call, recvBuf, recvOffset, recvCount, recvType);
            final Buffers.Slot mine = new Buffers.Slot(recvBuf, recvOffset, recvCount, recvType);
            own = mine;
            s.local(() -> Buffers.copy(call, slots[root], mine));
        }
        for (int i = 1; i < size; i++)
        {
            final int to = (root + i) % size;
            send(s, to, slots[to]);
        }
        s.next();
        final Buffers.Slot rootOwn = own;
        return plan(c, call, kind, root, s).withDirect(tag ->
        {
            final DirectPersistent.Mode mode = directMode(c, "scatter", kind == K_SCATTER ? Buffers.packedBytes(call, sendCounts[root], sendType) : 0);
            return mode == null ? null : DirectCollectives.scatter(c, call, tag, mode, null, slots, rootOwn, root);
        });
    }
}
