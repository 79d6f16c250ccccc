package org.jmpi.internal.coll;

import org.jmpi.Datatype;
import org.jmpi.ErrorClass;
import org.jmpi.MpiException;
import org.jmpi.internal.datatype.BufferView;
import org.jmpi.internal.datatype.Convertor;

/**
 * Moving user data to and from the collectives' scratch arrays (packed streams in native byte order), and
 * naming parts of user buffers ({@link Slot}).
 *
 * <p>Stateless; any thread. Scratch arrays are owned by the schedule that allocated them.
 */
final class Buffers
{
    /** {@code count} items of {@code type} at element {@code offset} of a user buffer. */
    record Slot(Object buf, int offset, int count, Datatype type)
    {
        long bytes()
        {
            return count * type.size();
        }
    }

    private Buffers()
    {
    }

    /** Checks that {@code count} items of {@code type} at {@code offset} lie inside {@code buf} (send side). */
    static void checkSend(final String call, final Object buf, final int offset, final int count, final Datatype type)
    {
        checkArgs(call, offset, count, type);
        if (!fitsArray(buf, offset, count, type) && !fitsByteBuffer(buf, offset, count, type, false))
        {
            Convertor.create(BufferView.of(buf, call + ": send buffer"), offset, count, type);
        }
    }

    /** As {@link #checkSend}, and the buffer must be writable. */
    static void checkRecv(final String call, final Object buf, final int offset, final int count, final Datatype type)
    {
        checkArgs(call, offset, count, type);
        if (!fitsArray(buf, offset, count, type) && !fitsByteBuffer(buf, offset, count, type, true))
        {
            Convertor.createForReceive(BufferView.of(buf, call + ": receive buffer"), offset, count, type);
        }
    }

    /**
     * Whether {@code buf} is a primitive array whose element type is the predefined {@code type} and the
     * {@code count} items from {@code offset} lie inside it: the common case, which passes every check a
     * convertor makes (units, footprint, writable, no byte twice), checked without making one (a small
     * collective's argument checks allocated a view and a convertor per buffer). Anything else: false, and the
     * convertor checks and names what is wrong.
     */
    private static boolean fitsArray(final Object buf, final int offset, final int count, final Datatype type)
    {
        final int length = BufferView.arrayLength(buf, type);
        return length >= 0 && (long)offset + count <= length;
    }

    /**
     * Whether {@code buf} is a ByteBuffer (heap or direct) and {@code count} items of the committed contiguous
     * {@code type} from byte {@code offset} (not negative) lie inside its capacity, writable for a {@code receive}: what
     * the convertor would check there (any committed type may be laid over a ByteBuffer), checked without making a
     * view and a convertor per buffer (a small collective on direct buffers allocated them per call).
     */
    static boolean fitsByteBuffer(final Object buf, final long offset, final long count, final Datatype type, final boolean receive)
    {
        return buf instanceof java.nio.ByteBuffer b && type.isContiguous() && (!receive || !b.isReadOnly()) &&
            offset + count * type.size() <= b.capacity();
    }

    /**
     * Checks {@code blocks} blocks of {@code count} items of {@code type}, block j at {@code j * count} extents from
     * element {@code offset} (gather's and allgather's receive buffers, scatter's and alltoall's buffers), as
     * {@link #extentSlots} does, but without making the slots where {@code buf} is an array of the predefined
     * {@code type}: the node collectives' small calls check their arguments per call.
     */
    static void checkBlocks(final String call, final Object buf, final int offset, final int count, final Datatype type,
        final int blocks, final boolean receive)
    {
        if (count >= 0 && offset >= 0 && type != null && type.isCommitted())
        {
            final int length = BufferView.arrayLength(buf, type);
            if (length >= 0 && (long)offset + (long)count * blocks <= length ||
                fitsByteBuffer(buf, offset, (long)count * blocks, type, receive))
            {
                return;
            }
        }
        final int[] counts = new int[blocks];
        final int[] displs = new int[blocks];
        for (int i = 0; i < blocks; i++)
        {
            counts[i] = count;
            displs[i] = i * count;
        }
        extentSlots(call, buf, offset, counts, displs, type, blocks, receive);
    }

    /** {@link #checkRecv} or {@link #checkSend} of one slot. */
    static void check(final String call, final Slot slot, final boolean receive)
    {
        if (receive)
        {
            checkRecv(call, slot.buf(), slot.offset(), slot.count(), slot.type());
        }
        else
        {
            checkSend(call, slot.buf(), slot.offset(), slot.count(), slot.type());
        }
    }

