package org.jmpi;

import java.util.Arrays;

import org.jmpi.internal.datatype.ArrayTypes;
import org.jmpi.internal.datatype.BasicType;
import org.jmpi.internal.datatype.BufferView;
import org.jmpi.internal.datatype.Compiler;
import org.jmpi.internal.datatype.Convertor;
import org.jmpi.internal.datatype.Layout;
import org.jmpi.internal.datatype.Packing;
import org.jmpi.internal.datatype.Program;
import org.jmpi.internal.datatype.Signatures;
import org.jmpi.internal.datatype.TypeAccess;
import org.jmpi.internal.datatype.TypeContents;
import org.jmpi.internal.datatype.TypeSummary;

import static org.jmpi.internal.datatype.TypeArgs.checkArrays;
import static org.jmpi.internal.datatype.TypeArgs.checkCount;
import static org.jmpi.internal.datatype.TypeArgs.checkLength;
import static org.jmpi.internal.datatype.TypeArgs.checkType;
import static org.jmpi.internal.datatype.TypeArgs.exact;

/**
 * An MPI datatype: a layout of basic elements at byte displacements, plus the lower bound and extent
 * that place consecutive items.
 * <p>
 * <b>Units.</b> Every displacement, stride, bound and extent is in bytes. On a Java array, element i of
 * an {@code int[]} sits at byte {@code 4 * i}, so a type laid over an array may contain only that
 * array's element type (INT on {@code int[]}, and INT2 as a pair of ints); structs of mixed basic
 * types apply to byte-addressed buffers ({@link java.nio.ByteBuffer}). See docs/datatypes.md.
 * <p>
 * <b>Lifecycle.</b> Predefined types are committed. Derived types are built by the static factories,
 * must be {@link #commit() committed} before use in communication, and need no freeing: an unused
 * type is garbage collected.
 * <p>
 * <b>Threading.</b> A type is immutable once built; all queries, commit and the pack/unpack methods may
 * be called from any thread. A type holds no buffers; its compiled program is shared by every cursor.
 */
public final class Datatype
{
    /** MPI_UNDEFINED, returned by {@link #elementsIn(long)} and {@link #countIn(long)}. */
    public static final int UNDEFINED = -32766;

    /** MPI_DISTRIBUTE_DFLT_DARG for {@link #darray}. */
    public static final int DFLT_DARG = -49767;

    /** Array storage order for {@link #subarray} and {@link #darray}. */
    public enum Order
    {
        /** Row-major: the last dimension varies fastest. */
        C,
        /** Column-major: the first dimension varies fastest. */
        FORTRAN
    }

    /** Distribution of one dimension of a {@link #darray}. */
    public enum Distribution
    {
        BLOCK,
        CYCLIC,
        NONE
    }

    /** How a type was made (MPI_Type_get_envelope's combiner). */
    public enum Combiner
    {
        NAMED,
        DUP,
        CONTIGUOUS,
        VECTOR,
        HVECTOR,
        INDEXED,
        HINDEXED,
        INDEXED_BLOCK,
        HINDEXED_BLOCK,
        STRUCT,
        SUBARRAY,
        DARRAY,
        RESIZED
    }

    /**
     * The arguments a type was made with (MPI_Type_get_contents), laid out as MPI lays them out:
     * <pre>
     * NAMED           ints []                                  longs []              types []
     * DUP             ints []                                  longs []              types [old]
     * CONTIGUOUS      ints [count]                             longs []              types [old]
     * VECTOR          ints [count, blockLength, stride]        longs []              types [old]
     * HVECTOR         ints [count, blockLength]                longs [strideBytes]   types [old]
     * INDEXED         ints [count, blockLengths.., displs..]   longs []              types [old]
     * HINDEXED        ints [count, blockLengths..]             longs [displs..]      types [old]
     * INDEXED_BLOCK   ints [count, blockLength, displs..]      longs []              types [old]
     * HINDEXED_BLOCK  ints [count, blockLength]                longs [displs..]      types [old]
     * STRUCT          ints [count, blockLengths..]             longs [displs..]      types [types..]
     * SUBARRAY        ints [ndims, sizes.., subSizes.., starts.., order.ordinal()]   types [old]
     * DARRAY          ints [size, rank, ndims, gsizes.., distribs.ordinal().., dargs.., psizes..,
     *                       order.ordinal()]                                         types [old]
     * RESIZED         ints []                                  longs [lb, extent]    types [old]
     * </pre>
     * The arrays are copies; {@link #rebuild()} makes an equivalent (uncommitted) type.
     */
    public record Contents(Combiner combiner, int[] integers, long[] addresses, Datatype[] datatypes)
    {
        /** Copies the arrays in. */
        public Contents
        {
            integers = integers.clone();
            addresses = addresses.clone();
            datatypes = datatypes.clone();
        }

