package org.jmpi.internal.rma;

import org.jmpi.internal.pt2pt.FrameDescriptor;
import org.junit.jupiter.api.Test;

import static org.jmpi.internal.rma.RmaFrameDescriptor.*;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Keeps RmaFrameDescriptor's diagram and its constants in step. */
class RmaFrameDescriptorTest
{
    @Test
    void shouldLayOutRequestFramesAfterTheCommonHeader()
    {
        assertEquals(8, REGION_OFFSET);
        assertEquals(12, LENGTH_OFFSET);
        assertEquals(16, TARGET_OFFSET_OFFSET);
        assertEquals(24, OP_OFFSET);
        assertEquals(32, PUT_DATA_OFFSET);
        assertEquals(32, GET_ORIGIN_OFFSET_OFFSET);
        assertEquals(40, GET_LENGTH);
        assertEquals(32, ADD_DELTA_OFFSET);
        assertEquals(40, ADD_LENGTH);
    }

    @Test
    void shouldLayOutAnswerFrames()
    {
        assertEquals(8, ACK_OP_OFFSET);
        assertEquals(16, ACK_VALUE_OFFSET);
        assertEquals(24, ACK_LENGTH);
        assertEquals(8, DATA_OP_OFFSET);
        assertEquals(16, DATA_ORIGIN_OFFSET_OFFSET);
        assertEquals(24, DATA_LENGTH_OFFSET);
        assertEquals(32, DATA_PAYLOAD_OFFSET);
    }

    @Test
    void shouldUseExtensionFrameTypesAndTheProtocolsByteOrder()
    {
        for (final byte type : new byte[] {TYPE_PUT, TYPE_GET, TYPE_ADD, TYPE_ACK, TYPE_GET_DATA})
        {
            assertTrue(type >= FrameDescriptor.FIRST_EXTENSION_TYPE, "type " + type);
        }
        assertEquals(FrameDescriptor.BYTE_ORDER, BYTE_ORDER);
        assertEquals(0, PUT_DATA_OFFSET % 8);
        assertEquals(0, DATA_PAYLOAD_OFFSET % 8);
    }
}
