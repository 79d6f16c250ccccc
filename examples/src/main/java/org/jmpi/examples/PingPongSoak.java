package org.jmpi.examples;

import org.jmpi.Comm;
import org.jmpi.Datatype;
import org.jmpi.Mpi;

/**
 * Ranks 0 and 1 ping-pong 64-byte messages until {@code seconds} have passed (default 60), then finalize; other
 * ranks wait in the final barrier. Rank 0 prints {@code soak: started} after the first hundred round trips, so a
 * test knows the job is in full flow (the shm corruption test through jmpirun writes into it then).
 * Usage: {@code bin/jmpirun -np 2 -cp examples/target/classes org.jmpi.examples.PingPongSoak [seconds]}.
 */
public final class PingPongSoak
{
    private PingPongSoak()
    {
    }

    public static void main(final String[] args)
    {
        final long seconds = args.length > 0 ? Long.parseLong(args[0]) : 60;
        try (Mpi mpi = Mpi.init(args))
        {
            final Comm world = mpi.world();
            final int rank = world.rank();
            final byte[] buf = new byte[64];
            final long end = System.nanoTime() + seconds * 1_000_000_000L;
            final boolean[] go = {true};
            long trips = 0;
            while (rank < 2 && go[0])
            {
                if (rank == 0)
                {
                    go[0] = System.nanoTime() < end;
                    buf[0] = (byte)(go[0] ? 1 : 0);
                    world.send(buf, 0, buf.length, Datatype.BYTE, 1, 0);
                    world.recv(buf, 0, buf.length, Datatype.BYTE, 1, 0);
                    if (++trips == 100)
                    {
                        System.out.println("soak: started");
                        System.out.flush();
                    }
                }
                else
                {
                    world.recv(buf, 0, buf.length, Datatype.BYTE, 0, 0);
                    go[0] = buf[0] == 1;
                    world.send(buf, 0, buf.length, Datatype.BYTE, 0, 0);
                }
            }
            world.barrier();
            if (rank == 0)
            {
                System.out.println("soak: done");
            }
        }
    }
}
