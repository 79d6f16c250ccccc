package org.jmpi;

import java.util.function.Supplier;

import org.jmpi.internal.coll.CollectiveOps;
import org.jmpi.internal.coll.Collectives;
import org.jmpi.internal.coll.PersistentCollRequest;
import org.jmpi.internal.coll.Reductions;
import org.jmpi.internal.comm.Attributes;
import org.jmpi.internal.pt2pt.BlockingRequests;
import org.jmpi.internal.pt2pt.CommState;
import org.jmpi.internal.pt2pt.PointToPoint;
import org.jmpi.internal.pt2pt.SendMode;
import org.jmpi.internal.runtime.RankRuntime;

/**
 * A communicator (MPI 4.1 ch. 3 and 7): a group of ranks and a private matching context. Two kinds, as in Open
 * MPI's Java API and mpi4py: an {@link Intracomm} (one group: WORLD, SELF, what split and dup make, the
 * topologies) and an {@link Intercomm} (two groups). This base holds what MPI defines on both: point-to-point,
 * the collectives of MPI 4.1 §6.2.2 (blocking, nonblocking {@code i...}, persistent {@code ...Init}), and
 * communicator management.
 *
 * <p><b>Buffers.</b> Every buffer argument is a Java array of a primitive type ({@code byte[]},
 * {@code short[]}, {@code char[]}, {@code int[]}, {@code long[]}, {@code float[]}, {@code double[]},
 * {@code boolean[]}) or a {@code java.nio} buffer (heap or direct, any byte order; its position and
 * limit are neither used nor changed). {@code offset} counts the buffer's elements from index 0 (bytes
 * for a {@code ByteBuffer}); {@code count} counts items of {@code type}. A type used on an array must be
 * made of that array's element type (see docs/datatypes.md). A {@code null} buffer is allowed with count 0.
 * Anything else is an {@link MpiException} (ERR_BUFFER, ERR_TYPE...).
 *
 * <p><b>Errors</b> go through the communicator's {@link ErrorHandler}: with ERRORS_ARE_FATAL (the
 * default on world) the job aborts; with ERRORS_RETURN the call throws the {@link MpiException}. Every call on
 * a freed communicator raises ERR_COMM; every call after {@link Mpi#close()} raises ERR_OTHER ("MPI is
 * finalized").
 *
 * <p><b>Threading</b>: as the rank's {@link ThreadLevel}; with MULTIPLE any thread may call, including threads
 * that did not inherit anything from the rank's main thread (pools, the common fork-join pool).
 */
public abstract sealed class Comm permits Intracomm, Intercomm
{
    /** Wildcard source for receives and probes. */
    public static final int ANY_SOURCE = -1;

    /** Wildcard tag for receives and probes. */
    public static final int ANY_TAG = -1;

    /** The null process: operations with it complete at once and move nothing. */
    public static final int PROC_NULL = -2;

    /** Largest valid tag (MPI_TAG_UB). */
    public static final int TAG_UB = PointToPoint.TAG_UB;

    /** MPI_UNDEFINED. */
    public static final int UNDEFINED = Datatype.UNDEFINED;

    /**
     * MPI_IN_PLACE: pass it as the send buffer (the receive buffer for scatter) where MPI allows, and the
     * operation takes this rank's input from the receive buffer (see each collective). Its offset, count and
     * type arguments are then ignored. Anywhere else it is an ERR_BUFFER.
     */
    public static final Object IN_PLACE = new Object()
    {
        @Override
        public String toString()
        {
            return "IN_PLACE";
        }
    };

    /** Comparison results (MPI_IDENT, MPI_CONGRUENT, MPI_SIMILAR, MPI_UNEQUAL) of {@link #compare} and {@link Group#compare}. */
    public static final int IDENT = 0;

    /** Same members in the same order, different contexts. */
    public static final int CONGRUENT = 1;

    /** Same members, different order. */
    public static final int SIMILAR = 2;

    /** Different members. */
    public static final int UNEQUAL = 3;

    /** {@link #topology()}: a Cartesian topology ({@link CartComm}), MPI_CART. */
    public static final int CART = 1;

    /** {@link #topology()}: a graph topology ({@link GraphComm}), MPI_GRAPH. */
    public static final int GRAPH = 2;

    /** {@link #topology()}: a distributed graph topology ({@link DistGraphComm}), MPI_DIST_GRAPH. */
    public static final int DIST_GRAPH = 3;

    /** {@link Intracomm#splitType} type: ranks that share memory (MPI_COMM_TYPE_SHARED), here the ranks of one node. */
    public static final int TYPE_SHARED = 1;

    /** Point-to-point state: the ranks this rank sends to (the group; for an intercommunicator, the remote group). */
    final CommState state;
    /** The local group: for an intracommunicator {@link #state} itself. */
    final CommState local;
    private final CollectiveOps coll;

    Comm(final CommState state, final CommState local, final CollectiveOps coll)
    {
        this.state = state;
        this.local = local;
        this.coll = coll;
    }

    /** This process's rank in the communicator (in the local group of an intercommunicator). */
    public int rank()
    {
        return live("rank").rank();
    }

    /** Number of ranks in the communicator (of the local group, for an intercommunicator: MPI_Comm_size). */
    public int size()
    {
        live("size");
        return local.size();
    }

    /** The communicator's name (MPI_Comm_get_name): "WORLD", "SELF", or as set. */
    public String name()
    {
        return live("name").name();
    }

    /** Sets the name (MPI_Comm_set_name). */
    public void setName(final String name)
    {
        live("setName");
        for (final CommState part : parts())
        {
            part.name(name);
        }
    }