        /** A copy of the integer arguments. */
        @Override
        public int[] integers()
        {
            return integers.clone();
        }

        /** A copy of the address (byte) arguments. */
        @Override
        public long[] addresses()
        {
            return addresses.clone();
        }

        /** A copy of the type arguments. */
        @Override
        public Datatype[] datatypes()
        {
            return datatypes.clone();
        }

        /** A new type built from these arguments; NAMED returns the predefined type itself. */
        public Datatype rebuild()
        {
            return TypeContents.rebuild(combiner, integers, addresses, datatypes);
        }

        @Override
        public String toString()
        {
            return combiner + Arrays.toString(integers) + Arrays.toString(addresses) + Arrays.toString(datatypes);
        }
    }

    private static final Datatype[] BY_CODE = new Datatype[BasicType.values().length + 1];

    /** A Java byte (1 byte). */
    public static final Datatype BYTE = predefined(BasicType.BYTE);
    /** A Java char (2 bytes, UTF-16 code unit). */
    public static final Datatype CHAR = predefined(BasicType.CHAR);
    /** A Java short (2 bytes). */
    public static final Datatype SHORT = predefined(BasicType.SHORT);
    /** A Java int (4 bytes). */
    public static final Datatype INT = predefined(BasicType.INT);
    /** A Java long (8 bytes). */
    public static final Datatype LONG = predefined(BasicType.LONG);
    /** A Java float (4 bytes). */
    public static final Datatype FLOAT = predefined(BasicType.FLOAT);
    /** A Java double (8 bytes). */
    public static final Datatype DOUBLE = predefined(BasicType.DOUBLE);
    /** A Java boolean (1 byte, 0 or 1). */
    public static final Datatype BOOLEAN = predefined(BasicType.BOOLEAN);
    /** Packed bytes (MPI_PACKED): matches any type in a receive. */
    public static final Datatype PACKED = predefined(BasicType.PACKED);
    /** Pair {int, int}: size 8, extent 8. */
    public static final Datatype INT2 = predefined(BasicType.INT2);
    /** Pair {short value, int index}: size 6, extent 8 (C layout: index at byte 4). */
    public static final Datatype SHORT_INT = predefined(BasicType.SHORT_INT);
    /** Pair {long value, int index}: size 12, extent 16 (index at byte 8). */
    public static final Datatype LONG_INT = predefined(BasicType.LONG_INT);
    /** Pair {float value, int index}: size 8, extent 8. */
    public static final Datatype FLOAT_INT = predefined(BasicType.FLOAT_INT);
    /** Pair {double value, int index}: size 12, extent 16 (index at byte 8). */
    public static final Datatype DOUBLE_INT = predefined(BasicType.DOUBLE_INT);
    /** Pair {long, long}: size 16, extent 16. */
    public static final Datatype LONG2 = predefined(BasicType.LONG2);
    /** Pair {float, float}: size 8, extent 8. */
    public static final Datatype FLOAT2 = predefined(BasicType.FLOAT2);
    /** Pair {double, double}: size 16, extent 16. */
    public static final Datatype DOUBLE2 = predefined(BasicType.DOUBLE2);

    static
    {
        TypeAccess.install(new Access());
    }

    private final Layout layout;
    private final Combiner combiner;
    private final int[] integers;
    private final long[] addresses;
    private final Datatype[] datatypes;
    private final String predefinedName;

    private final long size;
    private final long lb;
    private final long ub;
    private final long trueLb;
    private final long trueUb;
    private final long elementCount;
    private final int code;
    private final int alignment;
    private final boolean sticky;
    private final boolean hasEntries;
    private final boolean contiguous;
    private final boolean dense;

    private volatile boolean committed;
    private volatile Program untypedProgram;
    private volatile Program typedProgram;

