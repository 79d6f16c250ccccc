package mpi;

/** This rank's neighbours in a distributed graph (MPI_Dist_graph_neighbors). Immutable. */
public final class DistGraphNeighbors
{
    private final int[] sources;
    private final int[] sourceWeights;
    private final int[] destinations;
    private final int[] destWeights;
    private final boolean weighted;

    DistGraphNeighbors(final int[] sources, final int[] sourceWeights, final int[] destinations, final int[] destWeights, final boolean weighted)
    {
        this.sources = sources;
        this.sourceWeights = sourceWeights;
        this.destinations = destinations;
        this.destWeights = destWeights;
        this.weighted = weighted;
    }

    /** The number of edges into this rank. */
    public int getInDegree()
    {
        return sources.length;
    }

    /** The number of edges out of this rank. */
    public int getOutDegree()
    {
        return destinations.length;
    }

    /** Whether the graph has weights. */
    public boolean isWeighted()
    {
        return weighted;
    }

    /** The i-th source neighbour. */
    public int getSource(final int i)
    {
        return sources[i];
    }

    /** The i-th source edge's weight (unweighted graphs: 1). */
    public int getSourceWeight(final int i)
    {
        return weighted ? sourceWeights[i] : 1;
    }

    /** The i-th destination neighbour. */
    public int getDestination(final int i)
    {
        return destinations[i];
    }

    /** The i-th destination edge's weight (unweighted graphs: 1). */
    public int getDestinationWeight(final int i)
    {
        return weighted ? destWeights[i] : 1;
    }
}
