package org.jmpi.compat.programs;

import java.nio.IntBuffer;

import mpi.Datatype;
import mpi.File;
import mpi.MPI;
import mpi.MPIException;

/**
 * MPI-IO through Open MPI's Java API, as a program: every rank writes its stripes of a file through a vector view
 * (4 ints of every 4 * size), reads the next rank's stripes back, then appends 8 ints through the shared file pointer
 * and 1 + rank ints in rank order. Checks what it reads and prints "FileStripes on P processes PASSED." at rank 0;
 * exits with 1 on a wrong value. The file (argument 1, default ./file-stripes.dat) is deleted at close.
 */
public final class FileStripes
{
    private static final int STRIPE = 4;
    private static final int STRIPES = 16;

    private FileStripes()
    {
    }

    public static void main(final String[] args) throws MPIException
    {
        MPI.Init(args);
        final int rank = MPI.COMM_WORLD.getRank();
        final int size = MPI.COMM_WORLD.getSize();
        final String name = args.length > 0 ? args[0] : "file-stripes.dat";
        final File file = new File(MPI.COMM_WORLD, name, MPI.MODE_RDWR | MPI.MODE_CREATE | MPI.MODE_DELETE_ON_CLOSE);
        final Datatype stripes = Datatype.createVector(STRIPES, STRIPE, STRIPE * size, MPI.INT);
        stripes.commit();
        file.setView(4L * STRIPE * rank, MPI.INT, stripes, "native");
        final int[] mine = new int[STRIPE * STRIPES];
        for (int i = 0; i < mine.length; i++)
        {
            mine[i] = rank * 100_000 + i;
        }
        file.writeAll(mine, mine.length, MPI.INT);
        file.sync();
        MPI.COMM_WORLD.barrier();
        final int next = (rank + 1) % size;
        file.setView(4L * STRIPE * next, MPI.INT, stripes, "native");
        final IntBuffer theirs = MPI.newIntBuffer(mine.length);
        file.readAtAll(0, theirs, mine.length, MPI.INT);
        for (int i = 0; i < mine.length; i++)
        {
            check(theirs.get(i) == next * 100_000 + i, "stripe int " + i + " of rank " + next + " is " + theirs.get(i));
        }
        final long end = 4L * STRIPE * STRIPES * size;
        file.setView(end, MPI.INT, MPI.INT, "native");
        final int[] eight = new int[8];
        java.util.Arrays.fill(eight, -rank);
        file.writeShared(eight, 8, MPI.INT);
        MPI.COMM_WORLD.barrier();
        check(file.getPositionShared() == 8L * size, "shared pointer at " + file.getPositionShared() + ", not " + 8L * size);
        final int[] ordered = new int[1 + rank];
        java.util.Arrays.fill(ordered, rank);
        file.writeOrdered(ordered, ordered.length, MPI.INT);
        file.sync();
        if (rank == 0)
        {
            final int total = 8 * size + size * (size + 1) / 2;
            final int[] tail = new int[total];
            file.readAt(0, tail, total, MPI.INT);
            final boolean[] seen = new boolean[size];
            for (int block = 0; block < size; block++)
            {
                final int owner = -tail[8 * block];
                for (int i = 0; i < 8; i++)
                {
                    check(tail[8 * block + i] == -owner, "shared block " + block + " mixes ranks");
                }
                seen[owner] = true;
            }
            for (int r = 0; r < size; r++)
            {
                check(seen[r], "rank " + r + "'s shared block is missing");
            }
            int at = 8 * size;
            for (int r = 0; r < size; r++)
            {
                for (int i = 0; i <= r; i++)
                {
                    check(tail[at++] == r, "ordered part of rank " + r + " is out of place");
                }
            }
        }
        file.close();
        if (rank == 0)
        {
            System.out.println("FileStripes on " + size + " processes PASSED.");
        }
        MPI.Finalize();
    }

    private static void check(final boolean ok, final String what)
    {
        if (!ok)
        {
            System.err.println("FileStripes FAILED: " + what);
            System.exit(1);
        }
    }
}
