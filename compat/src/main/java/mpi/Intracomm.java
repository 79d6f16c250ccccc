package mpi;

import java.nio.Buffer;

import org.jmpi.ErrorClass;
import org.jmpi.MpiException;

/**
 * An intracommunicator (Open MPI Java API) over a jmpi {@link org.jmpi.Intracomm}: {@link MPI#COMM_WORLD},
 * {@link MPI#COMM_SELF} and what split, create and the topology constructors make. Adds scan and exscan.
 * Dynamic processes: spawn and spawnMultiple (through {@code bin/jmpirun}), ports, connect/accept and name publishing
 * (docs/compat.md, "Dynamic processes").
 */
public class Intracomm extends Comm
{
    /** A null intracommunicator. */
    protected Intracomm()
    {
        super();
    }

    Intracomm(final int kind)
    {
        super(kind);
    }

    Intracomm(final org.jmpi.Comm comm)
    {
        super(comm);
    }

    Intracomm(final org.jmpi.Comm[] pending, final Request request)
    {
        super(pending, request);
    }

    /** This rank's jmpi intracommunicator. */
    final org.jmpi.Intracomm intra() throws MPIException
    {
        return (org.jmpi.Intracomm)core();
    }

    /** As {@link #dup()}, with an unchecked exception. */
    @Override
    public Intracomm clone()
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

    /** MPI_Comm_dup. Collective. */
    @Override
    public Intracomm dup() throws MPIException
    {
        return new Intracomm(call(org.jmpi.Comm::dup));
    }

    /** MPI_Comm_idup: usable once {@link #getRequest()} completes. */
    @Override
    public Intracomm iDup() throws MPIException
    {
        final org.jmpi.Comm[] slot = new org.jmpi.Comm[1];
        return new Intracomm(slot, new Request(idup(slot)));
    }

    /** MPI_Comm_dup_with_info. */
    @Override
    public Intracomm dupWithInfo(final Info info) throws MPIException
    {
        final Intracomm copy = dup();
        copy.setInfo(info);
        return copy;
    }

    /** MPI_Comm_split: a null communicator ({@link #isNull()}) for color {@link MPI#UNDEFINED}. */
    public final Intracomm split(final int colour, final int key) throws MPIException
    {
        return new Intracomm(call(c -> ((org.jmpi.Intracomm)c).split(colour, key)));
    }

    /** MPI_Comm_split_type: {@link #TYPE_SHARED} (the ranks of this node) or {@link MPI#UNDEFINED}; {@code info} is not acted on. */
    public final Intracomm splitType(final int splitType, final int key, final Info info) throws MPIException
    {
        final int type;
        if (splitType == TYPE_SHARED)
        {
            type = org.jmpi.Comm.TYPE_SHARED;
        }
        else if (splitType == MPI.UNDEFINED)
        {
            type = MPI.UNDEFINED;
        }
        else
        {
            throw MPIException.of(ErrorClass.ERR_ARG, "splitType: type " + splitType + " is not Comm.TYPE_SHARED or MPI.UNDEFINED");
        }
        return new Intracomm(call(c -> ((org.jmpi.Intracomm)c).splitType(type, key)));
    }

    /** MPI_Comm_create: members of {@code group} get the new communicator, others a null one. */
    public final Intracomm create(final Group group) throws MPIException
    {
        final org.jmpi.Group g = group.core();
        return new Intracomm(call(c -> ((org.jmpi.Intracomm)c).create(g)));
    }

    /** MPI_Comm_create_group: collective over the members of {@code group} only. */
    public final Intracomm createGroup(final Group group, final int tag) throws MPIException
    {
        final org.jmpi.Group g = group.core();
        return new Intracomm(call(c -> ((org.jmpi.Intracomm)c).createGroup(g, tag)));
    }

    /** MPI_Cart_create; {@code reorder} is accepted and ignored. Ranks beyond the grid get a null communicator. */
    public final CartComm createCart(final int[] dims, final boolean[] periods, final boolean reorder) throws MPIException
    {
        return new CartComm(call(c -> ((org.jmpi.Intracomm)c).cartCreate(dims, periods, reorder)));
    }

    /** MPI_Graph_create; {@code reorder} is ignored. */
    public final GraphComm createGraph(final int[] index, final int[] edges, final boolean reorder) throws MPIException
    {
        return new GraphComm(call(c -> ((org.jmpi.Intracomm)c).graphCreate(index, edges, reorder)));
    }

    /** MPI_Dist_graph_create, weighted. */
    public final GraphComm createDistGraph(final int[] sources, final int[] degrees, final int[] destinations, final int[] weights,
        final Info info, final boolean reorder) throws MPIException
    {
        final org.jmpi.Info hints = Info.core(info);
        return new GraphComm(call(c -> ((org.jmpi.Intracomm)c).distGraphCreate(sources, degrees, destinations, weights, hints, reorder)));
    }

    /** MPI_Dist_graph_create, unweighted. */
    public final GraphComm createDistGraph(final int[] sources, final int[] degrees, final int[] destinations, final Info info,
        final boolean reorder) throws MPIException
    {
        return createDistGraph(sources, degrees, destinations, null, info, reorder);
    }

