package mpi;

import java.nio.Buffer;

import org.jmpi.ErrorClass;
import org.jmpi.MpiException;

/**
 * A communicator (Open MPI Java API) over a jmpi {@link org.jmpi.Comm}: point-to-point, the collectives
 * (blocking, and nonblocking {@code i...}), attributes, error handlers. Methods that take a buffer accept
 * a Java array of a primitive type or a {@code java.nio} buffer, heap or direct; the data starts at the
 * buffer's element 0 (its position and limit are neither used nor changed; use {@link MPI#slice} for an
 * offset). Nonblocking calls accept arrays and heap buffers too, not only direct buffers as in Open MPI.
 *
 * <p>Errors: under {@link MPI#ERRORS_RETURN} a failed call throws {@link MPIException} with the MPI error
 * class; under {@link MPI#ERRORS_ARE_FATAL} (the default on {@link MPI#COMM_WORLD}) the job aborts.
 *
 * <p>Threading: as the thread level asked for at {@link MPI#InitThread}.
 */
public class Comm extends Collectives implements Freeable, Cloneable
{
    /** {@link Intracomm#splitType} type: the ranks that share memory (the ranks of one node). */
    public static final int TYPE_SHARED = 0;
    protected static final int SELF = 1;
    protected static final int WORLD = 2;
    private static final int DERIVED = 0;

    /** WORLD, SELF (resolved per rank at each call) or DERIVED (a communicator of its own). */
    private final int kind;
    private volatile org.jmpi.Comm comm;
    /** iDup's slot: jmpi fills it when the returned request completes. */
    private final org.jmpi.Comm[] pending;
    private final Request request;

    /** A null communicator (MPI_COMM_NULL). */
    protected Comm()
    {
        this(DERIVED, null, null, null);
    }

    Comm(final int kind)
    {
        this(kind, null, null, null);
    }

    Comm(final org.jmpi.Comm comm)
    {
        this(DERIVED, comm, null, null);
    }

    /** A communicator from iDup, usable once {@code request} completes. */
    Comm(final org.jmpi.Comm[] pending, final Request request)
    {
        this(DERIVED, null, pending, request);
    }

    private Comm(final int kind, final org.jmpi.Comm comm, final org.jmpi.Comm[] pending, final Request request)
    {
        this.kind = kind;
        this.comm = comm;
        this.pending = pending;
        this.request = request;
    }

    /** The jmpi communicator of the calling rank: ERR_COMM when null, freed or an iDup not yet complete. */
    @Override
    final org.jmpi.Comm core() throws MPIException
    {
        final org.jmpi.Comm c = comm;
        if (c != null)
        {
            return c;
        }
        if (kind == WORLD)
        {
            return MPI.mpi().world();
        }
        if (kind == SELF)
        {
            return MPI.mpi().self();
        }
        if (pending != null && pending[0] != null)
        {
            comm = pending[0];
            return comm;
        }
        MPI.check();
        throw MPIException.of(ErrorClass.ERR_COMM, pending != null ? "the communicator from iDup is not ready: complete getRequest() first"
            : "the communicator is null (MPI_COMM_NULL)");
    }

    /** As {@link #dup()}, with an unchecked exception. */
    @Override
    public Comm clone()
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
    public Comm dup() throws MPIException
    {
        return new Comm(call(org.jmpi.Comm::dup));
    }

    /** MPI_Comm_idup: the new communicator may be used once {@link #getRequest()} of it completes. */
    public Comm iDup() throws MPIException
    {
        final org.jmpi.Comm[] slot = new org.jmpi.Comm[1];
        return new Comm(slot, new Request(idup(slot)));
    }

    final org.jmpi.Request idup(final org.jmpi.Comm[] slot) throws MPIException
    {
        return call(c ->
        {
            if (c instanceof org.jmpi.Intracomm intra)
            {
                return intra.idup(slot);
            }
            throw new MpiException(ErrorClass.ERR_COMM, "iDup: jmpi has no nonblocking dup of an intercommunicator");
        });
    }

    /** MPI_Comm_dup_with_info: a dup with {@code info} as its hints. */
    public Comm dupWithInfo(final Info info) throws MPIException
    {
        final Comm copy = dup();
        copy.setInfo(info);
        return copy;
    }

    /** The request of a communicator made by {@link #iDup()}, else {@code null}. */
    public final Request getRequest()
    {
        return request;
    }

    /** MPI_Comm_size (of the local group). */
    public final int getSize() throws MPIException
    {
        final org.jmpi.Comm c = core();
        try
        {
            return c.size();
        }
        catch (final MpiException ex)
        {
            throw MPIException.of(ex);
        }
    }

