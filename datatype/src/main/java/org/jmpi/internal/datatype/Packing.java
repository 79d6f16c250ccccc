package org.jmpi.internal.datatype;

import org.jmpi.Datatype;
import org.jmpi.ErrorClass;
import org.jmpi.MpiException;

/**
 * MPI_Pack and MPI_Unpack (native and external32) for {@link Datatype}: a convertor over the user's
 * buffer, and the packed stream in a {@code byte[]} or ByteBuffer checked for room before anything moves.
 *
 * <p>Stateless; any thread.
 */
public final class Packing
{
    private Packing()
    {
    }

    public static long pack(final Datatype type, final Object in, final long inOffset, final long count, final Object out, final long outPosition,
        final int flags)
    {
        final Convertor cv = Convertor.create(BufferView.of(in, "pack input buffer"), inOffset, count, type, flags);
        final BufferView stream = streamView(out, "pack output buffer");
        final long need = cv.totalBytes();
        if (outPosition < 0 || outPosition > stream.capacityBytes() || stream.capacityBytes() - outPosition < need)
        {
            throw new MpiException(ErrorClass.ERR_BUFFER, "pack: output too small: position=" + outPosition + ", need=" +
                need + " bytes, capacity=" + stream.capacityBytes() + " bytes");
        }
        if (stream.readOnly())
        {
            throw new MpiException(ErrorClass.ERR_BUFFER, "pack: output buffer is read-only");
        }
        cv.pack(stream.base(), stream.address() + outPosition, need);
        return outPosition + need;
    }

    public static long unpack(final Datatype type, final Object in, final long inPosition, final Object out, final long outOffset,
        final long count, final int flags)
    {
        final BufferView stream = streamView(in, "unpack input buffer");
        final Convertor cv = Convertor.create(BufferView.of(out, "unpack output buffer"), outOffset, count, type,
            flags | Convertor.RECEIVE);
        final long need = cv.totalBytes();
        if (inPosition < 0 || inPosition > stream.capacityBytes() || stream.capacityBytes() - inPosition < need)
        {
            throw new MpiException(ErrorClass.ERR_TRUNCATE, "unpack: input too short: position=" + inPosition +
                ", need=" + need + " bytes, capacity=" + stream.capacityBytes() + " bytes");
        }
        cv.unpack(stream.base(), stream.address() + inPosition, need);
        return inPosition + need;
    }

    private static BufferView streamView(final Object buffer, final String what)
    {
        final BufferView v = BufferView.of(buffer, what);
        if (!v.byteAddressed() && !(buffer instanceof byte[]))
        {
            throw new MpiException(ErrorClass.ERR_BUFFER, what + " must be byte[] or ByteBuffer, got " +
                buffer.getClass().getName());
        }
        return v;
    }
}
