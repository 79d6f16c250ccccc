package org.jmpi.transport.shm;

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
    void shouldPlaceEachDoorbellOnItsOwnCacheLineBetweenTheHeaderAndTheRings()
    {
        for (final int ranks : new int[] {1, 3, 64, 65, 1000})
        {
            for (int local = 0; local < ranks; local++)
            {
                final long bell = DoorbellDescriptor.offset(ranks, local);
                assertEquals(0, bell % 64, "cache-line aligned");
                assertEquals(ShmFileDescriptor.headerLength(ranks) + 64L * local, bell);
                assertTrue(bell + DoorbellDescriptor.LENGTH <= ShmFileDescriptor.ringsOffset(ranks), "before the rings: " + ranks);
            }
        }
    }
}
