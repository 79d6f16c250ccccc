package org.jmpi.internal.rma;

import org.agrona.UnsafeApi;
import org.jmpi.ErrorClass;
import org.jmpi.MpiException;
import org.jmpi.internal.datatype.BufferView;

/**
 * Memory one rank registered for one-sided access: a primitive array or a ByteBuffer (heap or direct),
 * addressed in bytes from its element 0. Also the byte-level accessors every path uses on it: the owner
 * reading its counters, a peer writing through peer memory, the owner applying an active message.
 *
 * <p>Threading: the bytes are read and written by any rank's engine thread; {@link #getAndAdd} and
 * {@link #loadLong} are atomic and fenced, so a counter bumped after a copy publishes the copy.
 */
public final class Region
{
    private final int id;
    private final BufferView view;
    private final long handle;
    private final long registration;
    private final long remote0;
    private final long remote1;

    /**
     * @param handle       the peer-memory handle, or 0.
     * @param registration the transport's remote-memory registration, or 0; {@code remoteKey} its key.
     */
    Region(final int id, final BufferView view, final long handle, final long registration, final long[] remoteKey)
    {
        this.id = id;
        this.view = view;
        this.handle = handle;
        this.registration = registration;
        this.remote0 = registration == 0 ? 0 : remoteKey[0];
        this.remote1 = registration == 0 ? 0 : remoteKey[1];
    }

    /** The view of one-sided memory, or ERR_BUFFER when {@code memory} cannot be addressed in bytes. */
    static BufferView addressable(final Object memory, final String what)
    {
        final BufferView view = BufferView.of(memory, what);
        if (view.indirect() != null)
        {
            throw new MpiException(ErrorClass.ERR_BUFFER, what + ": one-sided memory must be a primitive array or a " +
                "ByteBuffer, not a view of another buffer: " + memory);
        }
        return view;
    }

    int id()
    {
        return id;
    }

    long handle()
    {
        return handle;
    }

    /** The remote-memory registration, or 0. */
    long registration()
    {
        return registration;
    }

    /** The key peers use to reach this region. */
    public RegionKey key()
    {
        return new RegionKey(id, handle, view.capacityBytes(), (view.address() & 7) == 0, remote0, remote1);
    }

    public long lengthBytes()
    {
        return view.capacityBytes();
    }

    /** The long at {@code offsetBytes} (a multiple of 8), read with acquire-or-stronger ordering. */
    public long loadLong(final long offsetBytes)
    {
        checkLong(view, offsetBytes, "load");
        return UnsafeApi.getLongVolatile(view.base(), view.address() + offsetBytes);
    }

    /** Copies {@code length} bytes between two addressable views at byte offsets. */
    static void copy(final BufferView src, final long srcOffset, final BufferView dst, final long dstOffset, final long length)
    {
        UnsafeApi.copyMemory(src.base(), src.address() + srcOffset, dst.base(), dst.address() + dstOffset, length);
    }

    /** Atomically adds {@code delta} to the long at {@code offsetBytes} of {@code view}; returns the value before. */
    static long getAndAdd(final BufferView view, final long offsetBytes, final long delta)
    {
        checkLong(view, offsetBytes, "add");
        return UnsafeApi.getAndAddLong(view.base(), view.address() + offsetBytes, delta);
    }

    BufferView view()
    {
        return view;
    }

    private static void checkLong(final BufferView view, final long offsetBytes, final String what)
    {
        if (offsetBytes < 0 || (offsetBytes & 7) != 0 || offsetBytes + 8 > view.capacityBytes() ||
            ((view.address() + offsetBytes) & 7) != 0)
        {
            throw new MpiException(ErrorClass.ERR_RMA_RANGE, what + ": the long at byte " + offsetBytes +
                " is not an aligned long inside a region of " + view.capacityBytes() + " bytes");
        }
    }
}