    /** The error handler (MPI_Comm_get_errhandler). */
    public ErrorHandler errorHandler()
    {
        return live("errorHandler").errorHandler();
    }

    /** Sets the error handler (MPI_Comm_set_errhandler). */
    public void setErrorHandler(final ErrorHandler handler)
    {
        if (handler == null)
        {
            throw live("setErrorHandler").handle(new MpiException(ErrorClass.ERR_ARG, "setErrorHandler: handler is null"));
        }
        live("setErrorHandler");
        for (final CommState part : parts())
        {
            part.errorHandler(handler);
        }
    }

    /** MPI_Comm_test_inter: whether this is an {@link Intercomm}. */
    public boolean isInter()
    {
        return this instanceof Intercomm;
    }

    /** MPI_Comm_group: the (local) group's members, in rank order. */
    public Group group()
    {
        live("group");
        return new Group(local.worldRanks(), local.worldRank(local.rank()));
    }

    /**
     * MPI_Comm_dup: same members, own matching contexts, same error handler, attributes copied by their
     * keys' copy callbacks. Collective.
     */
    public abstract Comm dup();

    /**
     * MPI_Comm_split: ranks passing the same {@code color} (&gt;= 0) form a communicator, ordered by {@code key}
     * then by rank here. A rank passing {@link #UNDEFINED} gets {@code null}. Collective.
     */
    public abstract Comm split(int color, int key);

    /**
     * MPI_Comm_compare: {@link #IDENT} (the same communicator), {@link #CONGRUENT} (same members and order),
     * {@link #SIMILAR} (same members), else {@link #UNEQUAL}.
     */
    public int compare(final Comm other)
    {
        final CommState s = live("compare");
        if (other == null)
        {
            throw s.handle(new MpiException(ErrorClass.ERR_COMM, "compare: communicator is null"));
        }
        if (other.state == state || (other.state.contextId() == state.contextId() &&
            java.util.Arrays.equals(other.state.worldRanks(), state.worldRanks())))
        {
            return IDENT;
        }
        final int groups = Group.compare(group(), other.group());
        return groups == IDENT ? CONGRUENT : groups;
    }

    /**
     * MPI_Comm_free: local in jmpi. Every later call on this communicator raises ERR_COMM naming it (a second
     * free too); its context ids go back to the rank's pool for later communicators. Freeing WORLD or SELF is
     * ERR_COMM.
     */
    public void free()
    {
        final CommState s = live("free");
        if (s.contextId() < RankRuntime.FIRST_FREE_CONTEXT)
        {
            throw s.handle(new MpiException(ErrorClass.ERR_COMM, "free: " + s.name() + " cannot be freed"));
        }
        Attributes.of(local).deleteAll(this);
        if (state == local)
        {
            // Its context id may serve a later communicator: that one starts without these hints.
            state.protocol().pathHints(state.contextId(), null, null);
        }
        boolean first = true;
        for (final CommState part : parts())
        {
            first &= part.free();
        }
        if (!first)
        {
            throw s.handle(new MpiException(ErrorClass.ERR_COMM, "free: communicator " + s.name() + " was already freed"));
        }
    }

    /**
     * MPI_Comm_disconnect (MPI 4.1 §11.10): collective over every member (both groups of an intercommunicator):
     * a barrier, so that the messages sent on it before have been received, then {@link #free()}. Use it to part
     * from the other side of {@link Intracomm#connect}/{@link Intracomm#accept}. WORLD and SELF cannot be
     * disconnected (ERR_COMM).
     */
    public void disconnect()
    {
        final CommState s = live("disconnect");
        if (s.contextId() < RankRuntime.FIRST_FREE_CONTEXT)
        {
            throw s.handle(new MpiException(ErrorClass.ERR_COMM, "disconnect: " + s.name() + " cannot be disconnected"));
        }
        run("disconnect", () -> coll.barrier());
        free();
    }

    /** Whether {@link #free()} was called on this communicator. */
    public boolean isFreed()
    {
        return state.freed();
    }

    /** MPI_Comm_set_attr: caches {@code value} under {@code key} (the old value goes to the key's delete callback). */
    public void setAttr(final Keyval key, final Object value)
    {
        call("setAttr", () -> Attributes.of(local).set(this, key, value));
    }

    /** MPI_Comm_get_attr: the cached value, or {@code null}; predefined keys ({@link Keyval#TAG_UB}...) answer on every communicator. */
    public Object getAttr(final Keyval key)
    {
        return call("getAttr", () -> Attributes.of(local).get(key));
    }

    /** MPI_Comm_delete_attr: removes the value and passes it to the key's delete callback. */
    public void deleteAttr(final Keyval key)
    {
        call("deleteAttr", () -> Attributes.of(local).delete(this, key));
    }

    /**
     * MPI_Comm_set_info: stores the hints; copied by {@link #dup()}. jmpi acts on two, on an intracommunicator's
     * point-to-point messages between ranks that reach each other's memory (docs/pvas.md): {@code jmpi.pvas.mode}
     * ({@code auto}, {@code direct}, {@code staged}: this communicator's choice instead of the job's parameter) and
     * {@code jmpi.fragment.size} (the staged fragment payload, bytes or {@code 8k}). Set the same values on every rank.
     *
     * @throws MpiException ERR_ARG for a malformed value of either (through the error handler)
     */
    public void setInfo(final Info info)
    {
        call("setInfo", () ->
        {
            // Checked first: a malformed hint changes nothing.
            applyPathHints(info);
            Attributes.of(local).info(info);
        });
    }

