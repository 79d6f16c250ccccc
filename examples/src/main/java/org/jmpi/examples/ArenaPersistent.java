package org.jmpi.examples;

import org.jmpi.Datatype;
import org.jmpi.Intracomm;
import org.jmpi.Mpi;
import org.jmpi.Op;
import org.jmpi.Request;

import java.nio.ByteBuffer;

/**
 * Persistent collectives started repeatedly (docs/pvas.md, "Persistent collectives through the arena"): a bcast of an
 * {@code mpi.allocMem} buffer, an allreduce and an allgather of heap arrays, and a barrier, each initialised once and
 * started 50 times with changing contents, checked against the sequential results. Run with
 * {@code --param coll.persistent.schedule=put} (or get) and the arena on, the put- and get-based schedules signal and
 * copy through the node's arena, with no active message. Prints "persistent: rank R ok" per rank.
 */
public final class ArenaPersistent
{
    private static final int STARTS = 50;

    private ArenaPersistent()
    {
    }

    public static void main(final String[] args)
    {
        try (Mpi mpi = Mpi.init(args))
        {
            final Intracomm world = mpi.world();
            final int rank = world.rank();
            final int size = world.size();
            final int bytes = 100_003;
            final ByteBuffer block = mpi.allocMem(bytes);
            final Request bcast = world.bcastInit(block, 0, bytes, Datatype.BYTE, 0);
            final int count = 10_000;
            final double[] in = new double[count];
            final double[] out = new double[count];
            final Request allreduce = world.allreduceInit(in, 0, out, 0, count, Datatype.DOUBLE, Op.SUM);
            final long[] mine = new long[4];
            final long[] all = new long[4 * size];
            final Request allgather = world.allgatherInit(mine, 0, 4, Datatype.LONG, all, 0, 4, Datatype.LONG);
            final Request barrier = world.barrierInit();
            final Request[] requests = {bcast, allreduce, allgather, barrier};
            for (int start = 0; start < STARTS; start++)
            {
                for (int i = 0; i < bytes; i++)
                {
                    block.put(i, rank == 0 ? (byte)(start + 7 * i) : 0);
                }
                for (int i = 0; i < count; i++)
                {
                    in[i] = rank + i + start;
                }
                java.util.Arrays.fill(mine, rank * 100L + start);
                for (final Request r : requests)
                {
                    r.start();
                }
                Request.waitAll(requests);
                for (int i = 0; i < bytes; i++)
                {
                    check(block.get(i), (byte)(start + 7 * i), "bcast", start, i);
                }
                for (int i = 0; i < count; i++)
                {
                    check(out[i], size * (double)(size - 1) / 2 + size * (double)(i + start), "allreduce", start, i);
                }
                for (int i = 0; i < 4 * size; i++)
                {
                    check(all[i], (i / 4) * 100L + start, "allgather", start, i);
                }
            }
            for (final Request r : requests)
            {
                r.free();
            }
            mpi.freeMem(block);
            world.barrier();
            System.out.println("persistent: rank " + rank + " ok");
        }
    }

    private static void check(final double got, final double expected, final String what, final int start, final int element)
    {
        if (got != expected)
        {
            throw new IllegalStateException(what + ", start " + start + ": element " + element + " is " + got + ", expected " + expected);
        }
    }
}
