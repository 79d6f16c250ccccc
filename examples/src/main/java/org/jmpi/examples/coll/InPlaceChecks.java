package org.jmpi.examples.coll;

import java.util.Arrays;

import org.jmpi.Comm;
import org.jmpi.Datatype;
import org.jmpi.Intracomm;
import org.jmpi.Op;

import static org.jmpi.examples.coll.SelfCheckData.*;

/** The IN_PLACE forms of {@link CollectiveSelfCheck}. */
final class InPlaceChecks
{
    private InPlaceChecks()
    {
    }

    /** Every IN_PLACE form: allreduce, reduce, scan, exscan, gather(v), scatter(v), allgather(v), alltoall(v), reduce_scatter(_block). */
    static void checkInPlace(final Intracomm world, final int count)
    {
        final int rank = world.rank();
        final int size = world.size();
        final String at = " IN_PLACE count " + count;

        int[] buf = own(rank, count);
        world.allreduce(Comm.IN_PLACE, 0, buf, 0, count, Datatype.INT, Op.SUM);
        for (int i = 0; i < count; i++)
        {
            check(buf[i] == sum(0, size, i), "allreduce" + at);
        }

        final int root = 1 % size;
        buf = own(rank, count);
        world.reduce(rank == root ? Comm.IN_PLACE : buf, 0, rank == root ? buf : null, 0, count, Datatype.INT, Op.SUM, root);
        for (int i = 0; i < count && rank == root; i++)
        {
            check(buf[i] == sum(0, size, i), "reduce" + at);
        }

        buf = own(rank, count);
        world.scan(Comm.IN_PLACE, 0, buf, 0, count, Datatype.INT, Op.SUM);
        for (int i = 0; i < count; i++)
        {
            check(buf[i] == sum(0, rank + 1, i), "scan" + at);
        }
        buf = own(rank, count);
        world.exscan(Comm.IN_PLACE, 0, buf, 0, count, Datatype.INT, Op.SUM);
        for (int i = 0; i < count && rank > 0; i++)
        {
            check(buf[i] == sum(0, rank, i), "exscan" + at);
        }

        // gather: the root's own block is already in place.
        final int gatherRoot = size - 1;
        int[] all = filled(size * count);
        if (rank == gatherRoot)
        {
            System.arraycopy(own(rank, count), 0, all, rank * count, count);
            world.gather(Comm.IN_PLACE, 0, count, Datatype.INT, all, 0, count, Datatype.INT, gatherRoot);
            final int[] counts = new int[size];
            final int[] displs = new int[size];
            for (int r = 0; r < size; r++)
            {
                counts[r] = count;
                displs[r] = r * count;
            }
            checkBlocks(all, counts, displs, "gather" + at);
        }
        else
        {
            world.gather(own(rank, count), 0, count, Datatype.INT, null, 0, count, Datatype.INT, gatherRoot);
        }

        // gatherv, scatterv, allgatherv with zero counts and reversed blocks, IN_PLACE at the root / everywhere.
        final int[] counts = vcounts(size, count);
        final int[] displs = reverseDispls(counts, 3);
        final int total = displs[size];
        all = filled(total);
        if (rank == 0)
        {
            System.arraycopy(own(0, counts[0]), 0, all, displs[0], counts[0]);
            world.gatherv(Comm.IN_PLACE, 0, counts[0], Datatype.INT, all, 0, counts, displs, Datatype.INT, 0);
            checkBlocks(all, counts, displs, "gatherv" + at);
        }
        else
        {
            world.gatherv(own(rank, counts[rank]), 0, counts[rank], Datatype.INT, null, 0, counts, displs, Datatype.INT, 0);
        }

        // scatter(v): the root's block stays in its send buffer.
        final int scatterRoot = size / 2;
        final int[] blocks = filled(size * count);
        for (int r = 0; r < size; r++)
        {
            System.arraycopy(own(r, count), 0, blocks, r * count, count);
        }
        final int[] piece = filled(count);
        if (rank == scatterRoot)
        {
            final int[] before = blocks.clone();
            world.scatter(blocks, 0, count, Datatype.INT, Comm.IN_PLACE, 0, count, Datatype.INT, scatterRoot);
            check(Arrays.equals(before, blocks), "scatter" + at + ": the root's send buffer changed");
        }
        else
        {
            world.scatter(null, 0, count, Datatype.INT, piece, 0, count, Datatype.INT, scatterRoot);
            check(Arrays.equals(piece, own(rank, count)), "scatter" + at);
        }
        final int[] vblocks = filled(total);
        for (int r = 0; r < size; r++)
        {
            System.arraycopy(own(r, counts[r]), 0, vblocks, displs[r], counts[r]);
        }
        final int[] vpiece = filled(counts[rank] + 1);
        if (rank == scatterRoot)
        {
            world.scatterv(vblocks, 0, counts, displs, Datatype.INT, Comm.IN_PLACE, 0, counts[rank], Datatype.INT, scatterRoot);
        }
        else
        {
            world.scatterv(null, 0, counts, displs, Datatype.INT, vpiece, 0, counts[rank], Datatype.INT, scatterRoot);
            check(Arrays.equals(Arrays.copyOf(vpiece, counts[rank]), own(rank, counts[rank])) && vpiece[counts[rank]] == SENTINEL,
                "scatterv" + at);
        }

        // allgather(v): the own block is already in place.
        all = filled(size * count);
        System.arraycopy(own(rank, count), 0, all, rank * count, count);
        world.allgather(Comm.IN_PLACE, 0, count, Datatype.INT, all, 0, count, Datatype.INT);
        for (int r = 0; r < size; r++)
        {
            for (int i = 0; i < count; i++)
            {
                check(all[r * count + i] == value(r, i), "allgather" + at);
            }
        }
        all = filled(total);
        System.arraycopy(own(rank, counts[rank]), 0, all, displs[rank], counts[rank]);
        world.allgatherv(Comm.IN_PLACE, 0, counts[rank], Datatype.INT, all, 0, counts, displs, Datatype.INT);
        checkBlocks(all, counts, displs, "allgatherv" + at);

        // alltoall(v): the data is taken from the receive buffer and replaced.
        buf = new int[size * count];
        Arrays.setAll(buf, k -> code(rank, k / Math.max(1, count), k % Math.max(1, count)));
        world.alltoall(Comm.IN_PLACE, 0, count, Datatype.INT, buf, 0, count, Datatype.INT);
        for (int r = 0; r < size; r++)
        {
            for (int i = 0; i < count; i++)
            {
                check(buf[r * count + i] == code(r, rank, i), "alltoall" + at);
            }
        }
        final int[] pair = new int[size];
        Arrays.setAll(pair, j -> symmetricCount(rank, j, count));
        final int[] pairDispls = reverseDispls(pair, 2);
        buf = filled(pairDispls[size]);
        for (int j = 0; j < size; j++)
        {
            for (int i = 0; i < pair[j]; i++)
            {
                buf[pairDispls[j] + i] = code(rank, j, i);
            }
        }
        world.alltoallv(Comm.IN_PLACE, 0, null, null, Datatype.INT, buf, 0, pair, pairDispls, Datatype.INT);
        for (int j = 0; j < size; j++)
        {
            for (int i = 0; i < pair[j]; i++)
            {
                check(buf[pairDispls[j] + i] == code(j, rank, i), "alltoallv" + at + " from rank " + j);
            }
            check(buf[pairDispls[j] + pair[j]] == SENTINEL, "alltoallv" + at + ": gap after the block from rank " + j);
        }

        // reduce_scatter(_block): the input is the receive buffer's whole vector, the result its first block.
        buf = new int[size * count];
        Arrays.setAll(buf, k -> value(rank, k));
        world.reduceScatterBlock(Comm.IN_PLACE, 0, buf, 0, count, Datatype.INT, Op.SUM);
        for (int i = 0; i < count; i++)
        {
            check(buf[i] == sum(0, size, rank * count + i), "reduce_scatter_block" + at);
        }
        int vtotal = 0;
        for (final int c : counts)
        {
            vtotal += c;
        }
        int start = 0;
        for (int r = 0; r < rank; r++)
        {
            start += counts[r];
        }
        buf = new int[vtotal];
        Arrays.setAll(buf, k -> value(rank, k));
        world.reduceScatter(Comm.IN_PLACE, 0, buf, 0, counts, Datatype.INT, Op.SUM);
        for (int i = 0; i < counts[rank]; i++)
        {
            check(buf[i] == sum(0, size, start + i), "reduce_scatter" + at);
        }
    }
}