    private Datatype(final Layout layout, final Combiner combiner, final int[] integers, final long[] addresses,
        final Datatype[] datatypes, final String predefinedName)
    {
        this.layout = layout;
        this.combiner = combiner;
        this.integers = integers;
        this.addresses = addresses;
        this.datatypes = datatypes;
        this.predefinedName = predefinedName;
        final TypeSummary q;
        try
        {
            q = TypeSummary.of(layout);
        }
        catch (final ArithmeticException ex)
        {
            throw new MpiException(ErrorClass.ERR_ARG, combiner.name().toLowerCase() +
                ": type too large, sizes or bounds overflow 64 bits", ex);
        }
        this.size = q.size();
        this.hasEntries = q.hasEntries();
        this.lb = q.hasEntries() ? q.lb() : 0;
        this.ub = q.hasEntries() ? q.ub() : 0;
        this.trueLb = q.size() > 0 ? q.tlb() : 0;
        this.trueUb = q.size() > 0 ? q.tub() : 0;
        this.elementCount = q.elements();
        this.code = q.code();
        this.alignment = q.align();
        this.sticky = q.sticky();
        this.dense = q.dense();
        this.contiguous = q.dense() && (q.size() == 0 || q.tlb() == 0) && this.lb == 0 && this.ub - this.lb == q.size();
    }

    private static Datatype predefined(final BasicType basic)
    {
        final Datatype t = new Datatype(new Layout.Basic(basic), Combiner.NAMED, new int[0], new long[0], new Datatype[0],
            basic.name());
        t.committed = true;
        BY_CODE[basic.code()] = t;
        return t;
    }

    private static Datatype derived(final Layout layout, final Combiner combiner, final int[] integers,
        final long[] addresses, final Datatype... datatypes)
    {
        return new Datatype(layout, combiner, integers, addresses, datatypes, null);
    }

    // ---------------------------------------------------------------------------------------------
    // Constructors
    // ---------------------------------------------------------------------------------------------

    /** {@code count} consecutive copies of {@code old} (MPI_Type_contiguous). */
    public static Datatype contiguous(final int count, final Datatype old)
    {
        checkCount("contiguous", "count", count);
        checkType("contiguous", old);
        return derived(new Layout.Contiguous(count, old), Combiner.CONTIGUOUS, new int[]{count}, new long[0], old);
    }

    /**
     * {@code count} blocks of {@code blockLength} copies of {@code old}; block starts are {@code stride}
     * extents of {@code old} apart (MPI_Type_vector). Normalised to an hvector.
     */
    public static Datatype vector(final int count, final int blockLength, final int stride, final Datatype old)
    {
        checkCount("vector", "count", count);
        checkLength("vector", "blockLength", blockLength);
        checkType("vector", old);
        final long strideBytes = exact("vector", () -> Math.multiplyExact((long)stride, old.extent()));
        return derived(new Layout.HVector(count, blockLength, strideBytes, old), Combiner.VECTOR,
            new int[]{count, blockLength, stride}, new long[0], old);
    }

    /** As {@link #vector} with the stride in bytes (MPI_Type_create_hvector). */
    public static Datatype hvector(final int count, final int blockLength, final long strideBytes, final Datatype old)
    {
        checkCount("hvector", "count", count);
        checkLength("hvector", "blockLength", blockLength);
        checkType("hvector", old);
        return derived(new Layout.HVector(count, blockLength, strideBytes, old), Combiner.HVECTOR,
            new int[]{count, blockLength}, new long[]{strideBytes}, old);
    }

    /** Blocks of copies of {@code old} at displacements counted in extents of {@code old} (MPI_Type_indexed). */
    public static Datatype indexed(final int[] blockLengths, final int[] displacements, final Datatype old)
    {
        checkArrays("indexed", blockLengths, displacements == null ? -1 : displacements.length);
        checkType("indexed", old);
        final int n = blockLengths.length;
        final long[] bytes = new long[n];
        final long[] lengths = new long[n];
        final int[] ints = new int[1 + 2 * n];
        ints[0] = n;
        for (int i = 0; i < n; i++)
        {
            checkLength("indexed", "blockLengths[" + i + "]", blockLengths[i]);
            final long d = displacements[i];
            bytes[i] = exact("indexed", () -> Math.multiplyExact(d, old.extent()));
            lengths[i] = blockLengths[i];
            ints[1 + i] = blockLengths[i];
            ints[1 + n + i] = displacements[i];
        }
        return derived(new Layout.HIndexed(lengths, bytes, old), Combiner.INDEXED, ints, new long[0], old);
    }

