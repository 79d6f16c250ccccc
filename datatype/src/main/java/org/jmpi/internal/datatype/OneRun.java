package org.jmpi.internal.datatype;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.jmpi.Datatype;
import org.jmpi.ErrorClass;
import org.jmpi.MpiException;

/**
 * The contiguous fast path: {@code count} items of a type that are one run of bytes in native order (a
 * predefined type, or one without gaps: one block per item, {@code size == extent == trueExtent}, {@code trueLb
 * == 0}; an array or a native-order buffer; not external32) need no {@link Convertor}: the arguments are checked
 * as {@link Convertor#create(BufferView, long, long, Datatype, int)} checks them, and the data is copied in one move.
 */
public final class OneRun
{
    private OneRun()
    {
    }

    /**
     * The run's unsafe address (with {@code view.base()}) after {@code Convertor.create}'s checks, or -1 without
     * checking anything when the items are not one native run ({@code create} then checks and walks as usual).
     *
     * @param flags {@link Convertor#RECEIVE}, {@link Convertor#EXTERNAL32}, or 0
     * @throws MpiException as {@code create} when the arguments are wrong for a one-run layout
     */
    public static long address(final BufferView view, final long elementOffset, final long count, final Datatype type,
        final int flags)
    {
        if (type == null || !type.isCommitted() || count < 0 || elementOffset < 0 || (flags & Convertor.EXTERNAL32) != 0 ||
            view.indirect() != null || view.swapBytes() || type.size() != type.extent() || type.trueLb() != 0 ||
            type.trueUb() != type.size())
        {
            return -1;
        }
        final Program untyped = TypeAccess.get().program(type, false);
        if (untyped.blocksPerItem() > 1)
        {
            return -1;
        }
        final long byteOffset = ConvertorChecks.checkedByteOffset(view, elementOffset, count, type, untyped);
        if ((flags & Convertor.RECEIVE) != 0 && view.readOnly())
        {
            throw new MpiException(ErrorClass.ERR_BUFFER, "receive buffer is read-only: " + view);
        }
        return view.address() + byteOffset;
    }

    /** Copies {@code n} bytes of a run at ({@code base}, {@code address}) into {@code dst} at {@code index}. */
    public static void pack(final Object base, final long address, final MutableDirectBuffer dst, final int index, final int n)
    {
        dst.boundsCheck(index, n);
        Kernels.copy(base, address, dst.byteArray(), dst.addressOffset() + index, n);
    }

    /** Copies {@code n} bytes from {@code src} at {@code index} into a run at ({@code base}, {@code address}). */
    public static void unpack(final DirectBuffer src, final int index, final int n, final Object base, final long address)
    {
        src.boundsCheck(index, n);
        Kernels.copy(src.byteArray(), src.addressOffset() + index, base, address, n);
    }
}
