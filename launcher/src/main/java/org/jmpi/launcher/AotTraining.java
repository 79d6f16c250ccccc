package org.jmpi.launcher;

import org.jmpi.Comm;
import org.jmpi.Datatype;
import org.jmpi.Mpi;
import org.jmpi.Op;
import org.jmpi.Request;

import java.nio.ByteBuffer;

/**
 * The training run behind jmpirun's ahead-of-time cache ({@link AotCache}): a short job of jmpi's own
 * code, started by jmpirun as ranks in separate JVMs, whose JVMs record which classes they load and link. A
 * later rank JVM given the cache starts with those classes loaded and linked.
 *
 * <p>It walks the paths a typical program takes first: init, eager and rendezvous point-to-point on arrays and
 * direct buffers, nonblocking halo exchanges with a contiguous and a vector type, barrier, bcast and allreduce,
 * then finalize. Any number of ranks from 2; rank pairs (0, 1), (2, 3)... exchange.
 */
public final class AotTraining
{
    /** Rounds of each pattern: enough for the JIT to profile the loops, short enough for about a second. */
    static final int ROUNDS = 3_000;

    private AotTraining()
    {
    }

    public static void main(final String[] args)
    {
        try (Mpi mpi = Mpi.init(args))
        {
            final Comm world = mpi.world();
            final int rank = world.rank();
            final int peer = rank ^ 1;
            final boolean paired = peer < world.size();
            final double[] out = new double[256];
            final double[] in = new double[out.length];
            final Datatype column = Datatype.vector(out.length / 2, 1, 2, Datatype.DOUBLE).commit();
            final ByteBuffer directOut = ByteBuffer.allocateDirect(64 * 1024);
            final ByteBuffer directIn = ByteBuffer.allocateDirect(directOut.capacity());
            final byte[] largeOut = new byte[256 * 1024];
            final byte[] largeIn = new byte[largeOut.length];
            final double[] mine = new double[1];
            final double[] sum = new double[1];
            for (int i = 0; i < ROUNDS && paired; i++)
            {
                out[0] = i;
                exchange(world, out, in, out.length, Datatype.DOUBLE, peer);
                exchange(world, out, in, 1, column, peer);
                if (rank < peer)
                {
                    world.send(out, 0, 1, Datatype.DOUBLE, peer, 1);
                    world.recv(in, 0, 1, Datatype.DOUBLE, peer, 1);
                }
                else
                {
                    world.recv(in, 0, 1, Datatype.DOUBLE, peer, 1);
                    world.send(out, 0, 1, Datatype.DOUBLE, peer, 1);
                }
                if (in[0] != i)
                {
                    throw new IllegalStateException("training: rank " + rank + " received " + in[0] + " in round " + i);
                }
            }
            for (int i = 0; i < ROUNDS / 10 && paired; i++)
            {
                exchange(world, directOut, directIn, directOut.capacity(), Datatype.BYTE, peer);
                exchange(world, largeOut, largeIn, largeOut.length, Datatype.BYTE, peer);
            }
            for (int i = 0; i < ROUNDS; i++)
            {
                world.barrier();
                world.bcast(out, 0, 8, Datatype.DOUBLE, 0);
                mine[0] = rank;
                world.allreduce(mine, 0, sum, 0, 1, Datatype.DOUBLE, Op.SUM);
            }
        }
    }

    private static void exchange(final Comm world, final Object out, final Object in, final int count, final Datatype type,
        final int peer)
    {
        final Request r = world.irecv(in, 0, count, type, peer, 0);
        final Request s = world.isend(out, 0, count, type, peer, 0);
        r.await();
        s.await();
    }
}