    /** Hands this communicator's {@code jmpi.pvas.mode} and {@code jmpi.fragment.size} hints to the protocol (intracommunicators). */
    final void applyPathHints(final Info info)
    {
        if (state == local && info != null)
        {
            state.protocol().pathHints(state.contextId(), info.get("jmpi.pvas.mode"), info.get("jmpi.fragment.size"));
        }
    }

    /** MPI_Comm_get_info: a copy of the hints in use. */
    public Info getInfo()
    {
        live("getInfo");
        return Attributes.of(local).info();
    }

    /** MPI_Topo_test: {@link #CART}, {@link #GRAPH}, {@link #DIST_GRAPH}, or {@link #UNDEFINED} for none. */
    public int topology()
    {
        live("topology");
        return UNDEFINED;
    }

    /** The states this communicator is made of (one; an intercommunicator's several parts), for free and the error handler. */
    abstract CommState[] parts();

    /**
     * The checks every call makes first: after finalize, MpiException ERR_OTHER "MPI is finalized" naming the
     * call (not through the error handler: the job may be gone); on a freed communicator, ERR_COMM naming it.
     *
     * @return the point-to-point state, to use.
     */
    final CommState live(final String call)
    {
        final CommState s = state;
        s.services().checkLive(call);
        if (s.freed())
        {
            throw s.handle(new MpiException(ErrorClass.ERR_COMM, call + ": communicator " + s.name() + " was freed"));
        }
        return s;
    }

    /**
     * The one place this communicator's calls meet errors: {@link #live} checks, then {@code body}; an
     * MpiException it throws goes through the error handler (ERRORS_RETURN: thrown to the caller; ERRORS_ARE_FATAL:
     * the job aborts).
     */
    final <T> T call(final String call, final Supplier<T> body)
    {
        final CommState s = live(call);
        try
        {
            return body.get();
        }
        catch (final MpiException ex)
        {
            throw s.handle(ex);
        }
    }

    /** As {@link #call}, for a body with no result. */
    final void call(final String call, final Runnable body)
    {
        call(call, () ->
        {
            body.run();
            return null;
        });
    }

    /** Builds a collective's plan and runs it to completion. */
    final void run(final String call, final Supplier<Collectives.Plan> plan)
    {
        call(call, () -> plan.get().start().await());
    }

    /** Builds a collective's plan and starts it (the nonblocking form). */
    final Request begin(final String call, final Supplier<Collectives.Plan> plan)
    {
        return call(call, () -> plan.get().start());
    }

    /** Builds a collective's plan once, as a persistent request (the {@code ...Init} form). */
    final Request persistent(final String call, final Supplier<Collectives.Plan> plan)
    {
        return call(call, () ->
        {
            final Collectives.Plan p = plan.get();
            return new PersistentCollRequest(p.comm(), p);
        });
    }

    /** MPI_Send: returns when the buffer may be reused (eager) or the message has been handed over (rendezvous). */
    public void send(final Object buf, final int offset, final int count, final Datatype type, final int dest, final int tag)
    {
        // send, isend, recv and irecv carry every small message: they check and handle errors inline, without
        // call()'s lambda, which allocates until C2 compiles the caller and is one megamorphic site for every
        // call of this class (bench/ab-commits.sh, HaloWarmup's first block).
        final CommState s = live("send");
        try
        {
            BlockingRequests.send(s, buf, offset, count, type, dest, tag);
        }
        catch (final MpiException ex)
        {
            throw s.handle(ex);
        }
    }

    /** MPI_ISend: nonblocking; complete the request with await/test. */
    public Request isend(final Object buf, final int offset, final int count, final Datatype type, final int dest, final int tag)
    {
        final CommState s = live("isend");
        try
        {
            return PointToPoint.isend(s, buf, offset, count, type, dest, tag, SendMode.STANDARD);
        }
        catch (final MpiException ex)
        {
            throw s.handle(ex);
        }
    }

    /** MPI_Send_init: a persistent request; each start() sends again. */
    public Request sendInit(final Object buf, final int offset, final int count, final Datatype type, final int dest, final int tag)
    {
        return call("sendInit", () -> PointToPoint.sendInit(state, buf, offset, count, type, dest, tag, SendMode.STANDARD));
    }

    /** MPI_Ssend: returns once the matching receive has started. */
    public void ssend(final Object buf, final int offset, final int count, final Datatype type, final int dest, final int tag)
    {
        call("ssend", () -> PointToPoint.isend(state, buf, offset, count, type, dest, tag, SendMode.SYNC).await());
    }

    /** MPI_ISsend: nonblocking; complete the request with await/test. */
    public Request issend(final Object buf, final int offset, final int count, final Datatype type, final int dest, final int tag)
    {
        return call("issend", () -> PointToPoint.isend(state, buf, offset, count, type, dest, tag, SendMode.SYNC));
    }

    /** MPI_Ssend_init: a persistent request; each start() sends again. */
    public Request ssendInit(final Object buf, final int offset, final int count, final Datatype type, final int dest, final int tag)
    {
        return call("ssendInit", () -> PointToPoint.sendInit(state, buf, offset, count, type, dest, tag, SendMode.SYNC));
    }

    /** MPI_Rsend: the receive must already be posted (jmpi treats it as a standard send). */
    public void rsend(final Object buf, final int offset, final int count, final Datatype type, final int dest, final int tag)
    {
        call("rsend", () -> PointToPoint.isend(state, buf, offset, count, type, dest, tag, SendMode.READY).await());
    }

    /** MPI_IRsend: nonblocking; complete the request with await/test. */
    public Request irsend(final Object buf, final int offset, final int count, final Datatype type, final int dest, final int tag)
    {
        return call("irsend", () -> PointToPoint.isend(state, buf, offset, count, type, dest, tag, SendMode.READY));
    }