    /** Blocks of copies of {@code old} at byte displacements (MPI_Type_create_hindexed). */
    public static Datatype hindexed(final int[] blockLengths, final long[] byteDisplacements, final Datatype old)
    {
        checkArrays("hindexed", blockLengths, byteDisplacements == null ? -1 : byteDisplacements.length);
        checkType("hindexed", old);
        final int n = blockLengths.length;
        final long[] lengths = new long[n];
        final int[] ints = new int[1 + n];
        ints[0] = n;
        for (int i = 0; i < n; i++)
        {
            checkLength("hindexed", "blockLengths[" + i + "]", blockLengths[i]);
            lengths[i] = blockLengths[i];
            ints[1 + i] = blockLengths[i];
        }
        return derived(new Layout.HIndexed(lengths, byteDisplacements.clone(), old), Combiner.HINDEXED, ints,
            byteDisplacements.clone(), old);
    }

    /** Equal blocks at displacements counted in extents of {@code old} (MPI_Type_create_indexed_block). */
    public static Datatype indexedBlock(final int blockLength, final int[] displacements, final Datatype old)
    {
        checkLength("indexedBlock", "blockLength", blockLength);
        if (displacements == null)
        {
            throw new MpiException(ErrorClass.ERR_ARG, "indexedBlock: displacements is null");
        }
        checkType("indexedBlock", old);
        final int n = displacements.length;
        final long[] bytes = new long[n];
        final int[] ints = new int[2 + n];
        ints[0] = n;
        ints[1] = blockLength;
        for (int i = 0; i < n; i++)
        {
            final long d = displacements[i];
            bytes[i] = exact("indexedBlock", () -> Math.multiplyExact(d, old.extent()));
            ints[2 + i] = displacements[i];
        }
        return derived(new Layout.HIndexedBlock(blockLength, bytes, old), Combiner.INDEXED_BLOCK, ints, new long[0], old);
    }

    /** Equal blocks at byte displacements (MPI_Type_create_hindexed_block). */
    public static Datatype hindexedBlock(final int blockLength, final long[] byteDisplacements, final Datatype old)
    {
        checkLength("hindexedBlock", "blockLength", blockLength);
        if (byteDisplacements == null)
        {
            throw new MpiException(ErrorClass.ERR_ARG, "hindexedBlock: displacements is null");
        }
        checkType("hindexedBlock", old);
        return derived(new Layout.HIndexedBlock(blockLength, byteDisplacements.clone(), old), Combiner.HINDEXED_BLOCK,
            new int[]{byteDisplacements.length, blockLength}, byteDisplacements.clone(), old);
    }

    /**
     * Blocks of different types at byte displacements (MPI_Type_create_struct). Unless a member type
     * carries an explicit extent ({@link #resized}), the extent is padded to a multiple of the largest
     * member alignment, as C would pad the struct (MPI's epsilon).
     */
    public static Datatype struct(final int[] blockLengths, final long[] byteDisplacements, final Datatype[] types)
    {
        checkArrays("struct", blockLengths, byteDisplacements == null ? -1 : byteDisplacements.length);
        if (types == null || types.length != blockLengths.length)
        {
            throw new MpiException(ErrorClass.ERR_ARG, "struct: types has length " + (types == null ? "null" : types.length) +
                ", blockLengths has length " + blockLengths.length);
        }
        final int n = blockLengths.length;
        final long[] lengths = new long[n];
        final int[] ints = new int[1 + n];
        ints[0] = n;
        for (int i = 0; i < n; i++)
        {
            checkLength("struct", "blockLengths[" + i + "]", blockLengths[i]);
            if (types[i] == null)
            {
                throw new MpiException(ErrorClass.ERR_TYPE, "struct: types[" + i + "] is null");
            }
            lengths[i] = blockLengths[i];
            ints[1 + i] = blockLengths[i];
        }
        return derived(new Layout.Struct(lengths, byteDisplacements.clone(), types.clone()), Combiner.STRUCT, ints,
            byteDisplacements.clone(), types.clone());
    }

    /**
     * A {@code subSizes} block starting at {@code starts} of an array of {@code sizes} elements of
     * {@code old} (MPI_Type_create_subarray). Lower bound 0, extent the whole array. Built as nested
     * hvectors shifted by the start offset and resized to the array.
     */
    public static Datatype subarray(final int[] sizes, final int[] subSizes, final int[] starts, final Order order,
        final Datatype old)
    {
        checkType("subarray", old);
        final Datatype built = ArrayTypes.subarray(sizes, subSizes, starts, order, old);
        return derived(built.layout, Combiner.SUBARRAY, TypeContents.subarrayIntegers(sizes, subSizes, starts, order),
            new long[0], old);
    }

