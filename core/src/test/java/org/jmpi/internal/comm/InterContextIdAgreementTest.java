package org.jmpi.internal.comm;

import org.jmpi.CommInternals;
import org.jmpi.internal.rank.ContextIdPool;
import org.jmpi.Comm;
import org.jmpi.Datatype;
import org.jmpi.Intercomm;
import org.jmpi.Op;
import org.jmpi.Ranks;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The context-id agreement across the two groups of an intercommunicator ({@link InterContextIdAgreement}). */
@Timeout(60)
class InterContextIdAgreementTest
{
    /**
     * The groups' pools differ (group A made a communicator of its own, so its lowest free slot is taken there
     * only) and one member of group B holds the next free slot, as a concurrent agreement in a round would: the
     * intercommunicator and its merged communicator take slots free and unheld on every member of both groups,
     * the same on all.
     */
    @ParameterizedTest
    @ValueSource(ints = {2, 3, 5})
    void shouldAgreeSlotsFreeOnBothGroupsAvoidingHeldOnes(final int size)
    {
        Ranks.run(size, (mpi, world) ->
        {
            final int rank = world.rank();
            final boolean inA = rank % 2 == 0;
            final Comm half = world.split(inA ? 0 : 1, rank);
            final ContextIdPool pool = CommInternals.state(world).contextIds();
            final Comm onlyA = inA ? half.dup() : null;
            final int lastOfB = size % 2 == 0 ? size - 1 : size - 2;
            final int held = rank == lastOfB ? pool.holdLowest(0) : -1;
            final Intercomm inter = Intercomm.create(half, 0, world, inA ? 1 : 0, 5);
            final Comm merged = inter.merge(inA);
            final int[] ids = CommInternals.contextIds(inter);
            final int[] mine = {ids[0], ids[2], CommInternals.state(merged).contextId()};
            for (final int id : mine)
            {
                if (onlyA != null)
                {
                    assertFalse(id == CommInternals.state(onlyA).contextId(), "id " + id + " is used by a communicator of group A");
                }
                if (held >= 0)
                {
                    assertFalse(pool.slot(id) == held, "id " + id + " is held by another agreement on this rank");
                }
                assertTrue(pool.isUsed(pool.slot(id)), "id " + id + " is committed");
            }
            if (held >= 0)
            {
                pool.release(held);
            }
            final int[] max = new int[3];
            final int[] min = new int[3];
            world.allreduce(mine, 0, max, 0, 3, Datatype.INT, Op.MAX);
            world.allreduce(mine, 0, min, 0, 3, Datatype.INT, Op.MIN);
            assertArrayEquals(mine, max, "all members of both groups agreed the same ids");
            assertArrayEquals(mine, min, "all members of both groups agreed the same ids");
            inter.barrier();
            inter.free();
            merged.free();
        });
    }

    /** Group A has the first window all used but one slot, which group B uses: the agreement moves to the next window. */
    @Test
    void shouldMoveToTheNextWindowWhenTheGroupsShareNoFreeSlotInOne()
    {
        Ranks.run(4, (mpi, world) ->
        {
            final int rank = world.rank();
            final boolean inA = rank % 2 == 0;
            final Comm half = world.split(inA ? 0 : 1, rank);
            final ContextIdPool pool = CommInternals.state(world).contextIds();
            final int spare = 100;
            for (int s = 0; s < ContextIdPool.WINDOW_SLOTS; s++)
            {
                if (inA == (s != spare) && pool.tryHold(s))
                {
                    pool.commit(s);
                }
            }
            final Intercomm inter = Intercomm.create(half, 0, world, inA ? 1 : 0, 6);
            final int[] ids = CommInternals.contextIds(inter);
            assertTrue(pool.slot(ids[0]) >= ContextIdPool.WINDOW_SLOTS, "agreed " + ids[0]);
            assertTrue(pool.slot(ids[2]) >= ContextIdPool.WINDOW_SLOTS, "agreed " + ids[2]);
            final int[] mine = {ids[0], ids[2]};
            final int[] max = new int[2];
            world.allreduce(mine, 0, max, 0, 2, Datatype.INT, Op.MAX);
            assertArrayEquals(mine, max);
            inter.barrier();
        });
    }
}
