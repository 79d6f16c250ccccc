package org.jmpi.examples.hosts;

import org.jmpi.Comm;
import org.jmpi.Datatype;
import org.jmpi.Mpi;

/**
 * Ranks 0 and {@code size-1} exchange 1 MiB messages until the job is stopped from outside (the test
 * takes the link down); the other ranks wait in a barrier. Prints "stream: running" once 20 round
 * trips have passed, so the test knows traffic is flowing.
 */
public final class StreamUntilStopped
{
    private StreamUntilStopped()
    {
    }

    public static void main(final String[] args)
    {
        try (Mpi mpi = Mpi.init(args))
        {
            final Comm world = mpi.world();
            final int last = world.size() - 1;
            final byte[] buffer = new byte[1 << 20];
            final long limit = Long.parseLong(args.length > 0 ? args[0] : "1000000");
            if (world.rank() == 0 || world.rank() == last)
            {
                final int peer = world.rank() == 0 ? last : 0;
                for (long i = 0; i < limit; i++)
                {
                    if (world.rank() == 0)
                    {
                        world.send(buffer, 0, buffer.length, Datatype.BYTE, peer, 1);
                        world.recv(buffer, 0, buffer.length, Datatype.BYTE, peer, 2);
                    }
                    else
                    {
                        world.recv(buffer, 0, buffer.length, Datatype.BYTE, peer, 1);
                        world.send(buffer, 0, buffer.length, Datatype.BYTE, peer, 2);
                    }
                    if (i == 20 && world.rank() == 0)
                    {
                        System.out.println("stream: running at " + System.currentTimeMillis());
                        System.out.flush();
                    }
                }
            }
            world.barrier();
        }
    }
}
