package org.jmpi.examples.coll;

import org.jmpi.Datatype;
import org.jmpi.Intracomm;

import static org.jmpi.examples.coll.SelfCheckData.*;

/** The v- and w-variants and the derived-type collectives of {@link CollectiveSelfCheck}. */
final class VariantChecks
{
    /** INT with an extent of two INTs: n of them take every other element. */
    private static final Datatype EVERY_OTHER_INT = Datatype.resized(Datatype.INT, 0, 2L * Integer.BYTES).commit();

    private VariantChecks()
    {
    }

    /** gatherv, scatterv, allgatherv, alltoallv and alltoallw with zero counts and uneven, out-of-order displacements. */
    static void checkVectorVariants(final Intracomm world, final int count)
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

    /** bcast with a vector type on every rank, allgather from a vector type into contiguous blocks. */
    static void checkDerivedTypes(final Intracomm world, final int count)
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
}
