package org.jmpi;

import java.util.Arrays;

import org.jmpi.internal.pt2pt.CommState;

/**
 * A communicator with a general graph topology (MPI 4.1 §8.5.3): node i's neighbours are
 * {@code edges[index[i-1] .. index[i])} (index[-1] = 0). Made by {@link Intracomm#graphCreate}; jmpi does not
 * reorder ranks. Neighbour collectives send to and receive from the neighbours in that order (block i to and
 * from neighbour i); an edge listed k times is k neighbours, the k-th occurrence of rank p among this rank's
 * neighbours pairing with the k-th occurrence of this rank among p's. The graph must be symmetric for the
 * neighbour collectives to pair up (MPI leaves other graphs erroneous).
 *
 * <p>Immutable topology; threading as {@link Comm}.
 */
public final class GraphComm extends Intracomm
{
    private final int[] index;
    private final int[] edges;

    GraphComm(final CommState state, final int[] index, final int[] edges)
    {
        super(state);
        this.index = index.clone();
        this.edges = edges.clone();
    }

    /** MPI_Graph_get: the index array. */
    public int[] index()
    {
        return index.clone();
    }

    /** MPI_Graph_get: the edge array. */
    public int[] edges()
    {
        return edges.clone();
    }

    /** MPI_Graph_neighbors_count. */
    public int neighborCount(final int rank)
    {
        return neighbors(rank).length;
    }

    /** MPI_Graph_neighbors: the neighbours of {@code rank}, in edge order. */
    public int[] neighbors(final int rank)
    {
        if (rank < 0 || rank >= size())
        {
            throw state.handle(new MpiException(ErrorClass.ERR_RANK, "graphNeighbors: invalid rank " + rank));
        }
        return Arrays.copyOfRange(edges, rank == 0 ? 0 : index[rank - 1], index[rank]);
    }

    @Override
    public int topology()
    {
        return GRAPH;
    }

    @Override
    int[][] neighbours()
    {
        final int[] mine = neighbors(rank());
        return new int[][] {mine, mine, null};
    }
}
