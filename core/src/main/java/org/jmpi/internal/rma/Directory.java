package org.jmpi.internal.rma;

import java.lang.invoke.VarHandle;

import org.jmpi.Datatype;
import org.jmpi.ErrorClass;
import org.jmpi.MpiException;
import org.jmpi.internal.datatype.BufferView;
import org.jmpi.internal.engine.ProgressEngine;

/**
 * The memory attached to a dynamic window (MPI_Win_create_dynamic, attach, detach) and how peers find it.
 * <ol>
 * <li>Each rank registers a table of {@link #SLOTS} entries (a region key and the memory's element type) with the
 * one-sided layer; its key travels in the window's exchange at create.</li>
 * <li>{@link #attach} registers the memory, writes its entry into a free slot and returns the memory's address:
 * {@code (slot + 1) << 40}. A peer's displacement is such an address plus a byte offset (the disp unit of a dynamic
 * window is 1).</li>
 * <li>An origin reads the entry for an address once (a get of the target's table, on whatever path reaches it) and
 * keeps it until the next synchronisation ({@link #forget}): MPI makes an attach visible to peers only after one.</li>
 * <li>{@link #detach} clears the entry and ends the registration; a peer that still names it gets ERR_RMA_RANGE (its
 * entry is gone) or, with a stale entry, the target's ERR_WIN answer.</li>
 * </ol>
 *
 * <p>Threading: the window's thread; registrations and gets run on the engine.
 */
final class Directory
{
    /** Attachments per rank at once. */
    static final int SLOTS = 64;
    /** Bits of a byte offset inside one attachment (1 TiB). */
    static final int SHIFT = 40;
    private static final int ENTRY = RegionKey.LONGS + 1;
    private static final long OFFSET_MASK = (1L << SHIFT) - 1;
    private static final Datatype[] ELEMENTS = {Datatype.BYTE, Datatype.SHORT, Datatype.CHAR, Datatype.INT, Datatype.LONG,
        Datatype.FLOAT, Datatype.DOUBLE, Datatype.BOOLEAN};

    /** A peer's attachment as this rank found it: its key, element type (null: a ByteBuffer) and resolved region. */
    static final class Entry
    {
        final RegionKey key;
        final Datatype element;
        private RemoteRegion resolved;

        Entry(final RegionKey key, final Datatype element)
        {
            this.key = key;
            this.element = element;
        }

        /** Engine thread. */
        RemoteRegion region(final OneSided oneSided, final int worldRank)
        {
            if (resolved == null)
            {
                resolved = oneSided.resolve(worldRank, key);
            }
            return resolved;
        }
    }

    private final OneSided oneSided;
    private final ProgressEngine engine;
    private final long[] table = new long[SLOTS * ENTRY];
    private final Region tableRegion;
    private final Region[] attached = new Region[SLOTS];
    private final Object[] memories = new Object[SLOTS];
    private RegionKey[] peerTables;
    private RemoteRegion[] peerResolved;
    private Entry[][] cache;

    Directory(final OneSided oneSided, final ProgressEngine engine)
    {
        this.oneSided = oneSided;
        this.engine = engine;
        this.tableRegion = engine.call(() -> oneSided.register(table));
    }

    RegionKey key()
    {
        return tableRegion.key();
    }

    /** Every rank's table key, from the window's exchange. */
    void peers(final RegionKey[] tables)
    {
        peerTables = tables;
        peerResolved = new RemoteRegion[tables.length];
        cache = new Entry[tables.length][SLOTS];
    }

