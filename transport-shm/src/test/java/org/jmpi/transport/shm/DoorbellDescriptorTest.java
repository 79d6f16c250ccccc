package org.jmpi.transport.shm;

import org.agrona.concurrent.ringbuffer.RingBufferDescriptor;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class DoorbellDescriptorTest
{
    @Test
    void shouldLayTheWordsOutAsTheDiagramSays()
    {
        assertEquals(0, DoorbellDescriptor.SEQUENCE_OFFSET);
        assertEquals(4, DoorbellDescriptor.ARMED_OFFSET);
        assertEquals(64, DoorbellDescriptor.LENGTH);
    }

    @Test
    void shouldPlaceEachDoorbellAfterItsRingTrailerInsideTheRingRegion()
    {
        for (final int capacity : new int[] {1024, 4096, 65_536, 1 << 20, 1 << 24})
        {
            for (int local = 0; local < 3; local++)
            {
                final long ring = ShmFileDescriptor.ringOffset(3, capacity, local);
                final long bell = DoorbellDescriptor.offset(3, capacity, local);
                assertEquals(0, bell % 64, "cache-line aligned");
                assertTrue(bell >= ring + capacity + RingBufferDescriptor.TRAILER_LENGTH, "after the trailer");
                assertTrue(bell + DoorbellDescriptor.LENGTH <= ShmFileDescriptor.ringOffset(3, capacity, local + 1),
                    "inside the ring's region: capacity " + capacity);
            }
        }
    }
}