    /** MPI_Rsend_init: a persistent request; each start() sends again. */
    public Request rsendInit(final Object buf, final int offset, final int count, final Datatype type, final int dest, final int tag)
    {
        return call("rsendInit", () -> PointToPoint.sendInit(state, buf, offset, count, type, dest, tag, SendMode.READY));
    }

    /** MPI_Bsend: copies the message into the attached buffer ({@link Mpi#bufferAttach}) and returns. */
    public void bsend(final Object buf, final int offset, final int count, final Datatype type, final int dest, final int tag)
    {
        call("bsend", () -> PointToPoint.isend(state, buf, offset, count, type, dest, tag, SendMode.BUFFERED).await());
    }

    /** MPI_IBsend: nonblocking; complete the request with await/test. */
    public Request ibsend(final Object buf, final int offset, final int count, final Datatype type, final int dest, final int tag)
    {
        return call("ibsend", () -> PointToPoint.isend(state, buf, offset, count, type, dest, tag, SendMode.BUFFERED));
    }

    /** MPI_Bsend_init: a persistent request; each start() sends again. */
    public Request bsendInit(final Object buf, final int offset, final int count, final Datatype type, final int dest, final int tag)
    {
        return call("bsendInit", () -> PointToPoint.sendInit(state, buf, offset, count, type, dest, tag, SendMode.BUFFERED));
    }

    /** MPI_Recv: waits for a matching message. Source may be ANY_SOURCE or PROC_NULL, tag ANY_TAG. A message larger than the buffer fails with ERR_TRUNCATE (the status counts the whole message). */
    public Status recv(final Object buf, final int offset, final int count, final Datatype type, final int source, final int tag)
    {
        final CommState s = live("recv");
        try
        {
            return BlockingRequests.recv(s, buf, offset, count, type, source, tag);
        }
        catch (final MpiException ex)
        {
            throw s.handle(ex);
        }
    }

    /** MPI_Irecv. */
    public Request irecv(final Object buf, final int offset, final int count, final Datatype type, final int source, final int tag)
    {
        final CommState s = live("irecv");
        try
        {
            return PointToPoint.irecv(s, buf, offset, count, type, source, tag);
        }
        catch (final MpiException ex)
        {
            throw s.handle(ex);
        }
    }

    /** MPI_Recv_init: a persistent receive. */
    public Request recvInit(final Object buf, final int offset, final int count, final Datatype type, final int source, final int tag)
    {
        return call("recvInit", () -> PointToPoint.recvInit(state, buf, offset, count, type, source, tag));
    }

    /** MPI_Sendrecv: sends and receives at once (no deadlock between pairs); returns the receive status. */
    public Status sendrecv(
        final Object sendBuf, final int sendOffset, final int sendCount, final Datatype sendType, final int dest, final int sendTag,
        final Object recvBuf, final int recvOffset, final int recvCount, final Datatype recvType, final int source, final int recvTag)
    {
        return call("sendrecv", () ->
        {
            final Request r = PointToPoint.irecv(state, recvBuf, recvOffset, recvCount, recvType, source, recvTag);
            final Request s = PointToPoint.isend(state, sendBuf, sendOffset, sendCount, sendType, dest, sendTag, SendMode.STANDARD);
            s.await();
            return r.await();
        });
    }

    /** MPI_Sendrecv_replace: sends the buffer's contents and receives into the same buffer. */
    public Status sendrecvReplace(final Object buf, final int offset, final int count, final Datatype type, final int dest, final int sendTag, final int source, final int recvTag)
    {
        return call("sendrecvReplace", () -> PointToPoint.sendrecvReplace(state, buf, offset, count, type, dest, sendTag, source, recvTag));
    }

    /** MPI_Probe: waits for a matching message and returns its status without receiving it. */
    public Status probe(final int source, final int tag)
    {
        return call("probe", () -> PointToPoint.probe(state, source, tag));
    }

    /** MPI_Iprobe: the status of a matching message that has arrived, or {@code null}. */
    public Status iprobe(final int source, final int tag)
    {
        // Inline like send and recv: a receiver polling with iprobe must allocate nothing while nothing arrives.
        final CommState s = live("iprobe");
        try
        {
            return PointToPoint.iprobe(s, source, tag);
        }
        catch (final MpiException ex)
        {
            throw s.handle(ex);
        }
    }

    /** MPI_Mprobe: waits for a matching message and takes it out of matching; receive it with {@link Message#recv}. */
    public Message mprobe(final int source, final int tag)
    {
        return call("mprobe", () -> PointToPoint.mprobe(state, source, tag));
    }

    /** MPI_Improbe: a matched message, or {@code null} when none has arrived. */
    public Message improbe(final int source, final int tag)
    {
        return call("improbe", () -> PointToPoint.improbe(state, source, tag));
    }

    /** MPI_Barrier: returns once every rank of the communicator has called it (dissemination algorithm). */
    public void barrier()
    {
        // The blocking collectives check and handle errors inline, as send does: no lambda per call, and on the node
        // path no plan either (issue 16: the generic entry allocated about 400 bytes per small call).
        final CommState s = live("barrier");
        try
        {
            coll.barrierNow();
        }
        catch (final MpiException ex)
        {
            throw s.handle(ex);
        }
    }

    /** MPI_Ibarrier: completes once every rank has called it. */
    public Request ibarrier()
    {
        return begin("ibarrier", () -> coll.barrier());
    }

    /** MPI_Barrier_init: a persistent barrier; each start() is one barrier. */
    public Request barrierInit()
    {
        return persistent("barrierInit", () -> coll.barrier());
    }

