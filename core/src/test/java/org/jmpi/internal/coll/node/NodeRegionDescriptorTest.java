package org.jmpi.internal.coll.node;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.jmpi.ErrorClass;
import org.jmpi.MpiException;
import org.jmpi.internal.engine.ProgressEngine;
import org.junit.jupiter.api.Test;

class NodeRegionDescriptorTest
{
    @Test
    void shouldLayOutTheHeaderAsTheDiagramShows()
    {
        assertEquals(0, NodeRegionDescriptor.MAGIC_OFFSET);
        assertEquals(4, NodeRegionDescriptor.VERSION_OFFSET);
        assertEquals(8, NodeRegionDescriptor.RANKS_OFFSET);
        assertEquals(12, NodeRegionDescriptor.SLOT_BYTES_OFFSET);
        assertEquals(128, NodeRegionDescriptor.HEADER_LENGTH);
        assertEquals(NodeRegionDescriptor.HEADER_LENGTH, NodeRegionDescriptor.CONTROL_OFFSET);
    }

    @Test
    void shouldGiveEveryRankItsOwnCacheLinePairOfFlags()
    {
        assertEquals(0, NodeRegionDescriptor.ARRIVE_OFFSET);
        assertEquals(64, NodeRegionDescriptor.DONE_OFFSET);
        assertEquals(8, NodeRegionDescriptor.LENGTH_OFFSET);
        assertEquals(16, NodeRegionDescriptor.TOTAL_OFFSET);
        assertEquals(24, NodeRegionDescriptor.LENGTH_ODD_OFFSET);
        assertEquals(32, NodeRegionDescriptor.TOTAL_ODD_OFFSET);
        // Done never shares a cache line with Arrive, whatever the region's alignment.
        assertTrue(NodeRegionDescriptor.DONE_OFFSET - NodeRegionDescriptor.ARRIVE_OFFSET >= 64);
        assertTrue(NodeRegionDescriptor.DONE_OFFSET + Long.BYTES <= NodeRegionDescriptor.CONTROL_LENGTH);
        assertEquals(NodeRegionDescriptor.LENGTH_OFFSET, NodeRegionDescriptor.lengthOffset(0));
        assertEquals(NodeRegionDescriptor.LENGTH_ODD_OFFSET, NodeRegionDescriptor.lengthOffset(1));
        assertEquals(NodeRegionDescriptor.TOTAL_OFFSET, NodeRegionDescriptor.totalOffset(0));
        assertEquals(NodeRegionDescriptor.TOTAL_ODD_OFFSET, NodeRegionDescriptor.totalOffset(1));
        assertEquals(128, NodeRegionDescriptor.CONTROL_LENGTH);
        assertTrue(NodeRegionDescriptor.TOTAL_ODD_OFFSET + Long.BYTES <= NodeRegionDescriptor.CONTROL_LENGTH);
        for (int r = 0; r < 5; r++)
        {
            assertEquals(128 + 128 * r, NodeRegionDescriptor.controlOffset(r));
            assertEquals(0, NodeRegionDescriptor.controlOffset(r) % 64, "control block of rank " + r + " starts a cache line");
        }
    }

    @Test
    void shouldPlaceAlignedSlotsAfterTheControlBlocks()
    {
        final int ranks = 5;
        final int slot = NodeRegionDescriptor.alignSlot(1000);
        assertEquals(1024, slot);
        assertEquals(128 + 5 * 128, NodeRegionDescriptor.slotsOffset(ranks));
        for (int r = 0; r < ranks; r++)
        {
            final int at = NodeRegionDescriptor.slotOffset(ranks, slot, r);
            assertEquals(NodeRegionDescriptor.slotsOffset(ranks) + r * slot, at);
            assertEquals(0, at % NodeRegionDescriptor.SLOT_ALIGNMENT);
        }
        assertEquals(NodeRegionDescriptor.slotsOffset(ranks) + 5L * slot, NodeRegionDescriptor.regionLength(ranks, slot));
        assertEquals(128, NodeRegionDescriptor.alignSlot(0));
        assertEquals(512, NodeRegionDescriptor.halfBytes(slot));
        assertEquals(0, NodeRegionDescriptor.halfOffset(slot, 0));
        assertEquals(512, NodeRegionDescriptor.halfOffset(slot, 1));
        assertEquals(0, NodeRegionDescriptor.halfBytes(NodeRegionDescriptor.alignSlot(1)) % 64, "halves start cache lines");
        assertEquals(256, NodeRegionDescriptor.alignSlot(129));
    }

    @Test
    void shouldKeepTheLengthFieldsModeAndBytesApart()
    {
        assertEquals(0, NodeRegionDescriptor.LENGTH_DIRECT & NodeRegionDescriptor.LENGTH_BYTES_MASK);
        assertEquals(0, NodeRegionDescriptor.LENGTH_FAILED & (NodeRegionDescriptor.LENGTH_DIRECT | NodeRegionDescriptor.LENGTH_BYTES_MASK));
        assertEquals(0x4A, NodeRegionDescriptor.MAGIC & 0xFF, "magic reads JMCR in memory order");
    }

    @Test
    void shouldOrderFlagsByCallThenRound()
    {
        assertEquals(4, NodeRegionDescriptor.VERSION);
        assertEquals(1L << 32, NodeRegionDescriptor.flag(1, 0));
        assertEquals(1, NodeRegionDescriptor.callOf(NodeRegionDescriptor.flag(1, NodeRegionDescriptor.ROUND_LAST)));
        assertTrue(NodeRegionDescriptor.flag(1, 7) < NodeRegionDescriptor.flag(1, NodeRegionDescriptor.ROUND_LAST));
        assertTrue(NodeRegionDescriptor.flag(1, NodeRegionDescriptor.ROUND_LAST) < NodeRegionDescriptor.flag(2, 0));
        assertTrue(NodeRegionDescriptor.flag((1L << 31) - 1, NodeRegionDescriptor.ROUND_LAST) > 0, "flags stay positive");
    }

    @Test
    void shouldCheckTheHeaderOnAttach()
    {
        final NodeRegion region = new NodeRegion(3, 256);
        final ProgressEngine engine = new ProgressEngine(() -> 0, false, new ProgressEngine.IdleSpec(1, 1, 0, 1_000, 1_000), "test");
        assertThrows(MpiException.class, () -> region.attach(0, 4, engine), "rank count differs");
        final MpiException twice = assertThrows(MpiException.class, () ->
        {
            region.attach(1, 3, engine);
            region.attach(1, 3, engine);
        });
        assertEquals(ErrorClass.ERR_INTERN, twice.errorClass());
        assertEquals(ErrorClass.ERR_INTERN, assertThrows(MpiException.class, () -> region.attach(3, 3, engine)).errorClass());
    }
}