    /** MPI_Dist_graph_create_adjacent, weighted. */
    public final GraphComm createDistGraphAdjacent(final int[] sources, final int[] sourceWeights, final int[] destinations,
        final int[] destWeights, final Info info, final boolean reorder) throws MPIException
    {
        final org.jmpi.Info hints = Info.core(info);
        return new GraphComm(call(c -> ((org.jmpi.Intracomm)c).distGraphCreateAdjacent(sources, sourceWeights, destinations, destWeights,
            hints, reorder)));
    }

    /** MPI_Dist_graph_create_adjacent, unweighted. */
    public final GraphComm createDistGraphAdjacent(final int[] sources, final int[] destinations, final Info info, final boolean reorder)
        throws MPIException
    {
        return createDistGraphAdjacent(sources, null, destinations, null, info, reorder);
    }

    /** MPI_Scan. */
    public final void scan(final Object sendbuf, final Object recvbuf, final int count, final Datatype type, final Op op) throws MPIException
    {
        final org.jmpi.Datatype t = Datatype.core(type);
        final org.jmpi.Op o = op(op, type);
        run(c -> ((org.jmpi.Intracomm)c).scan(sendbuf, 0, recvbuf, 0, count, t, o));
    }

    /** MPI_Scan in place. */
    public final void scan(final Object recvbuf, final int count, final Datatype type, final Op op) throws MPIException
    {
        final org.jmpi.Datatype t = Datatype.core(type);
        final org.jmpi.Op o = op(op, type);
        run(c -> ((org.jmpi.Intracomm)c).scan(org.jmpi.Comm.IN_PLACE, 0, recvbuf, 0, count, t, o));
    }

    /** MPI_Iscan. */
    public final Request iScan(final Buffer sendbuf, final Buffer recvbuf, final int count, final Datatype type, final Op op) throws MPIException
    {
        final org.jmpi.Datatype t = Datatype.core(type);
        final org.jmpi.Op o = op(op, type);
        return start(c -> ((org.jmpi.Intracomm)c).iscan(sendbuf, 0, recvbuf, 0, count, t, o));
    }

    /** MPI_Iscan in place. */
    public final Request iScan(final Buffer buf, final int count, final Datatype type, final Op op) throws MPIException
    {
        final org.jmpi.Datatype t = Datatype.core(type);
        final org.jmpi.Op o = op(op, type);
        return start(c -> ((org.jmpi.Intracomm)c).iscan(org.jmpi.Comm.IN_PLACE, 0, buf, 0, count, t, o));
    }

    /** MPI_Exscan: rank 0's receive buffer is left untouched. */
    public final void exScan(final Object sendbuf, final Object recvbuf, final int count, final Datatype type, final Op op) throws MPIException
    {
        final org.jmpi.Datatype t = Datatype.core(type);
        final org.jmpi.Op o = op(op, type);
        run(c -> ((org.jmpi.Intracomm)c).exscan(sendbuf, 0, recvbuf, 0, count, t, o));
    }

    /** MPI_Exscan in place. */
    public final void exScan(final Object buf, final int count, final Datatype type, final Op op) throws MPIException
    {
        final org.jmpi.Datatype t = Datatype.core(type);
        final org.jmpi.Op o = op(op, type);
        run(c -> ((org.jmpi.Intracomm)c).exscan(org.jmpi.Comm.IN_PLACE, 0, buf, 0, count, t, o));
    }

    /** MPI_Iexscan. */
    public final Request iExScan(final Buffer sendbuf, final Buffer recvbuf, final int count, final Datatype type, final Op op)
        throws MPIException
    {
        final org.jmpi.Datatype t = Datatype.core(type);
        final org.jmpi.Op o = op(op, type);
        return start(c -> ((org.jmpi.Intracomm)c).iexscan(sendbuf, 0, recvbuf, 0, count, t, o));
    }

    /** MPI_Iexscan in place. */
    public final Request iExScan(final Buffer buf, final int count, final Datatype type, final Op op) throws MPIException
    {
        final org.jmpi.Datatype t = Datatype.core(type);
        final org.jmpi.Op o = op(op, type);
        return start(c -> ((org.jmpi.Intracomm)c).iexscan(org.jmpi.Comm.IN_PLACE, 0, buf, 0, count, t, o));
    }

    /** Runs a call of the rank's jmpi environment (ports and names); a jmpi error becomes an {@link MPIException}. */
    private static <T> T env(final java.util.function.Function<org.jmpi.Mpi, T> body) throws MPIException
    {
        final org.jmpi.Mpi mpi = MPI.mpi();
        try
        {
            return body.apply(mpi);
        }
        catch (final MpiException ex)
        {
            throw MPIException.of(ex);
        }
    }

    /**
     * MPI_Open_port: a port owned by the calling rank for {@link #accept}; its name is opaque. Errors go to
     * {@link MPI#COMM_SELF}'s error handler (set {@link MPI#ERRORS_RETURN} there to get them as exceptions).
     */
    public static String openPort() throws MPIException
    {
        return env(org.jmpi.Mpi::openPort);
    }

