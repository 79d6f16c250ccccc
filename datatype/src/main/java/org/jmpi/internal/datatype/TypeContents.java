package org.jmpi.internal.datatype;

import java.util.Arrays;

import org.jmpi.Datatype;
import org.jmpi.ErrorClass;
import org.jmpi.MpiException;

/**
 * A type's contents (MPI_Type_get_contents) in the layout {@link Datatype.Contents} documents: the integer
 * arguments of subarray and darray, a type rebuilt from contents, and the short description
 * {@link Datatype#name()} gives a derived type. Not API. Stateless; any thread.
 */
public final class TypeContents
{
    private TypeContents()
    {
    }

    /** SUBARRAY's integers: {@code [ndims, sizes.., subSizes.., starts.., order.ordinal()]}. */
    public static int[] subarrayIntegers(final int[] sizes, final int[] subSizes, final int[] starts, final Datatype.Order order)
    {
        final int n = sizes.length;
        final int[] ints = new int[2 + 3 * n];
        ints[0] = n;
        System.arraycopy(sizes, 0, ints, 1, n);
        System.arraycopy(subSizes, 0, ints, 1 + n, n);
        System.arraycopy(starts, 0, ints, 1 + 2 * n, n);
        ints[1 + 3 * n] = order.ordinal();
        return ints;
    }

    /** DARRAY's integers: {@code [size, rank, ndims, gsizes.., distribs.ordinal().., dargs.., psizes.., order.ordinal()]}. */
    public static int[] darrayIntegers(final int size, final int rank, final int[] gsizes, final Datatype.Distribution[] distribs,
        final int[] dargs, final int[] psizes, final Datatype.Order order)
    {
        final int n = gsizes.length;
        final int[] ints = new int[4 + 4 * n];
        ints[0] = size;
        ints[1] = rank;
        ints[2] = n;
        System.arraycopy(gsizes, 0, ints, 3, n);
        for (int i = 0; i < n; i++)
        {
            ints[3 + n + i] = distribs[i].ordinal();
        }
        System.arraycopy(dargs, 0, ints, 3 + 2 * n, n);
        System.arraycopy(psizes, 0, ints, 3 + 3 * n, n);
        ints[3 + 4 * n] = order.ordinal();
        return ints;
    }

    /**
     * A new (uncommitted) type built from contents, as {@link Datatype.Contents#rebuild()} documents.
     *
     * @throws MpiException ERR_TYPE for NAMED contents, or what the constructor throws for bad arguments
     */
    public static Datatype rebuild(final Datatype.Combiner combiner, final int[] integers, final long[] addresses,
        final Datatype[] datatypes)
    {
        final int[] in = integers;
        return switch (combiner)
        {
            case NAMED -> throw new MpiException(ErrorClass.ERR_TYPE, "rebuild: NAMED contents carry no type");
            case DUP -> datatypes[0].dup();
            case CONTIGUOUS -> Datatype.contiguous(in[0], datatypes[0]);
            case VECTOR -> Datatype.vector(in[0], in[1], in[2], datatypes[0]);
            case HVECTOR -> Datatype.hvector(in[0], in[1], addresses[0], datatypes[0]);
            case INDEXED -> Datatype.indexed(Arrays.copyOfRange(in, 1, 1 + in[0]), Arrays.copyOfRange(in, 1 + in[0], 1 + 2 * in[0]),
                datatypes[0]);
            case HINDEXED -> Datatype.hindexed(Arrays.copyOfRange(in, 1, 1 + in[0]), addresses, datatypes[0]);
            case INDEXED_BLOCK -> Datatype.indexedBlock(in[1], Arrays.copyOfRange(in, 2, 2 + in[0]), datatypes[0]);
            case HINDEXED_BLOCK -> Datatype.hindexedBlock(in[1], addresses, datatypes[0]);
            case STRUCT -> Datatype.struct(Arrays.copyOfRange(in, 1, 1 + in[0]), addresses, datatypes);
            case SUBARRAY ->
            {
                final int n = in[0];
                yield Datatype.subarray(Arrays.copyOfRange(in, 1, 1 + n), Arrays.copyOfRange(in, 1 + n, 1 + 2 * n),
                    Arrays.copyOfRange(in, 1 + 2 * n, 1 + 3 * n), Datatype.Order.values()[in[1 + 3 * n]], datatypes[0]);
            }
            case DARRAY ->
            {
                final int n = in[2];
                final Datatype.Distribution[] d = new Datatype.Distribution[n];
                for (int i = 0; i < n; i++)
                {
                    d[i] = Datatype.Distribution.values()[in[3 + n + i]];
                }
                yield Datatype.darray(in[0], in[1], Arrays.copyOfRange(in, 3, 3 + n), d,
                    Arrays.copyOfRange(in, 3 + 2 * n, 3 + 3 * n), Arrays.copyOfRange(in, 3 + 3 * n, 3 + 4 * n),
                    Datatype.Order.values()[in[3 + 4 * n]], datatypes[0]);
            }
            case RESIZED -> Datatype.resized(datatypes[0], addresses[0], addresses[1]);
        };
    }

    /** "vector(3, 1, 2, INT)": the combiner and its leading arguments, and up to four of the types' names. */
    public static String describe(final Datatype.Combiner combiner, final int[] integers, final long[] addresses,
        final Datatype[] datatypes)
    {
        final StringBuilder sb = new StringBuilder(combiner.name().toLowerCase()).append('(');
        switch (combiner)
        {
            case CONTIGUOUS, VECTOR, HVECTOR, INDEXED_BLOCK, HINDEXED_BLOCK ->
            {
                final int shownInts = combiner == Datatype.Combiner.INDEXED_BLOCK ? 2 : integers.length;
                for (int i = 0; i < shownInts; i++)
                {
                    sb.append(integers[i]).append(", ");
                }
                if (combiner == Datatype.Combiner.HVECTOR)
                {
                    sb.append(addresses[0]).append(", ");
                }
            }
            case INDEXED, HINDEXED, STRUCT -> sb.append("count=").append(integers[0]).append(", ");
            case RESIZED -> sb.append("lb=").append(addresses[0]).append(", extent=").append(addresses[1]).append(", ");
            default ->
            {
            }
        }
        final int shown = Math.min(datatypes.length, 4);
        for (int i = 0; i < shown; i++)
        {
            sb.append(i > 0 ? ", " : "").append(datatypes[i].name());
        }
        if (datatypes.length > shown)
        {
            sb.append(", ...");
        }
        return sb.append(')').toString();
    }
}
