package org.jmpi.internal.comm;

import org.jmpi.Intracomm;
import org.jmpi.CommInternals;
import java.util.Map;

import org.jmpi.internal.rank.ContextIdPool;
import org.jmpi.Comm;
import org.jmpi.Datatype;
import org.jmpi.MpiException;
import org.jmpi.Op;
import org.jmpi.Ranks;
import org.jmpi.Request;
import org.jmpi.ThreadLevel;
import org.jmpi.internal.pt2pt.CommState;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

@Timeout(60)
class ContextIdAgreementTest
{
    @Test
    void shouldHoldTheLowestFreeSlotSkippingUsedAndHeldOnes()
    {
        final ContextIdPool pool = new ContextIdPool(4);
        assertEquals(0, pool.holdLowest(0));
        assertEquals(1, pool.holdLowest(0));
        pool.commit(0);
        assertEquals(2, pool.holdLowest(0));
        pool.release(1);
        assertEquals(1, pool.holdLowest(0));
        assertEquals(5000, pool.holdLowest(5000));
        assertFalse(pool.tryHold(2));
        assertFalse(pool.tryHold(0));
        assertTrue(pool.tryHold(3));
        assertEquals(4, pool.id(0));
        assertEquals(3, pool.slot(10));
        assertEquals(3, pool.slot(11));
        assertEquals(-1, pool.slot(2));
    }

    @Test
    void shouldMaskTheFreeSlotsOfAWindow()
    {
        final ContextIdPool pool = new ContextIdPool(4);
        pool.tryHold(0);
        pool.commit(0);
        pool.tryHold(65);
        pool.tryHold(ContextIdPool.WINDOW_SLOTS + 3);
        final long[] words = new long[1 + ContextIdPool.WINDOW_WORDS];
        pool.freeMask(0, words, 1);
        assertEquals(~1L, words[1]);
        assertEquals(~2L, words[2]);
        for (int i = 3; i <= ContextIdPool.WINDOW_WORDS; i++)
        {
            assertEquals(-1L, words[i]);
        }
        pool.freeMask(1, words, 1);
        assertEquals(~8L, words[1]);
        final int last = pool.windows() - 1;
        pool.freeMask(last, words, 1);
        final int slotsInLast = (Integer.MAX_VALUE - 4) / 2 - last * ContextIdPool.WINDOW_SLOTS;
        int bits = 0;
        for (int i = 1; i <= ContextIdPool.WINDOW_WORDS; i++)
        {
            bits += Long.bitCount(words[i]);
        }
        assertEquals(slotsInLast, bits, "slots beyond the id range are never offered");
    }

    @Test
    void shouldFreeCommittedSlotsAndRefuseFreeingOthers()
    {
        final ContextIdPool pool = new ContextIdPool(4);
        final int slot = pool.holdLowest(0);
        pool.commit(slot);
        assertTrue(pool.isUsed(slot));
        assertEquals(1, pool.usedCount());
        pool.free(slot);
        assertFalse(pool.isUsed(slot));
        assertEquals(slot, pool.holdLowest(0));
        final MpiException ex = assertThrows(MpiException.class, () -> pool.free(7));
        assertTrue(ex.getMessage().contains("slot 7"), ex.getMessage());
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 5})
    void shouldAgreeInOneRoundWhenRanksAreAlikeAndAvoidASlotHeldOnOneRank(final int size)
    {
        Ranks.run(size, (mpi, world) ->
        {
            final CommState w = CommInternals.state(world);
            final ContextIdAgreement first = IdupRequest.start(w, c -> { });
            first.await();
            assertEquals(1, first.rounds());
            final ContextIdPool pool = w.contextIds();
            // The last rank holds the next free slot, as a concurrent agreement stuck in a round would.
            final int blocked = world.rank() == size - 1 ? pool.holdLowest(0) : -1;
            final CommState[] made = new CommState[1];
            final ContextIdAgreement second = IdupRequest.start(w, c -> made[0] = c);
            second.await();
            assertNotNull(made[0]);
            assertNotEquals(first.contextId(), second.contextId());
            if (blocked >= 0)
            {
                assertNotEquals(pool.id(blocked), second.contextId());
                pool.release(blocked);
            }
            assertEquals(size > 1 ? 2 : 1, second.rounds(), "rounds of the agreement with a slot held on one rank");
            final int[] ids = {second.contextId()};
            final int[] max = new int[1];
            world.allreduce(ids, 0, max, 0, 1, Datatype.INT, Op.MAX);
            assertEquals(ids[0], max[0], "all ranks agreed the same id");
            assertTrue(made[0].free());
            assertFalse(made[0].free(), "a second free does nothing");
            assertFalse(pool.isUsed(pool.slot(second.contextId())));
        });
    }

    @Test
    void shouldNotWaitForAnAgreementThatOtherRanksHaveNotJoinedYet()
    {
        Ranks.run(2, ThreadLevel.SINGLE, Map.of(), (mpi, world) ->
        {
            final Intracomm a = world.dup();
            final Intracomm b = world.dup();
            // Rank 0 starts an idup on a, then dups b; rank 1 dups b first, joining a's idup only afterwards.
            final Comm[] box = new Comm[1];
            final Intracomm fromB;
            final Request idup;
            if (world.rank() == 0)
            {
                idup = a.idup(box);
                fromB = b.dup();
            }
            else
            {
                fromB = b.dup();
                idup = a.idup(box);
            }
            idup.await();
            assertNotNull(box[0]);
            assertNotEquals(CommInternals.state(fromB).contextId(), CommInternals.state(box[0]).contextId());
            final int[] mine = {CommInternals.state(box[0]).contextId(), CommInternals.state(fromB).contextId()};
            final int[] max = new int[2];
            world.allreduce(mine, 0, max, 0, 2, Datatype.INT, Op.MAX);
            assertEquals(mine[0], max[0]);
            assertEquals(mine[1], max[1]);
        });
    }

    @Test
    void shouldMoveToTheNextWindowWhenOneIsFull()
    {
        Ranks.run(2, (mpi, world) ->
        {
            final ContextIdPool pool = CommInternals.state(world).contextIds();
            // Rank 0 has the first window all used but one slot, rank 1 has that one slot used.
            final int spare = 100;
            for (int s = 0; s < ContextIdPool.WINDOW_SLOTS; s++)
            {
                if ((world.rank() == 0) == (s != spare) && pool.tryHold(s))
                {
                    pool.commit(s);
                }
            }
            final CommState made = Communicators.dup(CommInternals.state(world));
            assertTrue(pool.slot(made.contextId()) >= ContextIdPool.WINDOW_SLOTS, "agreed " + made.contextId());
            final int[] mine = {made.contextId()};
            final int[] max = new int[1];
            world.allreduce(mine, 0, max, 0, 1, Datatype.INT, Op.MAX);
            assertEquals(mine[0], max[0]);
        });
    }
}
