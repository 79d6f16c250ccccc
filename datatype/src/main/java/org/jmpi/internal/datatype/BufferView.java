package org.jmpi.internal.datatype;

import java.nio.Buffer;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.CharBuffer;
import java.nio.DoubleBuffer;
import java.nio.FloatBuffer;
import java.nio.IntBuffer;
import java.nio.LongBuffer;
import java.nio.ShortBuffer;

import org.agrona.BufferUtil;
import org.agrona.UnsafeApi;
import org.jmpi.Datatype;
import org.jmpi.ErrorClass;
import org.jmpi.MpiException;

/**
 * A user buffer resolved to raw memory: a base object (the array, or null off-heap) and the Unsafe
 * address of its element 0, its capacity in bytes, its element type and byte order.
 * <p>
 * For nio buffers the absolute index 0 is used: position and limit are ignored and never modified.
 * A heap nio buffer that exposes no array (a read-only typed buffer, or a typed view of a heap
 * ByteBuffer) is reached element by element through its absolute get/put ({@link #indirect()}).
 * <p>
 * Immutable. It keeps a reference to the user's buffer, so off-heap memory stays reachable while the
 * view is; the memory itself is owned by the user, who must not free or reuse it during a transfer.
 */
public final class BufferView
{
    private static final boolean NATIVE_LITTLE_ENDIAN = ByteOrder.nativeOrder() == ByteOrder.LITTLE_ENDIAN;
    private static final long BYTE_BASE = UnsafeApi.arrayBaseOffset(byte[].class);
    private static final long BOOLEAN_BASE = UnsafeApi.arrayBaseOffset(boolean[].class);
    private static final long SHORT_BASE = UnsafeApi.arrayBaseOffset(short[].class);
    private static final long CHAR_BASE = UnsafeApi.arrayBaseOffset(char[].class);
    private static final long INT_BASE = UnsafeApi.arrayBaseOffset(int[].class);
    private static final long LONG_BASE = UnsafeApi.arrayBaseOffset(long[].class);
    private static final long FLOAT_BASE = UnsafeApi.arrayBaseOffset(float[].class);
    private static final long DOUBLE_BASE = UnsafeApi.arrayBaseOffset(double[].class);

    private final Object buffer;
    private final Object base;
    private final long address;
    private final long capacityBytes;
    private final Datatype elementType;
    private final int elementSize;
    private final boolean byteAddressed;
    private final boolean swapBytes;
    private final boolean readOnly;
    private final Buffer indirect;

    private BufferView(final Object buffer, final Object base, final long address, final long capacityBytes,
        final Datatype elementType, final boolean swapBytes, final boolean readOnly, final Buffer indirect)
    {
        this.buffer = buffer;
        this.base = base;
        this.address = address;
        this.capacityBytes = capacityBytes;
        this.elementType = elementType;
        this.elementSize = (int)elementType.size();
        this.byteAddressed = buffer instanceof ByteBuffer;
        this.swapBytes = swapBytes;
        this.readOnly = readOnly;
        this.indirect = indirect;
    }

