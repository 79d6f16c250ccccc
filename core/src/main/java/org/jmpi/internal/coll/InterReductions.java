package org.jmpi.internal.coll;

import static org.jmpi.internal.coll.InterSteps.*;

import org.jmpi.Datatype;
import org.jmpi.Op;
import org.jmpi.internal.coll.Collectives.Plan;
import org.jmpi.internal.coll.InterCollectives.Groups;
import org.jmpi.internal.coll.Reductions.Reduction;

/**
 * The reductions over an intercommunicator (reduce, allreduce, reduce_scatter, reduce_scatter_block): each group
 * reduces to its leader in rank order, the leaders exchange or send to the root (see {@link InterCollectives} for
 * the algorithms); split out of {@link InterCollectives}.
 *
 * <p>Threading: the calling thread builds the plan; its schedule runs on the engine.
 */
final class InterReductions
{
    private InterReductions()
    {
    }


    /**
     * MPI_Reduce: the root receives the reduction (in rank order) of the other group's operands.
     * <ol>
     * <li>The other group packs its operands and reduces them to its leader (binomial tree rooted at the
     * leader: children combined in increasing rank, so non-commutative ops keep rank order).</li>
     * <li>Its leader sends the result to the root, which unpacks it into its receive buffer.</li>
     * </ol>
     */
    static Plan reduce(final Groups g, final Object sendBuf, final int sendOffset, final Object recvBuf, final int recvOffset,
        final int count, final Datatype type, final Op op, final int root)
    {
        final String call = "reduce";
        noInPlace(call, sendBuf, recvBuf);
        final Role role = role(call, g, root);
        final Schedule s = new Schedule();
        if (role == Role.ROOT)
        {
            Buffers.checkRecv(call, recvBuf, recvOffset, count, type);
            Reduction.of(call, op, type);
            final int bytes = Buffers.packedBytes(call, count, type);
            final byte[] result = new byte[bytes];
            s.recvBytes(g.remote(0), result, 0, bytes);
            s.next();
            final Buffers.Slot out = new Buffers.Slot(recvBuf, recvOffset, count, type);
            s.local(() -> Buffers.unpack(result, 0, out));
        }
        else if (role == Role.REMOTE)
        {
            Buffers.checkSend(call, sendBuf, sendOffset, count, type);
            final Reduction red = Reduction.of(call, op, type);
            final int bytes = Buffers.packedBytes(call, count, type);
            final byte[] acc = new byte[bytes];
            final Buffers.Slot in = new Buffers.Slot(sendBuf, sendOffset, count, type);
            s.local(() -> Buffers.pack(in, acc, 0));
            groupReduce(s, g, red, acc, bytes);
            if (g.leader())
            {
                s.sendBytes(g.remote(root), acc, 0, bytes);
                s.next();
            }
        }
        return plan(g, call, Collectives.K_REDUCE, s);
    }

    /**
     * MPI_Allreduce: each group receives the reduction (in rank order) of the other group's operands.
     * <ol>
     * <li>Each group packs its operands and reduces them to its leader (binomial, rank order kept).</li>
     * <li>The leaders exchange their groups' results.</li>
     * <li>Each leader broadcasts the other group's result in its group (binomial); everyone unpacks it.</li>
     * </ol>
     */
    static Plan allreduce(final Groups g, final Object sendBuf, final int sendOffset, final Object recvBuf, final int recvOffset,
        final int count, final Datatype type, final Op op)
    {
        final String call = "allreduce";
        noInPlace(call, sendBuf, recvBuf);
        Buffers.checkSend(call, sendBuf, sendOffset, count, type);
        Buffers.checkRecv(call, recvBuf, recvOffset, count, type);
        final Reduction red = Reduction.of(call, op, type);
        final int bytes = Buffers.packedBytes(call, count, type);
        final byte[] acc = new byte[bytes];
        final byte[] theirs = new byte[bytes];
        final Buffers.Slot in = new Buffers.Slot(sendBuf, sendOffset, count, type);
        final Buffers.Slot out = new Buffers.Slot(recvBuf, recvOffset, count, type);
        final Schedule s = new Schedule();
        s.local(() -> Buffers.pack(in, acc, 0));
        groupReduce(s, g, red, acc, bytes);
        exchangeLeaders(s, g, acc, theirs, bytes);
        groupBcast(s, g, new Buffers.Slot(theirs, 0, bytes, Datatype.BYTE));
        s.local(() -> Buffers.unpack(theirs, 0, out));
        return plan(g, call, Collectives.K_ALLREDUCE, s);
    }

