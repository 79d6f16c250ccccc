package org.jmpi.transport.verbs;

import org.agrona.collections.Long2LongHashMap;
import org.jmpi.ErrorClass;
import org.jmpi.MpiException;
import org.jmpi.spi.RemoteMemory;
import org.jmpi.spi.Transport;
import org.jmpi.spi.TransportContext;
import org.jmpi.transport.verbs.ibv.MemoryRegion;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * On a real device (the soft-RoCE VM): remote memory with heap arrays on either side (bounce buffers here, the
 * target's frames there), pipelined over more chunks than there are bounce buffers; a refused operation reported to
 * its token; and the registration cache: a buffer registered again reuses its region, a freed one never does.
 */
@Tag("rdma")
@Timeout(240)
class VerbsStagedMemoryTest
{
    private static final long TIMEOUT_NS = TimeUnit.SECONDS.toNanos(180);
    /** More than the 4 bounce buffers of 16 KiB the job gets, and than a 64 KiB frame: chunks are pipelined. */
    private static final int LENGTH = 300_001;

    private static byte pattern(final int rank, final int i)
    {
        return (byte)(rank * 37 + i * 11 + (i >> 9));
    }

    @Test
    void shouldPutAndGetHeapMemoryOnEitherSideAndRefuseAGoneRegistration()
    {
        VerbsJobs.run(2, Map.of("jmpi.verbs.bounce.slots", "4", "jmpi.verbs.bounce.bytes", "16k"), TIMEOUT_NS, (context, transport) ->
        {
            final int rank = context.rank();
            final int peer = 1 - rank;
            final RemoteMemory remote = transport.feature(RemoteMemory.class);
            final Long2LongHashMap failures = new Long2LongHashMap(-1);
            final long[] done = {0};
            remote.completions((token, failure) ->
            {
                done[0]++;
                failures.put(token, failure == null ? 0 : failure.errorClass().code());
            });
            final byte[] heapWindow = new byte[LENGTH];
            final ByteBuffer directWindow = ByteBuffer.allocateDirect(LENGTH);
            final byte[] heapLocal = new byte[LENGTH];
            final ByteBuffer directLocal = ByteBuffer.allocateDirect(LENGTH);
            for (int i = 0; i < LENGTH; i++)
            {
                heapLocal[i] = pattern(rank, i);
                directLocal.put(i, pattern(rank + 10, i));
            }
            final long heapWindowReg = remote.register(heapWindow);
            final long directWindowReg = remote.register(directWindow);
            final long heapLocalReg = remote.register(heapLocal);
            final long directLocalReg = remote.register(directLocal);
            assertTrue(heapWindowReg != 0 && directWindowReg != 0 && heapLocalReg != 0 && directLocalReg != 0, "heap arrays register too");
            final long[] keys = new long[4];
            remote.remoteKey(heapWindowReg, keys, 0);
            remote.remoteKey(directWindowReg, keys, 2);
            assertTrue(keys[0] < 0 && keys[2] > 0, "a heap key is marked, a direct one is an address");
            final long[] theirs = exchange(context, keys);

            // 1. Heap here into their direct window (bounced RDMA writes), direct here into their heap window (frames).
            start(transport, () -> remote.put(peer, theirs, 2, 0, heapLocalReg, 0, LENGTH, 1));
            start(transport, () -> remote.put(peer, theirs, 0, 0, directLocalReg, 0, LENGTH, 2));
            await(transport, () -> done[0] == 2);
            fence(context, transport);
            for (int i = 0; i < LENGTH; i++)
            {
                assertEquals(pattern(peer, i), directWindow.get(i), "bounced put, byte " + i);
                assertEquals(pattern(peer + 10, i), heapWindow[i], "put into heap through frames, byte " + i);
            }
            // 2. Back again: their heap window into heap here (frames both ways), their direct window into heap here (bounced reads).
            final byte[] gotHeap = new byte[LENGTH];
            final byte[] gotDirect = new byte[LENGTH];
            final long gotHeapReg = remote.register(gotHeap);
            final long gotDirectReg = remote.register(gotDirect);
            start(transport, () -> remote.get(peer, theirs, 0, 7, gotHeapReg, 3, LENGTH - 10, 3));
            start(transport, () -> remote.get(peer, theirs, 2, 0, gotDirectReg, 0, LENGTH, 4));
            start(transport, () -> remote.put(peer, theirs, 0, 0, heapLocalReg, 0, 0, 5));
            await(transport, () -> done[0] == 5);
            for (int i = 0; i < LENGTH - 10; i++)
            {
                assertEquals(pattern(rank + 10, 7 + i), gotHeap[3 + i], "get from heap, byte " + i);
            }
            for (int i = 0; i < LENGTH; i++)
            {
                assertEquals(pattern(rank, i), gotDirect[i], "bounced get, byte " + i);
            }
            for (long token = 1; token <= 5; token++)
            {
                assertEquals(0, failures.get(token), "operation " + token);
            }
            fence(context, transport);

            // 3. A heap registration that is gone: the target refuses, the token reports ERR_ARG; the pair still works.
            remote.deregister(heapWindowReg);
            fence(context, transport);
            start(transport, () -> remote.get(peer, theirs, 0, 0, gotHeapReg, 0, 64, 6));
            await(transport, () -> done[0] == 6);
            assertEquals(ErrorClass.ERR_ARG.code(), failures.get(6L), "refused: the registration is gone");
            start(transport, () -> remote.put(peer, theirs, 2, 0, directLocalReg, 0, 64, 7));
            await(transport, () -> done[0] == 7);
            assertEquals(0, failures.get(7L));
            fence(context, transport);
        });
    }

    @Test
    void shouldReuseACachedRegionAndNeverAFreedOne()
    {
        VerbsJobs.run(1, Map.of("jmpi.verbs.rcache.entries", "2"), TIMEOUT_NS, (context, transport) ->
        {
            final VerbsRemoteMemory remote = ((VerbsTransport)transport).remoteMemory();
            remote.completions((token, failure) -> assertNull(failure));
            final RegistrationCache<MemoryRegion> cache = remote.cache();
            final ByteBuffer buffer = ByteBuffer.allocateDirect(1 << 20);
            final long first = remote.register(buffer);
            final RegistrationCache.Entry<MemoryRegion> entry = remote.registration(first, "test").entry;
            remote.deregister(first);
            assertTrue(entry.region.registered(), "kept after its last use");
            final long second = remote.register(buffer.duplicate());
            assertSame(entry, remote.registration(second, "test").entry, "reused");
            assertEquals(1, cache.hits());
            remote.deregister(second);
            for (int i = 0; i < 3; i++)
            {
                remote.deregister(remote.register(ByteBuffer.allocateDirect(4096)));
            }
            assertFalse(entry.region.registered(), "evicted: the least recently used of more than 2");
            assertEquals(2, cache.cachedEntries());
            final long third = remote.register(buffer);
            final RegistrationCache.Entry<MemoryRegion> again = remote.registration(third, "test").entry;
            assertNotSame(entry, again);
            remote.memoryFreed(buffer);
            assertTrue(again.region.registered() && again.stale(), "held: deregistered at its release");
            remote.deregister(third);
            assertFalse(again.region.registered(), "a freed buffer's region is gone");
            final long fourth = remote.register(buffer);
            assertNotNull(remote.registration(fourth, "test").entry);
            assertNotSame(again, remote.registration(fourth, "test").entry, "registered anew, never the freed key");
            remote.deregister(fourth);
        });
    }

    @Test
    void shouldFetchAddAndCompareSwapThroughTheDeviceWhenAtomicsAreOffered()
    {
        final int adds = 200;
        VerbsJobs.run(2, Map.of("jmpi.verbs.atomics", "on"), TIMEOUT_NS, (context, transport) ->
        {
            final int rank = context.rank();
            final RemoteMemory remote = transport.feature(RemoteMemory.class);
            final long[] values = new long[adds + 2];
            final int[] count = {0};
            remote.completions(new RemoteMemory.Completions()
            {
                @Override
                public void onComplete(final long token, final MpiException failure)
                {
                    throw new AssertionError("an atomic reported without its value: " + token);
                }

                @Override
                public void onAtomic(final long token, final MpiException failure, final long oldValue)
                {
                    assertNull(failure, "atomic " + token);
                    values[(int)token] = oldValue;
                    count[0]++;
                }
            });
            final ByteBuffer counters = ByteBuffer.allocateDirect(64).order(java.nio.ByteOrder.nativeOrder());
            final long registration = remote.register(counters);
            final long[] key = new long[2];
            remote.remoteKey(registration, key, 0);
            final long[] theirs = exchange(context, key);
            final long[] rootKey = rank == 0 ? key : theirs;
            assertTrue(remote.atomics(rootKey, 0), "offered on rxe (IBV_ATOMIC_HCA) with jmpi.verbs.atomics=on");
            assertFalse(remote.atomics(new long[] {VerbsRemoteMemory.HEAP_KEY | 1, 8}, 0), "never on heap regions");
            if (rank == 1)
            {
                for (int i = 0; i < adds; i++)
                {
                    final int token = i;
                    start(transport, () -> remote.fetchAndAdd(0, rootKey, 0, 8, 1, token));
                }
                await(transport, () -> count[0] == adds);
            }
            fence(context, transport);
            if (rank == 0)
            {
                assertEquals(adds, counters.getLong(8), "every add landed");
            }
            fence(context, transport); // rank 0 has read the sum before rank 1's compare-and-swap changes it
            if (rank == 1)
            {
                final java.util.BitSet seen = new java.util.BitSet();
                for (int i = 0; i < adds; i++)
                {
                    seen.set((int)values[i]);
                }
                assertEquals(adds, seen.cardinality(), "each old value once: the adds were atomic");
                start(transport, () -> remote.compareAndSwap(0, rootKey, 0, 8, adds, 7, adds));
                start(transport, () -> remote.compareAndSwap(0, rootKey, 0, 8, adds, 9, adds + 1));
                await(transport, () -> count[0] == adds + 2);
                assertEquals(adds, values[adds], "the first compare matched");
                assertEquals(7, values[adds + 1], "the second saw the first's swap");
            }
            fence(context, transport);
            if (rank == 0)
            {
                assertEquals(7, counters.getLong(8));
            }
            final MpiException unaligned = org.junit.jupiter.api.Assertions.assertThrows(MpiException.class,
                () -> remote.fetchAndAdd(1 - rank, theirs, 0, 4, 1, 0));
            assertEquals(ErrorClass.ERR_RMA_RANGE, unaligned.errorClass());
            fence(context, transport);
        });
    }

    private static long[] exchange(final TransportContext context, final long[] mine) throws Exception
    {
        final int rank = context.rank();
        final StringBuilder text = new StringBuilder();
        for (final long value : mine)
        {
            text.append(value).append(' ');
        }
        context.bootstrap().put("staged." + rank, text.toString().getBytes(StandardCharsets.US_ASCII));
        final String[] parts = new String(context.bootstrap().get("staged." + (1 - rank), TIMEOUT_NS), StandardCharsets.US_ASCII).trim().split(" ");
        final long[] theirs = new long[parts.length];
        for (int i = 0; i < parts.length; i++)
        {
            theirs[i] = Long.parseLong(parts[i]);
        }
        context.bootstrap().fence(TIMEOUT_NS);
        return theirs;
    }

    /** The bootstrap's fence on a helper thread while this one progresses (a peer may need this rank's answers to get there). */
    private static void fence(final TransportContext context, final Transport transport)
    {
        final CompletableFuture<Void> fence = CompletableFuture.runAsync(() -> context.bootstrap().fence(TIMEOUT_NS));
        await(transport, fence::isDone);
        fence.join();
    }

    private static void start(final Transport transport, final BooleanSupplier operation)
    {
        await(transport, operation);
    }

    private static void await(final Transport transport, final BooleanSupplier condition)
    {
        final long deadline = System.nanoTime() + TIMEOUT_NS;
        while (!condition.getAsBoolean())
        {
            transport.progress((src, buffer, index, length) ->
            {
                throw new MpiException(ErrorClass.ERR_INTERN, "no core frames in this test: " + length + " bytes from " + src);
            });
            assertTrue(System.nanoTime() < deadline, "timed out");
        }
    }
}