    /**
     * Resolves any primitive array or java.nio buffer (heap or direct, any byte order).
     *
     * @param what "send buffer", "receive buffer"... for error messages
     * @throws MpiException ERR_BUFFER for null or any other object
     */
    public static BufferView of(final Object buffer, final String what)
    {
        return switch (buffer)
        {
            case null -> throw new MpiException(ErrorClass.ERR_BUFFER, what + ": buffer is null");
            case byte[] a -> array(a, byte[].class, a.length, Datatype.BYTE);
            case short[] a -> array(a, short[].class, a.length, Datatype.SHORT);
            case char[] a -> array(a, char[].class, a.length, Datatype.CHAR);
            case int[] a -> array(a, int[].class, a.length, Datatype.INT);
            case long[] a -> array(a, long[].class, a.length, Datatype.LONG);
            case float[] a -> array(a, float[].class, a.length, Datatype.FLOAT);
            case double[] a -> array(a, double[].class, a.length, Datatype.DOUBLE);
            case boolean[] a -> array(a, boolean[].class, a.length, Datatype.BOOLEAN);
            case ByteBuffer b -> byteBuffer(b);
            case ShortBuffer b -> typed(b, b.hasArray() ? b.array() : null, b.hasArray() ? b.arrayOffset() : 0,
                short[].class, b.order(), Datatype.SHORT);
            case CharBuffer b -> typed(b, b.hasArray() ? b.array() : null, b.hasArray() ? b.arrayOffset() : 0,
                char[].class, b.order(), Datatype.CHAR);
            case IntBuffer b -> typed(b, b.hasArray() ? b.array() : null, b.hasArray() ? b.arrayOffset() : 0,
                int[].class, b.order(), Datatype.INT);
            case LongBuffer b -> typed(b, b.hasArray() ? b.array() : null, b.hasArray() ? b.arrayOffset() : 0,
                long[].class, b.order(), Datatype.LONG);
            case FloatBuffer b -> typed(b, b.hasArray() ? b.array() : null, b.hasArray() ? b.arrayOffset() : 0,
                float[].class, b.order(), Datatype.FLOAT);
            case DoubleBuffer b -> typed(b, b.hasArray() ? b.array() : null, b.hasArray() ? b.arrayOffset() : 0,
                double[].class, b.order(), Datatype.DOUBLE);
            default -> throw new MpiException(ErrorClass.ERR_BUFFER, what + ": unsupported buffer type " +
                buffer.getClass().getName());
        };
    }

    /**
     * The element count of {@code buffer} when it is a primitive array whose elements are the predefined
     * {@code element} ({@code int[]} and INT, ...), else -1. Allocates nothing: for hot paths that take arrays
     * straight ({@link #arrayBaseOffset} gives the address of element 0), where {@link #of} would make a view.
     * instanceof tests, not a pattern switch: its bootstrap and dispatch would cost the first calls of a job.
     */
    public static int arrayLength(final Object buffer, final Datatype element)
    {
        if (buffer instanceof int[] a && element == Datatype.INT)
        {
            return a.length;
        }
        if (buffer instanceof double[] a && element == Datatype.DOUBLE)
        {
            return a.length;
        }
        if (buffer instanceof long[] a && element == Datatype.LONG)
        {
            return a.length;
        }
        if (buffer instanceof float[] a && element == Datatype.FLOAT)
        {
            return a.length;
        }
        if (buffer instanceof byte[] a && element == Datatype.BYTE)
        {
            return a.length;
        }
        if (buffer instanceof short[] a && element == Datatype.SHORT)
        {
            return a.length;
        }
        if (buffer instanceof char[] a && element == Datatype.CHAR)
        {
            return a.length;
        }
        return buffer instanceof boolean[] a && element == Datatype.BOOLEAN ? a.length : -1;
    }

    /** The Unsafe offset of element 0 in a primitive array of the predefined {@code element} type (see {@link #arrayLength}). */
    public static long arrayBaseOffset(final Datatype element)
    {
        if (element == Datatype.INT)
        {
            return INT_BASE;
        }
        if (element == Datatype.DOUBLE)
        {
            return DOUBLE_BASE;
        }
        if (element == Datatype.LONG)
        {
            return LONG_BASE;
        }
        if (element == Datatype.FLOAT)
        {
            return FLOAT_BASE;
        }
        if (element == Datatype.SHORT)
        {
            return SHORT_BASE;
        }
        if (element == Datatype.CHAR)
        {
            return CHAR_BASE;
        }
        return element == Datatype.BOOLEAN ? BOOLEAN_BASE : BYTE_BASE;
    }

    private static BufferView array(final Object array, final Class<?> arrayClass, final int length, final Datatype element)
    {
        return new BufferView(array, array, baseOffset(arrayClass), length * element.size(), element, false, false, null);
    }

