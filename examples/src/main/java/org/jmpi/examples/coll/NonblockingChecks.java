package org.jmpi.examples.coll;

import java.util.Arrays;

import org.jmpi.Datatype;
import org.jmpi.Intracomm;
import org.jmpi.Op;
import org.jmpi.Request;

import static org.jmpi.examples.coll.SelfCheckData.*;
import static org.jmpi.examples.coll.MatrixProduct.*;

/** The nonblocking and persistent collectives of {@link CollectiveSelfCheck}. */
final class NonblockingChecks
{
    static final int PERSISTENT_STARTS = 100;

    private NonblockingChecks()
    {
    }

    /**
     * ibarrier, ibcast, igather, iscatterv, iallgather, iallgatherv, ialltoall, ialltoallv, ireduce, iallreduce with
     * the non-commutative op, iscan, iexscan, ireduce_scatter_block and ireduce_scatter all in flight, completed in reverse order.
     */
    static void checkNonblocking(final Intracomm world, final int count)
    {
        final int rank = world.rank();
        final int size = world.size();
        final String at = " (nonblocking) count " + count;
        final int root = (count + 2) % size;
        final int[] counts = vcounts(size, count);
        final int[] displs = reverseDispls(counts, 1);
        final int total = displs[size];
        final int[] in = own(rank, count);

        final int[] bc = rank == root ? own(root, count) : filled(count);
        final int[] gathered = filled(size * count);
        final int[] vblocks = filled(total);
        for (int r = 0; r < size; r++)
        {
            System.arraycopy(own(r, counts[r]), 0, vblocks, displs[r], counts[r]);
        }
        final int[] vpiece = filled(counts[rank]);
        final int[] all = filled(size * count);
        final int[] allv = filled(total);
        final int[] a2aOut = new int[size * count];
        Arrays.setAll(a2aOut, k -> code(rank, k / Math.max(1, count), k % Math.max(1, count)));
        final int[] a2a = filled(size * count);
        final int[] pair = new int[size];
        final int[] pairBack = new int[size];
        for (int j = 0; j < size; j++)
        {
            pair[j] = pairCount(rank, j, count);
            pairBack[j] = pairCount(j, rank, count);
        }
        final int[] pairDispls = reverseDispls(pair, 0);
        final int[] backDispls = reverseDispls(pairBack, 1);
        final int[] vOut = new int[pairDispls[size]];
        for (int j = 0; j < size; j++)
        {
            for (int i = 0; i < pair[j]; i++)
            {
                vOut[pairDispls[j] + i] = code(rank, j, i);
            }
        }
        final int[] vIn = filled(backDispls[size]);
        final int[] reduced = filled(count);
        final int[] mats = matrices(rank, count);
        final int[] matAll = new int[4 * count];
        final int[] scanned = filled(count);
        final int[] exscanned = filled(count);
        final int[] vector = new int[size * count];
        Arrays.setAll(vector, k -> value(rank, k));
        final int[] block = filled(count);
        final int[] vtotal = {0};
        for (final int c : counts)
        {
            vtotal[0] += c;
        }
        final int[] whole = new int[vtotal[0]];
        Arrays.setAll(whole, k -> value(rank, k));
        final int[] mine = filled(counts[rank]);

        final Request[] requests = {
            world.ibarrier(),
            world.ibcast(bc, 0, count, Datatype.INT, root),
            world.igather(in, 0, count, Datatype.INT, gathered, 0, count, Datatype.INT, root),
            world.iscatterv(rank == root ? vblocks : null, 0, counts, displs, Datatype.INT, vpiece, 0, counts[rank], Datatype.INT, root),
            world.iallgather(in, 0, count, Datatype.INT, all, 0, count, Datatype.INT),
            world.iallgatherv(own(rank, counts[rank]), 0, counts[rank], Datatype.INT, allv, 0, counts, displs, Datatype.INT),
            world.ialltoall(a2aOut, 0, count, Datatype.INT, a2a, 0, count, Datatype.INT),
            world.ialltoallv(vOut, 0, pair, pairDispls, Datatype.INT, vIn, 0, pairBack, backDispls, Datatype.INT),
            world.ireduce(in, 0, reduced, 0, count, Datatype.INT, Op.SUM, root),
            world.iallreduce(mats, 0, matAll, 0, count, MATRIX, MATMUL),
            world.iscan(in, 0, scanned, 0, count, Datatype.INT, Op.SUM),
            world.iexscan(in, 0, exscanned, 0, count, Datatype.INT, Op.SUM),
            world.ireduceScatterBlock(vector, 0, block, 0, count, Datatype.INT, Op.SUM),
            world.ireduceScatter(whole, 0, mine, 0, counts, Datatype.INT, Op.SUM),
        };
        for (int k = requests.length - 1; k >= 0; k--)
        {
            requests[k].await();
        }

        check(Arrays.equals(bc, own(root, count)), "ibcast" + at);
        if (rank == root)
        {
            for (int r = 0; r < size; r++)
            {
                check(Arrays.equals(Arrays.copyOfRange(gathered, r * count, (r + 1) * count), own(r, count)), "igather" + at);
            }
        }
        check(Arrays.equals(vpiece, own(rank, counts[rank])), "iscatterv" + at);
        checkBlocks(allv, counts, displs, "iallgatherv" + at);
        int start = 0;
        for (int r = 0; r < rank; r++)
        {
            start += counts[r];
        }
        for (int i = 0; i < count; i++)
        {
            for (int r = 0; r < size; r++)
            {
                check(all[r * count + i] == value(r, i), "iallgather" + at);
                check(a2a[r * count + i] == code(r, rank, i), "ialltoall" + at);
            }
            check(rank != root || reduced[i] == sum(0, size, i), "ireduce" + at);
            check(scanned[i] == sum(0, rank + 1, i), "iscan" + at);
            check(rank == 0 || exscanned[i] == sum(0, rank, i), "iexscan" + at);
            check(block[i] == sum(0, size, rank * count + i), "ireduce_scatter_block" + at);
        }
        for (int i = 0; i < counts[rank]; i++)
        {
            check(mine[i] == sum(0, size, start + i), "ireduce_scatter" + at);
        }
        for (int j = 0; j < size; j++)
        {
            for (int i = 0; i < pairBack[j]; i++)
            {
                check(vIn[backDispls[j] + i] == code(j, rank, i), "ialltoallv" + at + " from rank " + j);
            }
        }
        check(Arrays.equals(matAll, product(0, size, count)), "iallreduce (non-commutative)" + at);
    }