    /** MPI_Comm_rank. */
    public final int getRank() throws MPIException
    {
        final org.jmpi.Comm c = core();
        try
        {
            return c.rank();
        }
        catch (final MpiException ex)
        {
            throw MPIException.of(ex);
        }
    }

    /** MPI_Comm_compare: {@link MPI#IDENT}, {@link MPI#CONGRUENT}, {@link MPI#SIMILAR} or {@link MPI#UNEQUAL}. */
    public static int compare(final Comm comm1, final Comm comm2) throws MPIException
    {
        final org.jmpi.Comm other = comm2.core();
        return comm1.call(c -> c.compare(other));
    }

    /** MPI_Comm_free: this object becomes null. */
    @Override
    public final void free() throws MPIException
    {
        run(org.jmpi.Comm::free);
        comm = null;
        if (pending != null)
        {
            pending[0] = null;
        }
    }

    /** Whether this is MPI_COMM_NULL (freed, or not a member of what made it). */
    public final boolean isNull()
    {
        return comm == null && kind == DERIVED && (pending == null || pending[0] == null);
    }

    /** MPI_Comm_set_info. */
    public final void setInfo(final Info info) throws MPIException
    {
        final org.jmpi.Info hints = Info.core(info);
        run(c -> c.setInfo(hints));
    }

    /** MPI_Comm_get_info: a new info with the hints in use. */
    public final Info getInfo() throws MPIException
    {
        return new Info(call(org.jmpi.Comm::getInfo));
    }

    /**
     * MPI_Comm_disconnect: collective over every member (both groups of an intercommunicator): waits until the
     * communication on it is done (a barrier), then frees it; this handle becomes MPI_COMM_NULL.
     */
    public final void disconnect() throws MPIException
    {
        run(org.jmpi.Comm::disconnect);
        comm = null;
        if (pending != null)
        {
            pending[0] = null;
        }
    }

    /** MPI_Comm_group. */
    public final Group getGroup() throws MPIException
    {
        return new Group(call(org.jmpi.Comm::group));
    }

    /** MPI_Comm_test_inter. */
    public final boolean isInter() throws MPIException
    {
        return call(org.jmpi.Comm::isInter);
    }

    /**
     * MPI_Intercomm_create, called on the peer communicator: this rank's group is {@code localComm}, its
     * leader {@code localLeader}; {@code remoteLeader} is the other leader's rank here.
     */
    public final Intercomm createIntercomm(final Comm localComm, final int localLeader, final int remoteLeader, final int tag)
        throws MPIException
    {
        final org.jmpi.Comm local = localComm.core();
        return new Intercomm(call(c -> org.jmpi.Intercomm.create(local, localLeader, c, remoteLeader, tag)));
    }

    // ------------------------------------------------------------------------------------------------
    // Point-to-point (send, recv, isend and irecv inline: they carry every small message)
    // ------------------------------------------------------------------------------------------------

    /** MPI_Send. */
    public final void send(final Object buf, final int count, final Datatype type, final int dest, final int tag) throws MPIException
    {
        final org.jmpi.Comm c = core();
        final org.jmpi.Datatype t = Datatype.core(type);
        try
        {
            c.send(buf, 0, count, t, dest, tag);
        }
        catch (final MpiException ex)
        {
            throw MPIException.of(ex);
        }
    }

    /** MPI_Recv. */
    public final Status recv(final Object buf, final int count, final Datatype type, final int source, final int tag) throws MPIException
    {
        final org.jmpi.Comm c = core();
        final org.jmpi.Datatype t = Datatype.core(type);
        try
        {
            return new Status(c.recv(buf, 0, count, t, source, tag), MPI.UNDEFINED);
        }
        catch (final MpiException ex)
        {
            throw MPIException.of(ex);
        }
    }

    /** MPI_Sendrecv. */
    public final Status sendRecv(final Object sendbuf, final int sendcount, final Datatype sendtype, final int dest, final int sendtag,
        final Object recvbuf, final int recvcount, final Datatype recvtype, final int source, final int recvtag) throws MPIException
    {
        final org.jmpi.Datatype st = Datatype.core(sendtype);
        final org.jmpi.Datatype rt = Datatype.core(recvtype);
        return Status.of(call(c -> c.sendrecv(sendbuf, 0, sendcount, st, dest, sendtag, recvbuf, 0, recvcount, rt, source, recvtag)));
    }