    /**
     * The slots of {@code blocks} per-rank (or per-neighbour) blocks of a v-variant: {@code counts[i]} items of
     * {@code type} at {@code displs[i]} extents, each checked. The caller has checked the arrays' lengths.
     */
    static Slot[] extentSlots(final String call, final Object buf, final int offset, final int[] counts, final int[] displs,
        final Datatype type, final int blocks, final boolean receive)
    {
        final Slot[] slots = new Slot[blocks];
        for (int i = 0; i < blocks; i++)
        {
            if (counts[i] < 0)
            {
                throw new MpiException(ErrorClass.ERR_COUNT, call + ": negative count " + counts[i] + " for rank " + i);
            }
            if (type == null)
            {
                throw new MpiException(ErrorClass.ERR_TYPE, call + ": datatype is null");
            }
            slots[i] = slot(buf, offset, (long)displs[i] * type.extent(), counts[i], type);
            check(call, slots[i], receive);
        }
        return slots;
    }

    private static void checkArgs(final String call, final int offset, final int count, final Datatype type)
    {
        if (count < 0)
        {
            throw new MpiException(ErrorClass.ERR_COUNT, call + ": negative count " + count);
        }
        if (offset < 0)
        {
            throw new MpiException(ErrorClass.ERR_BUFFER, call + ": negative buffer offset " + offset);
        }
        if (type == null)
        {
            throw new MpiException(ErrorClass.ERR_TYPE, call + ": datatype is null");
        }
        if (!type.isCommitted())
        {
            throw new MpiException(ErrorClass.ERR_TYPE, call + ": datatype " + type.name() + " is not committed");
        }
    }

    /** Packed bytes of {@code count} items, as an array length. */
    static int packedBytes(final String call, final long count, final Datatype type)
    {
        final long bytes = count * type.size();
        if (bytes > Integer.MAX_VALUE - 16)
        {
            throw new MpiException(ErrorClass.ERR_COUNT, call + ": " + bytes + " bytes exceed the largest scratch array");
        }
        return (int)bytes;
    }

    /** The slot of {@code count} items at byte displacement {@code byteDisp} from element {@code offset}. */
    static Slot slot(final Object buf, final int offset, final long byteDisp, final int count, final Datatype type)
    {
        final long elementSize = BufferView.of(buf, "buffer").elementSize();
        if (byteDisp % elementSize == 0)
        {
            return new Slot(buf, Math.toIntExact(offset + byteDisp / elementSize), count, type);
        }
        final Datatype shifted = Datatype.hindexed(new int[] {count}, new long[] {byteDisp}, type).commit();
        return new Slot(buf, offset, 1, shifted);
    }

    /** Packs {@code from} into {@code dst} (a byte[], or a ByteBuffer such as an arena's) from byte {@code dstOff}. */
    static void pack(final Slot from, final Object dst, final long dstOff)
    {
        final Convertor src = Convertor.create(BufferView.of(from.buf(), "send buffer"), from.offset(), from.count(), from.type());
        final long bytes = src.totalBytes();
        final Convertor out = Convertor.createForReceive(BufferView.of(dst, "scratch"), dstOff, bytes, Datatype.BYTE);
        Convertor.copy(src, out, 0, bytes);
    }

    /** Unpacks the packed bytes of {@code src} (a byte[] or a ByteBuffer) from byte {@code srcOff} into {@code to}. */
    static void unpack(final Object src, final long srcOff, final Slot to)
    {
        final Convertor out = Convertor.createForReceive(BufferView.of(to.buf(), "receive buffer"), to.offset(), to.count(), to.type());
        final long bytes = out.totalBytes();
        final Convertor in = Convertor.create(BufferView.of(src, "scratch"), srcOff, bytes, Datatype.BYTE);
        Convertor.copy(in, out, 0, bytes);
    }

    /** Type-to-type copy of a rank's own block; the packed sizes must agree. */
    static void copy(final String call, final Slot from, final Slot to)
    {
        final Convertor src = Convertor.create(BufferView.of(from.buf(), "send buffer"), from.offset(), from.count(), from.type());
        final Convertor dst = Convertor.createForReceive(BufferView.of(to.buf(), "receive buffer"), to.offset(), to.count(), to.type());
        if (src.totalBytes() != dst.totalBytes())
        {
            throw new MpiException(ErrorClass.ERR_TRUNCATE, call + ": send part is " + src.totalBytes() + " bytes, receive part " +
                dst.totalBytes() + " bytes (counts or types do not match)");
        }
        Convertor.copy(src, dst, 0, src.totalBytes());
    }
}
