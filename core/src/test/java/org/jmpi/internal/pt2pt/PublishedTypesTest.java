package org.jmpi.internal.pt2pt;

import org.jmpi.CommInternals;
import org.jmpi.Datatype;
import org.jmpi.Ranks;
import org.jmpi.ThreadLevel;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Types in RTS frames are rebuilt once per content: a sender that builds an equal type afresh for every message
 * (a new object each time, so a new id in the pair's table) costs the receiver one rebuild, not one per message.
 * On the pvas axis the wire form is published in the arena instead of travelling inline, with the same outcome; on an
 * axis without peer memory (the types then travel in no RTS) only the data is checked.
 */
@Timeout(60)
class PublishedTypesTest
{
    private static final int MESSAGES = 5;
    private static final int N = 4096;

    @Test
    void shouldRebuildAFreshlyBuiltEqualTypeOnlyOnce()
    {
        Ranks.run(2, ThreadLevel.SINGLE, Map.of("jmpi.eager.limit", "0", "jmpi.pvas.mode", "direct"), (mpi, world) ->
        {
            final Protocol protocol = CommInternals.state(world).protocol();
            final double[] buf = new double[2 * N];
            for (int m = 0; m < MESSAGES; m++)
            {
                if (world.rank() == 0)
                {
                    for (int i = 0; i < 2 * N; i++)
                    {
                        buf[i] = m * 1e6 + i;
                    }
                    final Datatype everyOther = Datatype.vector(N, 1, 2, Datatype.DOUBLE).commit();
                    world.send(buf, 0, 1, everyOther, 1, m);
                }
                else
                {
                    world.recv(buf, 0, N, Datatype.DOUBLE, 0, m);
                    for (int k = 0; k < N; k++)
                    {
                        assertEquals(m * 1e6 + 2 * k, buf[k], "message " + m + ", element " + k);
                    }
                }
            }
            // Types travel in the RTS of the direct paths only: on an axis whose transport has no peer memory, nothing to count.
            if (world.rank() == 1 && protocol.hasPeerMemory(0))
            {
                // Before any other traffic: the five messages are the only ones this rank received by rendezvous.
                final String stats = protocol.engine().call(() -> protocol.pathStats(1));
                assertTrue(stats.contains("rebuilt=1 reused by content=" + (MESSAGES - 1)), stats);
            }
            world.barrier();
        });
    }
}