    /** MPI_Bcast: the root's {@code count} items of {@code type} reach every rank's buffer. Binomial tree for small messages, scatter + ring allgather for large ones. */
    public void bcast(final Object buf, final int offset, final int count, final Datatype type, final int root)
    {
        final CommState s = live("bcast");
        try
        {
            coll.bcastNow(buf, offset, count, type, root);
        }
        catch (final MpiException ex)
        {
            throw s.handle(ex);
        }
    }

    /** MPI_Ibcast: nonblocking bcast; the buffers must not be touched until the request completes. */
    public Request ibcast(final Object buf, final int offset, final int count, final Datatype type, final int root)
    {
        return begin("ibcast", () -> coll.bcast(buf, offset, count, type, root));
    }

    /** MPI_Bcast_init (MPI-4): a persistent bcast; arguments are checked and the schedule built once, each start() runs it. */
    public Request bcastInit(final Object buf, final int offset, final int count, final Datatype type, final int root)
    {
        return persistent("bcastInit", () -> coll.bcast(buf, offset, count, type, root));
    }

    /** MPI_Reduce: combines every rank's {@code count} items with {@code op} (in rank order) into the root's receive buffer (ignored elsewhere). IN_PLACE as send buffer at the root: its input is taken from the receive buffer. Binomial tree. */
    public void reduce(final Object sendBuf, final int sendOffset, final Object recvBuf, final int recvOffset, final int count, final Datatype type, final Op op, final int root)
    {
        final CommState s = live("reduce");
        try
        {
            coll.reduceNow(sendBuf, sendOffset, recvBuf, recvOffset, count, type, op, root);
        }
        catch (final MpiException ex)
        {
            throw s.handle(ex);
        }
    }

    /** MPI_Ireduce: nonblocking reduce; the buffers must not be touched until the request completes. */
    public Request ireduce(final Object sendBuf, final int sendOffset, final Object recvBuf, final int recvOffset, final int count, final Datatype type, final Op op, final int root)
    {
        return begin("ireduce", () -> coll.reduce(sendBuf, sendOffset, recvBuf, recvOffset, count, type, op, root));
    }

    /** MPI_Reduce_init (MPI-4): a persistent reduce; arguments are checked and the schedule built once, each start() runs it. */
    public Request reduceInit(final Object sendBuf, final int sendOffset, final Object recvBuf, final int recvOffset, final int count, final Datatype type, final Op op, final int root)
    {
        return persistent("reduceInit", () -> coll.reduce(sendBuf, sendOffset, recvBuf, recvOffset, count, type, op, root));
    }

    /** MPI_Allreduce: as reduce, with the result on every rank. IN_PLACE as send buffer: input from the receive buffer. Recursive doubling for small messages, Rabenseifner for large. */
    public void allreduce(final Object sendBuf, final int sendOffset, final Object recvBuf, final int recvOffset, final int count, final Datatype type, final Op op)
    {
        final CommState s = live("allreduce");
        try
        {
            coll.allreduceNow(sendBuf, sendOffset, recvBuf, recvOffset, count, type, op);
        }
        catch (final MpiException ex)
        {
            throw s.handle(ex);
        }
    }

    /** MPI_Iallreduce: nonblocking allreduce; the buffers must not be touched until the request completes. */
    public Request iallreduce(final Object sendBuf, final int sendOffset, final Object recvBuf, final int recvOffset, final int count, final Datatype type, final Op op)
    {
        return begin("iallreduce", () -> coll.allreduce(sendBuf, sendOffset, recvBuf, recvOffset, count, type, op));
    }

    /** MPI_Allreduce_init (MPI-4): a persistent allreduce; arguments are checked and the schedule built once, each start() runs it. */
    public Request allreduceInit(final Object sendBuf, final int sendOffset, final Object recvBuf, final int recvOffset, final int count, final Datatype type, final Op op)
    {
        return persistent("allreduceInit", () -> coll.allreduce(sendBuf, sendOffset, recvBuf, recvOffset, count, type, op));
    }

    /** MPI_Gather: the root receives rank i's block at {@code i * recvCount} items of {@code recvType}. IN_PLACE as send buffer at the root: its block is already in place. */
    public void gather(final Object sendBuf, final int sendOffset, final int sendCount, final Datatype sendType, final Object recvBuf, final int recvOffset, final int recvCount, final Datatype recvType, final int root)
    {
        final CommState s = live("gather");
        try
        {
            coll.gatherNow(sendBuf, sendOffset, sendCount, sendType, recvBuf, recvOffset, recvCount, recvType, root);
        }
        catch (final MpiException ex)
        {
            throw s.handle(ex);
        }
    }

    /** MPI_Igather: nonblocking gather; the buffers must not be touched until the request completes. */
    public Request igather(final Object sendBuf, final int sendOffset, final int sendCount, final Datatype sendType, final Object recvBuf, final int recvOffset, final int recvCount, final Datatype recvType, final int root)
    {
        return begin("igather", () -> coll.gather(sendBuf, sendOffset, sendCount, sendType, recvBuf, recvOffset, recvCount, recvType, root));
    }

    /** MPI_Gather_init (MPI-4): a persistent gather; arguments are checked and the schedule built once, each start() runs it. */
    public Request gatherInit(final Object sendBuf, final int sendOffset, final int sendCount, final Datatype sendType, final Object recvBuf, final int recvOffset, final int recvCount, final Datatype recvType, final int root)
    {
        return persistent("gatherInit", () -> coll.gather(sendBuf, sendOffset, sendCount, sendType, recvBuf, recvOffset, recvCount, recvType, root));
    }

