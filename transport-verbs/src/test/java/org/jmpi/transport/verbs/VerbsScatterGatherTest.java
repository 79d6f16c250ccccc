package org.jmpi.transport.verbs;

import org.jmpi.spi.RemoteMemory;
import org.jmpi.spi.Transport;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link RemoteMemory#putGather} and {@link RemoteMemory#getScatter} on a real device (the soft-RoCE VM): 200 runs of
 * uneven lengths between direct buffers as work requests of {@code jmpi.verbs.sge} entries (1, 16, and more than the
 * device has, which is capped), with an RDMA depth of 4 so that a call starts only a prefix and the caller comes back
 * for the rest; a heap array's list, run by run through bounce buffers. Every run is reported once, the bytes land in
 * order in the remote run, and the gaps between runs stay untouched.
 */
@Tag("rdma")
@Timeout(240)
class VerbsScatterGatherTest
{
    private static final long TIMEOUT_NS = TimeUnit.SECONDS.toNanos(180);
    private static final int RUNS = 200;
    private static final int LOCAL = 1 << 20;

    /** Run i: offset and length in the local buffer (lengths 700-3,600 bytes, gaps of 64-1,000). */
    private static long[] runs()
    {
        final long[] list = new long[2 * RUNS];
        long at = 13;
        for (int i = 0; i < RUNS; i++)
        {
            list[2 * i] = at;
            list[2 * i + 1] = 700 + (i * 389) % 2_900;
            at += list[2 * i + 1] + 64 + (i * 131) % 937;
        }
        return list;
    }

    private static long total(final long[] list)
    {
        long sum = 0;
        for (int i = 1; i < list.length; i += 2)
        {
            sum += list[i];
        }
        return sum;
    }

    private static byte pattern(final int rank, final int i)
    {
        return (byte)(rank * 59 + i * 3 + (i >> 10));
    }

