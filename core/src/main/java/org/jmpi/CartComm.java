package org.jmpi;

import java.util.ArrayList;
import java.util.Arrays;

import org.jmpi.internal.pt2pt.CommState;

/**
 * A communicator with a Cartesian topology (MPI 4.1 §8.5): ranks laid out row-major (the last dimension
 * varies fastest) on a grid of {@link #dims()}, each dimension periodic or not. Made by
 * {@link Intracomm#cartCreate}; jmpi does not reorder ranks.
 *
 * <p>Neighbours of the neighbour collectives ({@link Intracomm#neighborAllgather}, {@link Intracomm#neighborAlltoall} and
 * their v, w, nonblocking and persistent forms): 2 * ndims of them, both as sources and destinations; for each
 * dimension d, block 2d is the neighbour at -1, block 2d+1 the one at +1 ({@link #PROC_NULL} at a
 * non-periodic edge: that block is neither sent nor received, its receive block is not touched). Block 2d
 * receives what the -1 neighbour sent in its block 2d+1, also when both neighbours are one rank (a periodic
 * dimension of size 1 or 2).
 *
 * <p>Immutable topology; threading as {@link Comm}.
 */
public final class CartComm extends Intracomm
{
    private final int[] dims;
    private final boolean[] periods;

    /** Internal: made by {@link Intracomm#cartCreate} and {@link #sub}. */
    CartComm(final CommState state, final int[] dims, final boolean[] periods)
    {
        super(state);
        this.dims = dims.clone();
        this.periods = periods.clone();
    }

    /** MPI_Cartdim_get. */
    public int ndims()
    {
        return dims.length;
    }

    /** The grid's extent in each dimension (MPI_Cart_get). */
    public int[] dims()
    {
        return dims.clone();
    }

    /** Whether each dimension wraps around (MPI_Cart_get). */
    public boolean[] periods()
    {
        return periods.clone();
    }

    /** This rank's coordinates (MPI_Cart_get). */
    public int[] coords()
    {
        return coords(rank());
    }

    /** MPI_Cart_coords: the coordinates of {@code rank}. */
    public int[] coords(final int rank)
    {
        if (rank < 0 || rank >= size())
        {
            throw state.handle(new MpiException(ErrorClass.ERR_RANK, "cartCoords: invalid rank " + rank + " (size " + size() + ")"));
        }
        final int[] c = new int[dims.length];
        int r = rank;
        for (int d = dims.length - 1; d >= 0; d--)
        {
            c[d] = r % dims[d];
            r /= dims[d];
        }
        return c;
    }

    /**
     * MPI_Cart_rank: the rank at {@code coords}; a coordinate out of range wraps in a periodic dimension and is
     * ERR_ARG in another.
     */
    public int rank(final int[] coords)
    {
        if (coords == null || coords.length != dims.length)
        {
            throw state.handle(new MpiException(ErrorClass.ERR_ARG, "cartRank: need " + dims.length + " coordinates, got " +
                Arrays.toString(coords)));
        }
        int r = 0;
        for (int d = 0; d < dims.length; d++)
        {
            int x = coords[d];
            if (x < 0 || x >= dims[d])
            {
                if (!periods[d])
                {
                    throw state.handle(new MpiException(ErrorClass.ERR_ARG, "cartRank: coordinate " + x + " outside 0.." + (dims[d] - 1) +
                        " in non-periodic dimension " + d));
                }
                x = Math.floorMod(x, dims[d]);
            }
            r = r * dims[d] + x;
        }
        return r;
    }

    /** The neighbour at {@code disp} along {@code direction}, or PROC_NULL past a non-periodic edge. */
    private int neighbour(final int[] mine, final int direction, final int disp)
    {
        final int[] c = mine.clone();
        final long x = (long)c[direction] + disp;
        if (x < 0 || x >= dims[direction])
        {
            if (!periods[direction])
            {
                return PROC_NULL;
            }
        }
        c[direction] = (int)Math.floorMod(x, (long)dims[direction]);
        return rank(c);
    }

    /**
     * MPI_Cart_shift: {@code {source, dest}} for a shift by {@code disp} along {@code direction}: dest is the
     * rank {@code disp} ahead, source the one {@code disp} behind; PROC_NULL past a non-periodic edge.
     */
    public int[] shift(final int direction, final int disp)
    {
        if (direction < 0 || direction >= dims.length)
        {
            throw state.handle(new MpiException(ErrorClass.ERR_DIMS, "cartShift: direction " + direction + " outside 0.." + (dims.length - 1)));
        }
        final int[] mine = coords();
        return new int[] {neighbour(mine, direction, -disp), neighbour(mine, direction, disp)};
    }