    /** MPI_Gatherv: as gather with per-rank counts and displacements (in extents of {@code recvType}), significant at the root only. */
    public void gatherv(final Object sendBuf, final int sendOffset, final int sendCount, final Datatype sendType, final Object recvBuf, final int recvOffset, final int[] recvCounts, final int[] displs, final Datatype recvType, final int root)
    {
        run("gatherv", () -> coll.gatherv(sendBuf, sendOffset, sendCount, sendType, recvBuf, recvOffset, recvCounts, displs, recvType, root));
    }

    /** MPI_Igatherv: nonblocking gatherv; the buffers must not be touched until the request completes. */
    public Request igatherv(final Object sendBuf, final int sendOffset, final int sendCount, final Datatype sendType, final Object recvBuf, final int recvOffset, final int[] recvCounts, final int[] displs, final Datatype recvType, final int root)
    {
        return begin("igatherv", () -> coll.gatherv(sendBuf, sendOffset, sendCount, sendType, recvBuf, recvOffset, recvCounts, displs, recvType, root));
    }

    /** MPI_Gatherv_init (MPI-4): a persistent gatherv; arguments are checked and the schedule built once, each start() runs it. */
    public Request gathervInit(final Object sendBuf, final int sendOffset, final int sendCount, final Datatype sendType, final Object recvBuf, final int recvOffset, final int[] recvCounts, final int[] displs, final Datatype recvType, final int root)
    {
        return persistent("gathervInit", () -> coll.gatherv(sendBuf, sendOffset, sendCount, sendType, recvBuf, recvOffset, recvCounts, displs, recvType, root));
    }

    /** MPI_Scatter: rank i receives the root's block at {@code i * sendCount} items of {@code sendType}. IN_PLACE as receive buffer at the root: its block stays where it is. */
    public void scatter(final Object sendBuf, final int sendOffset, final int sendCount, final Datatype sendType, final Object recvBuf, final int recvOffset, final int recvCount, final Datatype recvType, final int root)
    {
        final CommState s = live("scatter");
        try
        {
            coll.scatterNow(sendBuf, sendOffset, sendCount, sendType, recvBuf, recvOffset, recvCount, recvType, root);
        }
        catch (final MpiException ex)
        {
            throw s.handle(ex);
        }
    }

    /** MPI_Iscatter: nonblocking scatter; the buffers must not be touched until the request completes. */
    public Request iscatter(final Object sendBuf, final int sendOffset, final int sendCount, final Datatype sendType, final Object recvBuf, final int recvOffset, final int recvCount, final Datatype recvType, final int root)
    {
        return begin("iscatter", () -> coll.scatter(sendBuf, sendOffset, sendCount, sendType, recvBuf, recvOffset, recvCount, recvType, root));
    }

    /** MPI_Scatter_init (MPI-4): a persistent scatter; arguments are checked and the schedule built once, each start() runs it. */
    public Request scatterInit(final Object sendBuf, final int sendOffset, final int sendCount, final Datatype sendType, final Object recvBuf, final int recvOffset, final int recvCount, final Datatype recvType, final int root)
    {
        return persistent("scatterInit", () -> coll.scatter(sendBuf, sendOffset, sendCount, sendType, recvBuf, recvOffset, recvCount, recvType, root));
    }

    /** MPI_Scatterv: as scatter with per-rank counts and displacements (in extents of {@code sendType}), significant at the root only. */
    public void scatterv(final Object sendBuf, final int sendOffset, final int[] sendCounts, final int[] displs, final Datatype sendType, final Object recvBuf, final int recvOffset, final int recvCount, final Datatype recvType, final int root)
    {
        run("scatterv", () -> coll.scatterv(sendBuf, sendOffset, sendCounts, displs, sendType, recvBuf, recvOffset, recvCount, recvType, root));
    }

    /** MPI_Iscatterv: nonblocking scatterv; the buffers must not be touched until the request completes. */
    public Request iscatterv(final Object sendBuf, final int sendOffset, final int[] sendCounts, final int[] displs, final Datatype sendType, final Object recvBuf, final int recvOffset, final int recvCount, final Datatype recvType, final int root)
    {
        return begin("iscatterv", () -> coll.scatterv(sendBuf, sendOffset, sendCounts, displs, sendType, recvBuf, recvOffset, recvCount, recvType, root));
    }

    /** MPI_Scatterv_init (MPI-4): a persistent scatterv; arguments are checked and the schedule built once, each start() runs it. */
    public Request scattervInit(final Object sendBuf, final int sendOffset, final int[] sendCounts, final int[] displs, final Datatype sendType, final Object recvBuf, final int recvOffset, final int recvCount, final Datatype recvType, final int root)
    {
        return persistent("scattervInit", () -> coll.scatterv(sendBuf, sendOffset, sendCounts, displs, sendType, recvBuf, recvOffset, recvCount, recvType, root));
    }

    /** MPI_Allgather: every rank receives rank i's block at {@code i * recvCount} items of {@code recvType}. IN_PLACE as send buffer: the own block is already in place. Ring, or recursive doubling on power-of-two sizes. */
    public void allgather(final Object sendBuf, final int sendOffset, final int sendCount, final Datatype sendType, final Object recvBuf, final int recvOffset, final int recvCount, final Datatype recvType)
    {
        final CommState s = live("allgather");
        try
        {
            coll.allgatherNow(sendBuf, sendOffset, sendCount, sendType, recvBuf, recvOffset, recvCount, recvType);
        }
        catch (final MpiException ex)
        {
            throw s.handle(ex);
        }
    }

