package org.jmpi.internal.datatype;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.jmpi.Datatype;
import org.jmpi.ErrorClass;
import org.jmpi.MpiException;

import java.nio.ByteOrder;
import java.util.List;

/**
 * The wire form of a datatype: what a peer needs to rebuild an equivalent type (same type map, so the
 * same packed stream) in another heap or another JVM, for a copy that walks the sender's layout (peer
 * memory), a target type of a one-sided operation, or a type published in a shared arena.
 *
 * <p>The form is the type's constructor tree (MPI_Type_get_envelope/contents), one node per type in
 * pre-order, little-endian:
 * <pre>
 *   NAMED:      byte combiner (0) | byte index into {@link #PREDEFINED}
 *   otherwise:  byte combiner | int intCount | int[intCount] | int addressCount | long[addressCount]
 *               | int typeCount | typeCount nodes
 * </pre>
 * Decoding checks every count and index against the bytes given, the node count and the nesting depth,
 * so a corrupt or hostile form is an ERR_TYPE, never an exception of another kind or a huge allocation.
 *
 * <p>Stateless; any thread.
 */
public final class TypeWireForm
{
    /** Byte order of every field. */
    public static final ByteOrder BYTE_ORDER = ByteOrder.LITTLE_ENDIAN;
    /** Deepest constructor nesting accepted when decoding. */
    public static final int MAX_DEPTH = 64;
    /** Most blocks the cyclic dimensions of a decoded darray may expand into. */
    public static final long MAX_DARRAY_BLOCKS = 1L << 18;

    /** The predefined types a NAMED node can name, by index. Append only: the index is on the wire. */
    static final List<Datatype> PREDEFINED = List.of(
        Datatype.BYTE, Datatype.CHAR, Datatype.SHORT, Datatype.INT, Datatype.LONG, Datatype.FLOAT, Datatype.DOUBLE,
        Datatype.BOOLEAN, Datatype.PACKED, Datatype.INT2, Datatype.SHORT_INT, Datatype.LONG_INT, Datatype.FLOAT_INT,
        Datatype.DOUBLE_INT, Datatype.LONG2, Datatype.FLOAT2, Datatype.DOUBLE2);

    private static final Datatype.Combiner[] COMBINERS = Datatype.Combiner.values();

    private TypeWireForm()
    {
    }

    /** Bytes {@link #encode} writes for {@code type}. */
    public static int encodedLength(final Datatype type)
    {
        if (type.combiner() == Datatype.Combiner.NAMED)
        {
            return 2;
        }
        final Datatype.Contents c = type.contents();
        long length = 1 + 4 + 4L * c.integers().length + 4 + 8L * c.addresses().length + 4;
        for (final Datatype child : c.datatypes())
        {
            length += encodedLength(child);
        }
        if (length > Integer.MAX_VALUE)
        {
            throw new MpiException(ErrorClass.ERR_TYPE, "type wire form too large: " + length + " bytes for " + type);
        }
        return (int)length;
    }

    /** Writes {@code type}'s wire form at {@code index}; returns the bytes written ({@link #encodedLength}). */
    public static int encode(final Datatype type, final MutableDirectBuffer buffer, final int index)
    {
        int at = index;
        buffer.putByte(at++, (byte)type.combiner().ordinal());
        if (type.combiner() == Datatype.Combiner.NAMED)
        {
            final int predefined = PREDEFINED.indexOf(type);
            if (predefined < 0)
            {
                throw new MpiException(ErrorClass.ERR_TYPE, "type wire form: no wire index for predefined type " + type);
            }
            buffer.putByte(at++, (byte)predefined);
            return at - index;
        }
        final Datatype.Contents c = type.contents();
        final int[] ints = c.integers();
        buffer.putInt(at, ints.length, BYTE_ORDER);
        at += 4;
        for (final int v : ints)
        {
            buffer.putInt(at, v, BYTE_ORDER);
            at += 4;
        }
        final long[] addresses = c.addresses();
        buffer.putInt(at, addresses.length, BYTE_ORDER);
        at += 4;
        for (final long v : addresses)
        {
            buffer.putLong(at, v, BYTE_ORDER);
            at += 8;
        }
        final Datatype[] children = c.datatypes();
        buffer.putInt(at, children.length, BYTE_ORDER);
        at += 4;
        for (final Datatype child : children)
        {
            at += encode(child, buffer, at);
        }
        return at - index;
    }

