package mpi;

/** A graph topology's index and edges arrays (MPI_Graph_get). Immutable. */
public final class GraphParms
{
    private final int[] index;
    private final int[] edges;

    GraphParms(final int[] index, final int[] edges)
    {
        this.index = index;
        this.edges = edges;
    }

    /** The number of nodes. */
    public int getIndexCount()
    {
        return index.length;
    }

    /** index[i]: the total number of neighbours of nodes 0..i. */
    public int getIndex(final int i)
    {
        return index[i];
    }

    /** The number of edges. */
    public int getEdgeCount()
    {
        return edges.length;
    }

    /** edges[i]. */
    public int getEdge(final int i)
    {
        return edges[i];
    }
}