    /** MPI_Iallgather: nonblocking allgather; the buffers must not be touched until the request completes. */
    public Request iallgather(final Object sendBuf, final int sendOffset, final int sendCount, final Datatype sendType, final Object recvBuf, final int recvOffset, final int recvCount, final Datatype recvType)
    {
        return begin("iallgather", () -> coll.allgather(sendBuf, sendOffset, sendCount, sendType, recvBuf, recvOffset, recvCount, recvType));
    }

    /** MPI_Allgather_init (MPI-4): a persistent allgather; arguments are checked and the schedule built once, each start() runs it. */
    public Request allgatherInit(final Object sendBuf, final int sendOffset, final int sendCount, final Datatype sendType, final Object recvBuf, final int recvOffset, final int recvCount, final Datatype recvType)
    {
        return persistent("allgatherInit", () -> coll.allgather(sendBuf, sendOffset, sendCount, sendType, recvBuf, recvOffset, recvCount, recvType));
    }

    /** MPI_Allgatherv: as allgather with per-rank counts and displacements (in extents of {@code recvType}). Ring. */
    public void allgatherv(final Object sendBuf, final int sendOffset, final int sendCount, final Datatype sendType, final Object recvBuf, final int recvOffset, final int[] recvCounts, final int[] displs, final Datatype recvType)
    {
        run("allgatherv", () -> coll.allgatherv(sendBuf, sendOffset, sendCount, sendType, recvBuf, recvOffset, recvCounts, displs, recvType));
    }

    /** MPI_Iallgatherv: nonblocking allgatherv; the buffers must not be touched until the request completes. */
    public Request iallgatherv(final Object sendBuf, final int sendOffset, final int sendCount, final Datatype sendType, final Object recvBuf, final int recvOffset, final int[] recvCounts, final int[] displs, final Datatype recvType)
    {
        return begin("iallgatherv", () -> coll.allgatherv(sendBuf, sendOffset, sendCount, sendType, recvBuf, recvOffset, recvCounts, displs, recvType));
    }

    /** MPI_Allgatherv_init (MPI-4): a persistent allgatherv; arguments are checked and the schedule built once, each start() runs it. */
    public Request allgathervInit(final Object sendBuf, final int sendOffset, final int sendCount, final Datatype sendType, final Object recvBuf, final int recvOffset, final int[] recvCounts, final int[] displs, final Datatype recvType)
    {
        return persistent("allgathervInit", () -> coll.allgatherv(sendBuf, sendOffset, sendCount, sendType, recvBuf, recvOffset, recvCounts, displs, recvType));
    }

    /** MPI_Alltoall: rank j's block i goes to rank i's block j. IN_PLACE as send buffer: the data is taken from the receive buffer. Bruck for small blocks, linear or pairwise for larger. */
    public void alltoall(final Object sendBuf, final int sendOffset, final int sendCount, final Datatype sendType, final Object recvBuf, final int recvOffset, final int recvCount, final Datatype recvType)
    {
        final CommState s = live("alltoall");
        try
        {
            coll.alltoallNow(sendBuf, sendOffset, sendCount, sendType, recvBuf, recvOffset, recvCount, recvType);
        }
        catch (final MpiException ex)
        {
            throw s.handle(ex);
        }
    }

    /** MPI_Ialltoall: nonblocking alltoall; the buffers must not be touched until the request completes. */
    public Request ialltoall(final Object sendBuf, final int sendOffset, final int sendCount, final Datatype sendType, final Object recvBuf, final int recvOffset, final int recvCount, final Datatype recvType)
    {
        return begin("ialltoall", () -> coll.alltoall(sendBuf, sendOffset, sendCount, sendType, recvBuf, recvOffset, recvCount, recvType));
    }

    /** MPI_Alltoall_init (MPI-4): a persistent alltoall; arguments are checked and the schedule built once, each start() runs it. */
    public Request alltoallInit(final Object sendBuf, final int sendOffset, final int sendCount, final Datatype sendType, final Object recvBuf, final int recvOffset, final int recvCount, final Datatype recvType)
    {
        return persistent("alltoallInit", () -> coll.alltoall(sendBuf, sendOffset, sendCount, sendType, recvBuf, recvOffset, recvCount, recvType));
    }

    /** MPI_Alltoallv: as alltoall with per-rank counts and displacements (in extents of the types). */
    public void alltoallv(final Object sendBuf, final int sendOffset, final int[] sendCounts, final int[] sendDispls, final Datatype sendType, final Object recvBuf, final int recvOffset, final int[] recvCounts, final int[] recvDispls, final Datatype recvType)
    {
        run("alltoallv", () -> coll.alltoallv(sendBuf, sendOffset, sendCounts, sendDispls, sendType, recvBuf, recvOffset, recvCounts, recvDispls, recvType));
    }

    /** MPI_Ialltoallv: nonblocking alltoallv; the buffers must not be touched until the request completes. */
    public Request ialltoallv(final Object sendBuf, final int sendOffset, final int[] sendCounts, final int[] sendDispls, final Datatype sendType, final Object recvBuf, final int recvOffset, final int[] recvCounts, final int[] recvDispls, final Datatype recvType)
    {
        return begin("ialltoallv", () -> coll.alltoallv(sendBuf, sendOffset, sendCounts, sendDispls, sendType, recvBuf, recvOffset, recvCounts, recvDispls, recvType));
    }

    /** MPI_Alltoallv_init (MPI-4): a persistent alltoallv; arguments are checked and the schedule built once, each start() runs it. */
    public Request alltoallvInit(final Object sendBuf, final int sendOffset, final int[] sendCounts, final int[] sendDispls, final Datatype sendType, final Object recvBuf, final int recvOffset, final int[] recvCounts, final int[] recvDispls, final Datatype recvType)
    {
        return persistent("alltoallvInit", () -> coll.alltoallv(sendBuf, sendOffset, sendCounts, sendDispls, sendType, recvBuf, recvOffset, recvCounts, recvDispls, recvType));
    }

