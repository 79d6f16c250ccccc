package org.jmpi.internal.datatype;

import org.jmpi.Datatype;
import org.jmpi.ErrorClass;
import org.jmpi.MpiException;

/**
 * The argument checks of a cursor's creation ({@link Convertor#create(BufferView, long, long, Datatype, int)}, {@link OneRun}):
 * the element offset in bytes, the units rule of typed buffers and the footprint inside the buffer. Stateless.
 */
final class ConvertorChecks
{
    private ConvertorChecks()
    {
    }

    /**
     * The byte offset of {@code elementOffset} elements, with the units and footprint checks when there is data
     * (ERR_BUFFER, ERR_TYPE); shared by {@link Convertor#create(BufferView, long, long, Datatype, int)} and {@link OneRun}.
     */
    static long checkedByteOffset(final BufferView view, final long elementOffset, final long count, final Datatype type,
        final Program untyped)
    {
        final long byteOffset;
        try
        {
            byteOffset = Math.multiplyExact(elementOffset, view.elementSize());
        }
        catch (final ArithmeticException ex)
        {
            throw new MpiException(ErrorClass.ERR_BUFFER, "offset=" + elementOffset + " overflows", ex);
        }
        if (count > 0 && type.size() > 0)
        {
            checkUnits(view, type, untyped, count);
            checkFootprint(view, elementOffset, byteOffset, count, type);
        }
        return byteOffset;
    }

    private static void checkUnits(final BufferView view, final Datatype type, final Program program, final long count)
    {
        if (view.byteAddressed())
        {
            return;
        }
        final Datatype basic = type.basicType();
        final int elementCode = BasicType.of(view.elementType()).code();
        if (basic == null || BasicType.of(basic).arrayElementCode() != elementCode)
        {
            throw new MpiException(ErrorClass.ERR_TYPE, "type " + type.name() + " (basic type " +
                (basic == null ? "mixed" : basic.name()) + ") does not suit a " + view.buffer().getClass().getSimpleName() +
                " buffer: an array or typed buffer takes only its element type " + view.elementType().name() +
                "; use a ByteBuffer for mixed types");
        }
        final long bits = program.root.bits() | (count > 1 ? type.extent() : 0);
        if ((bits & (view.elementSize() - 1)) != 0)
        {
            throw new MpiException(ErrorClass.ERR_TYPE, "type " + type.name() + " has a byte displacement or extent " +
                "that is not a multiple of the " + view.elementSize() + "-byte elements of a " +
                view.buffer().getClass().getSimpleName() + " buffer");
        }
    }

    private static void checkFootprint(final BufferView view, final long elementOffset, final long byteOffset,
        final long count, final Datatype type)
    {
        try
        {
            final long span = Math.multiplyExact(count - 1, type.extent());
            final long lo = Math.addExact(Math.addExact(byteOffset, type.trueLb()), Math.min(0, span));
            final long hi = Math.addExact(Math.addExact(byteOffset, type.trueUb()), Math.max(0, span));
            if (lo >= 0 && hi <= view.capacityBytes())
            {
                return;
            }
            throw new MpiException(ErrorClass.ERR_BUFFER, "type does not fit the buffer: offset=" + elementOffset +
                " elements, count=" + count + ", type " + type.name() + " (extent=" + type.extent() + ", trueLb=" +
                type.trueLb() + ", trueUb=" + type.trueUb() + ") touches bytes [" + lo + ", " + hi + "), capacity=" +
                view.capacityBytes() + " bytes");
        }
        catch (final ArithmeticException ex)
        {
            throw new MpiException(ErrorClass.ERR_BUFFER, "type does not fit the buffer: count=" + count + " x extent=" +
                type.extent() + " overflows", ex);
        }
    }
}
