package org.jmpi;

import org.jmpi.internal.coll.CollectiveOps;
import org.jmpi.internal.coll.Neighbors;
import org.jmpi.internal.coll.Reductions;
import org.jmpi.internal.comm.Attributes;
import org.jmpi.internal.comm.Communicators;
import org.jmpi.internal.comm.IdupRequest;
import org.jmpi.internal.comm.Ports;
import org.jmpi.internal.runtime.Spawn;
import org.jmpi.internal.comm.Topologies;
import org.jmpi.internal.pt2pt.CommState;

/**
 * An intracommunicator (MPI 4.1 ch. 7): one group. {@link Mpi#world()} and {@link Mpi#self()} are
 * intracommunicators, and so is everything made from one by dup, split and create. Beyond what every
 * {@link Comm} offers: scan and exscan, making communicators (split by type, create, createGroup, idup),
 * the topologies ({@link CartComm}, {@link GraphComm}, {@link DistGraphComm}) and their neighbour collectives.
 *
 * <p>Threading: as {@link Comm}.
 */
public sealed class Intracomm extends Comm permits CartComm, GraphComm, DistGraphComm
{
    Intracomm(final CommState state)
    {
        super(state, state, new CollectiveOps.Intra(state));
    }

    @Override
    final CommState[] parts()
    {
        return new CommState[] {state};
    }

    private Intracomm wrap(final CommState derived)
    {
        return derived == null ? null : new Intracomm(derived);
    }

    /** As {@link #wrap}, with this communicator's attributes copied by their keys' copy callbacks. */
    private Intracomm copyOf(final CommState derived)
    {
        final Intracomm copy = new Intracomm(derived);
        Attributes.of(state).copyTo(this, copy, Attributes.of(copy.local));
        copy.applyPathHints(Attributes.of(copy.local).info());
        return copy;
    }

    @Override
    public Intracomm dup()
    {
        return call("dup", () -> copyOf(Communicators.dup(state)));
    }

    /**
     * MPI_Comm_idup: a nonblocking {@link #dup()}. {@code newComm[0]} is set to the new communicator when the
     * returned request completes (not before); attributes are copied then. Collective.
     */
    public Request idup(final Comm[] newComm)
    {
        return call("idup", () ->
        {
            if (newComm == null || newComm.length < 1)
            {
                throw new MpiException(ErrorClass.ERR_ARG, "idup: need an array of at least one element for the new communicator");
            }
            return IdupRequest.start(state, created -> newComm[0] = copyOf(created));
        });
    }

    @Override
    public Intracomm split(final int color, final int key)
    {
        return call("split", () -> wrap(Communicators.split(state, color, key)));
    }

    /**
     * MPI_Comm_split_type: with {@link #TYPE_SHARED}, the ranks of this node (same processor name), ordered by
     * {@code key}; with {@link #UNDEFINED}, {@code null}. Collective.
     */
    public Intracomm splitType(final int splitType, final int key)
    {
        return call("splitType", () ->
        {
            if (splitType == UNDEFINED)
            {
                return wrap(Communicators.split(state, UNDEFINED, key));
            }
            if (splitType != TYPE_SHARED)
            {
                throw new MpiException(ErrorClass.ERR_ARG, "splitType: unknown split type " + splitType + " (TYPE_SHARED or UNDEFINED)");
            }
            return wrap(Communicators.splitShared(state, key));
        });
    }

    /** MPI_Comm_create: collective over this communicator; members of {@code group} get the new one, others {@code null}. */
    public Intracomm create(final Group group)
    {
        return call("create", () -> wrap(Communicators.create(state, group)));
    }

    /**
     * MPI_Comm_create_group: collective over the members of {@code group} only (a subset of this
     * communicator); concurrent calls over overlapping groups must use different tags.
     */
    public Intracomm createGroup(final Group group, final int tag)
    {
        return call("createGroup", () -> wrap(Communicators.createGroup(state, group, tag)));
    }