    /**
     * The part of a {@code gsizes} global array of {@code old} that process {@code rank} of a
     * {@code psizes} process grid (row-major rank order) owns under HPF-style distributions
     * (MPI_Type_create_darray). Lower bound 0, extent the whole global array; elements in array order.
     * {@code dargs[i]} is the block size or {@link #DFLT_DARG}.
     */
    public static Datatype darray(final int size, final int rank, final int[] gsizes, final Distribution[] distribs,
        final int[] dargs, final int[] psizes, final Order order, final Datatype old)
    {
        checkType("darray", old);
        final Datatype built = ArrayTypes.darray(size, rank, gsizes, distribs, dargs, psizes, order, old);
        return derived(built.layout, Combiner.DARRAY,
            TypeContents.darrayIntegers(size, rank, gsizes, distribs, dargs, psizes, order), new long[0], old);
    }

    /**
     * {@code old} with lower bound {@code lb} and extent {@code extent} in bytes (MPI_Type_create_resized);
     * the data is unchanged, only where consecutive items go. Marks the bounds as explicit, so enclosing
     * structs do not pad them.
     */
    public static Datatype resized(final Datatype old, final long lb, final long extent)
    {
        checkType("resized", old);
        exact("resized", () -> Math.addExact(lb, extent));
        return derived(new Layout.Resized(old, lb, extent), Combiner.RESIZED, new int[0], new long[]{lb, extent}, old);
    }

    /** A new type with the same layout and commit state (MPI_Type_dup). */
    public Datatype dup()
    {
        final Datatype t = derived(layout, Combiner.DUP, new int[0], new long[0], this);
        t.committed = committed;
        return t;
    }

    // ---------------------------------------------------------------------------------------------
    // Commit and queries
    // ---------------------------------------------------------------------------------------------

    /** Compiles the type for communication; idempotent. Returns this type. */
    public Datatype commit()
    {
        if (!committed)
        {
            untypedProgram();
            committed = true;
        }
        return this;
    }

    /** Whether {@link #commit()} has been called (always true for predefined types). */
    public boolean isCommitted()
    {
        return committed;
    }

    /** Bytes of data in one item: the packed size. */
    public long size()
    {
        return size;
    }

    /** {@code ub() - lb()}: bytes between consecutive items. */
    public long extent()
    {
        return ub - lb;
    }

    /** Lower bound in bytes (0 for a type without entries). */
    public long lb()
    {
        return lb;
    }

    /** Upper bound in bytes. */
    public long ub()
    {
        return ub;
    }

    /** Byte displacement of the first byte of data (0 for a type without data). */
    public long trueLb()
    {
        return trueLb;
    }

    /** Bytes from the first to one past the last byte of data. */
    public long trueExtent()
    {
        return trueUb - trueLb;
    }

    /** One past the last byte of data. */
    public long trueUb()
    {
        return trueUb;
    }

    /**
     * True when the packed stream equals the memory layout for any count: the data is one run in
     * stream order starting at byte 0, and size == extent == true extent with lb 0.
     */
    public boolean isContiguous()
    {
        return contiguous;
    }

    /** True for the predefined named types. */
    public boolean isPredefined()
    {
        return combiner == Combiner.NAMED;
    }

    /** "INT" for predefined types, a short description of the constructor otherwise. */
    public String name()
    {
        if (predefinedName != null)
        {
            return predefinedName;
        }
        return TypeContents.describe(combiner, integers, addresses, datatypes);
    }

    /**
     * The predefined type every basic element of this type has, or null if the type mixes basic types
     * or has none. Pair types are basic (INT2 is INT2, not INT).
     */
    public Datatype basicType()
    {
        return code > 0 ? BY_CODE[code] : null;
    }

    /** Basic elements in one item. */
    public long elementCount()
    {
        return elementCount;
    }

    /**
     * MPI_Get_elements: complete basic elements in the first {@code bytes} bytes of a stream of this
     * type (a trailing partial element does not count). {@link #UNDEFINED} only for a type without data
     * and {@code bytes > 0}.
     */
    public long elementsIn(final long bytes)
    {
        if (bytes < 0)
        {
            throw new MpiException(ErrorClass.ERR_ARG, "elementsIn: bytes=" + bytes + " must be >= 0");
        }
        if (size == 0)
        {
            return bytes == 0 ? 0 : UNDEFINED;
        }
        final long items = bytes / size;
        final long rest = bytes % size;
        final long partial = rest == 0 ? 0 : code > 0 ? rest / BasicType.ofCode(code).size() :
            Signatures.elementsInPrefix(this, rest);
        return Math.addExact(Math.multiplyExact(items, elementCount), partial);
    }

