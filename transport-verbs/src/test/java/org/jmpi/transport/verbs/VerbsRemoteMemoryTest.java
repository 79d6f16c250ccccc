package org.jmpi.transport.verbs;

import org.jmpi.MpiException;
import org.jmpi.spi.RemoteMemory;
import org.jmpi.spi.Transport;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The verbs transport's remote-memory feature on a real device (the soft-RoCE VM): ranks register direct
 * buffers, swap remote keys through the bootstrap, and put into and get from their ring neighbour; every
 * operation's token comes back once through {@code progress}, and the bytes are where they should be.
 */
@Tag("rdma")
@Timeout(180)
class VerbsRemoteMemoryTest
{
    private static final long TIMEOUT_NS = TimeUnit.SECONDS.toNanos(120);
    private static final int LENGTH = 1 << 20;

    @Test
    void shouldPutAndGetRingNeighboursMemoryAndReportEachTokenOnce()
    {
        VerbsJobs.run(3, Map.of(), TIMEOUT_NS, (context, transport) ->
        {
            final int rank = context.rank();
            final int size = context.size();
            final RemoteMemory remote = transport.feature(RemoteMemory.class);
            final long[] done = new long[64];
            final int[] count = {0};
            remote.completions((token, failure) ->
            {
                assertNull(failure, "operation " + token);
                done[count[0]++] = token;
            });
            assertEquals(0, remote.register("not memory"), "only arrays and buffers are registered");
            assertEquals(0, remote.register(ByteBuffer.allocateDirect(0)), "nor an empty direct buffer");
            final ByteBuffer window = ByteBuffer.allocateDirect(LENGTH).order(ByteOrder.LITTLE_ENDIAN);
            final ByteBuffer local = ByteBuffer.allocateDirect(LENGTH).order(ByteOrder.LITTLE_ENDIAN);
            for (int i = 0; i < LENGTH; i += 8)
            {
                window.putLong(i, ((long)rank << 40) | i);
                local.putLong(i, ((long)(rank + 100) << 40) | i);
            }
            final long windowReg = remote.register(window);
            final long localReg = remote.register(local);
            assertTrue(windowReg != 0 && localReg != 0);
            final long[] key = new long[RemoteMemory.KEY_LONGS];
            remote.remoteKey(windowReg, key, 0);
            context.bootstrap().put("key." + rank, (key[0] + " " + key[1]).getBytes(StandardCharsets.US_ASCII));
            final int right = (rank + 1) % size;
            final String[] theirs = new String(context.bootstrap().get("key." + right, TIMEOUT_NS), StandardCharsets.US_ASCII).split(" ");
            final long[] rightKey = {Long.parseLong(theirs[0]), Long.parseLong(theirs[1])};
            context.bootstrap().fence(TIMEOUT_NS);

            // Get the right neighbour's second half into the local buffer's first half.
            awaitStarted(transport, () -> remote.get(right, rightKey, 0, LENGTH / 2, localReg, 0, LENGTH / 2, 11));
            // Put the local buffer's last 64 KiB into the right neighbour's first 64 KiB.
            awaitStarted(transport, () -> remote.put(right, rightKey, 0, 0, localReg, LENGTH - 65536, 65536, 12));
            final long deadline = System.nanoTime() + TIMEOUT_NS;
            while (count[0] < 2)
            {
                transport.progress((src, buffer, index, length) -> { });
                assertTrue(System.nanoTime() < deadline, "completions on rank " + rank + ": " + count[0]);
            }
            assertEquals(2, count[0]);
            assertEquals(11 + 12, done[0] + done[1], "each token once");
            for (int i = 0; i < LENGTH / 2; i += 8)
            {
                assertEquals(((long)right << 40) | (LENGTH / 2 + i), local.getLong(i), "got byte " + i);
            }
            context.bootstrap().fence(TIMEOUT_NS);
            final int left = (rank + size - 1) % size;
            for (int i = 0; i < 65536; i += 8)
            {
                assertEquals(((long)(left + 100) << 40) | (LENGTH - 65536 + i), window.getLong(i), "put byte " + i);
            }
            assertEquals(((long)rank << 40) | 65536, window.getLong(65536), "past the put");
            assertThrows(MpiException.class, () -> remote.put(right, rightKey, 0, LENGTH - 8, localReg, 0, 16, 13), "beyond the window");
            remote.deregister(localReg);
            assertThrows(MpiException.class, () -> remote.get(right, rightKey, 0, 0, localReg, 0, 8, 14), "deregistered");
            assertFalse(transport.reaches(rank));
            context.bootstrap().fence(TIMEOUT_NS);
        });
    }

    private static void awaitStarted(final Transport transport, final java.util.function.BooleanSupplier start)
    {
        final long deadline = System.nanoTime() + TIMEOUT_NS;
        while (!start.getAsBoolean())
        {
            transport.progress((src, buffer, index, length) -> { });
            assertTrue(System.nanoTime() < deadline, "no room for the operation");
        }
    }
}
