package mpi;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import org.jmpi.ErrorClass;
import org.jmpi.MpiException;

/**
 * A datatype (Open MPI Java API) over a jmpi {@link org.jmpi.Datatype}. As in Open MPI, every type has a
 * <em>base type</em>, the Java element type of the buffers it describes (INT for {@code int[]} and
 * {@code IntBuffer}; BYTE for structs and the pair types, which live in {@code ByteBuffer}s), and the
 * queries {@link #getExtent()}, {@link #getLb()}, {@link #getSize()}, {@link #getTrueExtent()} and
 * {@link #getTrueLb()} answer in units of the base type's size. Displacements and strides of
 * {@link #createVector} and {@link #createIndexed} count extents of the old type; those of
 * {@link #createHVector}, {@link #createHIndexed}, {@link #createStruct} and {@link #createResized} count bytes.
 *
 * <p>Threading: a committed type may be used by any thread; attributes and the name are thread-safe.
 */
public final class Datatype implements Freeable, Cloneable
{
    static final int NULL = 0;
    static final int BYTE = 1;
    static final int CHAR = 2;
    static final int SHORT = 3;
    static final int BOOLEAN = 4;
    static final int INT = 5;
    static final int LONG = 6;
    static final int FLOAT = 7;
    static final int DOUBLE = 8;
    static final int PACKED = 9;

    /** The jmpi type; {@code null} for DATATYPE_NULL and after {@link #free()}. */
    private volatile org.jmpi.Datatype type;
    final int baseType;
    final int baseSize;
    private volatile String name;
    private final Map<Integer, byte[]> attributes = new ConcurrentHashMap<>();

    Datatype(final org.jmpi.Datatype type, final int baseType, final int baseSize)
    {
        this.type = type;
        this.baseType = baseType;
        this.baseSize = baseSize;
    }

    /** A derived type with {@code old}'s base type. */
    private static Datatype derived(final org.jmpi.Datatype type, final Datatype old)
    {
        return new Datatype(type, old.baseType, old.baseSize);
    }

    /** The jmpi type, for the compat calls; ERR_TYPE when null or freed. */
    org.jmpi.Datatype core() throws MPIException
    {
        final org.jmpi.Datatype t = type;
        if (t == null)
        {
            throw MPIException.of(ErrorClass.ERR_TYPE, "datatype " + this + " is null or was freed");
        }
        return t;
    }

    /** The jmpi type of a compat argument, ERR_TYPE if the argument is null. */
    static org.jmpi.Datatype core(final Datatype type) throws MPIException
    {
        if (type == null)
        {
            throw MPIException.of(ErrorClass.ERR_TYPE, "datatype is null");
        }
        return type.core();
    }

    private int units(final long bytes) throws MPIException
    {
        if (baseSize == 0)
        {
            throw MPIException.of(ErrorClass.ERR_TYPE, "datatype " + this + " is null");
        }
        return Math.toIntExact(bytes / baseSize);
    }

    /** MPI_Type_get_extent's lower bound, in units of the base type. */
    public int getLb() throws MPIException
    {
        return units(core().lb());
    }

    /** MPI_Type_get_extent's extent, in units of the base type. */
    public int getExtent() throws MPIException
    {
        return units(core().extent());
    }

    /** MPI_Type_get_true_extent's lower bound, in units of the base type. */
    public int getTrueLb() throws MPIException
    {
        return units(core().trueLb());
    }

    /** MPI_Type_get_true_extent's extent, in units of the base type. */
    public int getTrueExtent() throws MPIException
    {
        return units(core().trueExtent());
    }

    /** MPI_Type_size: the data in one item, in units of the base type. */
    public int getSize() throws MPIException
    {
        return units(core().size());
    }

    /** MPI_Type_commit. */
    public void commit() throws MPIException
    {
        try
        {
            core().commit();
        }
        catch (final MpiException ex)
        {
            throw MPIException.of(ex);
        }
    }

    /** MPI_Type_free: later use of this object raises ERR_TYPE. Freeing a predefined type is ERR_TYPE. */
    @Override
    public void free() throws MPIException
    {
        final org.jmpi.Datatype t = core();
        if (t.isPredefined())
        {
            throw MPIException.of(ErrorClass.ERR_TYPE, "free: " + t.name() + " is predefined");
        }
        type = null;
    }

    /** Whether this is DATATYPE_NULL or was freed. */
    public boolean isNull()
    {
        return type == null;
    }

    /** As {@link #dup()}, with an unchecked exception. */
    @Override
    public Datatype clone()
    {
        try
        {
            return dup();
        }
        catch (final MPIException ex)
        {
            throw new RuntimeException(ex.getMessage(), ex);
        }
    }

