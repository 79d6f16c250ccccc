package org.jmpi.examples.coll;

import java.util.Arrays;

import org.jmpi.Comm;
import org.jmpi.Datatype;
import org.jmpi.Intracomm;
import org.jmpi.Op;

import static org.jmpi.examples.coll.SelfCheckData.*;
import static org.jmpi.examples.coll.MatrixProduct.*;

/** The reductions of {@link CollectiveSelfCheck} beyond the basic ones, with the built-in ops and the non-commutative one. */
final class ReductionChecks
{
    private ReductionChecks()
    {
    }

    /** reduce_scatter_block, reduce_scatter (zero counts), exscan, reduce_local, reduce to a non-zero root with MIN. */
    static void checkReductions(final Intracomm world, final int count)
    {
        final int rank = world.rank();
        final int size = world.size();
        final String at = " count " + count;

        final int[] vector = new int[size * count];
        Arrays.setAll(vector, k -> value(rank, k));
        final int[] block = filled(count);
        world.reduceScatterBlock(vector, 0, block, 0, count, Datatype.INT, Op.SUM);
        for (int i = 0; i < count; i++)
        {
            check(block[i] == sum(0, size, rank * count + i), "reduce_scatter_block" + at);
        }

        final int[] counts = vcounts(size, count);
        int vtotal = 0;
        int start = 0;
        for (int r = 0; r < size; r++)
        {
            start += r < rank ? counts[r] : 0;
            vtotal += counts[r];
        }
        final int[] whole = new int[vtotal];
        Arrays.setAll(whole, k -> value(rank, k));
        final int[] mine = filled(counts[rank] + 1);
        world.reduceScatter(whole, 0, mine, 0, counts, Datatype.INT, Op.SUM);
        for (int i = 0; i < counts[rank]; i++)
        {
            check(mine[i] == sum(0, size, start + i), "reduce_scatter" + at);
        }
        check(mine[counts[rank]] == SENTINEL, "reduce_scatter" + at + ": wrote past its block");

        final long[] lin = new long[count];
        Arrays.setAll(lin, i -> value(rank, i));
        final long[] ex = new long[count];
        Arrays.fill(ex, SENTINEL);
        world.exscan(lin, 0, ex, 0, count, Datatype.LONG, Op.SUM);
        for (int i = 0; i < count && rank > 0; i++)
        {
            check(ex[i] == sum(0, rank, i), "exscan" + at);
        }

        final int[] min = new int[count];
        final int root = size / 2;
        final int[] negated = new int[count];
        Arrays.setAll(negated, i -> -value(rank, i));
        world.reduce(negated, 0, min, 0, count, Datatype.INT, Op.MIN, root);
        for (int i = 0; i < count && rank == root; i++)
        {
            check(min[i] == -value(size - 1, i), "reduce MIN" + at);
        }

        final int[] inout = own(1, count);
        Comm.reduceLocal(own(0, count), 0, inout, 0, count, Datatype.INT, Op.SUM);
        for (int i = 0; i < count; i++)
        {
            check(inout[i] == value(0, i) + value(1, i), "reduce_local" + at);
        }
    }

    /** The non-commutative op in reduce (non-zero root), allreduce, scan, exscan, reduce_scatter_block, reduce_local. */
    static void checkNonCommutative(final Intracomm world, final int count)
    {
        final int rank = world.rank();
        final int size = world.size();
        final String at = " (non-commutative) count " + count;
        final int[] mine = matrices(rank, count);
        final int[] whole = product(0, size, count);

        final int[] all = new int[4 * count];
        world.allreduce(mine, 0, all, 0, count, MATRIX, MATMUL);
        check(Arrays.equals(all, whole), "allreduce" + at);

        final int root = size - 1;
        final int[] reduced = new int[4 * count];
        world.reduce(mine, 0, reduced, 0, count, MATRIX, MATMUL, root);
        check(rank != root || Arrays.equals(reduced, whole), "reduce" + at);

        final int[] scanned = new int[4 * count];
        world.scan(mine, 0, scanned, 0, count, MATRIX, MATMUL);
        check(Arrays.equals(scanned, product(0, rank + 1, count)), "scan" + at);
        final int[] exscanned = new int[4 * count];
        world.exscan(mine, 0, exscanned, 0, count, MATRIX, MATMUL);
        check(rank == 0 || Arrays.equals(exscanned, product(0, rank, count)), "exscan" + at);

        final int perRank = Math.max(1, count / size);
        final int[] vector = matrices(rank, perRank * size);
        final int[] block = new int[4 * perRank];
        world.reduceScatterBlock(vector, 0, block, 0, perRank, MATRIX, MATMUL);
        final int[] expected = Arrays.copyOfRange(product(0, size, perRank * size), 4 * perRank * rank, 4 * perRank * (rank + 1));
        check(Arrays.equals(block, expected), "reduce_scatter_block" + at);

        final int[] inout = matrices(1, count);
        Comm.reduceLocal(matrices(0, count), 0, inout, 0, count, MATRIX, MATMUL);
        check(Arrays.equals(inout, product(0, 2, count)), "reduce_local" + at);
    }
}
