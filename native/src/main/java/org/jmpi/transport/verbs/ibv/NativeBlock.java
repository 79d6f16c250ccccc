package org.jmpi.transport.verbs.ibv;

import com.sun.jna.Native;
import com.sun.jna.Pointer;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * Native memory owned by Java: a direct buffer in native byte order (fields are read and written with its
 * absolute accessors, which allocate nothing) and its address. Freed by the garbage collector with the buffer;
 * whoever holds the block must keep it reachable while the device may touch it.
 *
 * <p>Not thread-safe: one owner.
 */
public final class NativeBlock
{
    private final ByteBuffer buffer;
    private final Pointer pointer;
    private final long address;

    public NativeBlock(final int lengthBytes)
    {
        this(ByteBuffer.allocateDirect(lengthBytes));
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
