package org.jmpi.transport.shm;

import org.junit.jupiter.api.Test;

import java.nio.ByteOrder;

import static org.junit.jupiter.api.Assertions.assertEquals;

class FragmentPoolDescriptorTest
{
    @Test
    void shouldPlaceCountersOnTheirOwnPairOfCacheLines()
    {
        assertEquals(128, FragmentPoolDescriptor.COUNTER_PADDED_LENGTH);
        assertEquals(0, FragmentPoolDescriptor.PRODUCER_POSITION_OFFSET);
        assertEquals(128, FragmentPoolDescriptor.CONSUMER_POSITION_OFFSET);
        assertEquals(256, FragmentPoolDescriptor.SLOTS_OFFSET);
        assertEquals(256, FragmentPoolDescriptor.HEADER_LENGTH);
        assertEquals(ByteOrder.nativeOrder(), FragmentPoolDescriptor.BYTE_ORDER);
    }

    @Test
    void shouldStartEverySlotOnACacheLine()
    {
        assertEquals(64, FragmentPoolDescriptor.SLOT_ALIGNMENT);
        assertEquals(33024, FragmentPoolDescriptor.slotStride(33024));
        assertEquals(128, FragmentPoolDescriptor.slotStride(65));
        assertEquals(64, FragmentPoolDescriptor.slotStride(1));
        assertEquals(256, FragmentPoolDescriptor.slotOffset(33024, 0));
        assertEquals(256 + 7 * 33024, FragmentPoolDescriptor.slotOffset(33024, 7));
        assertEquals(256 + 3 * 128, FragmentPoolDescriptor.slotOffset(100, 3));
        for (int slot = 0; slot < 8; slot++)
        {
            assertEquals(0, FragmentPoolDescriptor.slotOffset(1000, slot) % 64);
        }
    }

    @Test
    void shouldMeasureThePool()
    {
        assertEquals(256 + 8 * 33024, FragmentPoolDescriptor.poolLength(8, 33024));
        assertEquals(256 + 64, FragmentPoolDescriptor.poolLength(1, 1));
    }
}
