package org.jmpi.examples.coll;

import java.util.Arrays;

import org.jmpi.CartComm;
import org.jmpi.Comm;
import org.jmpi.Datatype;
import org.jmpi.Mpi;
import org.jmpi.Op;
import org.jmpi.Request;

/**
 * Checks the collectives against sequential references on whatever job it is started in (for runs across
 * JVMs, where the unit tests run ranks as threads): every collective at counts 0, 1, odd and large, with
 * each forced algorithm given by {@code --param coll.<op>.algorithm=...}. Prints one line per check on rank
 * 0 and "collectives OK" at the end; a wrong result throws (and, with ERRORS_ARE_FATAL, aborts the job).
 * <p>Usage: {@code bin/jmpirun -np 4 -cp examples/target/classes org.jmpi.examples.coll.CollectiveSelfCheck}
 */
public final class CollectiveSelfCheck
{
    private static final int[] COUNTS = {0, 1, 7, 1000, 100_000};

    private CollectiveSelfCheck()
    {
    }

    private static int value(final int rank, final int i)
    {
        return (rank + 1) * 31 + i % 1013;
    }

    private static void check(final boolean ok, final String what)
    {
        if (!ok)
        {
            throw new IllegalStateException("collective check failed: " + what);
        }
    }

    public static void main(final String[] args)
    {
        try (Mpi mpi = Mpi.init(args))
        {
            final Comm world = mpi.world();
            final int rank = world.rank();
            final int size = world.size();
            for (final int count : COUNTS)
            {
                final int[] in = new int[count];
                Arrays.setAll(in, i -> value(rank, i));
                final int[] bc = rank == 0 ? in.clone() : new int[count];
                world.bcast(bc, 0, count, Datatype.INT, 0);
                final int[] sum = new int[count];
                world.allreduce(in, 0, sum, 0, count, Datatype.INT, Op.SUM);
                final int[] red = new int[count];
                world.reduce(in, 0, red, 0, count, Datatype.INT, Op.MAX, size - 1);
                final int[] all = new int[count * size];
                world.allgather(in, 0, count, Datatype.INT, all, 0, count, Datatype.INT);
                final int[] a2a = new int[count * size];
                final int[] a2aOut = new int[count * size];
                Arrays.setAll(a2aOut, i -> rank * 7 + i / Math.max(1, count));
                world.alltoall(a2aOut, 0, count, Datatype.INT, a2a, 0, count, Datatype.INT);
                final long[] scan = new long[count];
                final long[] lin = new long[count];
                Arrays.setAll(lin, i -> value(rank, i));
                world.scan(lin, 0, scan, 0, count, Datatype.LONG, Op.SUM);
                for (int i = 0; i < count; i++)
                {
                    int s = 0;
                    long prefix = 0;
                    for (int r = 0; r < size; r++)
                    {
                        s += value(r, i);
                        prefix += r <= rank ? value(r, i) : 0;
                    }
                    check(bc[i] == value(0, i), "bcast count " + count + " element " + i);
                    check(sum[i] == s, "allreduce count " + count + " element " + i);
                    check(rank != size - 1 || red[i] == value(size - 1, i), "reduce count " + count + " element " + i);
                    check(scan[i] == prefix, "scan count " + count + " element " + i);
                    for (int r = 0; r < size; r++)
                    {
                        check(all[r * count + i] == value(r, i), "allgather count " + count);
                        check(a2a[r * count + i] == r * 7 + rank, "alltoall count " + count);
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
                world.barrier();
                if (rank == 0)
                {
                    System.out.println("count " + count + ": bcast, allreduce, reduce, allgather, alltoall, scan, iallreduce x4 OK");
                }
            }
            final Comm half = world.split(rank % 2, -rank);
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
}
