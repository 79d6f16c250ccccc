package mpi;

/** The neighbours of a Cartesian shift (MPI_Cart_shift): whom to receive from and send to. Immutable. */
public final class ShiftParms
{
    private final int rankSource;
    private final int rankDest;

    ShiftParms(final int rankSource, final int rankDest)
    {
        this.rankSource = rankSource;
        this.rankDest = rankDest;
    }

    /** The rank to receive from ({@link MPI#PROC_NULL} off a non-periodic edge). */
    public int getRankSource()
    {
        return rankSource;
    }

    /** The rank to send to ({@link MPI#PROC_NULL} off a non-periodic edge). */
    public int getRankDest()
    {
        return rankDest;
    }
}
