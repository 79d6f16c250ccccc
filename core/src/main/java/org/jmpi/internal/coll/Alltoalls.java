package org.jmpi.internal.coll;

import org.jmpi.Datatype;
import org.jmpi.ErrorClass;
import org.jmpi.MpiException;
import org.jmpi.internal.coll.node.NodeCollectives;
import org.jmpi.internal.pt2pt.CommState;

import static org.jmpi.internal.coll.Collectives.*;

/**
 * MPI_Alltoall, MPI_Alltoallv and MPI_Alltoallw over point-to-point schedules (linear, pairwise exchange and
 * Bruck's algorithm, chosen by block size and rank count), or through the node region where selected; split out
 * of {@link Collectives}, whose helpers (plans, slots, selection) they share.
 *
 * <p>Threading: the calling thread builds the plan; its schedule runs on the engine.
 */
final class Alltoalls
{
    /**
     * Alltoall blocks up to this size post everything at once, larger ones go pairwise: MPICH's
     * MPIR_CVAR_ALLTOALL_MEDIUM_MSG_SIZE, not yet measured on jmpi.
     */
    private static final int ALLTOALL_MEDIUM_BYTES = 32768;

    private Alltoalls()
    {
    }

    public static Plan alltoall(final CommState c, final Object sendBuf, final int sendOffset, final int sendCount, final Datatype sendType,
        final Object recvBuf, final int recvOffset, final int recvCount, final Datatype recvType)
    {
        return alltoall(c, sendBuf, sendOffset, sendCount, sendType, recvBuf, recvOffset, recvCount, recvType, false);
    }

    /** As above; {@code now}: a blocking call, which runs the node path here and returns null ({@link Collectives#run}). */
    public static Plan alltoall(final CommState c, final Object sendBuf, final int sendOffset, final int sendCount, final Datatype sendType,
        final Object recvBuf, final int recvOffset, final int recvCount, final Datatype recvType, final boolean now)
    {
        final String call = "alltoall";
        final CollParams p = CollContext.of(c).params;
        if (nodeSelected(c, p.alltoallAlgorithm))
        {
            // The checks of the builder below, without building it.
            Buffers.checkBlocks(call, recvBuf, recvOffset, recvCount, recvType, c.size(), true);
            final int blockBytes = Buffers.packedBytes(call, recvCount, recvType);
            if (sendBuf != IN_PLACE)
            {
                if (sendType == null)
                {
                    throw new MpiException(ErrorClass.ERR_TYPE, call + ": datatype is null");
                }
                Buffers.checkBlocks(call, sendBuf, sendOffset, sendCount, sendType, c.size(), false);
                if ((long)sendCount * sendType.size() != blockBytes)
                {
                    throw new MpiException(ErrorClass.ERR_TRUNCATE, call + ": send blocks are " + (long)sendCount * sendType.size() +
                        " bytes, receive blocks " + blockBytes + " bytes (counts or types do not match)");
                }
            }
            if (sendBuf != IN_PLACE || NodeCollectives.alltoallInPlaceFits(c, p.nodeSlotBytes, blockBytes))
            {
                if (now)
                {
                    Collectives.nodeNow(c, call);
                    NodeCollectives.alltoall(c, p.nodeSlotBytes, true, sendBuf == IN_PLACE ? null : sendBuf, sendOffset, sendCount, sendType,
                        recvBuf, recvOffset, recvCount, recvType);
                    return null;
                }
                return nodePlan(c, call, () -> NodeCollectives.alltoall(c, p.nodeSlotBytes, false, sendBuf == IN_PLACE ? null : sendBuf,
                    sendOffset, sendCount, sendType, recvBuf, recvOffset, recvCount, recvType));
            }
        }
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
        String algorithm = p.alltoallAlgorithm;
        if (algorithm.equals("auto") || algorithm.equals("node"))
        {
            algorithm = blockBytes <= p.alltoallShort && size >= 8 ? "bruck" : blockBytes <= ALLTOALL_MEDIUM_BYTES ? "linear" : "pairwise";
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
        return plan(c, call, K_ALLTOALL, 0, blockBytes, s);
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
}
