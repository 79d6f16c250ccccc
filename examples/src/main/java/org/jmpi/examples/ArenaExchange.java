package org.jmpi.examples;

import org.jmpi.Datatype;
import org.jmpi.Intracomm;
import org.jmpi.MemoryBlock;
import org.jmpi.Mpi;
import org.jmpi.Request;

import java.nio.ByteBuffer;
import java.nio.DoubleBuffer;

/**
 * Buffers from {@code mpi.allocMem} exchanged around a ring (docs/pvas.md): each rank sends every other double
 * of an allocMem buffer (a strided vector over a {@code DoubleBuffer} view) to its right neighbour, which receives
 * it contiguously into allocMem memory and into a heap array, then sends a heap array into the neighbour's
 * allocMem memory. With {@code --param pvas.partition.size=...} and ranks in separate JVMs of one node the
 * memory lies in the node's arena and every message is copied directly between the two JVMs' buffers;
 * otherwise it is ordinary direct memory and the same program runs. Prints "arena: rank R ok" per rank.
 */
public final class ArenaExchange
{
    private static final int N = 1 << 17;

    private ArenaExchange()
    {
    }

    public static void main(final String[] args)
    {
        try (Mpi mpi = Mpi.init(args))
        {
            final Intracomm world = mpi.world();
            final int rank = world.rank();
            final int size = world.size();
            final int right = (rank + 1) % size;
            final int left = (rank + size - 1) % size;
            final Datatype everyOther = Datatype.vector(N, 1, 2, Datatype.DOUBLE).commit();
            try (MemoryBlock out = mpi.allocBlock(2 * N * 8, 4096); MemoryBlock in = mpi.allocBlock(N * 8, 64))
            {
                final DoubleBuffer send = out.buffer().asDoubleBuffer();
                for (int i = 0; i < 2 * N; i++)
                {
                    send.put(i, rank * 1e7 + i);
                }
                final double[] heap = new double[N];
                final Request r1 = world.irecv(in.buffer().asDoubleBuffer(), 0, N, Datatype.DOUBLE, left, 1);
                final Request r2 = world.irecv(heap, 0, N, Datatype.DOUBLE, left, 2);
                world.send(send, 0, 1, everyOther, right, 1);
                world.send(send, 0, 1, everyOther, right, 2);
                r1.await();
                r2.await();
                final DoubleBuffer got = in.buffer().asDoubleBuffer();
                for (int k = 0; k < N; k++)
                {
                    check(got.get(k), left * 1e7 + 2 * k, "allocMem receive", k);
                    check(heap[k], left * 1e7 + 2 * k, "heap receive", k);
                }
                // heap send into the neighbour's allocMem memory
                final ByteBuffer back = mpi.allocMem(N * 8);
                final Request r3 = world.irecv(back, 0, N * 8, Datatype.BYTE, right, 3);
                world.send(heap, 0, N, Datatype.DOUBLE, left, 3);
                r3.await();
                for (int k = 0; k < N; k++)
                {
                    check(back.getDouble(8 * k), rank * 1e7 + 2 * k, "heap-to-allocMem receive", k);
                }
                mpi.freeMem(back);
            }
            world.barrier();
            System.out.println("arena: rank " + rank + " ok");
        }
    }

    private static void check(final double got, final double expected, final String what, final int element)
    {
        if (got != expected)
        {
            throw new IllegalStateException(what + ": element " + element + " is " + got + ", expected " + expected);
        }
    }
}
