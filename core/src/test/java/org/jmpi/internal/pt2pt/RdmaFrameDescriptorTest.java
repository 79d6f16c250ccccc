package org.jmpi.internal.pt2pt;

import org.junit.jupiter.api.Test;

import static org.jmpi.internal.pt2pt.RdmaFrameDescriptor.*;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Keeps {@link RdmaFrameDescriptor}'s offsets on its diagram. */
class RdmaFrameDescriptorTest
{
    @Test
    void shouldLayOutTheRtsExtensionAndFramesAsTheDiagramShows()
    {
        assertEquals(40, RTS_KEY0_OFFSET);
        assertEquals(48, RTS_KEY1_OFFSET);
        assertEquals(56, RTS_OFFSET_OFFSET);
        assertEquals(64, RTS_FLAGS_OFFSET);
        assertEquals(72, RTS_LENGTH);
        assertEquals(8, CTS_SENDER_REQUEST_OFFSET);
        assertEquals(16, CTS_RECEIVER_REQUEST_OFFSET);
        assertEquals(24, CTS_KEY0_OFFSET);
        assertEquals(32, CTS_KEY1_OFFSET);
        assertEquals(40, CTS_OFFSET_OFFSET);
        assertEquals(48, CTS_ACCEPT_OFFSET);
        assertEquals(56, CTS_LENGTH);
        assertEquals(8, DONE_RECEIVER_REQUEST_OFFSET);
        assertEquals(16, DONE_LENGTH);
        assertEquals(0, RTS_LENGTH % 8, "8-byte multiple");
    }

    @Test
    void shouldUseIdsNoOtherPathOrPointToPointFrameHas()
    {
        assertTrue(PATH_RDMA != FrameDescriptor.PATH_FRAGMENTS && PATH_RDMA != FrameDescriptor.PATH_PEER_COPY &&
            PATH_RDMA != FrameDescriptor.PATH_SPLIT_COPY);
        for (final byte type : new byte[] {FrameDescriptor.TYPE_EAGER, FrameDescriptor.TYPE_RTS, FrameDescriptor.TYPE_CTS,
            FrameDescriptor.TYPE_DATA, FrameDescriptor.TYPE_ACK, FrameDescriptor.TYPE_FIN, FrameDescriptor.TYPE_CREDIT,
            FrameDescriptor.TYPE_SPLIT, FrameDescriptor.TYPE_BYE})
        {
            assertTrue(type != TYPE_RDMA_CTS && type != TYPE_RDMA_DONE, "type " + type);
        }
        assertTrue(TYPE_RDMA_CTS < FrameDescriptor.FIRST_EXTENSION_TYPE && TYPE_RDMA_DONE < FrameDescriptor.FIRST_EXTENSION_TYPE);
    }
}
