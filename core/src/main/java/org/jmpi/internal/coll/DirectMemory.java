package org.jmpi.internal.coll;

import org.jmpi.ErrorClass;
import org.jmpi.MpiException;
import org.jmpi.internal.datatype.BufferView;
import org.jmpi.internal.datatype.Convertor;
import org.jmpi.internal.rma.OneSided;
import org.jmpi.internal.rma.Region;
import org.jmpi.spi.ArenaMemory;

/**
 * The memory one rank registers for a put- or get-based persistent collective: its parts (the user's
 * blocks, or the reductions' accumulator and slots), each a byte range of one registered region. Where every
 * part is a single run of one array or ByteBuffer in native order, and (across JVMs) that buffer lies in the
 * node's arena, the region is the user's buffer itself and peers copy straight to and from it; otherwise it is
 * a packed staging copy, filled by {@link #pack} before peers read a part and emptied by {@link #unpack} after
 * they wrote one. Where the node has an arena (ranks in separate JVMs, docs/pvas.md) the staging copy and the
 * reductions' scratch are allocated there, so peers reach them through the arena's peer memory rather than by
 * active messages; a byte array when there is no arena or no room in it.
 *
 * <p>Threading: made at init through the engine; used on the owning rank's engine thread. Memory: owns the
 * staging copy; {@link #release} gives an arena allocation back.
 */
final class DirectMemory
{
    private final Region region;
    private final Buffers.Slot[] parts;
    private final long[] offsets;
    private final long[] lengths;
    /** The packed copy of the parts (a byte[] or a ByteBuffer in the arena), or null when peers reach the user's buffer itself. */
    private final Object staging;
    /** The arena {@link #staging} was allocated from, or null. */
    private final ArenaMemory arena;

    private DirectMemory(final Region region, final Buffers.Slot[] parts, final long[] offsets, final long[] lengths, final Object staging,
        final ArenaMemory arena)
    {
        this.region = region;
        this.parts = parts;
        this.offsets = offsets;
        this.lengths = lengths;
        this.staging = staging;
        this.arena = arena;
    }

    /**
     * Registers the memory of {@code parts} (null entries are parts this rank does not have) with {@code oneSided}:
     * the user's buffer when every part is one native run of it and no arena would serve peers better, else a
     * staging copy. Engine thread.
     */
    static DirectMemory of(final OneSided oneSided, final Buffers.Slot[] parts)
    {
        final int n = parts.length;
        final long[] offsets = new long[n];
        final long[] lengths = new long[n];
        Object buffer = null;
        boolean direct = true;
        for (int i = 0; i < n; i++)
        {
            if (parts[i] == null)
            {
                continue;
            }
            final BufferView view = BufferView.of(parts[i].buf(), "collective buffer");
            final Convertor c = Convertor.create(view, parts[i].offset(), parts[i].count(), parts[i].type());
            lengths[i] = c.totalBytes();
            buffer = buffer == null ? parts[i].buf() : buffer;
            final boolean oneRun = view.indirect() == null && c.isNativeOrder() && buffer == parts[i].buf() &&
                (c.totalBytes() == 0 || (c.runLength() == c.totalBytes() && c.runBase() == view.base()));
            direct &= oneRun;
            offsets[i] = oneRun && c.totalBytes() > 0 ? c.runAddress() - view.address() : 0;
        }
        final ArenaMemory arena = oneSided.arena();
        // Across JVMs peers reach only the arena: a buffer outside it is staged there (two local copies beat frames).
        if (direct && buffer != null && (arena == null || buffer instanceof java.nio.Buffer b && arena.contains(b)))
        {
            return new DirectMemory(oneSided.register(buffer), parts, offsets, lengths, null, null);
        }
        long at = 0;
        for (int i = 0; i < n; i++)
        {
            offsets[i] = at;
            at += lengths[i];
        }
        final Object staging = allocate(arena, Buffers.packedBytes("persistent collective", at, org.jmpi.Datatype.BYTE));
        return new DirectMemory(oneSided.register(staging), parts, offsets, lengths, staging, staging instanceof byte[] ? null : arena);
    }

    /**
     * Registers a scratch area of {@code parts} parts of {@code partBytes} each, back to back (the reductions'
     * accumulator and slots), in the arena where there is one, else a byte array; {@link #memory()} is the area.
     */
    static DirectMemory scratch(final OneSided oneSided, final int parts, final int partBytes)
    {
        final long[] offsets = new long[parts];
        final long[] lengths = new long[parts];
        for (int i = 0; i < parts; i++)
        {
            offsets[i] = (long)i * partBytes;
            lengths[i] = partBytes;
        }
        final ArenaMemory arena = oneSided.arena();
        final Object scratch = allocate(arena, Buffers.packedBytes("persistent collective", (long)parts * partBytes, org.jmpi.Datatype.BYTE));
        return new DirectMemory(oneSided.register(scratch), new Buffers.Slot[parts], offsets, lengths, scratch,
            scratch instanceof byte[] ? null : arena);
    }

    /**
     * {@code bytes} of zeroed memory for peers to reach: from {@code arena} where there is one and it has room (a full
     * partition is not an error here: the collective then goes by frames, as without an arena), else a byte array.
     */
    static Object allocate(final ArenaMemory arena, final int bytes)
    {
        if (arena != null && bytes > 0)
        {
            try
            {
                final java.nio.ByteBuffer memory = arena.allocate(bytes, 64);
                new org.agrona.concurrent.UnsafeBuffer(memory).setMemory(0, bytes, (byte)0);
                return memory;
            }
            catch (final MpiException ex)
            {
                if (ex.errorClass() != ErrorClass.ERR_NO_MEM)
                {
                    throw ex;
                }
            }
        }
        return new byte[bytes];
    }

    Region region()
    {
        return region;
    }

    /** The registered staging or scratch memory (a byte[] or an arena ByteBuffer), or null when the region is the user's buffer. */
    Object memory()
    {
        return staging;
    }

    /** Byte offset of part {@code i} in the region. */
    long offset(final int i)
    {
        return offsets[i];
    }

    /** Packed bytes of part {@code i}. */
    long length(final int i)
    {
        return lengths[i];
    }

    /** Makes part {@code i} of the region hold the user's data (a copy into staging; nothing when direct). */
    void pack(final int i)
    {
        if (staging != null && parts[i] != null)
        {
            Buffers.pack(parts[i], staging, offsets[i]);
        }
    }

    /** Delivers part {@code i} of the region to the user's buffer (a copy out of staging; nothing when direct). */
    void unpack(final int i)
    {
        if (staging != null && parts[i] != null)
        {
            Buffers.unpack(staging, offsets[i], parts[i]);
        }
    }

    /** Ends the registration and gives an arena allocation back. Engine thread. */
    void release(final OneSided oneSided)
    {
        oneSided.deregister(region);
        if (arena != null)
        {
            arena.free((java.nio.ByteBuffer)staging);
        }
    }
}
