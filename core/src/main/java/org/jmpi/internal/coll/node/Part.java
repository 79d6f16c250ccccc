package org.jmpi.internal.coll.node;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

import org.agrona.BufferUtil;
import org.agrona.UnsafeApi;
import org.agrona.concurrent.UnsafeBuffer;
import org.jmpi.Datatype;
import org.jmpi.internal.datatype.BufferView;
import org.jmpi.internal.datatype.Convertor;

/**
 * {@code count} items of {@code type} at element {@code offset} of a user buffer: one rank's part of a node
 * collective call, packed into and unpacked from the region's slots.
 *
 * <p>Threading: set on the calling thread before its call starts ({@link #set}), then read-only while the call
 * runs (peers read a posted part during the call); a blocking call's spare {@link NodeOp} sets its parts again for
 * the next call, once every peer is done with them. The buffer is the user's, read and written on the engine
 * thread during the call.
 */
final class Part
{
    private Object buf;
    private int offset;
    private int count;
    private Datatype type;
    /**
     * The owner's convertors for {@link #pack} and {@link #unpack} where the part is not one run: made at the first
     * round of a call and sought to each later round's position (a call of many rounds made one per round). Only the
     * owning rank packs and unpacks its parts; peers reading a posted part make their own ({@link #reader()}).
     */
    private Convertor packer;
    private Convertor unpacker;

    Part()
    {
    }

    Part(final Object buf, final int offset, final int count, final Datatype type)
    {
        set(buf, offset, count, type);
    }

    /** Points this part at {@code count} items of {@code type} at element {@code offset} of {@code buf}; returns this. */
    Part set(final Object buf, final int offset, final int count, final Datatype type)
    {
        this.buf = buf;
        this.offset = offset;
        this.count = count;
        this.type = type;
        packer = null;
        unpacker = null;
        return this;
    }

    /** Drops the user's buffer and type (a spare holds none). */
    void clear()
    {
        buf = null;
        type = null;
        packer = null;
        unpacker = null;
    }

    Object buf()
    {
        return buf;
    }

    int offset()
    {
        return offset;
    }

    int count()
    {
        return count;
    }

    Datatype type()
    {
        return type;
    }

    long bytes()
    {
        return count * type.size();
    }

    Convertor reader()
    {
        return Convertor.create(BufferView.of(buf, "send buffer"), offset, count, type);
    }

    Convertor writer()
    {
        return Convertor.createForReceive(BufferView.of(buf, "receive buffer"), offset, count, type);
    }

    /** Packs stream bytes {@code [from, from + n)} into {@code dst} at {@code index}. The owning rank only. */
    void pack(final UnsafeBuffer dst, final int index, final long from, final int n)
    {
        final long at = runAddress(from, n, false);
        if (at >= 0)
        {
            UnsafeApi.copyMemory(runBase(), at, dst.byteArray(), dst.addressOffset() + index, n);
            return;
        }
        Convertor c = packer;
        if (c == null)
        {
            packer = c = reader();
        }
        c.seek(from);
        c.pack(dst, index, n);
    }

    /** Unpacks stream bytes {@code [from, from + n)} from {@code src} at {@code index}. The owning rank only. */
    void unpack(final UnsafeBuffer src, final int index, final long from, final int n)
    {
        final long at = runAddress(from, n, true);
        if (at >= 0)
        {
            UnsafeApi.copyMemory(src.byteArray(), src.addressOffset() + index, runBase(), at, n);
            return;
        }
        Convertor c = unpacker;
        if (c == null)
        {
            unpacker = c = writer();
        }
        c.seek(from);
        c.unpack(src, index, n);
    }

    /**
     * Copies this part into {@code to} with one memory copy where both are one run of a primitive array of the
     * same bytes (a rank's own block of a small gather, scatter or allgather); false, copying nothing, otherwise.
     */
    boolean copyRunTo(final Part to)
    {
        final long n = bytes();
        if (n != to.bytes() || n > Integer.MAX_VALUE)
        {
            return false;
        }
        final long from = runAddress(0, (int)n, false);
        final long into = from < 0 ? -1 : to.runAddress(0, (int)n, true);
        if (into < 0)
        {
            return false;
        }
        UnsafeApi.copyMemory(runBase(), from, to.runBase(), into, n);
        return true;
    }

    /**
     * The address (with {@link #runBase()}) of stream byte {@code from} where the part is one run in stream order
     * (a contiguous type) of a primitive array, or of a ByteBuffer (heap or direct) whose bytes need no swapping
     * (byte-sized elements, or the native order), and {@code [from, from + n)} lies inside the buffer (writable, to
     * {@code write}); else -1 (the convertor then copies, and reports a buffer too small). No allocation: small
     * calls copy with one memory copy.
     */
    private long runAddress(final long from, final int n, final boolean write)
    {
        if (!type.isContiguous())
        {
            return -1;
        }
        // A contiguous type on an array: every basic element is the array's (the argument checks saw to it).
        final Datatype element = type.basicType();
        if (element == null || offset < 0 || from < 0)
        {
            return -1;
        }
        if (buf instanceof ByteBuffer b)
        {
            // Offsets in a ByteBuffer are bytes from index 0, as in BufferView.
            final long start = offset + from;
            if ((element.size() > 1 && b.order() != ByteOrder.nativeOrder()) || (write && b.isReadOnly()) || start + n > b.capacity())
            {
                return -1;
            }
            return (b.isDirect() ? BufferUtil.address(b) : BufferUtil.ARRAY_BASE_OFFSET + BufferUtil.arrayOffset(b)) + start;
        }
        final int length = BufferView.arrayLength(buf, element);
        if (length < 0)
        {
            return -1;
        }
        final int shift = Long.numberOfTrailingZeros(element.size());
        final long start = ((long)offset << shift) + from;
        return start + n <= (long)length << shift ? BufferView.arrayBaseOffset(element) + start : -1;
    }

    /** The object {@link #runAddress} is relative to: the array, a heap ByteBuffer's array, or null (a direct buffer). */
    private Object runBase()
    {
        if (buf instanceof ByteBuffer b)
        {
            return b.isDirect() ? null : BufferUtil.array(b);
        }
        return buf;
    }
}
