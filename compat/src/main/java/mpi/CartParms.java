package mpi;

/** A Cartesian topology's dimensions, periods and this rank's coordinates (MPI_Cart_get). Immutable. */
public final class CartParms
{
    private final int[] dims;
    private final boolean[] periods;
    private final int[] coords;

    CartParms(final int[] dims, final boolean[] periods, final int[] coords)
    {
        this.dims = dims;
        this.periods = periods;
        this.coords = coords;
    }

    /** The number of dimensions. */
    public int getDimCount()
    {
        return dims.length;
    }

    /** The number of processes along dimension {@code i}. */
    public int getDim(final int i)
    {
        return dims[i];
    }

    /** Whether dimension {@code i} is periodic. */
    public boolean getPeriod(final int i)
    {
        return periods[i];
    }

    /** This rank's coordinate along dimension {@code i}. */
    public int getCoord(final int i)
    {
        return coords[i];
    }
}
