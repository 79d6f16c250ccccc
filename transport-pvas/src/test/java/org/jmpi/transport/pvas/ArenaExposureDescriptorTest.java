package org.jmpi.transport.pvas;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

class ArenaExposureDescriptorTest
{
    @Test
    void shouldPlaceEveryFieldAtItsDiagramOffset()
    {
        assertEquals(0, ArenaExposureDescriptor.HANDLE_OFFSET);
        assertEquals(8, ArenaExposureDescriptor.DATA_OFFSET_OFFSET);
        assertEquals(16, ArenaExposureDescriptor.LENGTH_OFFSET);
        assertEquals(24, ArenaExposureDescriptor.KIND_OFFSET);
        assertEquals(28, ArenaExposureDescriptor.ORDER_OFFSET);
        assertEquals(32, ArenaExposureDescriptor.LENGTH);
        assertEquals(0, ArenaExposureDescriptor.HANDLE_OFFSET % 8, "the handle is read and written atomically");
    }

    @Test
    void shouldSizeEveryElementKind()
    {
        assertEquals(1, ArenaExposureDescriptor.elementSize(ArenaExposureDescriptor.KIND_BYTE));
        assertEquals(2, ArenaExposureDescriptor.elementSize(ArenaExposureDescriptor.KIND_SHORT));
        assertEquals(2, ArenaExposureDescriptor.elementSize(ArenaExposureDescriptor.KIND_CHAR));
        assertEquals(4, ArenaExposureDescriptor.elementSize(ArenaExposureDescriptor.KIND_INT));
        assertEquals(8, ArenaExposureDescriptor.elementSize(ArenaExposureDescriptor.KIND_LONG));
        assertEquals(4, ArenaExposureDescriptor.elementSize(ArenaExposureDescriptor.KIND_FLOAT));
        assertEquals(8, ArenaExposureDescriptor.elementSize(ArenaExposureDescriptor.KIND_DOUBLE));
        assertEquals(0, ArenaExposureDescriptor.elementSize(0));
        assertEquals(0, ArenaExposureDescriptor.elementSize(8));
    }
}