    /**
     * Rebuilds the type whose wire form fills {@code [index, index + length)}, committed.
     *
     * @throws MpiException ERR_TYPE when the bytes are not exactly one well-formed wire form.
     */
    public static Datatype decode(final DirectBuffer buffer, final int index, final int length)
    {
        if (index < 0 || length < 0 || (long)index + length > buffer.capacity())
        {
            throw malformed("range [" + index + ", " + ((long)index + length) + ") outside a buffer of " + buffer.capacity() + " bytes");
        }
        final Reader reader = new Reader(buffer, index, index + length);
        final Datatype type = reader.node(0);
        if (reader.at != reader.end)
        {
            throw malformed((reader.end - reader.at) + " bytes left after the type");
        }
        try
        {
            return type.isPredefined() ? type : type.commit();
        }
        catch (final IllegalArgumentException | ArithmeticException ex)
        {
            throw malformed(ex.getMessage());
        }
    }

    private static MpiException malformed(final String detail)
    {
        return new MpiException(ErrorClass.ERR_TYPE, "malformed type wire form: " + detail);
    }

    /**
     * Checks that the argument counts are exactly those the combiner's constructor takes, so rebuilding
     * never reads past (or pads) an argument array.
     */
    private static void checkShape(final Datatype.Combiner combiner, final int[] in, final int addressCount, final int typeCount)
    {
        final int lead = in.length > 0 ? in[0] : -1;
        final long ints;
        final long addresses;
        final long types;
        switch (combiner)
        {
            case DUP -> { ints = 0; addresses = 0; types = 1; }
            case CONTIGUOUS -> { ints = 1; addresses = 0; types = 1; }
            case VECTOR -> { ints = 3; addresses = 0; types = 1; }
            case HVECTOR -> { ints = 2; addresses = 1; types = 1; }
            case INDEXED -> { ints = 1 + 2L * lead; addresses = 0; types = 1; }
            case HINDEXED -> { ints = 1 + (long)lead; addresses = lead; types = 1; }
            case INDEXED_BLOCK -> { ints = 2 + (long)lead; addresses = 0; types = 1; }
            case HINDEXED_BLOCK -> { ints = 2; addresses = lead; types = 1; }
            case STRUCT -> { ints = 1 + (long)lead; addresses = lead; types = lead; }
            case SUBARRAY -> { ints = 2 + 3L * lead; addresses = 0; types = 1; }
            case DARRAY -> { ints = in.length > 2 ? 4 + 4L * in[2] : -1; addresses = 0; types = 1; }
            case RESIZED -> { ints = 0; addresses = 2; types = 1; }
            default -> throw malformed("combiner " + combiner + " has no wire form");
        }
        if (lead < -1 || ints != in.length || addresses != addressCount || types != typeCount)
        {
            throw malformed(combiner + " with " + in.length + " integers, " + addressCount + " addresses and " +
                typeCount + " types (expected " + ints + ", " + addresses + ", " + types + ")");
        }
        if (combiner == Datatype.Combiner.DARRAY)
        {
            checkDarrayBlocks(in);
        }
    }

    /**
     * A cyclic darray dimension expands into one block per cycle when built; a form that would expand into
     * more than {@link #MAX_DARRAY_BLOCKS} blocks is refused before anything is allocated.
     */
    private static void checkDarrayBlocks(final int[] in)
    {
        final long blocks = darrayBlocks(in);
        if (blocks > MAX_DARRAY_BLOCKS)
        {
            throw malformed("darray of " + blocks + " cyclic blocks (at most " + MAX_DARRAY_BLOCKS + ")");
        }
    }

