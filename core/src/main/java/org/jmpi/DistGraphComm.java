package org.jmpi;

import org.jmpi.internal.pt2pt.CommState;

/**
 * A communicator with a distributed graph topology (MPI 4.1 §8.5.4), made by
 * {@link Intracomm#distGraphCreateAdjacent} (each rank names the ranks it receives from, its sources, and sends to,
 * its destinations) or {@link Intracomm#distGraphCreate} (any rank may name any edges; each rank learns its own).
 * Neighbour collectives receive block i from source i and send block j to destination j. An edge listed
 * several times is several neighbours: the k-th occurrence of rank p among this rank's sources receives
 * the block p sends to its k-th occurrence of this rank among its destinations.
 *
 * <p><b>Neighbour order</b> ({@link #sources()}, {@link #destinations()}, the blocks of the neighbour
 * collectives): as given to {@link Intracomm#distGraphCreateAdjacent}; for {@link Intracomm#distGraphCreate}, the edges
 * ordered by the rank that contributed them, then by their position in that rank's arguments.
 *
 * <p><b>Weights</b> (MPI_UNWEIGHTED semantics): a graph made without weights is unweighted
 * ({@link #weighted()} false, the weight queries return null). jmpi does not reorder ranks, the only use MPI
 * makes of weights; they are kept and reported.
 *
 * <p>Immutable topology; threading as {@link Comm}.
 */
public final class DistGraphComm extends Intracomm
{
    private final int[] sources;
    private final int[] destinations;
    private final int[] sourceWeights;
    private final int[] destWeights;

    /** Internal: an unweighted graph. */
    DistGraphComm(final CommState state, final int[] sources, final int[] destinations)
    {
        this(state, sources, null, destinations, null);
    }

    /** Internal: weights both null (unweighted) or one per edge. */
    DistGraphComm(final CommState state, final int[] sources, final int[] sourceWeights, final int[] destinations,
        final int[] destWeights)
    {
        super(state);
        assert (sourceWeights == null) == (destWeights == null);
        assert sourceWeights == null || (sourceWeights.length == sources.length && destWeights.length == destinations.length);
        this.sources = sources.clone();
        this.destinations = destinations.clone();
        this.sourceWeights = sourceWeights == null ? null : sourceWeights.clone();
        this.destWeights = destWeights == null ? null : destWeights.clone();
    }

    /** MPI_Dist_graph_neighbors: the ranks this one receives from, in neighbour order. */
    public int[] sources()
    {
        return sources.clone();
    }

    /** MPI_Dist_graph_neighbors: the ranks this one sends to, in neighbour order. */
    public int[] destinations()
    {
        return destinations.clone();
    }

    /** MPI_Dist_graph_neighbors: the weight of each source edge, in the order of {@link #sources()}; null if unweighted. */
    public int[] sourceWeights()
    {
        return sourceWeights == null ? null : sourceWeights.clone();
    }

    /** MPI_Dist_graph_neighbors: the weight of each destination edge, in the order of {@link #destinations()}; null if unweighted. */
    public int[] destinationWeights()
    {
        return destWeights == null ? null : destWeights.clone();
    }

    /** MPI_Dist_graph_neighbors_count's {@code weighted}: false if the graph was made without weights (MPI_UNWEIGHTED). */
    public boolean weighted()
    {
        return sourceWeights != null;
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
