package mpi;

import java.nio.Buffer;

import org.jmpi.ErrorClass;

/**
 * An intracommunicator (Open MPI Java API) over a jmpi {@link org.jmpi.Intracomm}: {@link MPI#COMM_WORLD},
 * {@link MPI#COMM_SELF} and what split, create and the topology constructors make. Adds scan and exscan.
 * Dynamic processes (spawn, ports, name publishing) are not in jmpi: those methods throw
 * {@link UnsupportedOperationException} (docs/compat.md).
 */
public class Intracomm extends Comm
{
    private static final String NO_DYNAMIC = " is not implemented: jmpi has no dynamic process management "
        + "(issue 13, docs/compat.md 'Not implemented')";

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

    /** MPI_Open_port: not implemented (no dynamic processes in jmpi). */
    public static String openPort() throws MPIException
    {
        throw new UnsupportedOperationException("Intracomm.openPort" + NO_DYNAMIC);
    }

    /** MPI_Open_port: not implemented. */
    public static String openPort(final Info info) throws MPIException
    {
        throw new UnsupportedOperationException("Intracomm.openPort" + NO_DYNAMIC);
    }

    /** MPI_Close_port: not implemented. */
    public static void closePort(final String name) throws MPIException
    {
        throw new UnsupportedOperationException("Intracomm.closePort" + NO_DYNAMIC);
    }

    /** MPI_Comm_accept: not implemented. */
    public final Intercomm accept(final String port, final int root) throws MPIException
    {
        throw new UnsupportedOperationException("Intracomm.accept" + NO_DYNAMIC);
    }

    /** MPI_Comm_accept: not implemented. */
    public final Intercomm accept(final String port, final Info info, final int root) throws MPIException
    {
        throw new UnsupportedOperationException("Intracomm.accept" + NO_DYNAMIC);
    }

    /** MPI_Comm_connect: not implemented. */
    public final Intercomm connect(final String port, final int root) throws MPIException
    {
        throw new UnsupportedOperationException("Intracomm.connect" + NO_DYNAMIC);
    }

    /** MPI_Comm_connect: not implemented. */
    public final Intercomm connect(final String port, final Info info, final int root) throws MPIException
    {
        throw new UnsupportedOperationException("Intracomm.connect" + NO_DYNAMIC);
    }

    /** MPI_Publish_name: not implemented. */
    public static void publishName(final String service, final String port) throws MPIException
    {
        throw new UnsupportedOperationException("Intracomm.publishName" + NO_DYNAMIC);
    }

    /** MPI_Publish_name: not implemented. */
    public static void publishName(final String service, final Info info, final String port) throws MPIException
    {
        throw new UnsupportedOperationException("Intracomm.publishName" + NO_DYNAMIC);
    }

    /** MPI_Unpublish_name: not implemented. */
    public static void unpublishName(final String service, final String port) throws MPIException
    {
        throw new UnsupportedOperationException("Intracomm.unpublishName" + NO_DYNAMIC);
    }

    /** MPI_Unpublish_name: not implemented. */
    public static void unpublishName(final String service, final Info info, final String port) throws MPIException
    {
        throw new UnsupportedOperationException("Intracomm.unpublishName" + NO_DYNAMIC);
    }

    /** MPI_Lookup_name: not implemented. */
    public static String lookupName(final String service) throws MPIException
    {
        throw new UnsupportedOperationException("Intracomm.lookupName" + NO_DYNAMIC);
    }

    /** MPI_Lookup_name: not implemented. */
    public static String lookupName(final String service, final Info info) throws MPIException
    {
        throw new UnsupportedOperationException("Intracomm.lookupName" + NO_DYNAMIC);
    }

    /** MPI_Comm_spawn: not implemented. */
    public final Intercomm spawn(final String command, final String[] argv, final int maxprocs, final Info info, final int root,
        final int[] errcodes) throws MPIException
    {
        throw new UnsupportedOperationException("Intracomm.spawn" + NO_DYNAMIC);
    }

    /** MPI_Comm_spawn_multiple: not implemented. */
    public final Intercomm spawnMultiple(final String[] commands, final String[][] argv, final int[] maxprocs, final Info[] info,
        final int root, final int[] errcodes) throws MPIException
    {
        throw new UnsupportedOperationException("Intracomm.spawnMultiple" + NO_DYNAMIC);
    }
}
