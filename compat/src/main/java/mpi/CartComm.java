package mpi;

import org.jmpi.ErrorClass;
import org.jmpi.MpiException;

/** A communicator with a Cartesian topology (Open MPI Java API) over a jmpi {@link org.jmpi.CartComm}. */
public final class CartComm extends Intracomm
{
    CartComm(final org.jmpi.Comm comm)
    {
        super(comm);
    }

    private CartComm(final org.jmpi.Comm[] ready, final Request request)
    {
        super(ready, request);
    }

    private static org.jmpi.CartComm cart(final org.jmpi.Comm c)
    {
        if (c instanceof org.jmpi.CartComm cart)
        {
            return cart;
        }
        throw new MpiException(ErrorClass.ERR_TOPOLOGY, c.name() + " has no Cartesian topology");
    }

    /** As {@link #dup()}, with an unchecked exception. */
    @Override
    public CartComm clone()
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

    /** MPI_Comm_dup: a new communicator with the same grid. Collective. */
    @Override
    public CartComm dup() throws MPIException
    {
        return new CartComm(call(c ->
        {
            final org.jmpi.CartComm cart = cart(c);
            return cart.cartCreate(cart.dims(), cart.periods(), false);
        }));
    }

    /** MPI_Comm_idup: done at once (collectively); {@link #getRequest()} is already complete. */
    @Override
    public CartComm iDup() throws MPIException
    {
        return new CartComm(new org.jmpi.Comm[] {dup().core()}, new Request(null));
    }

    /** MPI_Comm_dup_with_info. */
    @Override
    public CartComm dupWithInfo(final Info info) throws MPIException
    {
        final CartComm copy = dup();
        copy.setInfo(info);
        return copy;
    }

    /** MPI_Cart_get. */
    public CartParms getTopo() throws MPIException
    {
        return call(c ->
        {
            final org.jmpi.CartComm cart = cart(c);
            return new CartParms(cart.dims(), cart.periods(), cart.coords());
        });
    }

    /** MPI_Cart_rank. */
    public int getRank(final int[] coords) throws MPIException
    {
        return call(c -> cart(c).rank(coords));
    }

    /** MPI_Cart_coords. */
    public int[] getCoords(final int rank) throws MPIException
    {
        return call(c -> cart(c).coords(rank));
    }

    /** MPI_Cart_shift. */
    public ShiftParms shift(final int direction, final int disp) throws MPIException
    {
        return call(c ->
        {
            final int[] sd = cart(c).shift(direction, disp);
            return new ShiftParms(sd[0], sd[1]);
        });
    }

    /** MPI_Cart_sub: the sub-grid of the dimensions marked true. Collective. */
    public CartComm sub(final boolean[] remainDims) throws MPIException
    {
        return new CartComm(call(c -> cart(c).sub(remainDims)));
    }

    /**
     * MPI_Cart_map: this rank's rank in a grid of {@code dims} ({@link MPI#UNDEFINED} beyond it); jmpi keeps
     * rank order, so that is the rank itself.
     */
    public int map(final int[] dims, final boolean[] periods) throws MPIException
    {
        if (dims == null || periods == null || dims.length != periods.length)
        {
            throw MPIException.of(ErrorClass.ERR_ARG, "map: dims and periods must have one entry per dimension");
        }
        long cells = 1;
        for (final int d : dims)
        {
            if (d <= 0)
            {
                throw MPIException.of(ErrorClass.ERR_DIMS, "map: dimension " + d + " is not positive");
            }
            cells *= d;
        }
        final int rank = getRank();
        final int size = getSize();
        if (cells > size)
        {
            throw MPIException.of(ErrorClass.ERR_DIMS, "map: the grid has " + cells + " cells, more than the " + size + " ranks");
        }
        return rank < cells ? rank : MPI.UNDEFINED;
    }

    /** MPI_Dims_create: fills the zero entries of {@code dims} with a balanced factorisation of {@code nnodes}. */
    public static void createDims(final int nnodes, final int[] dims) throws MPIException
    {
        MPI.check();
        try
        {
            final int[] filled = org.jmpi.CartComm.dimsCreate(nnodes, dims);
            System.arraycopy(filled, 0, dims, 0, dims.length);
        }
        catch (final MpiException ex)
        {
            throw MPIException.of(ex);
        }
    }
}
