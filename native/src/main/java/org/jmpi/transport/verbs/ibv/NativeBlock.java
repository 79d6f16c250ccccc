package org.jmpi.transport.verbs.ibv;

import com.sun.jna.Memory;
import com.sun.jna.Native;
import com.sun.jna.Pointer;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * Native memory seen through a direct buffer in native byte order (fields are read and written with its
 * absolute accessors, which allocate nothing) and its address. A block of its own ({@link #NativeBlock(int)})
 * is malloc'd outside the JVM's direct-memory limit and freed by {@link #free} (or, if never freed, when
 * unreachable); a block over a caller's direct buffer ({@link #NativeBlock(ByteBuffer)}) frees nothing.
 * Whoever holds the block keeps it reachable, and unfreed, while the device may touch it.
 *
 * <p>Not thread-safe: one owner.
 */
public final class NativeBlock
{
    private final ByteBuffer buffer;
    private final Pointer pointer;
    private final long address;
    private final Memory owned;

    public NativeBlock(final int lengthBytes)
    {
        if (lengthBytes < 1)
        {
            throw new IllegalArgumentException("lengthBytes=" + lengthBytes);
        }
        this.owned = new Memory(lengthBytes);
        this.buffer = owned.getByteBuffer(0, lengthBytes).order(ByteOrder.nativeOrder());
        this.pointer = owned;
        this.address = Pointer.nativeValue(owned);
    }

    /** Wraps a caller's direct buffer (from its position 0 to its capacity). */
    public NativeBlock(final ByteBuffer direct)
    {
        if (!direct.isDirect())
        {
            throw new IllegalArgumentException("not a direct buffer: " + direct);
        }
        this.buffer = direct.duplicate().clear().order(ByteOrder.nativeOrder());
        this.pointer = Native.getDirectBufferPointer(direct);
        this.address = Pointer.nativeValue(pointer);
        this.owned = null;
    }

    /** Frees a block of its own at once (idempotent; nothing for a caller's buffer). Its buffer must not be used after. */
    public void free()
    {
        if (owned != null)
        {
            owned.close();
        }
    }

    /** The block's bytes in native order (a view: position and limit are the holder's own). */
    public ByteBuffer buffer()
    {
        return buffer;
    }

    public Pointer pointer()
    {
        return pointer;
    }

    public long address()
    {
        return address;
    }

    public int lengthBytes()
    {
        return buffer.capacity();
    }

    /** Sets every byte to 0. */
    public void clear()
    {
        for (int i = 0; i < buffer.capacity(); i++)
        {
            buffer.put(i, (byte)0);
        }
    }
}