    /**
     * MPI_Cart_create: a Cartesian grid of {@code dims} over the first prod(dims) ranks (the others get
     * {@code null}). {@code reorder} is accepted and ignored (jmpi keeps rank order). Collective.
     */
    public CartComm cartCreate(final int[] dims, final boolean[] periods, final boolean reorder)
    {
        final long cells = call("cartCreate", () -> Topologies.cartCells(dims, periods, size(), name()));
        final Intracomm part = split(rank() < cells ? 0 : UNDEFINED, rank());
        return part == null ? null : new CartComm(part.state, dims, periods);
    }

    /**
     * MPI_Graph_create: node i's neighbours are {@code edges[index[i-1] .. index[i])}; ranks at or beyond
     * {@code index.length} get {@code null}. {@code reorder} is ignored. Collective.
     */
    public GraphComm graphCreate(final int[] index, final int[] edges, final boolean reorder)
    {
        call("graphCreate", () -> Topologies.checkGraph(index, edges, size()));
        final Intracomm part = split(rank() < index.length ? 0 : UNDEFINED, rank());
        return part == null ? null : new GraphComm(part.state, index, edges);
    }

    /**
     * MPI_Dist_graph_create_adjacent, unweighted: this rank receives from {@code sources} and sends to
     * {@code destinations} (ranks of this communicator, in neighbour order; a rank may appear several times).
     * {@code reorder} is ignored. Collective.
     */
    public DistGraphComm distGraphCreateAdjacent(final int[] sources, final int[] destinations, final boolean reorder)
    {
        return distGraphCreateAdjacent(sources, null, destinations, null, null, reorder);
    }

    /**
     * MPI_Dist_graph_create_adjacent: this rank receives from {@code sources} and sends to {@code destinations}
     * (ranks of this communicator, in neighbour order; a rank may appear several times), with one non-negative
     * weight per edge, or {@code null} for both weight arrays (MPI_UNWEIGHTED: {@link DistGraphComm#weighted()}
     * is then false). {@code info} (may be null) and {@code reorder} are accepted and not acted on. Collective.
     */
    public DistGraphComm distGraphCreateAdjacent(final int[] sources, final int[] sourceWeights, final int[] destinations,
        final int[] destWeights, final Info info, final boolean reorder)
    {
        call("distGraphCreateAdjacent", () -> Topologies.checkDistGraphAdjacent(sources, sourceWeights, destinations, destWeights, size()));
        return new DistGraphComm(dup().state, sources, sourceWeights, destinations, destWeights);
    }

    /**
     * MPI_Dist_graph_create: every rank may contribute any edges, {@code sources[i] -> destinations[...]}, the
     * next {@code degrees[i]} entries of {@code destinations} for each i in turn, with one non-negative weight
     * per edge in {@code weights} (same order), or {@code null} for an unweighted graph. If any rank gives
     * weights, every rank contributing edges must (a rank without edges may pass null); otherwise ERR_ARG on
     * every rank. Each rank's neighbours are the edges that end (sources) or start (destinations) there,
     * ordered by the rank that contributed them, then by their order in its arguments; self-loops and repeated
     * edges are kept. {@code info} (may be null) and {@code reorder} are accepted and not acted on.
     * Collective: an alltoall of counts, then an alltoallv of the edges.
     */
    public DistGraphComm distGraphCreate(final int[] sources, final int[] degrees, final int[] destinations, final int[] weights,
        final Info info, final boolean reorder)
    {
        final Neighbors.Edges edges = call("distGraphCreate", () -> Neighbors.distGraphEdges(state, sources, degrees, destinations, weights));
        return new DistGraphComm(dup().state, edges.sources(), edges.sourceWeights(), edges.destinations(), edges.destWeights());
    }

    /** {sources, destinations, send posting order or null} of the neighbour collectives; ERR_TOPOLOGY without a topology. */
    int[][] neighbours()
    {
        throw new MpiException(ErrorClass.ERR_TOPOLOGY, "neighbour collective on " + state.name() + ", which has no topology");
    }