    /** MPI_Sendrecv_replace. */
    public final Status sendRecvReplace(final Object buf, final int count, final Datatype type, final int dest, final int sendtag,
        final int source, final int recvtag) throws MPIException
    {
        final org.jmpi.Datatype t = Datatype.core(type);
        return Status.of(call(c -> c.sendrecvReplace(buf, 0, count, t, dest, sendtag, source, recvtag)));
    }

    /** MPI_Bsend: copies into the buffer given to {@link MPI#attachBuffer}. */
    public final void bSend(final Object buf, final int count, final Datatype type, final int dest, final int tag) throws MPIException
    {
        final org.jmpi.Datatype t = Datatype.core(type);
        run(c -> c.bsend(buf, 0, count, t, dest, tag));
    }

    /** MPI_Ssend. */
    public final void sSend(final Object buf, final int count, final Datatype type, final int dest, final int tag) throws MPIException
    {
        final org.jmpi.Datatype t = Datatype.core(type);
        run(c -> c.ssend(buf, 0, count, t, dest, tag));
    }

    /** MPI_Rsend (a standard send in jmpi). */
    public final void rSend(final Object buf, final int count, final Datatype type, final int dest, final int tag) throws MPIException
    {
        final org.jmpi.Datatype t = Datatype.core(type);
        run(c -> c.rsend(buf, 0, count, t, dest, tag));
    }

    /** MPI_Isend. */
    public final Request iSend(final Buffer buf, final int count, final Datatype type, final int dest, final int tag) throws MPIException
    {
        return iSend((Object)buf, count, type, dest, tag);
    }

    /** MPI_Isend on an array (jmpi extension, as MVAPICH2-J): the array must not change until the request completes. */
    public final Request iSend(final Object buf, final int count, final Datatype type, final int dest, final int tag) throws MPIException
    {
        final org.jmpi.Comm c = core();
        final org.jmpi.Datatype t = Datatype.core(type);
        try
        {
            return new Request(c.isend(buf, 0, count, t, dest, tag));
        }
        catch (final MpiException ex)
        {
            throw MPIException.of(ex);
        }
    }

    /** MPI_Ibsend. */
    public final Request ibSend(final Buffer buf, final int count, final Datatype type, final int dest, final int tag) throws MPIException
    {
        return ibSend((Object)buf, count, type, dest, tag);
    }

    /** MPI_Ibsend on an array (jmpi extension). */
    public final Request ibSend(final Object buf, final int count, final Datatype type, final int dest, final int tag) throws MPIException
    {
        final org.jmpi.Datatype t = Datatype.core(type);
        return new Request(call(c -> c.ibsend(buf, 0, count, t, dest, tag)));
    }

    /** MPI_Issend. */
    public final Request isSend(final Buffer buf, final int count, final Datatype type, final int dest, final int tag) throws MPIException
    {
        return isSend((Object)buf, count, type, dest, tag);
    }

    /** MPI_Issend on an array (jmpi extension). */
    public final Request isSend(final Object buf, final int count, final Datatype type, final int dest, final int tag) throws MPIException
    {
        final org.jmpi.Datatype t = Datatype.core(type);
        return new Request(call(c -> c.issend(buf, 0, count, t, dest, tag)));
    }

    /** MPI_Irsend. */
    public final Request irSend(final Buffer buf, final int count, final Datatype type, final int dest, final int tag) throws MPIException
    {
        return irSend((Object)buf, count, type, dest, tag);
    }

    /** MPI_Irsend on an array (jmpi extension). */
    public final Request irSend(final Object buf, final int count, final Datatype type, final int dest, final int tag) throws MPIException
    {
        final org.jmpi.Datatype t = Datatype.core(type);
        return new Request(call(c -> c.irsend(buf, 0, count, t, dest, tag)));
    }

    /** MPI_Irecv. */
    public final Request iRecv(final Buffer buf, final int count, final Datatype type, final int source, final int tag) throws MPIException
    {
        return iRecv((Object)buf, count, type, source, tag);
    }

    /** MPI_Irecv into an array (jmpi extension): read it only after the request completes. */
    public final Request iRecv(final Object buf, final int count, final Datatype type, final int source, final int tag) throws MPIException
    {
        final org.jmpi.Comm c = core();
        final org.jmpi.Datatype t = Datatype.core(type);
        try
        {
            return new Request(c.irecv(buf, 0, count, t, source, tag));
        }
        catch (final MpiException ex)
        {
            throw MPIException.of(ex);
        }
    }

    /** MPI_Send_init. */
    public final Prequest sendInit(final Buffer buf, final int count, final Datatype type, final int dest, final int tag) throws MPIException
    {
        return sendInit((Object)buf, count, type, dest, tag);
    }

