package org.jmpi.transport.verbs;

import org.junit.jupiter.api.Test;

import static org.jmpi.transport.verbs.StagedMessageDescriptor.*;
import static org.junit.jupiter.api.Assertions.assertEquals;

/** Keeps {@link StagedMessageDescriptor}'s offsets on its diagram. */
class StagedMessageDescriptorTest
{
    @Test
    void shouldLayOutTheHeaderAsTheDiagramShows()
    {
        assertEquals(0, KIND_OFFSET);
        assertEquals(4, SLOT_OFFSET);
        assertEquals(8, REGISTRATION_OFFSET);
        assertEquals(16, TARGET_OFFSET_OFFSET);
        assertEquals(24, CHUNK_OFFSET_OFFSET);
        assertEquals(32, LENGTH_OFFSET);
        assertEquals(36, STATUS_OFFSET);
        assertEquals(40, HEADER_LENGTH);
        assertEquals(0, HEADER_LENGTH % 8, "data 8-byte aligned in a slot");
    }
}
