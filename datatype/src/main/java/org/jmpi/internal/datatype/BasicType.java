package org.jmpi.internal.datatype;

/**
 * The predefined basic types: their sizes, extents, alignments, the Java array element type they
 * may be laid over, and how their bytes are swapped between byte orders. Codes are stable small
 * integers ({@code ordinal() + 1}) that fit in a byte; 0 means "mixed or empty".
 * <p>
 * Immutable constants; safe to use from any thread.
 */
public enum BasicType
{
    BYTE(1, 1, 1, new int[]{1}, 1),
    CHAR(2, 2, 2, new int[]{2}, 2),
    SHORT(2, 2, 2, new int[]{2}, 3),
    INT(4, 4, 4, new int[]{4}, 4),
    LONG(8, 8, 8, new int[]{8}, 5),
    FLOAT(4, 4, 4, new int[]{4}, 6),
    DOUBLE(8, 8, 8, new int[]{8}, 7),
    BOOLEAN(1, 1, 1, new int[]{1}, 8),
    PACKED(1, 1, 1, new int[]{1}, 1),
    INT2(8, 8, 4, new int[]{4, 4}, 4),
    SHORT_INT(6, 8, 4, new int[]{2, 4}, 0),
    LONG_INT(12, 16, 8, new int[]{8, 4}, 0),
    FLOAT_INT(8, 8, 4, new int[]{4, 4}, 0),
    DOUBLE_INT(12, 16, 8, new int[]{8, 4}, 0),
    LONG2(16, 16, 8, new int[]{8, 8}, 5),
    FLOAT2(8, 8, 4, new int[]{4, 4}, 6),
    DOUBLE2(16, 16, 8, new int[]{8, 8}, 7);

    private static final BasicType[] BY_CODE = new BasicType[values().length + 1];

    static
    {
        for (final BasicType t : values())
        {
            BY_CODE[t.code()] = t;
        }
    }

    private final int size;
    private final int extent;
    private final int alignment;
    private final int[] componentSizes;
    private final int arrayElementCode;
    private final int swapUnit;

    BasicType(final int size, final int extent, final int alignment, final int[] componentSizes, final int arrayElementCode)
    {
        this.size = size;
        this.extent = extent;
        this.alignment = alignment;
        this.componentSizes = componentSizes;
        this.arrayElementCode = arrayElementCode;
        int unit = componentSizes[0];
        for (final int c : componentSizes)
        {
            if (c != unit)
            {
                unit = 0;
            }
        }
        this.swapUnit = unit;
    }

    /** Stable code, 1..17. */
    public int code()
    {
        return ordinal() + 1;
    }

    /** The basic type of a predefined {@link org.jmpi.Datatype} (no name lookup: hot path). */
    public static BasicType of(final org.jmpi.Datatype predefined)
    {
        return ((Layout.Basic)TypeAccess.get().layout(predefined)).type();
    }

    /** The basic type with this code (1..17). */
    public static BasicType ofCode(final int code)
    {
        return BY_CODE[code];
    }

    /** Bytes in the packed stream (pair types carry no padding: DOUBLE_INT is 12). */
    public int size()
    {
        return size;
    }

    /** Bytes between consecutive elements in memory (DOUBLE_INT is 16, as in C). */
    public int extent()
    {
        return extent;
    }

    /** The alignment used to pad struct extents (MPI's epsilon). */
    public int alignment()
    {
        return alignment;
    }

    /**
     * Code of the primitive array element type this basic type may be laid over (INT for INT and INT2,
     * BYTE for BYTE and PACKED), or 0 if it only applies to byte-addressed buffers (SHORT_INT etc.).
     */
    public int arrayElementCode()
    {
        return arrayElementCode;
    }

    /** Size of every byte-swapped component if they are all equal (1, 2, 4 or 8), else 0. */
    public int swapUnit()
    {
        return swapUnit;
    }

    /**
     * Offset within an element of the byte that holds, in the other byte order, the byte at offset
     * {@code r} (0 &lt;= r &lt; size): each component is reversed on its own.
     */
    public int mirror(final int r)
    {
        int start = 0;
        for (final int c : componentSizes)
        {
            if (r < start + c)
            {
                return start + (start + c - 1 - r);
            }
            start += c;
        }
        throw new IllegalArgumentException("offset " + r + " outside " + name());
    }
}
