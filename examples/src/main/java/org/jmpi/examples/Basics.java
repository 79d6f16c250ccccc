package org.jmpi.examples;

import org.jmpi.Comm;
import org.jmpi.Datatype;
import org.jmpi.Mpi;
import org.jmpi.Op;
import org.jmpi.Request;

import java.util.Arrays;

/**
 * Point-to-point to self, a derived datatype and a collective, valid at every size including the
 * singleton world of plain {@code java} (no launcher):
 * <ol>
 * <li>a message to itself (isend to {@code rank}, recv from {@code rank});</li>
 * <li>a matrix column (a vector type) to the next rank round a ring, received contiguous;</li>
 * <li>an allreduce of {@code rank + 1} over the world.</li>
 * </ol>
 * Prints {@code basics: rank R of N ok}; exits with 1 when a value arrives wrong.
 */
public final class Basics
{
    private static final int SIDE = 4;

    private Basics()
    {
    }

    public static void main(final String[] args)
    {
        try (Mpi mpi = Mpi.init(args))
        {
            final Comm world = mpi.world();
            final int rank = world.rank();
            final int size = world.size();

            final long[] toSelf = {1000L + rank};
            final long[] fromSelf = new long[1];
            final Request send = world.isend(toSelf, 0, 1, Datatype.LONG, rank, 1);
            world.recv(fromSelf, 0, 1, Datatype.LONG, rank, 1);
            send.await();
            Demo.check(fromSelf[0] == 1000L + rank, "self message " + fromSelf[0]);

            final Datatype column = Datatype.vector(SIDE, 1, SIDE, Datatype.INT).commit();
            final int[] matrix = new int[SIDE * SIDE];
            for (int i = 0; i < matrix.length; i++)
            {
                matrix[i] = rank * 100 + i;
            }
            final int left = (rank + size - 1) % size;
            final int[] received = new int[SIDE];
            world.sendrecv(matrix, 1, 1, column, (rank + 1) % size, 2, received, 0, SIDE, Datatype.INT, left, 2);
            final int[] expected = new int[SIDE];
            for (int row = 0; row < SIDE; row++)
            {
                expected[row] = left * 100 + row * SIDE + 1;
            }
            Demo.check(Arrays.equals(received, expected), "column " + Arrays.toString(received) + " != " + Arrays.toString(expected));

            final long[] sum = new long[1];
            world.allreduce(new long[] {rank + 1L}, 0, sum, 0, 1, Datatype.LONG, Op.SUM);
            Demo.check(sum[0] == (long)size * (size + 1) / 2, "allreduce " + sum[0]);
            System.out.println("basics: rank " + rank + " of " + size + " ok");
        }
    }
}
