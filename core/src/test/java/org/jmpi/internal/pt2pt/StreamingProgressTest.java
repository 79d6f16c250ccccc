package org.jmpi.internal.pt2pt;

import org.jmpi.CommInternals;
import org.jmpi.Datatype;
import org.jmpi.Ranks;
import org.jmpi.Request;
import org.jmpi.ThreadLevel;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.Map;

import static org.junit.jupiter.api.Assertions.*;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * A sender streaming a staged message longer than the transport's ring makes progress on every poll that gets a
 * fragment out, and the engine must see it as work: a poll that ended on a full ring used to report none, so the idler
 * went from spinning to yields and parks in the middle of the message while the receiver waited for the next fragment
 * (FFT between threads 4x the hand-packed exchange; docs/pvas.md, "Session 12: copies").
 */
@Timeout(120)
class StreamingProgressTest
{
    private static final int FRAGMENT = 960;
    private static final int BYTES = 256 * FRAGMENT;

    @Test
    void shouldCountEveryFragmentStreamedAsWork()
    {
        // The small ring is the in-JVM transport's (jmpi.jvm.ring.size): the transport axes (ranks isolated as if in
        // separate JVMs, through shm, tcp...) may take the whole message at once, and then there is no stream to count.
        assumeTrue(!Boolean.getBoolean("jmpi.jvm.isolate"), "between threads through the in-JVM transport only");
        // An 8 KiB ring takes records of at most 1 KiB (a 960-byte fragment and its header): a few at a time, so the sender meets a full ring.
        final Map<String, String> params = Map.of("jmpi.jvm.ring.size", "8192", "jmpi.pvas.mode", "staged",
            "jmpi.fragment.size", Integer.toString(FRAGMENT), "jmpi.eager.limit", "1024");
        Ranks.run(2, ThreadLevel.SINGLE, params, (mpi, world) ->
        {
            final byte[] data = new byte[BYTES];
            if (world.rank() == 0)
            {
                for (int i = 0; i < BYTES; i++)
                {
                    data[i] = (byte)(i * 31);
                }
                final Protocol protocol = CommInternals.state(world).protocol();
                final Request send = world.isend(data, 0, BYTES, Datatype.BYTE, 1, 5);
                long work = 0;
                for (int polls = 0; polls < 50_000_000 && work < BYTES / FRAGMENT / 2; polls++)
                {
                    work += protocol.poll();
                }
                send.await();
                assertTrue(work >= BYTES / FRAGMENT / 2, "the engine saw " + work + " units of work while " + BYTES / FRAGMENT +
                    " fragments went out");
            }
            else
            {
                world.recv(data, 0, BYTES, Datatype.BYTE, 0, 5);
                for (int i = 0; i < BYTES; i += 997)
                {
                    assertEquals((byte)(i * 31), data[i], "byte " + i);
                }
            }
        });
    }
}
