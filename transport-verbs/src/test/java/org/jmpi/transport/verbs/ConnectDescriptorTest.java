package org.jmpi.transport.verbs;

import org.junit.jupiter.api.Test;

import java.nio.ByteOrder;

import static org.jmpi.transport.verbs.ConnectDescriptor.*;
import static org.junit.jupiter.api.Assertions.assertEquals;

/** Keeps {@link ConnectDescriptor}'s offsets on its diagram. */
class ConnectDescriptorTest
{
    @Test
    void shouldLayOutTheMessageAsTheDiagramShows()
    {
        assertEquals(0, VERSION_OFFSET);
        assertEquals(4, KIND_OFFSET);
        assertEquals(8, FROM_OFFSET);
        assertEquals(12, TO_OFFSET);
        assertEquals(16, QPN_OFFSET);
        assertEquals(20, PSN_OFFSET);
        assertEquals(24, SECRET_OFFSET);
        assertEquals(40, LENGTH);
        assertEquals(ByteOrder.LITTLE_ENDIAN, BYTE_ORDER);
        assertEquals("vcm1", new String(new byte[] {(byte)(VERSION >>> 24), (byte)(VERSION >>> 16), (byte)(VERSION >>> 8), (byte)VERSION}));
    }
}
