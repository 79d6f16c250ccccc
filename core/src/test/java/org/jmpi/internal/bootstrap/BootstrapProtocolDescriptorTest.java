package org.jmpi.internal.bootstrap;

import org.junit.jupiter.api.Test;

import java.nio.ByteOrder;

import static org.jmpi.internal.bootstrap.BootstrapProtocolDescriptor.*;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class BootstrapProtocolDescriptorTest
{
    @Test
    void shouldMatchTheDiagram()
    {
        assertEquals(0, FRAME_LENGTH_OFFSET);
        assertEquals(4, FRAME_LENGTH_LENGTH);
        assertEquals(4, VERSION_OFFSET);
        assertEquals(2, VERSION_LENGTH);
        assertEquals(6, TYPE_OFFSET);
        assertEquals(1, TYPE_LENGTH);
        assertEquals(7, STATUS_OFFSET);
        assertEquals(1, STATUS_LENGTH);
        assertEquals(8, RANK_OFFSET);
        assertEquals(4, RANK_LENGTH);
        assertEquals(12, CODE_OFFSET);
        assertEquals(4, CODE_LENGTH);
        assertEquals(16, TIMEOUT_NS_OFFSET);
        assertEquals(8, TIMEOUT_NS_LENGTH);
        assertEquals(24, KEY_LENGTH_OFFSET);
        assertEquals(4, KEY_LENGTH_LENGTH);
        assertEquals(28, VALUE_LENGTH_OFFSET);
        assertEquals(4, VALUE_LENGTH_LENGTH);
        assertEquals(32, HEADER_LENGTH);
        assertEquals(2, VERSION);
        assertEquals(ByteOrder.BIG_ENDIAN, BYTE_ORDER);
    }

    @Test
    void shouldAlignEveryFieldToItsSize()
    {
        assertEquals(0, VERSION_OFFSET % VERSION_LENGTH);
        assertEquals(0, RANK_OFFSET % RANK_LENGTH);
        assertEquals(0, CODE_OFFSET % CODE_LENGTH);
        assertEquals(0, TIMEOUT_NS_OFFSET % TIMEOUT_NS_LENGTH);
        assertEquals(0, KEY_LENGTH_OFFSET % KEY_LENGTH_LENGTH);
        assertEquals(0, VALUE_LENGTH_OFFSET % VALUE_LENGTH_LENGTH);
        assertEquals(0, HEADER_LENGTH % Long.BYTES);
    }

    @Test
    void shouldBoundFrameLengthByKeyAndValueLimits()
    {
        assertEquals(HEADER_LENGTH - FRAME_LENGTH_LENGTH + MAX_KEY_LENGTH + MAX_VALUE_LENGTH, MAX_FRAME_LENGTH);
        assertEquals(32, NONCE_LENGTH);
    }

    @Test
    void shouldBoundHandshakeFramesByTheLargestValidHello()
    {
        assertEquals(124, MAX_HANDSHAKE_FRAME_LENGTH);
        assertEquals(HEADER_LENGTH - FRAME_LENGTH_LENGTH + MAX_JOB_ID_LENGTH + PROOF_LENGTH, MAX_HANDSHAKE_FRAME_LENGTH);
        final String longestJobId = "j".repeat(MAX_JOB_ID_LENGTH);
        assertTrue(BootstrapEnv.JOB_ID_PATTERN.matcher(longestJobId).matches());
        assertFalse(BootstrapEnv.JOB_ID_PATTERN.matcher(longestJobId + "j").matches());
        final byte[] hello = BootstrapMessage.request(TYPE_HELLO, Integer.MAX_VALUE, CREDENTIAL_TICKET, 0, longestJobId,
            new byte[PROOF_LENGTH]).encode();
        assertEquals(FRAME_LENGTH_LENGTH + MAX_HANDSHAKE_FRAME_LENGTH, hello.length);
        final byte[] okWithKey = BootstrapMessage.response(STATUS_OK, new byte[BootstrapAuth.SECRET_LENGTH]).encode();
        final byte[] challenge = BootstrapMessage.request(TYPE_CHALLENGE, -1, 0, 0, "", new byte[NONCE_LENGTH]).encode();
        final byte[] refused = BootstrapMessage.failure(STATUS_AUTH_FAILED, REFUSED).encode();
        assertTrue(okWithKey.length <= hello.length && challenge.length <= hello.length && refused.length <= hello.length);
    }

    @Test
    void shouldNameEveryTypeAndStatus()
    {
        for (byte type = TYPE_CHALLENGE; type <= TYPE_SPAWN; type++)
        {
            assertNotEquals("UNKNOWN(" + type + ")", typeName(type));
        }
        for (byte status = STATUS_NONE; status <= STATUS_AUTH_FAILED; status++)
        {
            assertNotEquals("UNKNOWN(" + status + ")", statusName(status));
        }
    }
}
