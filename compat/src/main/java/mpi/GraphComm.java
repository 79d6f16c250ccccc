package mpi;

import org.jmpi.ErrorClass;
import org.jmpi.MpiException;

/**
 * A communicator with a graph or distributed-graph topology (Open MPI Java API), over a jmpi
 * {@link org.jmpi.GraphComm} or {@link org.jmpi.DistGraphComm}.
 */
public final class GraphComm extends Intracomm
{
    GraphComm(final org.jmpi.Comm comm)
    {
        super(comm);
    }

    private GraphComm(final org.jmpi.Comm[] ready, final Request request)
    {
        super(ready, request);
    }

    private static org.jmpi.GraphComm graph(final org.jmpi.Comm c)
    {
        if (c instanceof org.jmpi.GraphComm g)
        {
            return g;
        }
        throw new MpiException(ErrorClass.ERR_TOPOLOGY, c.name() + " has no graph topology");
    }

    private static org.jmpi.DistGraphComm distGraph(final org.jmpi.Comm c)
    {
        if (c instanceof org.jmpi.DistGraphComm g)
        {
            return g;
        }
        throw new MpiException(ErrorClass.ERR_TOPOLOGY, c.name() + " has no distributed graph topology");
    }

    /** As {@link #dup()}, with an unchecked exception. */
    @Override
    public GraphComm clone()
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

    /** MPI_Comm_dup: a new communicator with the same graph. Collective. */
    @Override
    public GraphComm dup() throws MPIException
    {
        return new GraphComm(call(c ->
        {
            if (c instanceof org.jmpi.DistGraphComm d)
            {
                return d.weighted() ? d.distGraphCreateAdjacent(d.sources(), d.sourceWeights(), d.destinations(), d.destinationWeights(), null, false)
                    : d.distGraphCreateAdjacent(d.sources(), d.destinations(), false);
            }
            final org.jmpi.GraphComm g = graph(c);
            return g.graphCreate(g.index(), g.edges(), false);
        }));
    }

    /** MPI_Comm_idup: done at once (collectively); {@link #getRequest()} is already complete. */
    @Override
    public GraphComm iDup() throws MPIException
    {
        return new GraphComm(new org.jmpi.Comm[] {dup().core()}, new Request(null));
    }

    /** MPI_Comm_dup_with_info. */
    @Override
    public GraphComm dupWithInfo(final Info info) throws MPIException
    {
        final GraphComm copy = dup();
        copy.setInfo(info);
        return copy;
    }

    /** MPI_Graph_get. */
    public GraphParms getDims() throws MPIException
    {
        return call(c ->
        {
            final org.jmpi.GraphComm g = graph(c);
            return new GraphParms(g.index(), g.edges());
        });
    }

    /** MPI_Graph_neighbors. */
    public int[] getNeighbors(final int rank) throws MPIException
    {
        return call(c -> graph(c).neighbors(rank));
    }

    /** MPI_Dist_graph_neighbors (with the in- and out-degree, MPI_Dist_graph_neighbors_count). */
    public DistGraphNeighbors getDistGraphNeighbors() throws MPIException
    {
        return call(c ->
        {
            final org.jmpi.DistGraphComm d = distGraph(c);
            return new DistGraphNeighbors(d.sources(), d.sourceWeights(), d.destinations(), d.destinationWeights(), d.weighted());
        });
    }

    /** MPI_Graph_map: jmpi keeps rank order, so this rank's rank if below {@code index.length}, else {@link MPI#UNDEFINED}. */
    public int map(final int[] index, final int[] edges) throws MPIException
    {
        if (index == null || edges == null)
        {
            throw MPIException.of(ErrorClass.ERR_ARG, "map: index and edges must not be null");
        }
        final int rank = getRank();
        if (index.length > getSize())
        {
            throw MPIException.of(ErrorClass.ERR_ARG, "map: the graph has " + index.length + " nodes, more than the " + getSize() + " ranks");
        }
        return rank < index.length ? rank : MPI.UNDEFINED;
    }
}