    private int[][] neighboursChecked(final String call)
    {
        return call(call, this::neighbours);
    }

    /** MPI_Scan: rank i receives the reduction of ranks 0..i. IN_PLACE as send buffer: input from the receive buffer. Recursive doubling. */
    public void scan(final Object sendBuf, final int sendOffset, final Object recvBuf, final int recvOffset, final int count, final Datatype type, final Op op)
    {
        run("scan", () -> Reductions.scan(state, sendBuf, sendOffset, recvBuf, recvOffset, count, type, op));
    }

    /** MPI_Iscan: nonblocking scan; the buffers must not be touched until the request completes. */
    public Request iscan(final Object sendBuf, final int sendOffset, final Object recvBuf, final int recvOffset, final int count, final Datatype type, final Op op)
    {
        return begin("iscan", () -> Reductions.scan(state, sendBuf, sendOffset, recvBuf, recvOffset, count, type, op));
    }

    /** MPI_Scan_init (MPI-4): a persistent scan; arguments are checked and the schedule built once, each start() runs it. */
    public Request scanInit(final Object sendBuf, final int sendOffset, final Object recvBuf, final int recvOffset, final int count, final Datatype type, final Op op)
    {
        return persistent("scanInit", () -> Reductions.scan(state, sendBuf, sendOffset, recvBuf, recvOffset, count, type, op));
    }

    /** MPI_Exscan: rank i &gt; 0 receives the reduction of ranks 0..i-1; rank 0's receive buffer is left untouched. IN_PLACE as send buffer: input from the receive buffer. */
    public void exscan(final Object sendBuf, final int sendOffset, final Object recvBuf, final int recvOffset, final int count, final Datatype type, final Op op)
    {
        run("exscan", () -> Reductions.exscan(state, sendBuf, sendOffset, recvBuf, recvOffset, count, type, op));
    }

    /** MPI_Iexscan: nonblocking exscan; the buffers must not be touched until the request completes. */
    public Request iexscan(final Object sendBuf, final int sendOffset, final Object recvBuf, final int recvOffset, final int count, final Datatype type, final Op op)
    {
        return begin("iexscan", () -> Reductions.exscan(state, sendBuf, sendOffset, recvBuf, recvOffset, count, type, op));
    }

    /** MPI_Exscan_init (MPI-4): a persistent exscan; arguments are checked and the schedule built once, each start() runs it. */
    public Request exscanInit(final Object sendBuf, final int sendOffset, final Object recvBuf, final int recvOffset, final int count, final Datatype type, final Op op)
    {
        return persistent("exscanInit", () -> Reductions.exscan(state, sendBuf, sendOffset, recvBuf, recvOffset, count, type, op));
    }

    /**
     * MPI_Neighbor_allgather: receive block i ({@code recvCount} items at {@code i * recvCount}) from this
     * rank's i-th source neighbour; send the send buffer to every destination neighbour. ERR_TOPOLOGY
     * without a topology. Neighbour order: see {@link CartComm}, {@link GraphComm}, {@link DistGraphComm}.
     */
    public void neighborAllgather(final Object sendBuf, final int sendOffset, final int sendCount, final Datatype sendType,
        final Object recvBuf, final int recvOffset, final int recvCount, final Datatype recvType)
    {
        final int[][] n = neighboursChecked("neighborAllgather");
        run("neighborAllgather", () -> Neighbors.neighborAllgather(state, n[0], n[1], n[2], sendBuf, sendOffset, sendCount, sendType, recvBuf, recvOffset,
            recvCount, recvType));
    }

    /** MPI_Ineighbor_allgather: nonblocking neighborAllgather; the buffers must not be touched until the request completes. */
    public Request ineighborAllgather(final Object sendBuf, final int sendOffset, final int sendCount, final Datatype sendType,
        final Object recvBuf, final int recvOffset, final int recvCount, final Datatype recvType)
    {
        final int[][] n = neighboursChecked("ineighborAllgather");
        return begin("ineighborAllgather", () -> Neighbors.neighborAllgather(state, n[0], n[1], n[2], sendBuf, sendOffset, sendCount, sendType, recvBuf,
            recvOffset, recvCount, recvType));
    }