    /** MPI_Get_count: whole items in {@code bytes}, or {@link #UNDEFINED} if it is not a whole number. */
    public long countIn(final long bytes)
    {
        if (bytes < 0)
        {
            throw new MpiException(ErrorClass.ERR_ARG, "countIn: bytes=" + bytes + " must be >= 0");
        }
        if (size == 0)
        {
            return 0;
        }
        return bytes % size == 0 ? bytes / size : UNDEFINED;
    }

    /** How this type was made (MPI_Type_get_envelope). */
    public Combiner combiner()
    {
        return combiner;
    }

    /** The arguments this type was made with (MPI_Type_get_contents); see {@link Contents}. */
    public Contents contents()
    {
        return new Contents(combiner, integers, addresses, datatypes);
    }

    // ---------------------------------------------------------------------------------------------
    // Pack / unpack (MPI_Pack, MPI_Unpack, MPI_Pack_size and the external32 variants)
    // ---------------------------------------------------------------------------------------------

    /** MPI_Pack_size: bytes {@link #pack} needs for {@code count} items (exactly size * count). */
    public long packSize(final long count)
    {
        checkCount("packSize", "count", count);
        return exact("packSize", () -> Math.multiplyExact(size, count));
    }

    /** MPI_Pack_external_size for "external32": also size * count (Java sizes are already portable). */
    public long packExternal32Size(final long count)
    {
        return packSize(count);
    }

    /**
     * MPI_Pack: packs {@code count} items of this committed type from {@code in} (starting at element
     * {@code inOffset} of it) into {@code out} at byte {@code outPosition}.
     *
     * @param in          any buffer kind {@link BufferView#of} accepts
     * @param out         {@code byte[]} or {@link java.nio.ByteBuffer}; its position and byte order are ignored
     * @return the new output position, {@code outPosition + packSize(count)}
     */
    public long pack(final Object in, final long inOffset, final long count, final Object out, final long outPosition)
    {
        return Packing.pack(this, in, inOffset, count, out, outPosition, 0);
    }

    /** MPI_Unpack: the inverse of {@link #pack}. Returns the new input position. */
    public long unpack(final Object in, final long inPosition, final Object out, final long outOffset, final long count)
    {
        return Packing.unpack(this, in, inPosition, out, outOffset, count, 0);
    }

    /**
     * MPI_Pack_external("external32"): as {@link #pack} but every basic element is written big-endian
     * (pair types as their two members, no padding), so any platform can read it.
     */
    public long packExternal32(final Object in, final long inOffset, final long count, final Object out,
        final long outPosition)
    {
        return Packing.pack(this, in, inOffset, count, out, outPosition, Convertor.EXTERNAL32);
    }

    /** MPI_Unpack_external("external32"): the inverse of {@link #packExternal32}. */
    public long unpackExternal32(final Object in, final long inPosition, final Object out, final long outOffset,
        final long count)
    {
        return Packing.unpack(this, in, inPosition, out, outOffset, count, Convertor.EXTERNAL32);
    }

    @Override
    public String toString()
    {
        return name();
    }

    // ---------------------------------------------------------------------------------------------
    // Internals
    // ---------------------------------------------------------------------------------------------

    private Program untypedProgram()
    {
        Program p = untypedProgram;
        if (p == null)
        {
            p = Compiler.compile(this, false);
            untypedProgram = p;
        }
        return p;
    }

    private Program typedProgram()
    {
        Program p = typedProgram;
        if (p == null)
        {
            p = Compiler.compile(this, true);
            typedProgram = p;
        }
        return p;
    }

    private static final class Access extends TypeAccess
    {
        @Override
        public Layout layout(final Datatype type)
        {
            return type.layout;
        }

        @Override
        public Program program(final Datatype type, final boolean typed)
        {
            return typed ? type.typedProgram() : type.untypedProgram();
        }

        @Override
        public TypeSummary summary(final Datatype t)
        {
            return new TypeSummary(t.size, t.elementCount, t.code, t.alignment, t.sticky, t.hasEntries, t.lb, t.ub,
                t.trueLb, t.trueUb, t.size == 0 || t.dense);
        }
    }

}
