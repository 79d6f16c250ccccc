package org.jmpi.examples.coll;

import java.util.Arrays;

import org.jmpi.CartComm;
import org.jmpi.Comm;
import org.jmpi.Datatype;
import org.jmpi.Intracomm;
import org.jmpi.Mpi;
import org.jmpi.Op;
import org.jmpi.Request;

import static org.jmpi.examples.coll.SelfCheckData.*;

/**
 * Checks every collective of {@link Comm} against sequential references on whatever job it is started in (for
 * runs across JVMs, where the unit tests run ranks as threads), at counts 0, 1, odd and large (100 000 for the
 * basic ones, 12 345 for the rest), with each forced algorithm given by {@code --param coll.<op>.algorithm=...}:
 * <ul>
 * <li>barrier (no rank leaves before the last one enters), bcast, gather(v), scatter(v), allgather(v),
 * alltoall(v, w), reduce, allreduce, reduce_scatter(_block), scan, exscan, reduce_local;</li>
 * <li>IN_PLACE wherever MPI allows it; v-variants with zero counts and uneven, out-of-order displacements;
 * alltoallw with a strided (resized) type for odd peers;</li>
 * <li>a non-commutative user op (2x2 integer matrix product) in reduce, allreduce, scan, exscan,
 * reduce_scatter_block and reduce_local;</li>
 * <li>a vector type in bcast and allgather;</li>
 * <li>nonblocking versions of a dozen collectives in flight at once, completed in reverse order;</li>
 * <li>persistent bcastInit and allreduceInit started 100 times with changing contents.</li>
 * </ul>
 * Prints one line per count on rank 0 and "collectives OK" at the end; a wrong result throws (and, with
 * ERRORS_ARE_FATAL, aborts the job).
 * <p>Usage: {@code bin/jmpirun -np 4 -cp examples/target/classes org.jmpi.examples.coll.CollectiveSelfCheck}
 */
public final class CollectiveSelfCheck
{
    private static final int[] COUNTS = {0, 1, 7, 1000, 100_000};
    /**
     * The largest count of the checks beyond the basic ones: several rendezvous fragments (32 KiB) per message,
     * at a fraction of the run time of 100 000 (4 JVMs on 2 shared cores: about 35 s instead of 85 s at load 15).
     */
    private static final int LARGE_EXTENDED = 12_345;
    private static final int PERSISTENT_COUNT = 1000;

    private CollectiveSelfCheck()
    {
    }

    public static void main(final String[] args)
    {
        try (Mpi mpi = Mpi.init(args))
        {
            final Intracomm world = mpi.world();
            final int rank = world.rank();
            final int size = world.size();
            checkBarrier(world);
            for (final int count : COUNTS)
            {
                checkBasics(world, count);
                final int n = Math.min(count, LARGE_EXTENDED);
                InPlaceChecks.checkInPlace(world, n);
                VariantChecks.checkVectorVariants(world, n);
                ReductionChecks.checkReductions(world, n);
                ReductionChecks.checkNonCommutative(world, n);
                VariantChecks.checkDerivedTypes(world, n);
                NonblockingChecks.checkNonblocking(world, n);
                if (count == PERSISTENT_COUNT)
                {
                    NonblockingChecks.checkPersistent(world, count);
                }
                world.barrier();
                if (rank == 0)
                {
                    System.out.println("count " + count + ": bcast, allreduce, reduce, allgather, alltoall, scan, iallreduce x4; count " + n
                        + ": IN_PLACE, gatherv, scatterv, allgatherv, alltoallv, alltoallw, reduce_scatter(_block), exscan, reduce_local, "
                        + "non-commutative op, vector type, nonblocking in flight" + (count == PERSISTENT_COUNT ? ", persistent x"
                        + NonblockingChecks.PERSISTENT_STARTS : "") + " OK");
                }
            }
            final Intracomm half = world.split(rank % 2, -rank);
            final int[] hs = new int[1];
            half.allreduce(new int[] {1}, 0, hs, 0, 1, Datatype.INT, Op.SUM);
            check(hs[0] == (size + 1 - rank % 2) / 2, "split allreduce");
            final CartComm cart = world.cartCreate(CartComm.dimsCreate(size, new int[2]), new boolean[] {true, true}, false);
            final int[] nb = new int[4];
            cart.neighborAllgather(new int[] {rank}, 0, 1, Datatype.INT, nb, 0, 1, Datatype.INT);
            check(nb[2] == cart.shift(1, 1)[0] && nb[3] == cart.shift(1, 1)[1], "cart neighbour allgather");
            if (rank == 0)
            {
                System.out.println("collectives OK (" + size + " ranks)");
            }
        }
    }