    /** MPI_Type_dup: same layout, committed if this one is. */
    public Datatype dup() throws MPIException
    {
        return derived(core().dup(), this);
    }

    /** MPI_Type_contiguous. */
    public static Datatype createContiguous(final int count, final Datatype oldType) throws MPIException
    {
        try
        {
            return derived(org.jmpi.Datatype.contiguous(count, core(oldType)), oldType);
        }
        catch (final MpiException ex)
        {
            throw MPIException.of(ex);
        }
    }

    /** MPI_Type_vector: the stride counts extents of {@code oldType}. */
    public static Datatype createVector(final int count, final int blockLength, final int stride, final Datatype oldType)
        throws MPIException
    {
        try
        {
            return derived(org.jmpi.Datatype.vector(count, blockLength, stride, core(oldType)), oldType);
        }
        catch (final MpiException ex)
        {
            throw MPIException.of(ex);
        }
    }

    /** MPI_Type_create_hvector: the stride counts bytes. */
    public static Datatype createHVector(final int count, final int blockLength, final int stride, final Datatype oldType)
        throws MPIException
    {
        try
        {
            return derived(org.jmpi.Datatype.hvector(count, blockLength, stride, core(oldType)), oldType);
        }
        catch (final MpiException ex)
        {
            throw MPIException.of(ex);
        }
    }

    /** MPI_Type_indexed: displacements count extents of {@code oldType}. */
    public static Datatype createIndexed(final int[] blockLengths, final int[] displacements, final Datatype oldType)
        throws MPIException
    {
        try
        {
            return derived(org.jmpi.Datatype.indexed(blockLengths, displacements, core(oldType)), oldType);
        }
        catch (final MpiException ex)
        {
            throw MPIException.of(ex);
        }
    }

    /** MPI_Type_create_hindexed: displacements count bytes. */
    public static Datatype createHIndexed(final int[] blockLengths, final int[] displacements, final Datatype oldType)
        throws MPIException
    {
        try
        {
            return derived(org.jmpi.Datatype.hindexed(blockLengths, toLongs(displacements), core(oldType)), oldType);
        }
        catch (final MpiException ex)
        {
            throw MPIException.of(ex);
        }
    }

    /** MPI_Type_create_indexed_block: displacements count extents of {@code oldType}. */
    public static Datatype createIndexedBlock(final int blockLength, final int[] displacements, final Datatype oldType)
        throws MPIException
    {
        try
        {
            return derived(org.jmpi.Datatype.indexedBlock(blockLength, displacements, core(oldType)), oldType);
        }
        catch (final MpiException ex)
        {
            throw MPIException.of(ex);
        }
    }

    /** MPI_Type_create_hindexed_block: displacements count bytes. */
    public static Datatype createHIndexedBlock(final int blockLength, final int[] displacements, final Datatype oldType)
        throws MPIException
    {
        try
        {
            return derived(org.jmpi.Datatype.hindexedBlock(blockLength, toLongs(displacements), core(oldType)), oldType);
        }
        catch (final MpiException ex)
        {
            throw MPIException.of(ex);
        }
    }

    /**
     * MPI_Type_create_struct: displacements count bytes; the result's base type is BYTE (use it on a
     * {@code ByteBuffer} or {@code byte[]}, as in Open MPI).
     */
    public static Datatype createStruct(final int[] blockLengths, final int[] displacements, final Datatype[] types)
        throws MPIException
    {
        if (types == null)
        {
            throw MPIException.of(ErrorClass.ERR_TYPE, "createStruct: types is null");
        }
        final org.jmpi.Datatype[] cores = new org.jmpi.Datatype[types.length];
        for (int i = 0; i < types.length; i++)
        {
            cores[i] = core(types[i]);
        }
        try
        {
            return new Datatype(org.jmpi.Datatype.struct(blockLengths, toLongs(displacements), cores), BYTE, 1);
        }
        catch (final MpiException ex)
        {
            throw MPIException.of(ex);
        }
    }

    /** MPI_Type_create_resized: {@code lb} and {@code extent} in bytes. */
    public static Datatype createResized(final Datatype oldType, final int lb, final int extent) throws MPIException
    {
        try
        {
            return derived(org.jmpi.Datatype.resized(core(oldType), lb, extent), oldType);
        }
        catch (final MpiException ex)
        {
            throw MPIException.of(ex);
        }
    }

    /** MPI_Type_create_subarray; {@code order} is {@link MPI#ORDER_C} or {@link MPI#ORDER_FORTRAN}. */
    public static Datatype createSubarray(final int[] sizes, final int[] subSizes, final int[] starts, final int order,
        final Datatype oldType) throws MPIException
    {
        try
        {
            return derived(org.jmpi.Datatype.subarray(sizes, subSizes, starts, order(order), core(oldType)), oldType);
        }
        catch (final MpiException ex)
        {
            throw MPIException.of(ex);
        }
    }

