package org.jmpi.transport.verbs;

import org.agrona.BufferUtil;
import org.agrona.UnsafeApi;
import org.jmpi.transport.verbs.ibv.MemoryRegion;

import java.nio.ByteBuffer;

/**
 * Memory this rank registered with the transport's remote memory: a direct buffer, through a cached memory region
 * the device reads and writes in place; or heap memory (a primitive array, a heap ByteBuffer), which the device
 * cannot address (the garbage collector moves it), so every transfer to or from it is staged through registered
 * bounce buffers or the transport's frames, and copied here with {@link #copyIn}/{@link #copyOut}.
 * Offsets are bytes from the buffer's index 0 (the array's element 0), as core's one-sided layer counts them.
 *
 * <p>Threading: the rank's progress owner. Holds its memory reachable until deregistered.
 */
final class LocalRegistration
{
    final int id;
    /** The cached region of a direct buffer, or null for heap memory. */
    final RegistrationCache.Entry<MemoryRegion> entry;
    /** The array (heap), or null (direct: {@link #offset} is the address). */
    private final Object base;
    /** Unsafe offset of byte 0 in {@link #base}, or the direct buffer's address. */
    private final long offset;
    final long lengthBytes;
    final boolean readOnly;

    private LocalRegistration(final int id, final RegistrationCache.Entry<MemoryRegion> entry, final Object base, final long offset,
        final long lengthBytes, final boolean readOnly)
    {
        this.id = id;
        this.entry = entry;
        this.base = base;
        this.offset = offset;
        this.lengthBytes = lengthBytes;
        this.readOnly = readOnly;
    }

    /** A direct buffer's registration through the cache entry {@code entry}. */
    static LocalRegistration direct(final int id, final ByteBuffer buffer, final RegistrationCache.Entry<MemoryRegion> entry)
    {
        return new LocalRegistration(id, entry, null, BufferUtil.address(buffer), buffer.capacity(), buffer.isReadOnly());
    }

    /** Heap memory's registration, or null when {@code memory} is neither a primitive array nor a heap ByteBuffer. */
    static LocalRegistration heap(final int id, final Object memory)
    {
        return switch (memory)
        {
            case byte[] a -> array(id, a, byte[].class, a.length);
            case short[] a -> array(id, a, short[].class, 2L * a.length);
            case char[] a -> array(id, a, char[].class, 2L * a.length);
            case int[] a -> array(id, a, int[].class, 4L * a.length);
            case float[] a -> array(id, a, float[].class, 4L * a.length);
            case long[] a -> array(id, a, long[].class, 8L * a.length);
            case double[] a -> array(id, a, double[].class, 8L * a.length);
            case boolean[] a -> array(id, a, boolean[].class, a.length);
            case ByteBuffer b when !b.isDirect() -> new LocalRegistration(id, null, BufferUtil.array(b),
                BufferUtil.ARRAY_BASE_OFFSET + BufferUtil.arrayOffset(b), b.capacity(), b.isReadOnly());
            default -> null;
        };
    }

    private static LocalRegistration array(final int id, final Object array, final Class<?> type, final long lengthBytes)
    {
        return new LocalRegistration(id, null, array, UnsafeApi.arrayBaseOffset(type), lengthBytes, false);
    }

    /** Whether the device addresses this memory in place (a direct buffer's region). */
    boolean direct()
    {
        return entry != null;
    }

    /** The device address of byte {@code at} (direct only). */
    long address(final long at)
    {
        return offset + at;
    }

    int lkey()
    {
        return entry.region.lkey();
    }

    int rkey()
    {
        return entry.region.rkey();
    }

    /** Copies {@code length} bytes from {@code (srcBase, srcOffset)} (Unsafe addressing) into this memory from byte {@code at}. */
    void copyIn(final Object srcBase, final long srcOffset, final long at, final long length)
    {
        UnsafeApi.copyMemory(srcBase, srcOffset, base, offset + at, length);
    }

    /** Copies {@code length} bytes of this memory from byte {@code at} to {@code (dstBase, dstOffset)}. */
    void copyOut(final long at, final Object dstBase, final long dstOffset, final long length)
    {
        UnsafeApi.copyMemory(base, offset + at, dstBase, dstOffset, length);
    }
}