    /**
     * MPI_Neighbor_alltoall: send block j ({@code sendCount} items at {@code j * sendCount}) to the j-th
     * destination neighbour, receive block i from the i-th source neighbour.
     */
    public void neighborAlltoall(final Object sendBuf, final int sendOffset, final int sendCount, final Datatype sendType,
        final Object recvBuf, final int recvOffset, final int recvCount, final Datatype recvType)
    {
        final int[][] n = neighboursChecked("neighborAlltoall");
        run("neighborAlltoall", () -> Neighbors.neighborAlltoall(state, n[0], n[1], n[2], sendBuf, sendOffset, sendCount, sendType, recvBuf, recvOffset,
            recvCount, recvType));
    }

    /** MPI_Ineighbor_alltoall: nonblocking neighborAlltoall; the buffers must not be touched until the request completes. */
    public Request ineighborAlltoall(final Object sendBuf, final int sendOffset, final int sendCount, final Datatype sendType,
        final Object recvBuf, final int recvOffset, final int recvCount, final Datatype recvType)
    {
        final int[][] n = neighboursChecked("ineighborAlltoall");
        return begin("ineighborAlltoall", () -> Neighbors.neighborAlltoall(state, n[0], n[1], n[2], sendBuf, sendOffset, sendCount, sendType, recvBuf,
            recvOffset, recvCount, recvType));
    }

    /** MPI_Neighbor_allgather_init (MPI-4): a persistent neighbour allgather. */
    public Request neighborAllgatherInit(final Object sendBuf, final int sendOffset, final int sendCount, final Datatype sendType,
        final Object recvBuf, final int recvOffset, final int recvCount, final Datatype recvType)
    {
        final int[][] n = neighboursChecked("neighborAllgatherInit");
        return persistent("neighborAllgatherInit", () -> Neighbors.neighborAllgather(state, n[0], n[1], n[2], sendBuf, sendOffset, sendCount, sendType, recvBuf,
            recvOffset, recvCount, recvType));
    }

    /** MPI_Neighbor_alltoall_init (MPI-4): a persistent neighbour alltoall. */
    public Request neighborAlltoallInit(final Object sendBuf, final int sendOffset, final int sendCount, final Datatype sendType,
        final Object recvBuf, final int recvOffset, final int recvCount, final Datatype recvType)
    {
        final int[][] n = neighboursChecked("neighborAlltoallInit");
        return persistent("neighborAlltoallInit", () -> Neighbors.neighborAlltoall(state, n[0], n[1], n[2], sendBuf, sendOffset, sendCount, sendType, recvBuf,
            recvOffset, recvCount, recvType));
    }

    /**
     * MPI_Neighbor_allgatherv: send the send buffer to every destination neighbour; receive block i
     * ({@code recvCounts[i]} items at {@code displs[i]} extents of {@code recvType}) from the i-th source
     * neighbour. Both arrays have one entry per source (the in-degree; 2 * ndims on a Cartesian communicator,
     * PROC_NULL neighbours included: their blocks are not touched), counts &gt;= 0. ERR_TOPOLOGY without a
     * topology.
     */
    public void neighborAllgatherv(final Object sendBuf, final int sendOffset, final int sendCount, final Datatype sendType,
        final Object recvBuf, final int recvOffset, final int[] recvCounts, final int[] displs, final Datatype recvType)
    {
        final int[][] n = neighboursChecked("neighborAllgatherv");
        run("neighborAllgatherv", () -> Neighbors.neighborAllgatherv(state, n[0], n[1], n[2], sendBuf, sendOffset, sendCount, sendType, recvBuf, recvOffset,
            recvCounts, displs, recvType));
    }