    /**
     * Barrier: in each round one rank enters late, having watched for 20 ms that no message the others send once
     * they leave the barrier arrives before it entered.
     */
    private static void checkBarrier(final Intracomm world)
    {
        final int rank = world.rank();
        final int size = world.size();
        final int tag = 99;
        for (int round = 0; round < Math.min(size, 3); round++)
        {
            final int late = round % size;
            if (rank == late)
            {
                final long until = System.nanoTime() + 20_000_000L;
                while (System.nanoTime() < until)
                {
                    check(world.iprobe(Comm.ANY_SOURCE, tag) == null, "barrier: a rank left it before rank " + late + " entered");
                    Thread.onSpinWait();
                }
                world.barrier();
                for (int r = 1; r < size; r++)
                {
                    world.recv(new int[1], 0, 1, Datatype.INT, Comm.ANY_SOURCE, tag);
                }
            }
            else
            {
                world.barrier();
                world.send(new int[] {rank}, 0, 1, Datatype.INT, late, tag);
            }
        }
        world.barrier();
    }

    /** bcast, allreduce, reduce, allgather, alltoall, scan and four iallreduce in flight (roots vary with the count). */
    private static void checkBasics(final Intracomm world, final int count)
    {
        final int rank = world.rank();
        final int size = world.size();
        final int root = count % size;
        final int[] in = own(rank, count);
        final int[] bc = rank == root ? own(root, count) : new int[count];
        world.bcast(bc, 0, count, Datatype.INT, root);
        final int[] sum = new int[count];
        world.allreduce(in, 0, sum, 0, count, Datatype.INT, Op.SUM);
        final int[] red = new int[count];
        world.reduce(in, 0, red, 0, count, Datatype.INT, Op.MAX, size - 1);
        final int[] all = new int[count * size];
        world.allgather(in, 0, count, Datatype.INT, all, 0, count, Datatype.INT);
        final int[] a2a = new int[count * size];
        final int[] a2aOut = new int[count * size];
        Arrays.setAll(a2aOut, k -> code(rank, k / Math.max(1, count), k % Math.max(1, count)));
        world.alltoall(a2aOut, 0, count, Datatype.INT, a2a, 0, count, Datatype.INT);
        final long[] scan = new long[count];
        final long[] lin = new long[count];
        Arrays.setAll(lin, i -> value(rank, i));
        world.scan(lin, 0, scan, 0, count, Datatype.LONG, Op.SUM);
        for (int i = 0; i < count; i++)
        {
            check(bc[i] == value(root, i), "bcast count " + count + " element " + i);
            check(sum[i] == sum(0, size, i), "allreduce count " + count + " element " + i);
            check(rank != size - 1 || red[i] == value(size - 1, i), "reduce count " + count + " element " + i);
            check(scan[i] == sum(0, rank + 1, i), "scan count " + count + " element " + i);
            for (int r = 0; r < size; r++)
            {
                check(all[r * count + i] == value(r, i), "allgather count " + count);
                check(a2a[r * count + i] == code(r, rank, i), "alltoall count " + count);
            }
        }
        final Request[] inFlight = new Request[4];
        final int[][] outs = new int[4][count];
        for (int k = 0; k < 4; k++)
        {
            inFlight[k] = world.iallreduce(in, 0, outs[k], 0, count, Datatype.INT, Op.SUM);
        }
        Request.waitAll(inFlight);
        for (int k = 0; k < 4; k++)
        {
            check(Arrays.equals(outs[k], sum), "iallreduce " + k + " count " + count);
        }
    }


}