    /**
     * MPI_Cart_sub: the sub-grids keeping the dimensions with {@code remainDims[d]}; collective. Each rank gets
     * the sub-grid through its own coordinates in the dropped dimensions.
     */
    public CartComm sub(final boolean[] remainDims)
    {
        if (remainDims == null || remainDims.length != dims.length)
        {
            throw state.handle(new MpiException(ErrorClass.ERR_ARG, "cartSub: need " + dims.length + " flags"));
        }
        final int[] mine = coords();
        int color = 0;
        final ArrayList<Integer> keptDims = new ArrayList<>();
        final ArrayList<Boolean> keptPeriods = new ArrayList<>();
        for (int d = 0; d < dims.length; d++)
        {
            if (remainDims[d])
            {
                keptDims.add(dims[d]);
                keptPeriods.add(periods[d]);
            }
            else
            {
                color = color * dims[d] + mine[d];
            }
        }
        final Intracomm part = split(color, rank());
        final int[] subDims = keptDims.stream().mapToInt(Integer::intValue).toArray();
        final boolean[] subPeriods = new boolean[keptPeriods.size()];
        for (int i = 0; i < subPeriods.length; i++)
        {
            subPeriods[i] = keptPeriods.get(i);
        }
        return new CartComm(part.state, subDims, subPeriods);
    }

    @Override
    public int topology()
    {
        return CART;
    }

    @Override
    int[][] neighbours()
    {
        final int[] mine = coords();
        final int[] list = new int[2 * dims.length];
        for (int d = 0; d < dims.length; d++)
        {
            list[2 * d] = neighbour(mine, d, -1);
            list[2 * d + 1] = neighbour(mine, d, 1);
        }
        // Sends are posted +1 before -1 in each dimension and receives -1 before +1, so that when both
        // neighbours are the same rank (a periodic dimension of 2 or 1) per-pair message order still pairs
        // "sent to my +1" with "received from its -1".
        final int[] sendOrder = new int[2 * dims.length];
        for (int d = 0; d < dims.length; d++)
        {
            sendOrder[2 * d] = 2 * d + 1;
            sendOrder[2 * d + 1] = 2 * d;
        }
        return new int[][] {list, list, sendOrder};
    }

    /**
     * MPI_Dims_create: fills the zero entries of {@code dims} so that the product of all entries is
     * {@code nnodes}, as balanced as possible and non-increasing over the filled entries; non-zero entries
     * are kept. Returns {@code dims}.
     * <ol>
     * <li>Divide nnodes by the fixed entries (ERR_DIMS if they do not divide it).</li>
     * <li>Give each prime factor of the rest, largest first, to the free entry with the smallest product so far.</li>
     * <li>Write the free entries in non-increasing order.</li>
     * </ol>
     */
    public static int[] dimsCreate(final int nnodes, final int[] dims)
    {
        if (nnodes <= 0 || dims == null)
        {
            throw new MpiException(ErrorClass.ERR_ARG, "dimsCreate: nnodes must be > 0 and dims non-null");
        }
        long fixed = 1;
        int free = 0;
        for (final int d : dims)
        {
            if (d < 0)
            {
                throw new MpiException(ErrorClass.ERR_DIMS, "dimsCreate: negative entry in " + Arrays.toString(dims));
            }
            if (d == 0)
            {
                free++;
            }
            else
            {
                fixed *= d;
            }
        }
        if (nnodes % fixed != 0 || (free == 0 && fixed != nnodes))
        {
            throw new MpiException(ErrorClass.ERR_DIMS, "dimsCreate: " + nnodes + " nodes cannot fill " + Arrays.toString(dims));
        }
        if (free == 0)
        {
            return dims;
        }
        int rest = (int)(nnodes / fixed);
        final ArrayList<Integer> factors = new ArrayList<>();
        for (int p = 2; (long)p * p <= rest; p++)
        {
            while (rest % p == 0)
            {
                factors.add(p);
                rest /= p;
            }
        }
        if (rest > 1)
        {
            factors.add(rest);
        }
        final int[] filled = new int[free];
        Arrays.fill(filled, 1);
        for (int i = factors.size() - 1; i >= 0; i--)
        {
            int smallest = 0;
            for (int j = 1; j < free; j++)
            {
                if (filled[j] < filled[smallest])
                {
                    smallest = j;
                }
            }
            filled[smallest] *= factors.get(i);
        }
        Arrays.sort(filled);
        for (int i = 0, j = free - 1; i < dims.length; i++)
        {
            if (dims[i] == 0)
            {
                dims[i] = filled[j--];
            }
        }
        return dims;
    }
}