    /** MPI_Ineighbor_allgatherv: nonblocking neighborAllgatherv; the buffers must not be touched until the request completes. */
    public Request ineighborAllgatherv(final Object sendBuf, final int sendOffset, final int sendCount, final Datatype sendType,
        final Object recvBuf, final int recvOffset, final int[] recvCounts, final int[] displs, final Datatype recvType)
    {
        final int[][] n = neighboursChecked("ineighborAllgatherv");
        return begin("ineighborAllgatherv", () -> Neighbors.neighborAllgatherv(state, n[0], n[1], n[2], sendBuf, sendOffset, sendCount, sendType, recvBuf,
            recvOffset, recvCounts, displs, recvType));
    }

    /** MPI_Neighbor_allgatherv_init (MPI-4): a persistent neighborAllgatherv; arguments are checked and the schedule built once, each start() runs it. */
    public Request neighborAllgathervInit(final Object sendBuf, final int sendOffset, final int sendCount, final Datatype sendType,
        final Object recvBuf, final int recvOffset, final int[] recvCounts, final int[] displs, final Datatype recvType)
    {
        final int[][] n = neighboursChecked("neighborAllgathervInit");
        return persistent("neighborAllgathervInit", () -> Neighbors.neighborAllgatherv(state, n[0], n[1], n[2], sendBuf, sendOffset, sendCount, sendType, recvBuf,
            recvOffset, recvCounts, displs, recvType));
    }

    /**
     * MPI_Neighbor_alltoallv: send block j ({@code sendCounts[j]} items at {@code sendDispls[j]} extents of
     * {@code sendType}) to the j-th destination neighbour; receive block i ({@code recvCounts[i]} items at
     * {@code recvDispls[i]} extents of {@code recvType}) from the i-th source neighbour. The send arrays have
     * one entry per destination (the out-degree), the receive arrays one per source (the in-degree), counts
     * &gt;= 0. ERR_TOPOLOGY without a topology.
     */
    public void neighborAlltoallv(final Object sendBuf, final int sendOffset, final int[] sendCounts, final int[] sendDispls,
        final Datatype sendType, final Object recvBuf, final int recvOffset, final int[] recvCounts, final int[] recvDispls,
        final Datatype recvType)
    {
        final int[][] n = neighboursChecked("neighborAlltoallv");
        run("neighborAlltoallv", () -> Neighbors.neighborAlltoallv(state, n[0], n[1], n[2], sendBuf, sendOffset, sendCounts, sendDispls, sendType, recvBuf,
            recvOffset, recvCounts, recvDispls, recvType));
    }

    /** MPI_Ineighbor_alltoallv: nonblocking neighborAlltoallv; the buffers must not be touched until the request completes. */
    public Request ineighborAlltoallv(final Object sendBuf, final int sendOffset, final int[] sendCounts, final int[] sendDispls,
        final Datatype sendType, final Object recvBuf, final int recvOffset, final int[] recvCounts, final int[] recvDispls,
        final Datatype recvType)
    {
        final int[][] n = neighboursChecked("ineighborAlltoallv");
        return begin("ineighborAlltoallv", () -> Neighbors.neighborAlltoallv(state, n[0], n[1], n[2], sendBuf, sendOffset, sendCounts, sendDispls, sendType,
            recvBuf, recvOffset, recvCounts, recvDispls, recvType));
    }

    /** MPI_Neighbor_alltoallv_init (MPI-4): a persistent neighborAlltoallv; arguments are checked and the schedule built once, each start() runs it. */
    public Request neighborAlltoallvInit(final Object sendBuf, final int sendOffset, final int[] sendCounts, final int[] sendDispls,
        final Datatype sendType, final Object recvBuf, final int recvOffset, final int[] recvCounts, final int[] recvDispls,
        final Datatype recvType)
    {
        final int[][] n = neighboursChecked("neighborAlltoallvInit");
        return persistent("neighborAlltoallvInit", () -> Neighbors.neighborAlltoallv(state, n[0], n[1], n[2], sendBuf, sendOffset, sendCounts, sendDispls,
            sendType, recvBuf, recvOffset, recvCounts, recvDispls, recvType));
    }

