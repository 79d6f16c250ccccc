package org.jmpi.transport.verbs;

import org.agrona.BufferUtil;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The registration cache's logic over a fake registrar (the real device: VerbsRegistrationCacheTest in the VM). */
class RegistrationCacheTest
{
    /** A fake device: numbered regions, and which are registered now. */
    private static final class FakeRegistrar implements RegistrationCache.Registrar<Integer>
    {
        final Set<Integer> live = new HashSet<>();
        final List<Long> registeredAddresses = new ArrayList<>();
        int next = 1;

        @Override
        public Integer register(final ByteBuffer direct)
        {
            registeredAddresses.add(BufferUtil.address(direct));
            live.add(next);
            return next++;
        }

        @Override
        public void deregister(final Integer region)
        {
            assertTrue(live.remove(region), "region " + region + " deregistered twice or never registered");
        }
    }

    @Test
    void shouldReuseARegistrationForTheSameBuffer()
    {
        final FakeRegistrar device = new FakeRegistrar();
        final RegistrationCache<Integer> cache = new RegistrationCache<>(device, 1 << 20, 8);
        final ByteBuffer buffer = ByteBuffer.allocateDirect(4096);
        final RegistrationCache.Entry<Integer> first = cache.acquire(buffer);
        cache.release(first);
        final RegistrationCache.Entry<Integer> second = cache.acquire(buffer.duplicate());
        assertSame(first, second);
        assertEquals(1, device.registeredAddresses.size());
        assertEquals(1, cache.hits());
        assertEquals(1, cache.misses());
        cache.release(second);
        assertEquals(Set.of(first.region), device.live, "an unused entry stays registered");
    }

    @Test
    void shouldEvictTheLeastRecentlyUsedUnusedEntryOverTheEntryBound()
    {
        final FakeRegistrar device = new FakeRegistrar();
        final RegistrationCache<Integer> cache = new RegistrationCache<>(device, 1 << 20, 2);
        final ByteBuffer a = ByteBuffer.allocateDirect(64);
        final ByteBuffer b = ByteBuffer.allocateDirect(64);
        final ByteBuffer c = ByteBuffer.allocateDirect(64);
        final RegistrationCache.Entry<Integer> ea = cache.acquire(a);
        final RegistrationCache.Entry<Integer> eb = cache.acquire(b);
        cache.release(ea);
        cache.release(eb);
        cache.release(cache.acquire(a));
        final RegistrationCache.Entry<Integer> ec = cache.acquire(c);
        assertFalse(device.live.contains(eb.region), "b was the least recently used");
        assertTrue(device.live.contains(ea.region) && device.live.contains(ec.region));
        assertEquals(2, cache.cachedEntries());
        assertEquals(1, cache.evictions());
        cache.release(ec);
        assertNotSame(eb, cache.acquire(b), "b is registered again");
    }

    @Test
    void shouldNeverEvictAnEntryInUseAndTrimOnceItIsReleased()
    {
        final FakeRegistrar device = new FakeRegistrar();
        final RegistrationCache<Integer> cache = new RegistrationCache<>(device, 100, 8);
        final RegistrationCache.Entry<Integer> big = cache.acquire(ByteBuffer.allocateDirect(80));
        final RegistrationCache.Entry<Integer> other = cache.acquire(ByteBuffer.allocateDirect(80));
        assertEquals(Set.of(big.region, other.region), device.live, "both in use: over the byte bound, none evicted");
        assertEquals(160, cache.cachedBytes());
        cache.release(big);
        assertEquals(Set.of(other.region), device.live, "released and over the bound: evicted");
        assertEquals(80, cache.cachedBytes());
        cache.release(other);
        assertEquals(Set.of(other.region), device.live, "within the bound: kept");
    }

    @Test
    void shouldDropFreedMemoryAtOnceAndNeverHandOutItsKeyAgain()
    {
        final FakeRegistrar device = new FakeRegistrar();
        final RegistrationCache<Integer> cache = new RegistrationCache<>(device, 1 << 20, 8);
        final ByteBuffer block = ByteBuffer.allocateDirect(8192);
        final long address = BufferUtil.address(block);
        final RegistrationCache.Entry<Integer> unused = cache.acquire(block);
        cache.release(unused);
        final ByteBuffer inner = block.slice(4096, 1024);
        final RegistrationCache.Entry<Integer> held = cache.acquire(inner);
        assertEquals(2, cache.invalidate(address, 8192), "both overlap the freed block");
        assertFalse(device.live.contains(unused.region), "an unused entry is deregistered at once");
        assertTrue(device.live.contains(held.region) && held.stale(), "a held one when released");
        assertEquals(0, cache.cachedEntries());
        final RegistrationCache.Entry<Integer> again = cache.acquire(block);
        assertNotSame(unused, again, "the same address is registered anew, never the freed key");
        cache.release(held);
        assertFalse(device.live.contains(held.region));
        assertEquals(0, cache.invalidate(address + 8192, 64), "memory beside it is not touched");
        assertEquals(2, cache.invalidations());
        cache.release(again);
    }

    @Test
    void shouldReplaceAShorterRegistrationAtTheSameAddress()
    {
        final FakeRegistrar device = new FakeRegistrar();
        final RegistrationCache<Integer> cache = new RegistrationCache<>(device, 1 << 20, 8);
        final ByteBuffer whole = ByteBuffer.allocateDirect(4096);
        final RegistrationCache.Entry<Integer> small = cache.acquire(whole.slice(0, 100));
        final RegistrationCache.Entry<Integer> held = cache.acquire(whole);
        assertTrue(held.stale(), "the short one is in use: the longer lives outside the cache");
        cache.release(held);
        assertFalse(device.live.contains(held.region));
        cache.release(small);
        final RegistrationCache.Entry<Integer> longer = cache.acquire(whole);
        assertFalse(longer.stale());
        assertFalse(device.live.contains(small.region), "replaced");
        assertSame(longer, cache.acquire(whole.slice(0, 100)), "covers the short view too");
        assertThrows(IllegalStateException.class, () ->
        {
            cache.release(longer);
            cache.release(longer);
            cache.release(longer);
        });
        cache.close();
        assertTrue(device.live.isEmpty());
    }
}
