package org.jmpi.internal.rma;

import org.jmpi.internal.pt2pt.FrameDescriptor;
import org.junit.jupiter.api.Test;

import static org.jmpi.internal.rma.WinFrameDescriptor.*;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Keeps WinFrameDescriptor's diagram and its constants in step. */
class WinFrameDescriptorTest
{
    @Test
    void shouldLayOutTheOpFrame()
    {
        assertEquals(8, REGION_OFFSET);
        assertEquals(12, KIND_OFFSET);
        assertEquals(13, OP_CODE_OFFSET);
        assertEquals(14, FETCH_OFFSET);
        assertEquals(16, TARGET_OFFSET_OFFSET);
        assertEquals(24, OP_ID_OFFSET);
        assertEquals(32, TARGET_COUNT_OFFSET);
        assertEquals(40, STREAM_FROM_OFFSET);
        assertEquals(48, DATA_LENGTH_OFFSET);
        assertEquals(52, TYPE_LENGTH_OFFSET);
        assertEquals(56, TYPE_OFFSET);
    }

    @Test
    void shouldLayOutTheResultFrame()
    {
        assertEquals(8, RESULT_OP_ID_OFFSET);
        assertEquals(16, RESULT_STREAM_FROM_OFFSET);
        assertEquals(24, RESULT_LENGTH_OFFSET);
        assertEquals(28, RESULT_STATUS_OFFSET);
        assertEquals(32, RESULT_DATA_OFFSET);
        assertEquals(0, RESULT_DATA_OFFSET % 8);
    }

    @Test
    void shouldUseFreeExtensionFrameTypesAndTheProtocolsByteOrder()
    {
        for (final byte type : new byte[] {TYPE_OP, TYPE_RESULT})
        {
            assertTrue(type >= FrameDescriptor.FIRST_EXTENSION_TYPE, "type " + type);
            for (final byte taken : new byte[] {RmaFrameDescriptor.TYPE_PUT, RmaFrameDescriptor.TYPE_GET, RmaFrameDescriptor.TYPE_ADD,
                RmaFrameDescriptor.TYPE_ACK, RmaFrameDescriptor.TYPE_GET_DATA})
            {
                assertNotEquals(taken, type);
            }
        }
        assertEquals(FrameDescriptor.BYTE_ORDER, BYTE_ORDER);
    }
}
