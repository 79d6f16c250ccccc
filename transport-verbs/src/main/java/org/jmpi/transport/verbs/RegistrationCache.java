package org.jmpi.transport.verbs;

import org.agrona.BufferUtil;
import org.agrona.collections.Long2ObjectHashMap;

import java.nio.ByteBuffer;
import java.util.ArrayList;

/**
 * Registrations of direct buffers kept for reuse, so a buffer sent from, received into or exposed again is not
 * registered again (memory registration pins pages and costs a system call: tens of microseconds for a small
 * buffer, milliseconds for a large one).
 * <ol>
 * <li>{@link #acquire}: the entry of the buffer's address whose length covers the buffer's capacity is reused (a
 * hit: it moves to the most-recently-used end); otherwise the buffer is registered whole and entered (a miss), and
 * entries nobody uses are evicted from the least-recently-used end while the cache holds more than its bound
 * ({@code maxBytes} registered bytes or {@code maxEntries} entries). Entries in use are never evicted: the bound
 * may be exceeded while they are held.</li>
 * <li>{@link #release}: one user fewer; an entry no longer in use stays registered for the next acquire.</li>
 * <li>{@link #invalidate}: the memory {@code [address, address + length)} was freed ({@code Mpi.freeMem}, an arena
 * block's free): every entry overlapping it leaves the cache at once, so no later acquire finds it, and is
 * deregistered now, or when its last user releases it. A key of freed memory is never handed out again.</li>
 * </ol>
 * An entry keeps its buffer reachable, so the garbage collector cannot free memory the device may still write;
 * eviction and invalidation drop that reference.
 *
 * <p>Threading: one thread (the rank's progress owner), as the transport's remote memory.
 *
 * @param <R> the registration the {@link Registrar} makes (a {@code MemoryRegion}; a fake in unit tests).
 */
final class RegistrationCache<R>
{
    /** Registers and deregisters: the device, or a fake for the cache's own tests. */
    interface Registrar<R>
    {
        /** Registers all of {@code direct}'s capacity. */
        R register(ByteBuffer direct);

        void deregister(R region);
    }

    /** One cached registration. */
    static final class Entry<R>
    {
        final long address;
        final long lengthBytes;
        final R region;
        private ByteBuffer memory;
        private int users;
        private boolean stale;
        private Entry<R> older;
        private Entry<R> newer;

        private Entry(final long address, final long lengthBytes, final R region, final ByteBuffer memory)
        {
            this.address = address;
            this.lengthBytes = lengthBytes;
            this.region = region;
            this.memory = memory;
        }

        /** Whether the memory was freed since (the entry left the cache; its region goes with its last user). */
        boolean stale()
        {
            return stale;
        }

        int users()
        {
            return users;
        }
    }

    private final Registrar<R> registrar;
    private final long maxBytes;
    private final int maxEntries;
    private final Long2ObjectHashMap<Entry<R>> byAddress = new Long2ObjectHashMap<>();
    /** Least recently used end of the list (evicted first), and most recently used end. */
    private Entry<R> oldest;
    private Entry<R> newest;
    private long cachedBytes;
    private long hits;
    private long misses;
    private long evictions;
    private long invalidations;

    RegistrationCache(final Registrar<R> registrar, final long maxBytes, final int maxEntries)
    {
        if (maxBytes < 0 || maxEntries < 0)
        {
            throw new IllegalArgumentException("maxBytes=" + maxBytes + ", maxEntries=" + maxEntries);
        }
        this.registrar = registrar;
        this.maxBytes = maxBytes;
        this.maxEntries = maxEntries;
    }

