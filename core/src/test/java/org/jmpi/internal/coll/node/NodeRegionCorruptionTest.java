package org.jmpi.internal.coll.node;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.jmpi.CommInternals;
import org.jmpi.Datatype;
import org.jmpi.ErrorClass;
import org.jmpi.MpiException;
import org.jmpi.Ranks;
import org.jmpi.internal.pt2pt.CommState;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A rank that finds nonsense in a peer's part of the region (a flag beyond any call the peers can have
 * reached, a length with unknown bits) fails its call with ERR_INTERN instead of waiting or copying: rank 1
 * plays the buggy peer by writing its control block by hand, then tells rank 0 by a message that it may go on.
 */
class NodeRegionCorruptionTest
{
    @Test
    @Timeout(120)
    void shouldFailWithErrInternOnAFlagNoCallCanHaveReached()
    {
        Ranks.run(2, (mpi, world) ->
        {
            world.barrier();
            final CommState s = CommInternals.state(world);
            final NodeComm node = NodeComm.of(s, 0);
            if (world.rank() == 1)
            {
                // Rank 0 may still be reading rank 1's arrival at the barrier (a rank leaves a barrier once it has
                // seen every arrival, not once every rank has seen its own): wait until rank 0 has left it.
                world.recv(new int[1], 0, 1, Datatype.INT, 0, 4);
                node.region().arrive(1, NodeRegionDescriptor.flag(node.started() + 1_000_000, 0));
                world.send(new int[1], 0, 1, Datatype.INT, 0, 5);
            }
            else
            {
                world.send(new int[1], 0, 1, Datatype.INT, 1, 4);
                world.recv(new int[1], 0, 1, Datatype.INT, 1, 5);
                final MpiException e = assertThrows(MpiException.class, world::barrier);
                assertEquals(ErrorClass.ERR_INTERN, e.errorClass());
                assertTrue(e.getMessage().contains("rank 1's flag"), e.getMessage());
            }
        });
    }

    @Test
    @Timeout(120)
    void shouldFailWithErrInternOnALengthWithUnknownBits()
    {
        Ranks.run(2, (mpi, world) ->
        {
            world.barrier();
            final CommState s = CommInternals.state(world);
            final NodeComm node = NodeComm.of(s, 0);
            final int[] data = {1, 2, 3};
            if (world.rank() == 1)
            {
                // What rank 1's bcast from root 1 would post, with garbage in the length's unused bits.
                final NodeRegion region = node.region();
                region.length(1, node.nextHalf, 0x0F00_0000_0000_000CL);
                region.arrive(1, NodeRegionDescriptor.flag(node.started() + 1, 0));
                world.recv(new int[1], 0, 1, Datatype.INT, 0, 6);
            }
            else
            {
                final MpiException e = assertThrows(MpiException.class, () -> world.bcast(data, 0, 3, Datatype.INT, 1));
                assertEquals(ErrorClass.ERR_INTERN, e.errorClass());
                assertTrue(e.getMessage().contains("rank 1 posted length"), e.getMessage());
                assertEquals(1, data[0], "nothing copied");
                world.send(new int[1], 0, 1, Datatype.INT, 1, 6);
            }
        });
    }
}
