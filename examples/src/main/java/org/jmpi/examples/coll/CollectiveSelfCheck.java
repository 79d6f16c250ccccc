package org.jmpi.examples.coll;

import java.nio.ByteBuffer;
import java.util.Arrays;

import org.jmpi.CartComm;
import org.jmpi.Comm;
import org.jmpi.Datatype;
import org.jmpi.Intracomm;
import org.jmpi.Mpi;
import org.jmpi.Op;
import org.jmpi.Request;

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
    private static final int SENTINEL = -7;
    /**
     * The largest count of the checks beyond the basic ones: several rendezvous fragments (32 KiB) per message,
     * at a fraction of the run time of 100 000 (4 JVMs on 2 shared cores: about 35 s instead of 85 s at load 15).
     */
    private static final int LARGE_EXTENDED = 12_345;
    private static final int PERSISTENT_COUNT = 1000;
    private static final int PERSISTENT_STARTS = 100;

    /** INT with an extent of two INTs: n of them take every other element. */
    private static final Datatype EVERY_OTHER_INT = Datatype.resized(Datatype.INT, 0, 2L * Integer.BYTES).commit();
    /** A 2x2 int matrix, row-major. */
    private static final Datatype MATRIX = Datatype.contiguous(4, Datatype.INT).commit();
    /** Matrix product, {@code inout = in x inout} ({@code in} holds the lower ranks): associative, not commutative. */
    private static final Op MATMUL = Op.create(CollectiveSelfCheck::multiply, false);

    private CollectiveSelfCheck()
    {
    }

    private static int value(final int rank, final int i)
    {
        return (rank + 1) * 31 + i % 1013;
    }

    /** What {@code from} sends to {@code to} as element i in the all-to-all checks. */
    private static int code(final int from, final int to, final int i)
    {
        return from * 1_000_003 + to * 1009 + i;
    }

    /** A count per rank for the v-variants: zero for ranks 1, 4, 7..., different for the others. */
    private static int vcount(final int rank, final int count)
    {
        return rank % 3 == 1 ? 0 : count + rank;
    }

    /** A count per pair for alltoallv/w: some pairs exchange nothing. */
    private static int pairCount(final int from, final int to, final int count)
    {
        return (from + 2 * to) % 3 == 0 ? 0 : count + from + to;
    }

    /** A symmetric count per pair (alltoallv with IN_PLACE needs what i sends j to be what j takes from i). */
    private static int symmetricCount(final int a, final int b, final int count)
    {
        return (a + b) % 3 == 2 ? 0 : count + a + b;
    }

    private static void check(final boolean ok, final String what)
    {
        if (!ok)
        {
            throw new IllegalStateException("collective check failed: " + what);
        }
    }

    private static int[] own(final int rank, final int count)
    {
        final int[] v = new int[count];
        Arrays.setAll(v, i -> value(rank, i));
        return v;
    }

    private static int[] filled(final int length)
    {
        final int[] v = new int[length];
        Arrays.fill(v, SENTINEL);
        return v;
    }

    /** Sum over ranks [from, to) of value(r, i). */
    private static int sum(final int from, final int to, final int i)
    {
        int s = 0;
        for (int r = from; r < to; r++)
        {
            s += value(r, i);
        }
        return s;
    }

    /**
     * Displacements placing blocks of {@code counts} in reverse rank order with a gap of {@code gap} elements
     * after each; the total length is returned in {@code displs[counts.length]}.
     */
    private static int[] reverseDispls(final int[] counts, final int gap)
    {
        final int[] displs = new int[counts.length + 1];
        int at = 0;
        for (int r = counts.length - 1; r >= 0; r--)
        {
            displs[r] = at;
            at += counts[r] + gap;
        }
        displs[counts.length] = at;
        return displs;
    }

    private static int[] vcounts(final int size, final int count)
    {
        final int[] counts = new int[size];
        Arrays.setAll(counts, r -> vcount(r, count));
        return counts;
    }

    /** Checks that {@code buf} holds value(r, i) in each block and SENTINEL elsewhere. */
    private static void checkBlocks(final int[] buf, final int[] counts, final int[] displs, final String what)
    {
        final boolean[] covered = new boolean[buf.length];
        for (int r = 0; r < counts.length; r++)
        {
            for (int i = 0; i < counts[r]; i++)
            {
                check(buf[displs[r] + i] == value(r, i), what + ": block of rank " + r + " element " + i);
                covered[displs[r] + i] = true;
            }
        }
        for (int k = 0; k < buf.length; k++)
        {
            check(covered[k] || buf[k] == SENTINEL, what + ": element " + k + " outside every block was written");
        }
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
                checkInPlace(world, n);
                checkVectorVariants(world, n);
                checkReductions(world, n);
                checkNonCommutative(world, n);
                checkDerivedTypes(world, n);
                checkNonblocking(world, n);
                if (count == PERSISTENT_COUNT)
                {
                    checkPersistent(world, count);
                }
                world.barrier();
                if (rank == 0)
                {
                    System.out.println("count " + count + ": bcast, allreduce, reduce, allgather, alltoall, scan, iallreduce x4; count " + n
                        + ": IN_PLACE, gatherv, scatterv, allgatherv, alltoallv, alltoallw, reduce_scatter(_block), exscan, reduce_local, "
                        + "non-commutative op, vector type, nonblocking in flight" + (count == PERSISTENT_COUNT ? ", persistent x"
                        + PERSISTENT_STARTS : "") + " OK");
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

    /** Every IN_PLACE form: allreduce, reduce, scan, exscan, gather(v), scatter(v), allgather(v), alltoall(v), reduce_scatter(_block). */
    private static void checkInPlace(final Intracomm world, final int count)
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

    /** gatherv, scatterv, allgatherv, alltoallv and alltoallw with zero counts and uneven, out-of-order displacements. */
    private static void checkVectorVariants(final Intracomm world, final int count)
    {
        final int rank = world.rank();
        final int size = world.size();
        final String at = " count " + count;
        final int[] counts = vcounts(size, count);
        final int[] displs = reverseDispls(counts, 1);
        final int total = displs[size];
        final int root = size - 1;

        final int[] gathered = filled(total);
        world.gatherv(own(rank, counts[rank]), 0, counts[rank], Datatype.INT, gathered, 0, counts, displs, Datatype.INT, root);
        if (rank == root)
        {
            checkBlocks(gathered, counts, displs, "gatherv" + at);
        }

        final int[] blocks = filled(total);
        for (int r = 0; r < size; r++)
        {
            System.arraycopy(own(r, counts[r]), 0, blocks, displs[r], counts[r]);
        }
        final int[] piece = filled(counts[rank] + 2);
        world.scatterv(rank == 0 ? blocks : null, 0, counts, displs, Datatype.INT, piece, 1, counts[rank], Datatype.INT, 0);
        for (int i = 0; i < counts[rank]; i++)
        {
            check(piece[1 + i] == value(rank, i), "scatterv" + at);
        }
        check(piece[0] == SENTINEL && piece[counts[rank] + 1] == SENTINEL, "scatterv" + at + ": wrote outside its block");

        final int[] all = filled(total);
        world.allgatherv(own(rank, counts[rank]), 0, counts[rank], Datatype.INT, all, 0, counts, displs, Datatype.INT);
        checkBlocks(all, counts, displs, "allgatherv" + at);

        // alltoallv: send blocks in reverse order with gaps of 2, receive blocks in rank order with gaps of 1.
        final int[] sendCounts = new int[size];
        final int[] recvCounts = new int[size];
        for (int j = 0; j < size; j++)
        {
            sendCounts[j] = pairCount(rank, j, count);
            recvCounts[j] = pairCount(j, rank, count);
        }
        final int[] sendDispls = reverseDispls(sendCounts, 2);
        final int[] recvDispls = new int[size + 1];
        for (int j = 0; j < size; j++)
        {
            recvDispls[j + 1] = recvDispls[j] + recvCounts[j] + 1;
        }
        final int[] out = filled(sendDispls[size]);
        for (int j = 0; j < size; j++)
        {
            for (int i = 0; i < sendCounts[j]; i++)
            {
                out[sendDispls[j] + i] = code(rank, j, i);
            }
        }
        final int[] in = filled(recvDispls[size]);
        world.alltoallv(out, 0, sendCounts, sendDispls, Datatype.INT, in, 0, recvCounts, recvDispls, Datatype.INT);
        for (int j = 0; j < size; j++)
        {
            for (int i = 0; i < recvCounts[j]; i++)
            {
                check(in[recvDispls[j] + i] == code(j, rank, i), "alltoallv" + at + " from rank " + j);
            }
            check(in[recvDispls[j] + recvCounts[j]] == SENTINEL, "alltoallv" + at + ": gap after the block from rank " + j);
        }

        // alltoallw: odd peers' blocks are strided (every other int) on both sides; displacements in bytes.
        final Datatype[] sendTypes = new Datatype[size];
        final Datatype[] recvTypes = new Datatype[size];
        final long[] sendBytes = new long[size];
        final long[] recvBytes = new long[size];
        int sendAt = 1;
        int recvAt = 3;
        for (int j = size - 1; j >= 0; j--)
        {
            sendTypes[j] = j % 2 == 1 ? EVERY_OTHER_INT : Datatype.INT;
            sendBytes[j] = (long) sendAt * Integer.BYTES;
            sendAt += (j % 2 == 1 ? 2 : 1) * sendCounts[j] + 1;
        }
        for (int j = 0; j < size; j++)
        {
            recvTypes[j] = rank % 2 == 1 ? EVERY_OTHER_INT : Datatype.INT;
            recvBytes[j] = (long) recvAt * Integer.BYTES;
            recvAt += (rank % 2 == 1 ? 2 : 1) * recvCounts[j] + 2;
        }
        final int[] wOut = filled(sendAt);
        for (int j = 0; j < size; j++)
        {
            final int stride = j % 2 == 1 ? 2 : 1;
            for (int i = 0; i < sendCounts[j]; i++)
            {
                wOut[(int) (sendBytes[j] / Integer.BYTES) + stride * i] = code(rank, j, i);
            }
        }
        final int[] wIn = filled(recvAt);
        world.alltoallw(wOut, 0, sendCounts, sendBytes, sendTypes, wIn, 0, recvCounts, recvBytes, recvTypes);
        final boolean[] written = new boolean[recvAt];
        for (int j = 0; j < size; j++)
        {
            final int stride = rank % 2 == 1 ? 2 : 1;
            final int base = (int) (recvBytes[j] / Integer.BYTES);
            for (int i = 0; i < recvCounts[j]; i++)
            {
                check(wIn[base + stride * i] == code(j, rank, i), "alltoallw" + at + " from rank " + j + " element " + i);
                written[base + stride * i] = true;
            }
        }
        for (int k = 0; k < recvAt; k++)
        {
            check(written[k] || wIn[k] == SENTINEL, "alltoallw" + at + ": element " + k + " outside every block was written");
        }
    }

    /** reduce_scatter_block, reduce_scatter (zero counts), exscan, reduce_local, reduce to a non-zero root with MIN. */
    private static void checkReductions(final Intracomm world, final int count)
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

    // ------------------------------------------------------------------ non-commutative user op: matrix product

    private static void multiply(final ByteBuffer in, final ByteBuffer inout, final int count, final Datatype type)
    {
        for (int m = 0; m < count; m++)
        {
            final int at = m * 16;
            final int a = in.getInt(at);
            final int b = in.getInt(at + 4);
            final int c = in.getInt(at + 8);
            final int d = in.getInt(at + 12);
            final int e = inout.getInt(at);
            final int f = inout.getInt(at + 4);
            final int g = inout.getInt(at + 8);
            final int h = inout.getInt(at + 12);
            inout.putInt(at, a * e + b * g);
            inout.putInt(at + 4, a * f + b * h);
            inout.putInt(at + 8, c * e + d * g);
            inout.putInt(at + 12, c * f + d * h);
        }
    }

    /** count matrices of rank r: [[r + 2, i mod 5 + 1], [1, r + 1]] (no two ranks' matrices commute). */
    private static int[] matrices(final int rank, final int count)
    {
        final int[] v = new int[4 * count];
        for (int m = 0; m < count; m++)
        {
            v[4 * m] = rank + 2;
            v[4 * m + 1] = m % 5 + 1;
            v[4 * m + 2] = 1;
            v[4 * m + 3] = rank + 1;
        }
        return v;
    }

    /** The product of the matrices of ranks [from, to), in rank order; null for an empty range. */
    private static int[] product(final int from, final int to, final int count)
    {
        if (from >= to)
        {
            return null;
        }
        int[] acc = matrices(to - 1, count);
        for (int r = to - 2; r >= from; r--)
        {
            final int[] left = matrices(r, count);
            final ByteBuffer in = ByteBuffer.allocate(16 * count).order(java.nio.ByteOrder.nativeOrder());
            final ByteBuffer inout = ByteBuffer.allocate(16 * count).order(java.nio.ByteOrder.nativeOrder());
            in.asIntBuffer().put(left);
            inout.asIntBuffer().put(acc);
            multiply(in, inout, count, MATRIX);
            acc = new int[4 * count];
            inout.asIntBuffer().get(acc);
        }
        return acc;
    }

    /** The non-commutative op in reduce (non-zero root), allreduce, scan, exscan, reduce_scatter_block, reduce_local. */
    private static void checkNonCommutative(final Intracomm world, final int count)
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

    /** bcast with a vector type on every rank, allgather from a vector type into contiguous blocks. */
    private static void checkDerivedTypes(final Intracomm world, final int count)
    {
        if (count == 0)
        {
            return;
        }
        final int rank = world.rank();
        final int size = world.size();
        final String at = " (vector type) count " + count;
        final Datatype strided = Datatype.vector(count, 1, 3, Datatype.INT).commit();
        final int root = (count + 1) % size;
        final int[] buf = filled(3 * count);
        if (rank == root)
        {
            for (int i = 0; i < count; i++)
            {
                buf[3 * i] = value(root, i);
            }
        }
        world.bcast(buf, 0, 1, strided, root);
        for (int k = 0; k < buf.length; k++)
        {
            check(buf[k] == (k % 3 == 0 ? value(root, k / 3) : SENTINEL), "bcast" + at + " element " + k);
        }

        final int[] src = filled(3 * count);
        for (int i = 0; i < count; i++)
        {
            src[3 * i] = value(rank, i);
        }
        final int[] all = filled(size * count);
        world.allgather(src, 0, 1, strided, all, 0, count, Datatype.INT);
        for (int r = 0; r < size; r++)
        {
            for (int i = 0; i < count; i++)
            {
                check(all[r * count + i] == value(r, i), "allgather" + at);
            }
        }
        // and the other way round: contiguous blocks in, each rank's block spread with a stride of 3 out.
        final Datatype spread = Datatype.resized(Datatype.vector(count, 1, 3, Datatype.INT), 0, 3L * count * Integer.BYTES).commit();
        final int[] wide = filled(3 * count * size);
        world.allgather(own(rank, count), 0, count, Datatype.INT, wide, 0, 1, spread);
        for (int k = 0; k < wide.length; k++)
        {
            final int r = k / (3 * count);
            final int e = k % (3 * count);
            check(wide[k] == (e % 3 == 0 ? value(r, e / 3) : SENTINEL), "allgather into a vector type" + at + " element " + k);
        }
    }

    /**
     * ibarrier, ibcast, igather, iscatterv, iallgather, iallgatherv, ialltoall, ialltoallv, ireduce, iallreduce with
     * the non-commutative op, iscan, iexscan, ireduce_scatter_block and ireduce_scatter all in flight, completed in reverse order.
     */
    private static void checkNonblocking(final Intracomm world, final int count)
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
    private static void checkPersistent(final Intracomm world, final int count)
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
