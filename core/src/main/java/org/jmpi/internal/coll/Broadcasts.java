package org.jmpi.internal.coll;

import org.jmpi.Datatype;
import org.jmpi.internal.coll.hier.HierCollectives;
import org.jmpi.internal.coll.node.NodeCollectives;
import org.jmpi.internal.pt2pt.CommState;

import static org.jmpi.internal.coll.Collectives.*;

/**
 * MPI_Bcast over point-to-point schedules (binomial tree; scatter + ring allgather for long messages), through the
 * node region or the two-level layout where selected; split out of {@link Collectives}, whose helpers (plans, slots,
 * selection) it shares.
 *
 * <p>Threading: the calling thread builds the plan; its schedule runs on the engine.
 */
final class Broadcasts
{
    private Broadcasts()
    {
    }

    /**
     * MPI_Bcast: the node collectives where selected, else a binomial tree for short messages or few ranks and
     * scatter + ring allgather for long ones. {@code now}: a blocking call, which runs the node path here and returns
     * null ({@link Collectives#run}).
     */
    static Plan bcast(final CommState c, final Object buf, final int offset, final int count, final Datatype type, final int root,
        final boolean now)
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
        if (twoLevelComm(c, p.bcastAlgorithm, null) != null)
        {
            return twoLevel(c, call, p.bcastAlgorithm, null, h -> HierCollectives.bcast(h, buf, offset, count, type, root));
        }
        final boolean node = nodeSelected(c, p.bcastAlgorithm);
        if (node && now)
        {
            nodeNow(c, call);
            NodeCollectives.bcast(c, p.nodeSlotBytes, true, buf, offset, count, type, root);
            return null;
        }
        final DirectFactory direct = tag ->
        {
            final DirectPersistent.Mode mode = directMode(c, call, bytes);
            return mode == null ? null : DirectCollectives.bcast(c, tag, mode, buf, offset, count, type, root);
        };
        if (node)
        {
            return nodePlan(c, call, () -> NodeCollectives.bcast(c, p.nodeSlotBytes, false, buf, offset, count, type, root)).withDirect(direct);
        }
        // "node" where the node collectives are not available (ranks on other nodes): as auto.
        final String algorithm = p.bcastAlgorithm.equals("auto") || p.bcastAlgorithm.equals("node") ?
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
        return plan(c, call, K_BCAST, root, bytes, s).withDirect(direct);
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
}
