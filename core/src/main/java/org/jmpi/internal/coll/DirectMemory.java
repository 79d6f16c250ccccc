package org.jmpi.internal.coll;

import org.jmpi.internal.datatype.BufferView;
import org.jmpi.internal.datatype.Convertor;
import org.jmpi.internal.rma.OneSided;
import org.jmpi.internal.rma.Region;

/**
 * The memory one rank registers for a put- or get-based persistent collective: its parts (the user's
 * blocks, or the reductions' accumulator and slots), each a byte range of one registered region. Where every
 * part is a single run of one array or ByteBuffer in native order, the region is the user's buffer itself
 * and peers copy straight to and from it; otherwise it is a packed staging array, filled by {@link #pack}
 * before peers read a part and emptied by {@link #unpack} after they wrote one.
 *
 * <p>Threading: made at init through the engine; used on the owning rank's engine thread.
 */
final class DirectMemory
{
    private final Region region;
    private final Buffers.Slot[] parts;
    private final long[] offsets;
    private final long[] lengths;
    /** The packed copy of the parts, or null when peers reach the user's buffer itself. */
    private final byte[] staging;

    private DirectMemory(final Region region, final Buffers.Slot[] parts, final long[] offsets, final long[] lengths, final byte[] staging)
    {
        this.region = region;
        this.parts = parts;
        this.offsets = offsets;
        this.lengths = lengths;
        this.staging = staging;
    }

    /**
     * Registers the memory of {@code parts} (null entries are parts this rank does not have) with {@code oneSided}:
     * the user's buffer when every part is one native run of it, else a staging array. Engine thread.
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
        if (direct && buffer != null)
        {
            return new DirectMemory(oneSided.register(buffer), parts, offsets, lengths, null);
        }
        long at = 0;
        for (int i = 0; i < n; i++)
        {
            offsets[i] = at;
            at += lengths[i];
        }
        final byte[] staging = new byte[Buffers.packedBytes("persistent collective", at, org.jmpi.Datatype.BYTE)];
        return new DirectMemory(oneSided.register(staging), parts, offsets, lengths, staging);
    }

    /** Registers {@code scratch} (packed bytes this object owns) with parts of {@code partBytes} each, back to back. */
    static DirectMemory scratch(final OneSided oneSided, final byte[] scratch, final int partBytes)
    {
        final int n = partBytes == 0 ? 1 : scratch.length / partBytes;
        final long[] offsets = new long[n];
        final long[] lengths = new long[n];
        for (int i = 0; i < n; i++)
        {
            offsets[i] = (long)i * partBytes;
            lengths[i] = partBytes;
        }
        return new DirectMemory(oneSided.register(scratch), new Buffers.Slot[n], offsets, lengths, null);
    }

    Region region()
    {
        return region;
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
            Buffers.pack(parts[i], staging, (int)offsets[i]);
        }
    }

    /** Delivers part {@code i} of the region to the user's buffer (a copy out of staging; nothing when direct). */
    void unpack(final int i)
    {
        if (staging != null && parts[i] != null)
        {
            Buffers.unpack(staging, (int)offsets[i], parts[i]);
        }
    }

    /** Ends the registration. Engine thread. */
    void release(final OneSided oneSided)
    {
        oneSided.deregister(region);
    }
}
