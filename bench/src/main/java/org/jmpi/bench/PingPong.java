package org.jmpi.bench;

import org.jmpi.Comm;
import org.jmpi.Datatype;

/**
 * One blocking ping-pong round trip between ranks 0 and 1 (rank 0 sends then receives, rank 1 receives
 * then sends), the step every latency harness here repeats. Other ranks return at once.
 */
public final class PingPong
{
    private PingPong()
    {
    }

    /** One round trip of {@code size} bytes of {@code buf} on {@code tag}. */
    public static void roundTrip(final Comm world, final Object buf, final int size, final int tag)
    {
        final int rank = world.rank();
        if (rank == 0)
        {
            world.send(buf, 0, size, Datatype.BYTE, 1, tag);
            world.recv(buf, 0, size, Datatype.BYTE, 1, tag);
        }
        else if (rank == 1)
        {
            world.recv(buf, 0, size, Datatype.BYTE, 0, tag);
            world.send(buf, 0, size, Datatype.BYTE, 0, tag);
        }
    }
}
