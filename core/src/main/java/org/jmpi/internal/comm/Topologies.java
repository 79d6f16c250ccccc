package org.jmpi.internal.comm;

import java.util.Arrays;

import org.jmpi.ErrorClass;
import org.jmpi.MpiException;

/**
 * Argument checks of the topology constructors (MPI 4.1 §8.5): what {@code Intracomm.cartCreate},
 * {@code graphCreate} and {@code distGraphCreateAdjacent} accept, with the MPI error class and the values.
 *
 * <p>Threading: stateless; any thread.
 */
public final class Topologies
{
    private Topologies()
    {
    }

    /** MPI_Cart_create's arguments over a communicator of {@code size} ranks named {@code name}; returns the grid's cell count. */
    public static long cartCells(final int[] dims, final boolean[] periods, final int size, final String name)
    {
        if (dims == null || periods == null || dims.length != periods.length)
        {
            throw new MpiException(ErrorClass.ERR_ARG, "cartCreate: dims and periods must have the same length");
        }
        long cells = 1;
        for (final int d : dims)
        {
            if (d <= 0)
            {
                throw new MpiException(ErrorClass.ERR_DIMS, "cartCreate: dimension " + d + " must be > 0 in " + Arrays.toString(dims));
            }
            cells *= d;
        }
        if (cells > size)
        {
            throw new MpiException(ErrorClass.ERR_DIMS, "cartCreate: grid of " + cells + " cells exceeds the " + size + " ranks of " + name);
        }
        return cells;
    }

    /** MPI_Graph_create's arguments over a communicator of {@code size} ranks. */
    public static void checkGraph(final int[] index, final int[] edges, final int size)
    {
        if (index == null || edges == null || index.length > size)
        {
            throw new MpiException(ErrorClass.ERR_ARG, "graphCreate: need index (at most " + size + " nodes) and edges");
        }
        for (int i = 0; i < index.length; i++)
        {
            if (index[i] < (i == 0 ? 0 : index[i - 1]) || index[i] > edges.length)
            {
                throw new MpiException(ErrorClass.ERR_ARG, "graphCreate: index must be non-decreasing and within edges");
            }
        }
        for (final int e : edges)
        {
            if (e < 0 || e >= index.length)
            {
                throw new MpiException(ErrorClass.ERR_TOPOLOGY, "graphCreate: edge to " + e + " outside 0.." + (index.length - 1));
            }
        }
    }

    /** MPI_Dist_graph_create_adjacent's arguments over a communicator of {@code size} ranks. */
    public static void checkDistGraphAdjacent(final int[] sources, final int[] sourceWeights, final int[] destinations,
        final int[] destWeights, final int size)
    {
        final String call = "distGraphCreateAdjacent";
        if (sources == null || destinations == null)
        {
            throw new MpiException(ErrorClass.ERR_ARG, call + ": sources and destinations must not be null");
        }
        if ((sourceWeights == null) != (destWeights == null))
        {
            throw new MpiException(ErrorClass.ERR_ARG, call + ": give weights for both sources and destinations, or for " +
                "neither (unweighted); sourceWeights is " + (sourceWeights == null ? "null" : "given") + ", destWeights " +
                (destWeights == null ? "null" : "given"));
        }
        checkEdges(call, "source", sources, sourceWeights, size);
        checkEdges(call, "destination", destinations, destWeights, size);
    }

    private static void checkEdges(final String call, final String what, final int[] ranks, final int[] weights, final int size)
    {
        for (final int r : ranks)
        {
            if (r < 0 || r >= size)
            {
                throw new MpiException(ErrorClass.ERR_RANK, call + ": invalid " + what + " " + r + " (communicator size " + size + ")");
            }
        }
        if (weights == null)
        {
            return;
        }
        if (weights.length != ranks.length)
        {
            throw new MpiException(ErrorClass.ERR_ARG, call + ": " + ranks.length + " " + what + "s but " + weights.length + " " +
                what + " weights");
        }
        for (int i = 0; i < weights.length; i++)
        {
            if (weights[i] < 0)
            {
                throw new MpiException(ErrorClass.ERR_ARG, call + ": negative weight " + weights[i] + " for " + what + " " + ranks[i] +
                    " (entry " + i + ")");
            }
        }
    }
}