    /** bcastInit and allreduceInit, both in flight at every start, started 100 times with changing contents. */
    static void checkPersistent(final Intracomm world, final int count)
    {
        final int rank = world.rank();
        final int size = world.size();
        final int root = size - 1;
        final int[] bc = new int[count];
        final int[] in = new int[count];
        final int[] out = new int[count];
        final Request bcast = world.bcastInit(bc, 0, count, Datatype.INT, root);
        final Request allreduce = world.allreduceInit(in, 0, out, 0, count, Datatype.INT, Op.SUM);
        for (int start = 0; start < PERSISTENT_STARTS; start++)
        {
            final int epoch = start;
            if (rank == root)
            {
                Arrays.setAll(bc, i -> value(root, i) * (epoch + 1));
            }
            else
            {
                Arrays.fill(bc, SENTINEL);
            }
            Arrays.setAll(in, i -> value(rank, i) + epoch * rank);
            Arrays.fill(out, SENTINEL);
            bcast.start();
            allreduce.start();
            Request.waitAll(bcast, allreduce);
            for (int i = 0; i < count; i++)
            {
                check(bc[i] == value(root, i) * (epoch + 1), "bcastInit start " + start + " count " + count);
                check(out[i] == sum(0, size, i) + epoch * (size * (size - 1) / 2), "allreduceInit start " + start + " count " + count);
            }
        }
        bcast.free();
        allreduce.free();
    }
}