    /** Unsafe base offsets of the primitive array classes, looked up once (the lookup is not free). */
    private static final ClassValue<Long> BASE_OFFSETS = new ClassValue<>()
    {
        @Override
        protected Long computeValue(final Class<?> arrayClass)
        {
            return (long)UnsafeApi.arrayBaseOffset(arrayClass);
        }
    };

    private static long baseOffset(final Class<?> arrayClass)
    {
        return BASE_OFFSETS.get(arrayClass);
    }

    private static BufferView byteBuffer(final ByteBuffer b)
    {
        final boolean swap = b.order() != ByteOrder.nativeOrder();
        if (b.isDirect())
        {
            return new BufferView(b, null, BufferUtil.address(b), b.capacity(), Datatype.BYTE, swap, b.isReadOnly(), null);
        }
        return new BufferView(b, BufferUtil.array(b), BufferUtil.ARRAY_BASE_OFFSET + BufferUtil.arrayOffset(b),
            b.capacity(), Datatype.BYTE, swap, b.isReadOnly(), null);
    }

    private static BufferView typed(final Buffer b, final Object array, final int arrayOffset, final Class<?> arrayClass,
        final ByteOrder order, final Datatype element)
    {
        final long capacityBytes = b.capacity() * element.size();
        if (b.isDirect())
        {
            final long address = UnsafeApi.getLong(b, BufferUtil.BYTE_BUFFER_ADDRESS_FIELD_OFFSET);
            return new BufferView(b, null, address, capacityBytes, element, order != ByteOrder.nativeOrder(),
                b.isReadOnly(), null);
        }
        if (array != null)
        {
            return new BufferView(b, array, baseOffset(arrayClass) + arrayOffset * element.size(),
                capacityBytes, element, order != ByteOrder.nativeOrder(), b.isReadOnly(), null);
        }
        return new BufferView(b, null, 0, capacityBytes, element, false, b.isReadOnly(), b);
    }

    /** The user's buffer object. */
    public Object buffer()
    {
        return buffer;
    }

    /** The array holding the data, or null for off-heap memory (and for {@link #indirect()} views). */
    public Object base()
    {
        return base;
    }

    /** Unsafe address (with {@link #base()}) of element 0; 0 for indirect views, whose addresses are byte indices. */
    public long address()
    {
        return address;
    }

    /** Bytes from element 0 to the capacity. */
    public long capacityBytes()
    {
        return capacityBytes;
    }

    /** INT for {@code int[]} and IntBuffer, BYTE for {@code byte[]} and ByteBuffer, and so on. */
    public Datatype elementType()
    {
        return elementType;
    }

    /** Bytes per element: 4 for {@code int[]}, 1 for ByteBuffer. */
    public long elementSize()
    {
        return elementSize;
    }

    /** True for ByteBuffer: any committed type, including mixed structs, may be laid over it. */
    public boolean byteAddressed()
    {
        return byteAddressed;
    }

    /**
     * True for an addressable nio buffer whose order differs from the native order: each basic element
     * is byte-swapped between the buffer and the (always native-order) packed stream.
     */
    public boolean swapBytes()
    {
        return swapBytes;
    }

    /** True for read-only nio buffers; receiving into one is ERR_BUFFER. */
    public boolean readOnly()
    {
        return readOnly;
    }

    /** The typed heap buffer reached through get/put when its memory is not addressable, else null. */
    public Buffer indirect()
    {
        return indirect;
    }

    static boolean nativeLittleEndian()
    {
        return NATIVE_LITTLE_ENDIAN;
    }

    @Override
    public String toString()
    {
        return buffer.getClass().getSimpleName() + "[capacity=" + capacityBytes + " bytes, element=" + elementType +
            (swapBytes ? ", swapped" : "") + (readOnly ? ", read-only" : "") + (indirect != null ? ", indirect" : "") + "]";
    }
}