    /**
     * MPI_Neighbor_alltoallw: as {@link #neighborAlltoallv} with a datatype per neighbour and displacements in
     * bytes from element {@code sendOffset} / {@code recvOffset} of the buffers (as {@link #alltoallw}).
     */
    public void neighborAlltoallw(final Object sendBuf, final int sendOffset, final int[] sendCounts, final long[] sendDisplsBytes,
        final Datatype[] sendTypes, final Object recvBuf, final int recvOffset, final int[] recvCounts, final long[] recvDisplsBytes,
        final Datatype[] recvTypes)
    {
        final int[][] n = neighboursChecked("neighborAlltoallw");
        run("neighborAlltoallw", () -> Neighbors.neighborAlltoallw(state, n[0], n[1], n[2], sendBuf, sendOffset, sendCounts, sendDisplsBytes, sendTypes,
            recvBuf, recvOffset, recvCounts, recvDisplsBytes, recvTypes));
    }

    /** MPI_Ineighbor_alltoallw: nonblocking neighborAlltoallw; the buffers must not be touched until the request completes. */
    public Request ineighborAlltoallw(final Object sendBuf, final int sendOffset, final int[] sendCounts, final long[] sendDisplsBytes,
        final Datatype[] sendTypes, final Object recvBuf, final int recvOffset, final int[] recvCounts, final long[] recvDisplsBytes,
        final Datatype[] recvTypes)
    {
        final int[][] n = neighboursChecked("ineighborAlltoallw");
        return begin("ineighborAlltoallw", () -> Neighbors.neighborAlltoallw(state, n[0], n[1], n[2], sendBuf, sendOffset, sendCounts, sendDisplsBytes,
            sendTypes, recvBuf, recvOffset, recvCounts, recvDisplsBytes, recvTypes));
    }

    /** MPI_Neighbor_alltoallw_init (MPI-4): a persistent neighborAlltoallw; arguments are checked and the schedule built once, each start() runs it. */
    public Request neighborAlltoallwInit(final Object sendBuf, final int sendOffset, final int[] sendCounts, final long[] sendDisplsBytes,
        final Datatype[] sendTypes, final Object recvBuf, final int recvOffset, final int[] recvCounts, final long[] recvDisplsBytes,
        final Datatype[] recvTypes)
    {
        final int[][] n = neighboursChecked("neighborAlltoallwInit");
        return persistent("neighborAlltoallwInit", () -> Neighbors.neighborAlltoallw(state, n[0], n[1], n[2], sendBuf, sendOffset, sendCounts, sendDisplsBytes,
            sendTypes, recvBuf, recvOffset, recvCounts, recvDisplsBytes, recvTypes));
    }

    /**
     * MPI_Comm_accept (MPI 4.1 §11.4.2): waits for a connect to {@code port}, which the root opened with
     * {@link Mpi#openPort()}, and returns an intercommunicator whose remote group is the connecting group. Collective
     * over this communicator; {@code port} and {@code info} are significant at {@code root} only (no info key is acted
     * on). The connecting group may be of this job (disjoint from this group) or of another job on this node (the
     * groups then talk through a joint job: docs/compat.md, "Dynamic processes").
     *
     * @throws MpiException ERR_PORT when the port is not open on the root (every member gets it); ERR_ROOT for an
     *                      invalid root.
     */
    public Intercomm accept(final String port, final Info info, final int root)
    {
        return call("accept", () -> Intercomm.joined(state, Ports.of(state).accept(state, port, root), "accepted"));
    }

    /**
     * MPI_Comm_connect (MPI 4.1 §11.4.2): connects to the group accepting on {@code port} and returns an
     * intercommunicator whose remote group is the accepting group. Waits until the accept takes the connection; a port
     * that is closed meanwhile ends the wait. Collective; {@code port} and {@code info} significant at {@code root} only.
     *
     * @throws MpiException ERR_PORT (every member) for a malformed, unknown or closed port, or one closed before an
     *                      accept took the connection; ERR_ROOT for an invalid root.
     *                      A port of another job that cannot be reached (another node, a wrong token) is ERR_PORT.
     */
    public Intercomm connect(final String port, final Info info, final int root)
    {
        return call("connect", () -> Intercomm.joined(state, Ports.of(state).connect(state, port, root), "connected"));
    }

