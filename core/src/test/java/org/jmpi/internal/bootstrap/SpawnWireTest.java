package org.jmpi.internal.bootstrap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Arrays;
import java.util.List;

import org.junit.jupiter.api.Test;

class SpawnWireTest
{
    @Test
    void shouldRoundTripARequestWithSeveralApps()
    {
        final SpawnWire.Request request = new SpawnWire.Request(3, List.of(
            new SpawnWire.App("org.example.A", List.of(), List.of(), List.of("x", ""), 2, "", ""),
            new SpawnWire.App("org.example.B", List.of("-Dk=v", "-Xmx64m"), List.of("/tmp/a", "/tmp/b"), List.of(), 1, "localhost", "/tmp")));
        final SpawnWire.Request back = SpawnWire.Request.decode(request.encode());
        assertEquals(request, back);
        assertEquals(3, back.children());
    }

    @Test
    void shouldRoundTripReplies()
    {
        final SpawnWire.Reply ok = new SpawnWire.Reply(true, "", "job-1", "127.0.0.1:4000", 5, List.of("aa", "bb"));
        assertEquals(ok, SpawnWire.Reply.decode(ok.encode()));
        final SpawnWire.Reply failed = SpawnWire.Reply.decode(SpawnWire.Reply.failed("no such host").encode());
        assertFalse(failed.ok());
        assertEquals("no such host", failed.message());
    }

    @Test
    void shouldRefuseMalformedMessages()
    {
        final byte[] good = new SpawnWire.Request(1, List.of(new SpawnWire.App("M", List.of(), List.of(), List.of(), 1, "", ""))).encode();
        assertThrows(IllegalArgumentException.class, () -> SpawnWire.Request.decode(Arrays.copyOf(good, good.length - 1)));
        assertThrows(IllegalArgumentException.class, () -> SpawnWire.Request.decode(Arrays.copyOf(good, good.length + 1)));
        assertThrows(IllegalArgumentException.class, () -> SpawnWire.Request.decode(new byte[] {0, 0, 0, 0, 0, 0, 0, 1}));
    }
}
