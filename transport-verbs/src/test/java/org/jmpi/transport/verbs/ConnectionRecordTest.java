package org.jmpi.transport.verbs;

import org.jmpi.MpiException;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ConnectionRecordTest
{
    @Test
    void shouldDecodeWhatItEncodes()
    {
        final byte[] gid = new byte[16];
        gid[10] = (byte)0xFF;
        gid[11] = (byte)0xFF;
        gid[12] = 10;
        gid[15] = 15;
        final byte[] secret = new byte[16];
        secret[0] = (byte)0xA5;
        secret[15] = 1;
        final ConnectionRecord record = new ConnectionRecord(0, gid, 3, 0x7F12_3456_7000L, 0x8000_1234, "10.0.0.15", 40123, secret);
        final byte[] encoded = record.encode();
        assertEquals("verbs2 0 00000000000000000000ffff0a00000f 3 7f1234567000 80001234 10.0.0.15:40123 a5000000000000000000000000000001",
            new String(encoded, StandardCharsets.US_ASCII));
        assertEquals(record, ConnectionRecord.decode(1, encoded));
        assertTrue(record.toString().endsWith("10.0.0.15:40123 <secret>"), record.toString());
    }

    @Test
    void shouldNameTheRankOfABadRecord()
    {
        final MpiException ex = assertThrows(MpiException.class,
            () -> ConnectionRecord.decode(4, "verbs1 0 00 3 0 0 1:1,2:2".getBytes(StandardCharsets.US_ASCII)));
        assertTrue(ex.getMessage().contains("verbs: rank 4 published a bad connection record"), ex.getMessage());
        assertThrows(MpiException.class, () -> ConnectionRecord.decode(4,
            "verbs2 0 00000000000000000000ffff0a00000f 3 7f 8 10.0.0.1:0 a5000000000000000000000000000001".getBytes(StandardCharsets.US_ASCII)));
        assertThrows(MpiException.class, () -> ConnectionRecord.decode(4,
            "verbs2 0 00000000000000000000ffff0a00000f 3 7f 8 10.0.0.1:7 a500".getBytes(StandardCharsets.US_ASCII)));
    }

    @Test
    void shouldPackKindPeerAndIndexIntoAWorkRequestId()
    {
        final long id = WorkRequestIds.of(WorkRequestIds.RMA, WorkRequestIds.MAX_PEER, -1);
        assertEquals(WorkRequestIds.RMA, WorkRequestIds.kind(id));
        assertEquals(WorkRequestIds.MAX_PEER, WorkRequestIds.peer(id));
        assertEquals(-1, WorkRequestIds.index(id));
        assertTrue(GidChoice.ipv4Mapped(new byte[] {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, (byte)0xFF, (byte)0xFF, 10, 0, 2, 15}));
    }
}