    /**
     * MPI_Comm_spawn (MPI 4.1 §11.3.2): starts {@code maxprocs} new ranks running {@code command} with {@code argv}, as
     * a new job with its own world, and returns an intercommunicator whose remote group is that world (the children's
     * {@link Mpi#parent()}). Collective over this communicator; every argument but {@code root} is significant at the
     * root only. The command is a main class on the job's class path (its arguments in {@code argv}), or {@code java}
     * with java's arguments ({@code -cp PATH}, JVM options, the main class, its arguments). Info keys: {@code wdir}
     * (the children's working directory) and {@code host} (this node's name or {@code localhost}; the children run on
     * the launcher's node). Needs a job started by {@code bin/jmpirun} in process mode (docs/compat.md, "Dynamic
     * processes").
     *
     * @param errcodes {@code null} or at least {@code maxprocs} long: SUCCESS per child, or ERR_SPAWN throughout when
     *                 the spawn failed.
     * @throws MpiException (every member alike) ERR_SPAWN for a command that cannot run (no such class), a job that
     *                      cannot spawn (singleton, ranks as threads, srun), a host other than this node, children
     *                      the launcher could not start; ERR_ARG for {@code maxprocs < 1}; ERR_ROOT for an invalid
     *                      root.
     */
    public Intercomm spawn(final String command, final String[] argv, final int maxprocs, final Info info, final int root,
        final int[] errcodes)
    {
        return spawnCommands("spawn", java.util.List.of(new Spawn.Command(command, argv, maxprocs, info)), null, root, errcodes);
    }

    /**
     * MPI_Comm_spawn_multiple (MPI 4.1 §11.3.3): as {@link #spawn}, with one command, argument list, count and info per
     * entry; the children's world holds the ranks of the first command first. {@code argv} and {@code info} may be
     * {@code null} (no arguments, no info).
     *
     * @throws MpiException as {@link #spawn}; ERR_ARG when the arrays differ in length.
     */
    public Intercomm spawnMultiple(final String[] commands, final String[][] argv, final int[] maxprocs, final Info[] info,
        final int root, final int[] errcodes)
    {
        final CommState s = live("spawnMultiple");
        java.util.List<Spawn.Command> list = java.util.List.of();
        String bad = null;
        if (s.rank() == root)
        {
            if (commands == null || maxprocs == null || commands.length != maxprocs.length || argv != null && argv.length != commands.length ||
                info != null && info.length != commands.length)
            {
                bad = "spawnMultiple: commands, argv, maxprocs and info must be as long: commands=" + length(commands) +
                    ", argv=" + length(argv) + ", maxprocs=" + (maxprocs == null ? "null" : maxprocs.length) + ", info=" + length(info);
            }
            else
            {
                final java.util.List<Spawn.Command> built = new java.util.ArrayList<>();
                for (int k = 0; k < commands.length; k++)
                {
                    built.add(new Spawn.Command(commands[k], argv == null ? null : argv[k], maxprocs[k], info == null ? null : info[k]));
                }
                list = built;
            }
        }
        return spawnCommands("spawnMultiple", list, bad == null ? null : new MpiException(ErrorClass.ERR_ARG, bad), root, errcodes);
    }

    private Intercomm spawnCommands(final String call, final java.util.List<Spawn.Command> commands, final MpiException rootFailure,
        final int root, final int[] errcodes)
    {
        return call(call, () ->
        {
            return Intercomm.joined(state, Spawn.spawn(call, state, commands, rootFailure, root, errcodes), "spawned");
        });
    }

    private static String length(final Object[] array)
    {
        return array == null ? "null" : Integer.toString(array.length);
    }
}