    /**
     * MPI_Type_create_darray; {@code distribs} holds {@code MPI.DISTRIBUTE_*}, {@code dargs} sizes or
     * {@link MPI#DISTRIBUTE_DFLT_DARG}, {@code order} {@link MPI#ORDER_C} or {@link MPI#ORDER_FORTRAN}.
     */
    public static Datatype createDarray(final int size, final int rank, final int[] gsizes, final int[] distribs,
        final int[] dargs, final int[] psizes, final int order, final Datatype oldType) throws MPIException
    {
        if (distribs == null)
        {
            throw MPIException.of(ErrorClass.ERR_ARG, "createDarray: distribs is null");
        }
        final org.jmpi.Datatype.Distribution[] d = new org.jmpi.Datatype.Distribution[distribs.length];
        for (int i = 0; i < d.length; i++)
        {
            d[i] = switch (distribs[i])
            {
                case MPI.DISTRIBUTE_BLOCK_VALUE -> org.jmpi.Datatype.Distribution.BLOCK;
                case MPI.DISTRIBUTE_CYCLIC_VALUE -> org.jmpi.Datatype.Distribution.CYCLIC;
                case MPI.DISTRIBUTE_NONE_VALUE -> org.jmpi.Datatype.Distribution.NONE;
                default -> throw MPIException.of(ErrorClass.ERR_ARG, "createDarray: distribs[" + i + "]=" + distribs[i] +
                    " is not MPI.DISTRIBUTE_BLOCK, CYCLIC or NONE");
            };
        }
        try
        {
            return derived(org.jmpi.Datatype.darray(size, rank, gsizes, d, dargs, psizes, order(order), core(oldType)), oldType);
        }
        catch (final MpiException ex)
        {
            throw MPIException.of(ex);
        }
    }

    private static org.jmpi.Datatype.Order order(final int order) throws MPIException
    {
        if (order == MPI.ORDER_C)
        {
            return org.jmpi.Datatype.Order.C;
        }
        if (order == MPI.ORDER_FORTRAN)
        {
            return org.jmpi.Datatype.Order.FORTRAN;
        }
        throw MPIException.of(ErrorClass.ERR_ARG, "order " + order + " is not MPI.ORDER_C or MPI.ORDER_FORTRAN");
    }

    private static long[] toLongs(final int[] values)
    {
        if (values == null)
        {
            return null;
        }
        final long[] out = new long[values.length];
        for (int i = 0; i < values.length; i++)
        {
            out[i] = values[i];
        }
        return out;
    }

    /** MPI_Type_set_name. */
    public void setName(final String name) throws MPIException
    {
        core();
        this.name = name;
    }

    /** MPI_Type_get_name: as set; else "MPI_INT" and so on for the predefined types, as Open MPI names them, and "" for derived ones. */
    public String getName() throws MPIException
    {
        final String n = name;
        if (n != null)
        {
            return n;
        }
        final org.jmpi.Datatype t = core();
        if (this == MPI.FLOAT_COMPLEX || this == MPI.DOUBLE_COMPLEX)
        {
            return this == MPI.FLOAT_COMPLEX ? "MPI_FLOAT_COMPLEX" : "MPI_DOUBLE_COMPLEX";
        }
        return t.isPredefined() ? "MPI_" + t.name() : "";
    }

    /** MPI_Type_create_keyval: a key for {@link #setAttr}; values are copied (serialised) on set and get. */
    public static int createKeyval() throws MPIException
    {
        MPI.check();
        return Attrs.createKeyval();
    }

    /** MPI_Type_free_keyval. */
    public static void freeKeyval(final int keyval) throws MPIException
    {
        MPI.check();
        Attrs.freeKeyval(keyval);
    }

    /** MPI_Type_set_attr: stores a serialised copy of {@code value}. */
    public void setAttr(final int keyval, final Object value) throws MPIException
    {
        core();
        Attrs.checkKeyval(keyval);
        attributes.put(keyval, Attrs.serialize(value));
    }

    /** MPI_Type_get_attr: a copy of the value, or {@code null}. */
    public Object getAttr(final int keyval) throws MPIException
    {
        core();
        Attrs.checkKeyval(keyval);
        return Attrs.deserialize(attributes.get(keyval));
    }

    /** MPI_Type_delete_attr. */
    public void deleteAttr(final int keyval) throws MPIException
    {
        core();
        Attrs.checkKeyval(keyval);
        attributes.remove(keyval);
    }

    @Override
    public String toString()
    {
        final org.jmpi.Datatype t = type;
        return name != null ? name : t == null ? "DATATYPE_NULL" : t.name();
    }
}