    /** The registration of all of {@code direct} (a direct buffer), reused or made now; {@link #release} it once. */
    Entry<R> acquire(final ByteBuffer direct)
    {
        assert direct.isDirect();
        final long address = BufferUtil.address(direct);
        final long length = direct.capacity();
        Entry<R> entry = byAddress.get(address);
        if (entry != null && entry.lengthBytes >= length)
        {
            hits++;
            unlink(entry);
            linkNewest(entry);
            entry.users++;
            return entry;
        }
        if (entry != null && entry.users == 0)
        {
            // A shorter registration at the same address (a buffer that grew, or a smaller view first): replace it.
            remove(entry);
            deregister(entry);
            evictions++;
            entry = null;
        }
        misses++;
        final R region = registrar.register(direct);
        final Entry<R> made = new Entry<>(address, length, region, direct);
        made.users = 1;
        if (entry == null)
        {
            byAddress.put(address, made);
            linkNewest(made);
            cachedBytes += length;
            trim();
        }
        else
        {
            // The shorter one is still in use: the new one lives outside the cache until released.
            made.stale = true;
        }
        return made;
    }

    /** One user of {@code entry} is done. */
    void release(final Entry<R> entry)
    {
        if (entry.users <= 0)
        {
            throw new IllegalStateException("release of an entry nobody holds: address=0x" + Long.toHexString(entry.address));
        }
        entry.users--;
        if (entry.users == 0)
        {
            if (entry.stale)
            {
                deregister(entry);
            }
            else
            {
                trim();
            }
        }
    }

    /**
     * The memory {@code [address, address + lengthBytes)} was freed: every entry overlapping it leaves the cache.
     *
     * @return how many entries left.
     */
    int invalidate(final long address, final long lengthBytes)
    {
        ArrayList<Entry<R>> overlapping = null;
        for (Entry<R> e = oldest; e != null; e = e.newer)
        {
            if (e.address < address + lengthBytes && address < e.address + e.lengthBytes)
            {
                if (overlapping == null)
                {
                    overlapping = new ArrayList<>();
                }
                overlapping.add(e);
            }
        }
        if (overlapping == null)
        {
            return 0;
        }
        for (final Entry<R> e : overlapping)
        {
            remove(e);
            e.stale = true;
            invalidations++;
            if (e.users == 0)
            {
                deregister(e);
            }
        }
        return overlapping.size();
    }

    /** Deregisters every cached entry (at the transport's close); entries still held are deregistered too. */
    void close()
    {
        while (oldest != null)
        {
            final Entry<R> e = oldest;
            remove(e);
            deregister(e);
        }
    }

    long cachedBytes()
    {
        return cachedBytes;
    }

    int cachedEntries()
    {
        return byAddress.size();
    }

    long hits()
    {
        return hits;
    }

    long misses()
    {
        return misses;
    }

    long evictions()
    {
        return evictions;
    }

    long invalidations()
    {
        return invalidations;
    }

    /** Evicts unused entries, oldest first, while over the bound. */
    private void trim()
    {
        Entry<R> e = oldest;
        while (e != null && (cachedBytes > maxBytes || byAddress.size() > maxEntries))
        {
            final Entry<R> next = e.newer;
            if (e.users == 0)
            {
                remove(e);
                deregister(e);
                evictions++;
            }
            e = next;
        }
    }

    private void remove(final Entry<R> e)
    {
        byAddress.remove(e.address);
        unlink(e);
        cachedBytes -= e.lengthBytes;
    }

    private void deregister(final Entry<R> e)
    {
        e.memory = null;
        registrar.deregister(e.region);
    }

    private void linkNewest(final Entry<R> e)
    {
        e.older = newest;
        e.newer = null;
        if (newest != null)
        {
            newest.newer = e;
        }
        newest = e;
        if (oldest == null)
        {
            oldest = e;
        }
    }

    private void unlink(final Entry<R> e)
    {
        if (e.older != null)
        {
            e.older.newer = e.newer;
        }
        else if (oldest == e)
        {
            oldest = e.newer;
        }
        if (e.newer != null)
        {
            e.newer.older = e.older;
        }
        else if (newest == e)
        {
            newest = e.older;
        }
        e.older = null;
        e.newer = null;
    }
}
