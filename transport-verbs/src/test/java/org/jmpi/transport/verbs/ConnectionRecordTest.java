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
        final ConnectionRecord record = new ConnectionRecord(0, gid, 3, 0x7F12_3456_7000L, 0x8000_1234,
            new int[] {0x8000_0011, 0, 19}, new int[] {0xABCDEF, 0, 1});
        final byte[] encoded = record.encode();
        assertEquals("verbs1 0 00000000000000000000ffff0a00000f 3 7f1234567000 80001234 2147483665:11259375,0:0,19:1",
            new String(encoded, StandardCharsets.US_ASCII));
        assertEquals(record, ConnectionRecord.decode(1, 3, encoded));
    }

    @Test
    void shouldNameTheRankOfABadRecord()
    {
        final MpiException ex = assertThrows(MpiException.class,
            () -> ConnectionRecord.decode(4, 2, "verbs0 0 00 3 0 0 1:1,2:2".getBytes(StandardCharsets.US_ASCII)));
        assertTrue(ex.getMessage().contains("verbs: rank 4 published a bad connection record"), ex.getMessage());
        assertThrows(MpiException.class, () -> ConnectionRecord.decode(4, 3,
            "verbs1 0 00000000000000000000ffff0a00000f 3 7f 8 1:1,2:2".getBytes(StandardCharsets.US_ASCII)));
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