    /** MPI_Send_init on an array (jmpi extension). */
    public final Prequest sendInit(final Object buf, final int count, final Datatype type, final int dest, final int tag) throws MPIException
    {
        final org.jmpi.Datatype t = Datatype.core(type);
        return new Prequest(call(c -> c.sendInit(buf, 0, count, t, dest, tag)));
    }

    /** MPI_Bsend_init. */
    public final Prequest bSendInit(final Buffer buf, final int count, final Datatype type, final int dest, final int tag) throws MPIException
    {
        return bSendInit((Object)buf, count, type, dest, tag);
    }

    /** MPI_Bsend_init on an array (jmpi extension). */
    public final Prequest bSendInit(final Object buf, final int count, final Datatype type, final int dest, final int tag) throws MPIException
    {
        final org.jmpi.Datatype t = Datatype.core(type);
        return new Prequest(call(c -> c.bsendInit(buf, 0, count, t, dest, tag)));
    }

    /** MPI_Ssend_init. */
    public final Prequest sSendInit(final Buffer buf, final int count, final Datatype type, final int dest, final int tag) throws MPIException
    {
        return sSendInit((Object)buf, count, type, dest, tag);
    }

    /** MPI_Ssend_init on an array (jmpi extension). */
    public final Prequest sSendInit(final Object buf, final int count, final Datatype type, final int dest, final int tag) throws MPIException
    {
        final org.jmpi.Datatype t = Datatype.core(type);
        return new Prequest(call(c -> c.ssendInit(buf, 0, count, t, dest, tag)));
    }

    /** MPI_Rsend_init. */
    public final Prequest rSendInit(final Buffer buf, final int count, final Datatype type, final int dest, final int tag) throws MPIException
    {
        return rSendInit((Object)buf, count, type, dest, tag);
    }

    /** MPI_Rsend_init on an array (jmpi extension). */
    public final Prequest rSendInit(final Object buf, final int count, final Datatype type, final int dest, final int tag) throws MPIException
    {
        final org.jmpi.Datatype t = Datatype.core(type);
        return new Prequest(call(c -> c.rsendInit(buf, 0, count, t, dest, tag)));
    }

    /** MPI_Recv_init. */
    public final Prequest recvInit(final Buffer buf, final int count, final Datatype type, final int source, final int tag) throws MPIException
    {
        return recvInit((Object)buf, count, type, source, tag);
    }

    /** MPI_Recv_init into an array (jmpi extension). */
    public final Prequest recvInit(final Object buf, final int count, final Datatype type, final int source, final int tag) throws MPIException
    {
        final org.jmpi.Datatype t = Datatype.core(type);
        return new Prequest(call(c -> c.recvInit(buf, 0, count, t, source, tag)));
    }

    /** MPI_Pack: packs {@code incount} items into {@code outbuf} at {@code position}; returns the new position. */
    public final int pack(final Object inbuf, final int incount, final Datatype type, final byte[] outbuf, final int position) throws MPIException
    {
        final org.jmpi.Datatype t = Datatype.core(type);
        return call(c -> Math.toIntExact(t.pack(inbuf, 0, incount, outbuf, position)));
    }

    /** MPI_Unpack: unpacks {@code outcount} items from {@code inbuf} at {@code position}; returns the new position. */
    public final int unpack(final byte[] inbuf, final int position, final Object outbuf, final int outcount, final Datatype type) throws MPIException
    {
        final org.jmpi.Datatype t = Datatype.core(type);
        return call(c -> Math.toIntExact(t.unpack(inbuf, position, outbuf, 0, outcount)));
    }

    /** MPI_Pack_size. */
    public final int packSize(final int incount, final Datatype type) throws MPIException
    {
        final org.jmpi.Datatype t = Datatype.core(type);
        return call(c -> Math.toIntExact(t.packSize(incount)));
    }

    /** MPI_Iprobe: the status of a matching message that has arrived, or {@code null}. */
    public final Status iProbe(final int source, final int tag) throws MPIException
    {
        return Status.of(call(c -> c.iprobe(source, tag)));
    }

    /** MPI_Probe: waits for a matching message; its status. */
    public final Status probe(final int source, final int tag) throws MPIException
    {
        return Status.of(call(c -> c.probe(source, tag)));
    }

    // ------------------------------------------------------------------------------------------------
    // Attributes, topology, errors
    // ------------------------------------------------------------------------------------------------

    /** MPI_Comm_create_keyval: a key whose values are copied by dup. */
    public static int createKeyval() throws MPIException
    {
        MPI.check();
        return Attrs.createKeyval();
    }

