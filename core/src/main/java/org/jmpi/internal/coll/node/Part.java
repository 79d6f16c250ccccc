package org.jmpi.internal.coll.node;

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
        return this;
    }

    /** Drops the user's buffer and type (a spare holds none). */
    void clear()
    {
        buf = null;
        type = null;
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

    /** Packs stream bytes {@code [from, from + n)} into {@code dst} at {@code index}. */
    void pack(final UnsafeBuffer dst, final int index, final long from, final int n)
    {
        final long at = runAddress(from, n);
        if (at >= 0)
        {
            UnsafeApi.copyMemory(buf, at, dst.byteArray(), dst.addressOffset() + index, n);
            return;
        }
        final Convertor c = reader();
        if (from != 0)
        {
            c.seek(from);
        }
        c.pack(dst, index, n);
    }

    /** Unpacks stream bytes {@code [from, from + n)} from {@code src} at {@code index}. */
    void unpack(final UnsafeBuffer src, final int index, final long from, final int n)
    {
        final long at = runAddress(from, n);
        if (at >= 0)
        {
            UnsafeApi.copyMemory(src.byteArray(), src.addressOffset() + index, buf, at, n);
            return;
        }
        final Convertor c = writer();
        if (from != 0)
        {
            c.seek(from);
        }
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
        final long from = runAddress(0, (int)n);
        final long into = from < 0 ? -1 : to.runAddress(0, (int)n);
        if (into < 0)
        {
            return false;
        }
        UnsafeApi.copyMemory(buf, from, to.buf, into, n);
        return true;
    }

    /**
     * The array offset of stream byte {@code from} where the part is one run of a primitive array in stream
     * order (a contiguous type) and {@code [from, from + n)} lies inside the array; else -1 (the convertor
     * then copies, and reports a buffer too small). No allocation: small calls copy with one memory copy.
     */
    private long runAddress(final long from, final int n)
    {
        if (!type.isContiguous())
        {
            return -1;
        }
        // A contiguous type on an array: every basic element is the array's (the argument checks saw to it).
        final Datatype element = type.basicType();
        final int length = element == null ? -1 : BufferView.arrayLength(buf, element);
        if (length < 0)
        {
            return -1;
        }
        final int shift = Long.numberOfTrailingZeros(element.size());
        final long start = ((long)offset << shift) + from;
        return offset >= 0 && from >= 0 && start + n <= (long)length << shift ? BufferView.arrayBaseOffset(element) + start : -1;
    }
}
