package org.jmpi;

import org.jmpi.internal.pt2pt.CommState;

/**
 * A communicator with a distributed graph topology (MPI 4.1 §8.5.4), made by
 * {@link Comm#distGraphCreateAdjacent}: each rank names the ranks it receives from (sources) and sends to
 * (destinations). Neighbour collectives receive block i from source i and send block j to destination j.
 * Edge weights are not kept (jmpi does not reorder ranks, the only use MPI makes of them).
 *
 * <p>Immutable topology; threading as {@link Comm}.
 */
public final class DistGraphComm extends Comm
{
    private final int[] sources;
    private final int[] destinations;

    DistGraphComm(final CommState state, final int[] sources, final int[] destinations)
    {
        super(state);
        this.sources = sources.clone();
        this.destinations = destinations.clone();
    }

    /** MPI_Dist_graph_neighbors: the ranks this one receives from. */
    public int[] sources()
    {
        return sources.clone();
    }

    /** MPI_Dist_graph_neighbors: the ranks this one sends to. */
    public int[] destinations()
    {
        return destinations.clone();
    }

    /** MPI_Dist_graph_neighbors_count: {indegree, outdegree}. */
    public int[] neighborsCount()
    {
        return new int[] {sources.length, destinations.length};
    }

    @Override
    public int topology()
    {
        return DIST_GRAPH;
    }

    @Override
    int[][] neighbours()
    {
        return new int[][] {sources, destinations, null};
    }
}