    /** The cyclic blocks a darray's integer arguments expand into (distributions checked). */
    private static long darrayBlocks(final int[] in)
    {
        final int n = in[2];
        final Datatype.Distribution[] distributions = Datatype.Distribution.values();
        long blocks = 0;
        for (int i = 0; i < n; i++)
        {
            final int gsize = in[3 + i];
            final int distribution = in[3 + n + i];
            final int darg = in[3 + 2 * n + i];
            final int procs = in[3 + 3 * n + i];
            if (distribution < 0 || distribution >= distributions.length)
            {
                throw malformed("darray distribution " + distribution);
            }
            if (distributions[distribution] == Datatype.Distribution.CYCLIC && gsize > 0 && procs > 0)
            {
                final long blockSize = darg > 0 ? darg : 1;
                blocks += (gsize + blockSize * procs - 1) / (blockSize * procs);
            }
        }
        return blocks;
    }

    /**
     * Whether a peer accepts {@code type}'s wire form: false for a type whose darrays expand into more than
     * {@link #MAX_DARRAY_BLOCKS} cyclic blocks (a decoder refuses those, to bound what a peer's bytes can make
     * it allocate). A sender sends such a type's data another way (fragments, which need no type).
     */
    public static boolean decodable(final Datatype type)
    {
        if (type.combiner() == Datatype.Combiner.NAMED)
        {
            return true;
        }
        final Datatype.Contents c = type.contents();
        if (type.combiner() == Datatype.Combiner.DARRAY && darrayBlocks(c.integers()) > MAX_DARRAY_BLOCKS)
        {
            return false;
        }
        for (final Datatype child : c.datatypes())
        {
            if (!decodable(child))
            {
                return false;
            }
        }
        return true;
    }

    /** A bounds-checked cursor over one wire form. */
    private static final class Reader
    {
        private final DirectBuffer buffer;
        private final int end;
        private int at;

        Reader(final DirectBuffer buffer, final int start, final int end)
        {
            this.buffer = buffer;
            this.at = start;
            this.end = end;
        }

        private void need(final long bytes)
        {
            if (bytes < 0 || at + bytes > end)
            {
                throw malformed("needs " + bytes + " bytes at offset " + at + ", " + (end - at) + " left");
            }
        }

        private int count(final int elementBytes)
        {
            need(4);
            final int n = buffer.getInt(at, BYTE_ORDER);
            at += 4;
            need((long)n * elementBytes);
            return n;
        }

        Datatype node(final int depth)
        {
            if (depth > MAX_DEPTH)
            {
                throw malformed("nesting deeper than " + MAX_DEPTH);
            }
            need(1);
            final int combiner = buffer.getByte(at++) & 0xFF;
            if (combiner >= COMBINERS.length)
            {
                throw malformed("unknown combiner " + combiner);
            }
            if (COMBINERS[combiner] == Datatype.Combiner.NAMED)
            {
                need(1);
                final int predefined = buffer.getByte(at++) & 0xFF;
                if (predefined >= PREDEFINED.size())
                {
                    throw malformed("unknown predefined type index " + predefined);
                }
                return PREDEFINED.get(predefined);
            }
            final int[] ints = new int[count(4)];
            for (int i = 0; i < ints.length; i++, at += 4)
            {
                ints[i] = buffer.getInt(at, BYTE_ORDER);
            }
            final long[] addresses = new long[count(8)];
            for (int i = 0; i < addresses.length; i++, at += 8)
            {
                addresses[i] = buffer.getLong(at, BYTE_ORDER);
            }
            final Datatype[] types = new Datatype[count(2)];
            for (int i = 0; i < types.length; i++)
            {
                types[i] = node(depth + 1);
            }
            checkShape(COMBINERS[combiner], ints, addresses.length, types.length);
            try
            {
                return new Datatype.Contents(COMBINERS[combiner], ints, addresses, types).rebuild();
            }
            catch (final MpiException ex)
            {
                throw malformed(ex.getMessage());
            }
            catch (final RuntimeException ex)
            {
                throw malformed(COMBINERS[combiner] + " arguments do not fit: " + ex);
            }
        }
    }
}