    /** MPI_Alltoallw: as alltoallv with a type per rank and displacements in bytes. */
    public void alltoallw(final Object sendBuf, final int sendOffset, final int[] sendCounts, final long[] sendDisplsBytes, final Datatype[] sendTypes, final Object recvBuf, final int recvOffset, final int[] recvCounts, final long[] recvDisplsBytes, final Datatype[] recvTypes)
    {
        run("alltoallw", () -> coll.alltoallw(sendBuf, sendOffset, sendCounts, sendDisplsBytes, sendTypes, recvBuf, recvOffset, recvCounts, recvDisplsBytes, recvTypes));
    }

    /** MPI_Ialltoallw: nonblocking alltoallw; the buffers must not be touched until the request completes. */
    public Request ialltoallw(final Object sendBuf, final int sendOffset, final int[] sendCounts, final long[] sendDisplsBytes, final Datatype[] sendTypes, final Object recvBuf, final int recvOffset, final int[] recvCounts, final long[] recvDisplsBytes, final Datatype[] recvTypes)
    {
        return begin("ialltoallw", () -> coll.alltoallw(sendBuf, sendOffset, sendCounts, sendDisplsBytes, sendTypes, recvBuf, recvOffset, recvCounts, recvDisplsBytes, recvTypes));
    }

    /** MPI_Alltoallw_init (MPI-4): a persistent alltoallw; arguments are checked and the schedule built once, each start() runs it. */
    public Request alltoallwInit(final Object sendBuf, final int sendOffset, final int[] sendCounts, final long[] sendDisplsBytes, final Datatype[] sendTypes, final Object recvBuf, final int recvOffset, final int[] recvCounts, final long[] recvDisplsBytes, final Datatype[] recvTypes)
    {
        return persistent("alltoallwInit", () -> coll.alltoallw(sendBuf, sendOffset, sendCounts, sendDisplsBytes, sendTypes, recvBuf, recvOffset, recvCounts, recvDisplsBytes, recvTypes));
    }

    /** MPI_Reduce_scatter_block: reduces {@code size * recvCount} items and leaves block i on rank i. IN_PLACE as send buffer: the input is the receive buffer's first {@code size * recvCount} items. */
    public void reduceScatterBlock(final Object sendBuf, final int sendOffset, final Object recvBuf, final int recvOffset, final int recvCount, final Datatype type, final Op op)
    {
        run("reduceScatterBlock", () -> coll.reduceScatterBlock(sendBuf, sendOffset, recvBuf, recvOffset, recvCount, type, op));
    }

    /** MPI_Ireduce_scatter_block: nonblocking reduceScatterBlock; the buffers must not be touched until the request completes. */
    public Request ireduceScatterBlock(final Object sendBuf, final int sendOffset, final Object recvBuf, final int recvOffset, final int recvCount, final Datatype type, final Op op)
    {
        return begin("ireduceScatterBlock", () -> coll.reduceScatterBlock(sendBuf, sendOffset, recvBuf, recvOffset, recvCount, type, op));
    }

    /** MPI_Reduce_scatter_block_init (MPI-4): a persistent reduceScatterBlock; arguments are checked and the schedule built once, each start() runs it. */
    public Request reduceScatterBlockInit(final Object sendBuf, final int sendOffset, final Object recvBuf, final int recvOffset, final int recvCount, final Datatype type, final Op op)
    {
        return persistent("reduceScatterBlockInit", () -> coll.reduceScatterBlock(sendBuf, sendOffset, recvBuf, recvOffset, recvCount, type, op));
    }

    /** MPI_Reduce_scatter: as reduceScatterBlock with per-rank counts. */
    public void reduceScatter(final Object sendBuf, final int sendOffset, final Object recvBuf, final int recvOffset, final int[] recvCounts, final Datatype type, final Op op)
    {
        run("reduceScatter", () -> coll.reduceScatter(sendBuf, sendOffset, recvBuf, recvOffset, recvCounts, type, op));
    }

    /** MPI_Ireduce_scatter: nonblocking reduceScatter; the buffers must not be touched until the request completes. */
    public Request ireduceScatter(final Object sendBuf, final int sendOffset, final Object recvBuf, final int recvOffset, final int[] recvCounts, final Datatype type, final Op op)
    {
        return begin("ireduceScatter", () -> coll.reduceScatter(sendBuf, sendOffset, recvBuf, recvOffset, recvCounts, type, op));
    }

    /** MPI_Reduce_scatter_init (MPI-4): a persistent reduceScatter; arguments are checked and the schedule built once, each start() runs it. */
    public Request reduceScatterInit(final Object sendBuf, final int sendOffset, final Object recvBuf, final int recvOffset, final int[] recvCounts, final Datatype type, final Op op)
    {
        return persistent("reduceScatterInit", () -> coll.reduceScatter(sendBuf, sendOffset, recvBuf, recvOffset, recvCounts, type, op));
    }

    /** MPI_Reduce_local: {@code inout = in op inout} on this rank, no communication. */
    public static void reduceLocal(final Object inBuf, final int inOffset, final Object inoutBuf, final int inoutOffset, final int count,
        final Datatype type, final Op op)
    {
        Reductions.reduceLocal(inBuf, inOffset, inoutBuf, inoutOffset, count, type, op);
    }

    /** MPI_Abort: stops every rank of the job with {@code code} as exit code. Does not return. */
    public void abort(final int code)
    {
        throw state.abort(code, "MPI_Abort called on " + state.name() + " by rank " + state.rank());
    }
}