    @ParameterizedTest
    @ValueSource(strings = {"1", "16", "1000"})
    void shouldGatherAndScatterEveryRunOnceInOrder(final String sge)
    {
        VerbsJobs.run(2, Map.of("jmpi.verbs.sge", sge, "jmpi.verbs.rma.depth", "4"), TIMEOUT_NS, (context, transport) ->
        {
            final int rank = context.rank();
            final int peer = 1 - rank;
            final RemoteMemory remote = transport.feature(RemoteMemory.class);
            final long[] reported = new long[4];
            remote.completions((token, failure) ->
            {
                assertNull(failure, "operation " + token);
                reported[(int)token]++;
            });
            final long[] list = runs();
            final int bytes = (int)total(list);
            final ByteBuffer window = ByteBuffer.allocateDirect(2 * bytes);
            final ByteBuffer local = ByteBuffer.allocateDirect(LOCAL);
            final byte[] heap = new byte[LOCAL];
            for (int i = 0; i < window.capacity(); i++)
            {
                window.put(i, pattern(rank, i));
            }
            for (int i = 0; i < LOCAL; i++)
            {
                local.put(i, pattern(rank + 10, i));
            }
            final long windowReg = remote.register(window);
            final long localReg = remote.register(local);
            final long heapReg = remote.register(heap);
            final long[] key = new long[RemoteMemory.KEY_LONGS];
            remote.remoteKey(windowReg, key, 0);
            context.bootstrap().put("sg." + rank, (key[0] + " " + key[1]).getBytes(StandardCharsets.US_ASCII));
            final String[] theirs = new String(context.bootstrap().get("sg." + peer, TIMEOUT_NS), StandardCharsets.US_ASCII).split(" ");
            final long[] peerKey = {Long.parseLong(theirs[0]), Long.parseLong(theirs[1])};
            context.bootstrap().fence(TIMEOUT_NS);

            // 1. Gather the local runs into the peer's window's first half; 2. scatter its second half into the heap's runs.
            startAll(transport, list, (first, count, remoteAt) -> remote.putGather(peer, peerKey, 0, remoteAt, localReg, list, first, count, 1));
            startAll(transport, list, (first, count, remoteAt) -> remote.getScatter(peer, peerKey, 0, bytes + remoteAt, heapReg, list, first,
                count, 2));
            await(transport, reported, 1);
            await(transport, reported, 2);
            assertEquals(RUNS, reported[1], "gathered runs reported");
            assertEquals(RUNS, reported[2], "scattered runs reported");
            context.bootstrap().fence(TIMEOUT_NS);
            // 3. Scatter the peer's window's first half (this rank's runs, gathered there in step 1) back into the direct buffer.
            for (int i = 0; i < LOCAL; i++)
            {
                local.put(i, (byte)0);
            }
            startAll(transport, list, (first, count, remoteAt) -> remote.getScatter(peer, peerKey, 0, remoteAt, localReg, list, first, count, 3));
            await(transport, reported, 3);
            assertEquals(RUNS, reported[3], "scattered runs reported");

            long stream = 0;
            for (int r = 0; r < RUNS; r++)
            {
                final int at = (int)list[2 * r];
                for (int k = 0; k < list[2 * r + 1]; k++, stream++)
                {
                    // The peer's window's first half holds this rank's runs (gathered): scattered back, they are where they were.
                    assertEquals(pattern(rank + 10, at + k), local.get(at + k), "run " + r + ", byte " + k + " back through both lists");
                    assertEquals(pattern(peer, (int)(bytes + stream)), heap[at + k], "run " + r + ", byte " + k + " scattered into the heap");
                }
            }
            assertEquals(0, local.get(0), "the gap before the first run");
            assertEquals(0, heap[(int)(list[2] - 1)], "a gap between runs");
            context.bootstrap().fence(TIMEOUT_NS);
            // This window's first half holds the peer's runs in order, its second half is untouched.
            long peerStream = 0;
            for (int r = 0; r < RUNS; r++)
            {
                for (int k = 0; k < list[2 * r + 1]; k++, peerStream++)
                {
                    assertEquals(pattern(peer + 10, (int)list[2 * r] + k), window.get((int)peerStream), "gathered run " + r + ", byte " + k);
                }
            }
            assertEquals(pattern(rank, bytes), window.get(bytes), "past the gathered bytes");
            remote.deregister(heapReg);
            remote.deregister(localReg);
            remote.deregister(windowReg);
            context.bootstrap().fence(TIMEOUT_NS);
        });
    }

    /** One list call: runs {@code [first, first + count)} to or from the remote run's bytes from {@code remoteAt}; how many started. */
    private interface ListCall
    {
        int start(int first, int count, long remoteAt);
    }

    /** Calls until every run started, as a caller under back-pressure does: progress, then the rest. */
    private static void startAll(final Transport transport, final long[] list, final ListCall call)
    {
        final long deadline = System.nanoTime() + TIMEOUT_NS;
        int first = 0;
        long remoteAt = 0;
        boolean partial = false;
        while (first < RUNS)
        {
            final int started = call.start(first, RUNS - first, remoteAt);
            assertTrue(started >= 0 && started <= RUNS - first, "started " + started);
            for (int i = first; i < first + started; i++)
            {
                remoteAt += list[2 * i + 1];
            }
            first += started;
            partial |= first < RUNS;
            transport.progress((src, buffer, index, length) -> { });
            assertTrue(System.nanoTime() < deadline, "runs started: " + first);
        }
        assertTrue(partial, "an RDMA depth of 4 cannot take 200 runs at once");
    }

    /** Progress until every run of the list with token {@code token} was reported. */
    private static void await(final Transport transport, final long[] reported, final int token)
    {
        final long deadline = System.nanoTime() + TIMEOUT_NS;
        while (reported[token] < RUNS)
        {
            transport.progress((src, buffer, index, length) -> { });
            assertTrue(System.nanoTime() < deadline, "runs reported: " + java.util.Arrays.toString(reported));
        }
    }
}