    /** MPI_Comm_free_keyval. */
    public static void freeKeyval(final int keyval) throws MPIException
    {
        MPI.check();
        Attrs.freeKeyval(keyval);
    }

    /** MPI_Comm_set_attr: stores a serialised copy of {@code value}. Predefined keys cannot be set (ERR_KEYVAL). */
    public final void setAttr(final int keyval, final Object value) throws MPIException
    {
        if (Attrs.isPredefined(keyval))
        {
            throw MPIException.of(ErrorClass.ERR_KEYVAL, "setAttr: key " + keyval + " is predefined");
        }
        final org.jmpi.Keyval key = Attrs.keyval(keyval);
        final byte[] bytes = Attrs.serialize(value);
        run(c -> c.setAttr(key, bytes));
    }

    /** MPI_Comm_get_attr: a copy of the value, or {@code null}; predefined keys give Integers (WTIME_IS_GLOBAL a Boolean). */
    public final Object getAttr(final int keyval) throws MPIException
    {
        if (keyval == MPI.LASTUSEDCODE)
        {
            core();
            return MPI.ERR_LASTCODE;
        }
        if (keyval == MPI.UNIVERSE_SIZE)
        {
            return MPI.mpi().world().size();
        }
        if (keyval == MPI.WIN_BASE || keyval == MPI.WIN_SIZE || keyval == MPI.WIN_DISP_UNIT)
        {
            core();
            return null;
        }
        final org.jmpi.Keyval key = Attrs.keyval(keyval);
        final Object value = call(c -> c.getAttr(key));
        return key.isPredefined() ? value : Attrs.deserialize((byte[])value);
    }

    /** MPI_Comm_delete_attr. */
    public final void deleteAttr(final int keyval) throws MPIException
    {
        final org.jmpi.Keyval key = Attrs.keyval(keyval);
        run(c -> c.deleteAttr(key));
    }

    /** MPI_Topo_test: {@link MPI#CART}, {@link MPI#GRAPH}, {@link MPI#DIST_GRAPH} or {@link MPI#UNDEFINED}. */
    public final int getTopology() throws MPIException
    {
        return call(org.jmpi.Comm::topology);
    }

    /** MPI_Abort: ends every rank of the job with {@code errorcode} as exit status. */
    public final void abort(final int errorcode) throws MPIException
    {
        run(c -> c.abort(errorcode));
    }

    /** MPI_Comm_set_errhandler. */
    public final void setErrhandler(final Errhandler errhandler) throws MPIException
    {
        if (errhandler == null)
        {
            throw MPIException.of(ErrorClass.ERR_ARG, "setErrhandler: errhandler is null");
        }
        run(c -> c.setErrorHandler(errhandler.handler));
    }

    /** MPI_Comm_get_errhandler. */
    public final Errhandler getErrhandler() throws MPIException
    {
        return Errhandler.of(call(org.jmpi.Comm::errorHandler));
    }

    /** MPI_Comm_call_errhandler: raises error class {@code errorCode} through this communicator's handler. */
    public final void callErrhandler(final int errorCode) throws MPIException
    {
        final org.jmpi.Comm c = core();
        final ErrorClass ec = ErrorClass.of(errorCode);
        if (c.errorHandler() == org.jmpi.ErrorHandler.ERRORS_RETURN)
        {
            throw MPIException.of(ec, "callErrhandler: error " + errorCode + " raised on " + c.name());
        }
        c.abort(errorCode);
    }

    /** MPI_Comm_set_name. */
    public final void setName(final String name) throws MPIException
    {
        run(c -> c.setName(name));
    }

    /** MPI_Comm_get_name: as set; MPI_COMM_WORLD and MPI_COMM_SELF for those two, as Open MPI names them. */
    public final String getName() throws MPIException
    {
        final String name = call(org.jmpi.Comm::name);
        if (kind != DERIVED && (name.equals("WORLD") || name.equals("SELF")))
        {
            return "MPI_COMM_" + name;
        }
        return name;
    }

    /** MPI_Reduce_local: {@code inOutBuf = inBuf op inOutBuf}, no communication. */
    public static void reduceLocal(final Object inBuf, final Object inOutBuf, final int count, final Datatype type, final Op op)
        throws MPIException
    {
        MPI.check();
        final org.jmpi.Datatype t = Datatype.core(type);
        final org.jmpi.Op o = op(op, type);
        try
        {
            org.jmpi.Comm.reduceLocal(inBuf, 0, inOutBuf, 0, count, t, o);
        }
        catch (final MpiException ex)
        {
            throw MPIException.of(ex);
        }
    }
}