    /**
     * MPI_Reduce_scatter_block: each group's vector of L * recvCount items (L its own size) is reduced, and
     * the other group's result is scattered in blocks of {@code recvCount} items over this group (local rank
     * i gets block i). Both groups' vectors must have the same length.
     */
    static Plan reduceScatterBlock(final Groups g, final Object sendBuf, final int sendOffset, final Object recvBuf,
        final int recvOffset, final int recvCount, final Datatype type, final Op op)
    {
        return reduceScatter(g, "reduceScatterBlock", Collectives.K_REDUCE_SCATTER_BLOCK, sendBuf, sendOffset, recvBuf, recvOffset,
            evenCounts(g.localSize(), recvCount), type, op);
    }

    /**
     * MPI_Reduce_scatter: each group's vector of sum(recvCounts) items ({@code recvCounts} has one entry per
     * member of this group) is reduced, and the other group's result is scattered over this group, local rank
     * i getting {@code recvCounts[i]} items. Both groups' vectors must have the same length.
     */
    static Plan reduceScatter(final Groups g, final Object sendBuf, final int sendOffset, final Object recvBuf,
        final int recvOffset, final int[] recvCounts, final Datatype type, final Op op)
    {
        return reduceScatter(g, "reduceScatter", Collectives.K_REDUCE_SCATTER, sendBuf, sendOffset, recvBuf, recvOffset, recvCounts,
            type, op);
    }

    /**
     * Reduce-scatter across the groups:
     * <ol>
     * <li>Each group packs its whole vectors and reduces them to its leader (binomial, rank order kept).</li>
     * <li>The leaders exchange their groups' results.</li>
     * <li>Each leader sends local rank i its part (bytes of {@code recvCounts[i]} items) of the other group's
     * result; everyone unpacks its part.</li>
     * </ol>
     */
    private static Plan reduceScatter(final Groups g, final String call, final int kind, final Object sendBuf, final int sendOffset,
        final Object recvBuf, final int recvOffset, final int[] recvCounts, final Datatype type, final Op op)
    {
        noInPlace(call, sendBuf, recvBuf);
        final int size = g.localSize();
        final int rank = g.rank();
        final Reductions.ScatterBlocks blocks = Reductions.ScatterBlocks.of(call, recvCounts, size, " (the local group's size)", type);
        final int[] disps = blocks.disps();
        final int bytes = disps[size];
        final int totalCount = blocks.totalCount();
        Buffers.checkSend(call, sendBuf, sendOffset, totalCount, type);
        Buffers.checkRecv(call, recvBuf, recvOffset, recvCounts[rank], type);
        final Reduction red = Reduction.of(call, op, type);
        final byte[] acc = new byte[bytes];
        final byte[] theirs = new byte[bytes];
        final Buffers.Slot in = new Buffers.Slot(sendBuf, sendOffset, totalCount, type);
        final Buffers.Slot out = new Buffers.Slot(recvBuf, recvOffset, recvCounts[rank], type);
        final Schedule s = new Schedule();
        s.local(() -> Buffers.pack(in, acc, 0));
        groupReduce(s, g, red, acc, bytes);
        exchangeLeaders(s, g, acc, theirs, bytes);
        if (g.leader())
        {
            for (int i = 1; i < size; i++)
            {
                s.sendBytes(g.local(i), theirs, disps[i], disps[i + 1] - disps[i]);
            }
        }
        else
        {
            s.recvBytes(g.local(0), theirs, disps[rank], disps[rank + 1] - disps[rank]);
        }
        s.next();
        s.local(() -> Buffers.unpack(theirs, disps[rank], out));
        return plan(g, call, kind, s);
    }
}