    /** Attaches {@code memory}; returns its address (displacement of its byte 0). */
    long attach(final String call, final Object memory)
    {
        final BufferView view = Region.addressable(memory, call + ": memory");
        int free = -1;
        for (int s = SLOTS - 1; s >= 0; s--)
        {
            if (memories[s] == memory)
            {
                throw new MpiException(ErrorClass.ERR_RMA_ATTACH, call + ": this memory is already attached to the window");
            }
            free = memories[s] == null ? s : free;
        }
        if (free < 0)
        {
            throw new MpiException(ErrorClass.ERR_RMA_ATTACH, call + ": " + SLOTS + " attachments at once is jmpi's limit");
        }
        final Region region = engine.call(() -> oneSided.register(memory));
        attached[free] = region;
        memories[free] = memory;
        region.key().toLongs(table, free * ENTRY);
        table[free * ENTRY + RegionKey.LONGS] = view.byteAddressed() ? -1 : elementIndex(view.elementType());
        VarHandle.releaseFence();
        return (long)(free + 1) << SHIFT;
    }

    /** Detaches {@code memory}. */
    void detach(final String call, final Object memory)
    {
        for (int s = 0; s < SLOTS; s++)
        {
            if (memories[s] == memory && memory != null)
            {
                java.util.Arrays.fill(table, s * ENTRY, (s + 1) * ENTRY, 0);
                VarHandle.releaseFence();
                final Region region = attached[s];
                attached[s] = null;
                memories[s] = null;
                engine.call(() ->
                {
                    oneSided.deregister(region);
                    return null;
                });
                return;
            }
        }
        throw new MpiException(ErrorClass.ERR_RMA_ATTACH, call + ": this memory is not attached to the window");
    }

    /** The attachment of {@code target} that {@code disp} names (fetched from the target's table the first time). */
    Entry lookup(final String call, final int target, final int worldRank, final long disp)
    {
        final long slot = (disp >>> SHIFT) - 1;
        if (slot < 0 || slot >= SLOTS)
        {
            throw new MpiException(ErrorClass.ERR_RMA_RANGE, call + ": displacement " + disp + " is not inside memory attached to " +
                "rank " + target + "'s dynamic window (addresses come from attach)");
        }
        Entry e = cache[target][(int)slot];
        if (e == null)
        {
            final long[] entry = new long[ENTRY];
            final Completion c = engine.call(() ->
            {
                if (peerResolved[target] == null)
                {
                    peerResolved[target] = oneSided.resolve(worldRank, peerTables[target]);
                }
                return oneSided.get(peerResolved[target], slot * ENTRY * 8, Region.addressable(entry, "directory"), 0, ENTRY * 8L);
            });
            c.wakeOnDone(Thread.currentThread());
            engine.await(c::isDone);
            if (c.failure() != null)
            {
                throw c.failure();
            }
            final RegionKey key = RegionKey.fromLongs(entry, 0);
            if (key.id() == 0)
            {
                throw new MpiException(ErrorClass.ERR_RMA_RANGE, call + ": nothing is attached at displacement " + disp + " of rank " +
                    target + "'s dynamic window");
            }
            final int element = (int)entry[RegionKey.LONGS];
            e = new Entry(key, element < 0 ? null : ELEMENTS[element]);
            cache[target][(int)slot] = e;
        }
        return e;
    }

    /** The byte offset inside its attachment that {@code disp} names. */
    static long offset(final long disp)
    {
        return disp & OFFSET_MASK;
    }

    /** Drops what this rank learnt of its peers' attachments (at every synchronisation). */
    void forget()
    {
        for (final Entry[] perTarget : cache)
        {
            java.util.Arrays.fill(perTarget, null);
        }
    }

    /** Ends every registration (window free). Engine thread. */
    void release()
    {
        for (int s = 0; s < SLOTS; s++)
        {
            if (attached[s] != null)
            {
                oneSided.deregister(attached[s]);
                attached[s] = null;
                memories[s] = null;
            }
        }
        oneSided.deregister(tableRegion);
    }

    static int elementIndex(final Datatype type)
    {
        for (int i = 0; i < ELEMENTS.length; i++)
        {
            if (ELEMENTS[i] == type)
            {
                return i;
            }
        }
        throw new MpiException(ErrorClass.ERR_BUFFER, "window memory of element type " + type + " is not supported");
    }

    static Datatype element(final int index)
    {
        return index < 0 ? null : ELEMENTS[index];
    }
}