    /** MPI_Open_port with info (no key is acted on). */
    public static String openPort(final Info info) throws MPIException
    {
        return openPort();
    }

    /** MPI_Close_port: ERR_PORT when the port is not open on this rank; pending and later connects to it fail with ERR_PORT. */
    public static void closePort(final String name) throws MPIException
    {
        env(m ->
        {
            m.closePort(name);
            return null;
        });
    }

    /** MPI_Comm_accept: waits for a connect to {@code port} (significant at {@code root}, which opened it). Collective. */
    public final Intercomm accept(final String port, final int root) throws MPIException
    {
        return accept(port, MPI.INFO_NULL, root);
    }

    /** MPI_Comm_accept with info (no key is acted on). Between groups of one job (docs/compat.md, "Dynamic processes"). */
    public final Intercomm accept(final String port, final Info info, final int root) throws MPIException
    {
        final org.jmpi.Info i = Info.core(info);
        return new Intercomm(call(c -> ((org.jmpi.Intracomm)c).accept(port, i, root)));
    }

    /** MPI_Comm_connect: connects to the group accepting on {@code port} (significant at {@code root}). Collective. */
    public final Intercomm connect(final String port, final int root) throws MPIException
    {
        return connect(port, MPI.INFO_NULL, root);
    }

    /**
     * MPI_Comm_connect with info (no key is acted on): to a port of this job or of another job on this node. ERR_PORT
     * for a bad, unknown or closed port, or one that cannot be reached.
     */
    public final Intercomm connect(final String port, final Info info, final int root) throws MPIException
    {
        final org.jmpi.Info i = Info.core(info);
        return new Intercomm(call(c -> ((org.jmpi.Intracomm)c).connect(port, i, root)));
    }

    /**
     * MPI_Publish_name: for every rank of this job (and the jobs given the same {@code --param dyn.names=DIR});
     * ERR_SERVICE when the name is published already.
     */
    public static void publishName(final String service, final String port) throws MPIException
    {
        publishName(service, MPI.INFO_NULL, port);
    }

    /** MPI_Publish_name with info (no key is acted on). */
    public static void publishName(final String service, final Info info, final String port) throws MPIException
    {
        final org.jmpi.Info i = Info.core(info);
        env(m ->
        {
            m.publishName(service, i, port);
            return null;
        });
    }

    /** MPI_Unpublish_name: ERR_SERVICE when the name is not published with that port. */
    public static void unpublishName(final String service, final String port) throws MPIException
    {
        unpublishName(service, MPI.INFO_NULL, port);
    }

    /** MPI_Unpublish_name with info (no key is acted on). */
    public static void unpublishName(final String service, final Info info, final String port) throws MPIException
    {
        final org.jmpi.Info i = Info.core(info);
        env(m ->
        {
            m.unpublishName(service, i, port);
            return null;
        });
    }

    /** MPI_Lookup_name: the port published under {@code service}; ERR_NAME when none is. */
    public static String lookupName(final String service) throws MPIException
    {
        return lookupName(service, MPI.INFO_NULL);
    }

    /** MPI_Lookup_name with info (no key is acted on). */
    public static String lookupName(final String service, final Info info) throws MPIException
    {
        final org.jmpi.Info i = Info.core(info);
        return env(m -> m.lookupName(service, i));
    }

    /**
     * MPI_Comm_spawn: starts {@code maxprocs} processes running {@code command} as a new job and returns the
     * intercommunicator to them (their {@link Intercomm#getParent()}). Collective; arguments significant at {@code root}.
     * The command is a main class on the job's class path ({@code argv} its arguments) or {@code "java"} with java's
     * arguments ({@code -cp PATH}, options, the main class, its arguments). Info keys "wdir" and "host" (this node).
     * Needs a job started by {@code bin/jmpirun} (processes, not {@code --threads}): otherwise, and for a class that
     * does not exist, ERR_SPAWN; {@code maxprocs < 1} is ERR_ARG. {@code errcodes} (may be null) gets SUCCESS per
     * child, or ERR_SPAWN throughout.
     */
    public final Intercomm spawn(final String command, final String[] argv, final int maxprocs, final Info info, final int root,
        final int[] errcodes) throws MPIException
    {
        final org.jmpi.Info i = Info.core(info);
        return new Intercomm(call(c -> ((org.jmpi.Intracomm)c).spawn(command, argv, maxprocs, i, root, errcodes)));
    }

    /**
     * MPI_Comm_spawn_multiple: as {@link #spawn}, one command, argument list ({@code argv} may be null), count and
     * info per entry; the children's world holds the first command's processes first.
     */
    public final Intercomm spawnMultiple(final String[] commands, final String[][] argv, final int[] maxprocs, final Info[] info,
        final int root, final int[] errcodes) throws MPIException
    {
        final org.jmpi.Info[] infos = info == null ? null : new org.jmpi.Info[info.length];
        for (int k = 0; infos != null && k < infos.length; k++)
        {
            infos[k] = Info.core(info[k]);
        }
        return new Intercomm(call(c -> ((org.jmpi.Intracomm)c).spawnMultiple(commands, argv, maxprocs, infos, root, errcodes)));
    }
}
