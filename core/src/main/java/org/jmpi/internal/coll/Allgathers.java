package org.jmpi.internal.coll;

import org.jmpi.Datatype;
import org.jmpi.internal.coll.hier.HierCollectives;
import org.jmpi.internal.coll.node.NodeCollectives;
import org.jmpi.internal.pt2pt.CommState;

import static org.jmpi.internal.coll.Collectives.*;

/**
 * MPI_Allgather and MPI_Allgatherv: recursive doubling on power-of-two sizes, else a ring straight between the ranks'
 * receive buffers; allgather through the node region or the two-level layout where selected. Split out of
 * {@link Collectives}, whose helpers (plans, slots, selection) they share.
 *
 * <p>Threading: the calling thread builds the plan; its schedule runs on the engine.
 */
final class Allgathers
{
    private Allgathers()
    {
    }

    /**
     * MPI_Allgather: the node collectives where selected (the arguments checked as the builder below checks them,
     * without building it), else the point-to-point schedule. {@code now}: a blocking call, which runs the node path
     * here and returns null ({@link Collectives#run}).
     */
    static Plan allgather(final CommState c, final Object sendBuf, final int sendOffset, final int sendCount, final Datatype sendType,
        final Object recvBuf, final int recvOffset, final int recvCount, final Datatype recvType, final boolean now)
    {
        final String call = "allgather";
        final String algorithm = CollContext.of(c).params.allgatherAlgorithm;
        if (nodeSelected(c, algorithm) && twoLevelComm(c, algorithm, null) == null)
        {
            // The checks of the builder below, without building it.
            Buffers.checkBlocks(call, recvBuf, recvOffset, recvCount, recvType, c.size(), true);
            if (sendBuf != IN_PLACE)
            {
                Buffers.checkSend(call, sendBuf, sendOffset, sendCount, sendType);
            }
            if (now)
            {
                nodeNow(c, call);
                NodeCollectives.allgather(c, nodeSlot(c), true, sendBuf == IN_PLACE ? null : sendBuf, sendOffset, sendCount, sendType, recvBuf,
                    recvOffset, recvCount, recvType);
                return null;
            }
            return nodePlan(c, call, () -> NodeCollectives.allgather(c, nodeSlot(c), false, sendBuf == IN_PLACE ? null : sendBuf, sendOffset,
                sendCount, sendType, recvBuf, recvOffset, recvCount, recvType)).withDirect(tag -> directOf(allgatherP2p(c, sendBuf,
                sendOffset, sendCount, sendType, recvBuf, recvOffset, recvCount, recvType), tag));
        }
        return allgatherP2p(c, sendBuf, sendOffset, sendCount, sendType, recvBuf, recvOffset, recvCount, recvType);
    }

    private static Plan allgatherP2p(final CommState c, final Object sendBuf, final int sendOffset, final int sendCount,
        final Datatype sendType, final Object recvBuf, final int recvOffset, final int recvCount, final Datatype recvType)
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
        final Plan twoLevel = twoLevel(c, call, algorithm, null, h -> HierCollectives.allgather(h, sendBuf, sendOffset, sendCount, sendType,
            recvBuf, recvOffset, recvCount, recvType));
        if (twoLevel != null)
        {
            return twoLevel;
        }
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
        final Buffers.Slot own = sendBuf == IN_PLACE ? null : new Buffers.Slot(sendBuf, sendOffset, sendCount, sendType);
        final int bytes = Buffers.packedBytes(call, recvCount, recvType);
        return plan(c, call, K_ALLGATHER, 0, bytes, s).withDirect(tag ->
        {
            final DirectPersistent.Mode mode = directMode(c, call, bytes);
            return mode == null ? null : DirectCollectives.allgather(c, tag, mode, slots, own);
        });
    }

    static Plan allgatherv(final CommState c, final Object sendBuf, final int sendOffset, final int sendCount, final Datatype sendType,
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
}
