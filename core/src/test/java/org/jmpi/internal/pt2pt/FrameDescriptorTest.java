package org.jmpi.internal.pt2pt;

import org.junit.jupiter.api.Test;

import java.nio.ByteOrder;

import static org.jmpi.internal.pt2pt.FrameDescriptor.*;
import static org.junit.jupiter.api.Assertions.*;

/** Keeps FrameDescriptor's diagram and its constants in step. */
class FrameDescriptorTest
{
    @Test
    void shouldLayOutTheCommonHeader()
    {
        assertEquals(0, TYPE_OFFSET);
        assertEquals(1, FLAGS_OFFSET);
        assertEquals(2, RESERVED_OFFSET);
        assertEquals(4, CREDITS_OFFSET);
        assertEquals(8, COMMON_LENGTH);
        assertEquals(ByteOrder.LITTLE_ENDIAN, BYTE_ORDER);
    }

    @Test
    void shouldLayOutEnvelopeFrames()
    {
        assertEquals(8, CONTEXT_OFFSET);
        assertEquals(12, TAG_OFFSET);
        assertEquals(16, SOURCE_OFFSET);
        assertEquals(20, SIG_OFFSET);
        assertEquals(21, PATH_OFFSET);
        assertEquals(24, LENGTH_OFFSET);
        assertEquals(32, ENVELOPE_SENDER_REQUEST_OFFSET);
        assertEquals(40, ENVELOPE_LENGTH);
    }

    @Test
    void shouldLayOutThePeerCopyRtsExtension()
    {
        assertEquals(40, PEER_HANDLE_OFFSET);
        assertEquals(48, PEER_ELEMENT_OFFSET_OFFSET);
        assertEquals(56, PEER_COUNT_OFFSET);
        assertEquals(64, PEER_TYPE_ID_OFFSET);
        assertEquals(68, PEER_WIRE_LENGTH_OFFSET);
        assertEquals(72, PEER_RTS_LENGTH);
        assertEquals(0, PEER_RTS_LENGTH % 8, "wire form starts 8-byte aligned");
        assertEquals(32, FIRST_EXTENSION_TYPE);
    }

    @Test
    void shouldLayOutThePublishedTypeReference()
    {
        assertEquals(-1, WIRE_PUBLISHED);
        assertEquals(0, PUBLISHED_HANDLE_OFFSET);
        assertEquals(8, PUBLISHED_OFFSET_OFFSET);
        assertEquals(16, PUBLISHED_LENGTH_OFFSET);
        assertEquals(24, PUBLISHED_REF_LENGTH);
        assertEquals(0, SPLIT_LENGTH % 8, "a reference after a SPLIT starts 8-byte aligned");
    }

    @Test
    void shouldLayOutControlAndDataFrames()
    {
        assertEquals(8, CTS_SENDER_REQUEST_OFFSET);
        assertEquals(16, CTS_RECEIVER_REQUEST_OFFSET);
        assertEquals(24, CTS_ACCEPT_OFFSET);
        assertEquals(32, CTS_LENGTH);
        assertEquals(8, DATA_RECEIVER_REQUEST_OFFSET);
        assertEquals(16, DATA_STREAM_OFFSET);
        assertEquals(24, DATA_LENGTH_OFFSET);
        assertEquals(32, DATA_HEADER_LENGTH);
        assertEquals(8, REPLY_SENDER_REQUEST_OFFSET);
        assertEquals(16, REPLY_LENGTH);
        assertEquals(8, CREDIT_LENGTH);
        assertEquals(8, BYE_CONTEXT_OFFSET);
        assertEquals(16, BYE_LENGTH);
    }

    @Test
    void shouldAlignEveryLongFieldAndPayload()
    {
        for (final int offset : new int[] {LENGTH_OFFSET, ENVELOPE_SENDER_REQUEST_OFFSET, CTS_SENDER_REQUEST_OFFSET,
            CTS_RECEIVER_REQUEST_OFFSET, CTS_ACCEPT_OFFSET, DATA_RECEIVER_REQUEST_OFFSET, DATA_STREAM_OFFSET,
            REPLY_SENDER_REQUEST_OFFSET, ENVELOPE_LENGTH, DATA_HEADER_LENGTH})
        {
            assertEquals(0, offset % 8, "offset " + offset);
        }
    }

    @Test
    void shouldUseDistinctFrameTypes()
    {
        final byte[] types = {TYPE_EAGER, TYPE_RTS, TYPE_CTS, TYPE_DATA, TYPE_ACK, TYPE_FIN, TYPE_CREDIT};
        for (int i = 0; i < types.length; i++)
        {
            for (int j = i + 1; j < types.length; j++)
            {
                assertNotEquals(types[i], types[j]);
            }
        }
    }
}
