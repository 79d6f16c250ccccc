package org.jmpi.internal.coll.hier;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

import org.jmpi.Datatype;
import org.junit.jupiter.api.Test;

/** The scratch buffers of a two-level reduce at a leader that is not the root: shaped like the user's items. */
class HierScratchTest
{
    @Test
    void shouldFitContiguousItems()
    {
        final ByteBuffer b = HierCollectives.scratch(10, Datatype.INT);
        assertEquals(40, b.capacity());
        assertEquals(0, b.position());
        assertEquals(ByteOrder.nativeOrder(), b.order());
    }

    @Test
    void shouldFitStridedItemsWithoutTheTrailingGap()
    {
        // 3 ints at stride 2: extent 5 ints; two items reach from 0 to 5 + 5 ints.
        final Datatype strided = Datatype.vector(3, 1, 2, Datatype.INT).commit();
        final ByteBuffer b = HierCollectives.scratch(2, strided);
        assertEquals(40, b.capacity());
        assertEquals(0, b.position());
    }

    @Test
    void shouldMakeRoomForANegativeLowerBound()
    {
        // One int at byte -8 of each item, items 4 bytes apart: 3 items touch bytes [-8, 4) of the item offset.
        final Datatype shifted = Datatype.resized(Datatype.hindexed(new int[] {1}, new long[] {-8}, Datatype.INT), -8, 4).commit();
        final ByteBuffer b = HierCollectives.scratch(3, shifted);
        assertEquals(8, b.position());
        assertEquals(12, b.capacity());
    }
}
