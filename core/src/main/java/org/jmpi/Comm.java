package org.jmpi;

import java.util.function.Supplier;

import org.jmpi.internal.coll.Collectives;
import org.jmpi.internal.coll.Neighbors;
import org.jmpi.internal.coll.PersistentCollRequest;
import org.jmpi.internal.coll.Reductions;
import org.jmpi.internal.comm.Attributes;
import org.jmpi.internal.comm.Communicators;
import org.jmpi.internal.pt2pt.CommState;
import org.jmpi.internal.pt2pt.PointToPoint;
import org.jmpi.internal.pt2pt.SendMode;

/**
 * A communicator (MPI 4.1 ch. 3 and 7): a group of ranks and a private matching context.
 *
 * <p><b>Buffers.</b> Every buffer argument is a Java array of a primitive type ({@code byte[]},
 * {@code short[]}, {@code char[]}, {@code int[]}, {@code long[]}, {@code float[]}, {@code double[]},
 * {@code boolean[]}) or a {@code java.nio} buffer (heap or direct, any byte order; its position and
 * limit are neither used nor changed). {@code offset} counts the buffer's elements from index 0 (bytes
 * for a {@code ByteBuffer}); {@code count} counts items of {@code type}. A type used on an array must be
 * made of that array's element type (see docs/datatypes.md). Anything else is an {@link MpiException}
 * (ERR_BUFFER, ERR_TYPE...).
 *
 * <p><b>Errors</b> go through the communicator's {@link ErrorHandler}: with ERRORS_ARE_FATAL (the
 * default on world) the job aborts; with ERRORS_RETURN the call throws the {@link MpiException}.
 *
 * <p><b>Threading</b>: as the rank's {@link ThreadLevel}; with MULTIPLE any thread may call.
 */
public class Comm
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
    /** {@link #splitType} type: ranks that share memory (MPI_COMM_TYPE_SHARED), here the ranks of one node. */
    public static final int TYPE_SHARED = 1;

    private static final byte[] NO_BYTES = new byte[0];

    /** The communicator's state. Internal: communicators are made by {@link Mpi} and by communicator calls. */
    protected final CommState state;

    /** Internal: wraps a communicator's state. */
    public Comm(final CommState state)
    {
        this.state = state;
    }

    /** This process's rank in the communicator. */
    public int rank()
    {
        return state.rank();
    }

    /** Number of ranks in the communicator. */
    public int size()
    {
        return state.size();
    }

    /** The communicator's name (MPI_Comm_get_name): "WORLD", "SELF", or as set. */
    public String name()
    {
        return state.name();
    }

    /** Sets the name (MPI_Comm_set_name). */
    public void setName(final String name)
    {
        state.name(name);
    }

    /** The error handler (MPI_Comm_get_errhandler). */
    public ErrorHandler errorHandler()
    {
        return state.errorHandler();
    }

    /** Sets the error handler (MPI_Comm_set_errhandler). */
    public void setErrorHandler(final ErrorHandler handler)
    {
        if (handler == null)
        {
            throw state.handle(new MpiException(ErrorClass.ERR_ARG, "setErrorHandler: handler is null"));
        }
        state.errorHandler(handler);
    }

    /** Internal: the communicator's state. */
    public CommState state()
    {
        return state;
    }

    /** MPI_Send: returns when the buffer may be reused (eager) or the message has been handed over (rendezvous). */
    public void send(final Object buf, final int offset, final int count, final Datatype type, final int dest, final int tag)
    {
        try
        {
            PointToPoint.isend(state, buf, offset, count, type, dest, tag, SendMode.STANDARD).await();
        }
        catch (final MpiException ex)
        {
            throw state.handle(ex);
        }
    }

    /** MPI_ISend: nonblocking; complete the request with await/test. */
    public Request isend(final Object buf, final int offset, final int count, final Datatype type, final int dest, final int tag)
    {
        try
        {
            return PointToPoint.isend(state, buf, offset, count, type, dest, tag, SendMode.STANDARD);
        }
        catch (final MpiException ex)
        {
            throw state.handle(ex);
        }
    }

    /** MPI_Send_init: a persistent request; each start() sends again. */
    public Request sendInit(final Object buf, final int offset, final int count, final Datatype type, final int dest, final int tag)
    {
        try
        {
            return PointToPoint.sendInit(state, buf, offset, count, type, dest, tag, SendMode.STANDARD);
        }
        catch (final MpiException ex)
        {
            throw state.handle(ex);
        }
    }

    /** MPI_Ssend: returns once the matching receive has started. */
    public void ssend(final Object buf, final int offset, final int count, final Datatype type, final int dest, final int tag)
    {
        try
        {
            PointToPoint.isend(state, buf, offset, count, type, dest, tag, SendMode.SYNC).await();
        }
        catch (final MpiException ex)
        {
            throw state.handle(ex);
        }
    }

    /** MPI_ISsend: nonblocking; complete the request with await/test. */
    public Request issend(final Object buf, final int offset, final int count, final Datatype type, final int dest, final int tag)
    {
        try
        {
            return PointToPoint.isend(state, buf, offset, count, type, dest, tag, SendMode.SYNC);
        }
        catch (final MpiException ex)
        {
            throw state.handle(ex);
        }
    }

    /** MPI_Ssend_init: a persistent request; each start() sends again. */
    public Request ssendInit(final Object buf, final int offset, final int count, final Datatype type, final int dest, final int tag)
    {
        try
        {
            return PointToPoint.sendInit(state, buf, offset, count, type, dest, tag, SendMode.SYNC);
        }
        catch (final MpiException ex)
        {
            throw state.handle(ex);
        }
    }

    /** MPI_Rsend: the receive must already be posted (jmpi treats it as a standard send). */
    public void rsend(final Object buf, final int offset, final int count, final Datatype type, final int dest, final int tag)
    {
        try
        {
            PointToPoint.isend(state, buf, offset, count, type, dest, tag, SendMode.READY).await();
        }
        catch (final MpiException ex)
        {
            throw state.handle(ex);
        }
    }

    /** MPI_IRsend: nonblocking; complete the request with await/test. */
    public Request irsend(final Object buf, final int offset, final int count, final Datatype type, final int dest, final int tag)
    {
        try
        {
            return PointToPoint.isend(state, buf, offset, count, type, dest, tag, SendMode.READY);
        }
        catch (final MpiException ex)
        {
            throw state.handle(ex);
        }
    }

    /** MPI_Rsend_init: a persistent request; each start() sends again. */
    public Request rsendInit(final Object buf, final int offset, final int count, final Datatype type, final int dest, final int tag)
    {
        try
        {
            return PointToPoint.sendInit(state, buf, offset, count, type, dest, tag, SendMode.READY);
        }
        catch (final MpiException ex)
        {
            throw state.handle(ex);
        }
    }

    /** MPI_Bsend: copies the message into the attached buffer ({@link Mpi#bufferAttach}) and returns. */
    public void bsend(final Object buf, final int offset, final int count, final Datatype type, final int dest, final int tag)
    {
        try
        {
            PointToPoint.isend(state, buf, offset, count, type, dest, tag, SendMode.BUFFERED).await();
        }
        catch (final MpiException ex)
        {
            throw state.handle(ex);
        }
    }

    /** MPI_IBsend: nonblocking; complete the request with await/test. */
    public Request ibsend(final Object buf, final int offset, final int count, final Datatype type, final int dest, final int tag)
    {
        try
        {
            return PointToPoint.isend(state, buf, offset, count, type, dest, tag, SendMode.BUFFERED);
        }
        catch (final MpiException ex)
        {
            throw state.handle(ex);
        }
    }

    /** MPI_Bsend_init: a persistent request; each start() sends again. */
    public Request bsendInit(final Object buf, final int offset, final int count, final Datatype type, final int dest, final int tag)
    {
        try
        {
            return PointToPoint.sendInit(state, buf, offset, count, type, dest, tag, SendMode.BUFFERED);
        }
        catch (final MpiException ex)
        {
            throw state.handle(ex);
        }
    }

    /** MPI_Recv: waits for a matching message. Source may be ANY_SOURCE or PROC_NULL, tag ANY_TAG. A message larger than the buffer fails with ERR_TRUNCATE (the status counts the whole message). */
    public Status recv(final Object buf, final int offset, final int count, final Datatype type, final int source, final int tag)
    {
        try
        {
            return PointToPoint.irecv(state, buf, offset, count, type, source, tag).await();
        }
        catch (final MpiException ex)
        {
            throw state.handle(ex);
        }
    }

    /** MPI_Irecv. */
    public Request irecv(final Object buf, final int offset, final int count, final Datatype type, final int source, final int tag)
    {
        try
        {
            return PointToPoint.irecv(state, buf, offset, count, type, source, tag);
        }
        catch (final MpiException ex)
        {
            throw state.handle(ex);
        }
    }

    /** MPI_Recv_init: a persistent receive. */
    public Request recvInit(final Object buf, final int offset, final int count, final Datatype type, final int source, final int tag)
    {
        try
        {
            return PointToPoint.recvInit(state, buf, offset, count, type, source, tag);
        }
        catch (final MpiException ex)
        {
            throw state.handle(ex);
        }
    }

    /** MPI_Sendrecv: sends and receives at once (no deadlock between pairs); returns the receive status. */
    public Status sendrecv(
        final Object sendBuf, final int sendOffset, final int sendCount, final Datatype sendType, final int dest, final int sendTag,
        final Object recvBuf, final int recvOffset, final int recvCount, final Datatype recvType, final int source, final int recvTag)
    {
        try
        {
            final Request r = PointToPoint.irecv(state, recvBuf, recvOffset, recvCount, recvType, source, recvTag);
            final Request s = PointToPoint.isend(state, sendBuf, sendOffset, sendCount, sendType, dest, sendTag, SendMode.STANDARD);
            s.await();
            return r.await();
        }
        catch (final MpiException ex)
        {
            throw state.handle(ex);
        }
    }

    /** MPI_Sendrecv_replace: sends the buffer's contents and receives into the same buffer. */
    public Status sendrecvReplace(final Object buf, final int offset, final int count, final Datatype type, final int dest, final int sendTag, final int source, final int recvTag)
    {
        try
        {
            return PointToPoint.sendrecvReplace(state, buf, offset, count, type, dest, sendTag, source, recvTag);
        }
        catch (final MpiException ex)
        {
            throw state.handle(ex);
        }
    }

    /** MPI_Probe: waits for a matching message and returns its status without receiving it. */
    public Status probe(final int source, final int tag)
    {
        try
        {
            return PointToPoint.probe(state, source, tag);
        }
        catch (final MpiException ex)
        {
            throw state.handle(ex);
        }
    }

    /** MPI_Iprobe: the status of a matching message that has arrived, or {@code null}. */
    public Status iprobe(final int source, final int tag)
    {
        try
        {
            return PointToPoint.iprobe(state, source, tag);
        }
        catch (final MpiException ex)
        {
            throw state.handle(ex);
        }
    }

    /** MPI_Mprobe: waits for a matching message and takes it out of matching; receive it with {@link Message#recv}. */
    public Message mprobe(final int source, final int tag)
    {
        try
        {
            return PointToPoint.mprobe(state, source, tag);
        }
        catch (final MpiException ex)
        {
            throw state.handle(ex);
        }
    }

    /** MPI_Improbe: a matched message, or {@code null} when none has arrived. */
    public Message improbe(final int source, final int tag)
    {
        try
        {
            return PointToPoint.improbe(state, source, tag);
        }
        catch (final MpiException ex)
        {
            throw state.handle(ex);
        }
    }

    /** MPI_Barrier: returns once every rank of the communicator has called it (dissemination algorithm). */
    public void barrier()
    {
        run(() -> Collectives.barrier(state));
    }

    // ============================================================================================
    // Collective operations (issue 4). Blocking calls run the same schedule as the nonblocking ones
    // and wait for it; see docs/collectives.md for the algorithms and the parameters that force them.
    // ============================================================================================

    private void run(final Supplier<Collectives.Plan> plan)
    {
        try
        {
            plan.get().start().await();
        }
        catch (final MpiException ex)
        {
            throw state.handle(ex);
        }
    }

    private Request begin(final Supplier<Collectives.Plan> plan)
    {
        try
        {
            return plan.get().start();
        }
        catch (final MpiException ex)
        {
            throw state.handle(ex);
        }
    }

    private Request persistent(final Supplier<Collectives.Plan> plan)
    {
        try
        {
            return new PersistentCollRequest(state, plan.get());
        }
        catch (final MpiException ex)
        {
            throw state.handle(ex);
        }
    }

    /** MPI_Ibarrier: completes once every rank has called it. */
    public Request ibarrier()
    {
        return begin(() -> Collectives.barrier(state));
    }

    /** MPI_Barrier_init: a persistent barrier; each start() is one barrier. */
    public Request barrierInit()
    {
        return persistent(() -> Collectives.barrier(state));
    }

    /** MPI_Bcast: the root's {@code count} items of {@code type} reach every rank's buffer. Binomial tree for small messages, scatter + ring allgather for large ones. */
    public void bcast(final Object buf, final int offset, final int count, final Datatype type, final int root)
    {
        run(() -> Collectives.bcast(state, buf, offset, count, type, root));
    }

    /** MPI_Ibcast: nonblocking bcast; the buffers must not be touched until the request completes. */
    public Request ibcast(final Object buf, final int offset, final int count, final Datatype type, final int root)
    {
        return begin(() -> Collectives.bcast(state, buf, offset, count, type, root));
    }

    /** MPI_Bcast_init (MPI-4): a persistent bcast; arguments are checked and the schedule built once, each start() runs it. */
    public Request bcastInit(final Object buf, final int offset, final int count, final Datatype type, final int root)
    {
        return persistent(() -> Collectives.bcast(state, buf, offset, count, type, root));
    }

    /** MPI_Reduce: combines every rank's {@code count} items with {@code op} (in rank order) into the root's receive buffer (ignored elsewhere). IN_PLACE as send buffer at the root: its input is taken from the receive buffer. Binomial tree. */
    public void reduce(final Object sendBuf, final int sendOffset, final Object recvBuf, final int recvOffset, final int count, final Datatype type, final Op op, final int root)
    {
        run(() -> Reductions.reduce(state, sendBuf, sendOffset, recvBuf, recvOffset, count, type, op, root));
    }

    /** MPI_Ireduce: nonblocking reduce; the buffers must not be touched until the request completes. */
    public Request ireduce(final Object sendBuf, final int sendOffset, final Object recvBuf, final int recvOffset, final int count, final Datatype type, final Op op, final int root)
    {
        return begin(() -> Reductions.reduce(state, sendBuf, sendOffset, recvBuf, recvOffset, count, type, op, root));
    }

    /** MPI_Reduce_init (MPI-4): a persistent reduce; arguments are checked and the schedule built once, each start() runs it. */
    public Request reduceInit(final Object sendBuf, final int sendOffset, final Object recvBuf, final int recvOffset, final int count, final Datatype type, final Op op, final int root)
    {
        return persistent(() -> Reductions.reduce(state, sendBuf, sendOffset, recvBuf, recvOffset, count, type, op, root));
    }

    /** MPI_Allreduce: as reduce, with the result on every rank. IN_PLACE as send buffer: input from the receive buffer. Recursive doubling for small messages, Rabenseifner for large. */
    public void allreduce(final Object sendBuf, final int sendOffset, final Object recvBuf, final int recvOffset, final int count, final Datatype type, final Op op)
    {
        run(() -> Reductions.allreduce(state, sendBuf, sendOffset, recvBuf, recvOffset, count, type, op));
    }

    /** MPI_Iallreduce: nonblocking allreduce; the buffers must not be touched until the request completes. */
    public Request iallreduce(final Object sendBuf, final int sendOffset, final Object recvBuf, final int recvOffset, final int count, final Datatype type, final Op op)
    {
        return begin(() -> Reductions.allreduce(state, sendBuf, sendOffset, recvBuf, recvOffset, count, type, op));
    }

    /** MPI_Allreduce_init (MPI-4): a persistent allreduce; arguments are checked and the schedule built once, each start() runs it. */
    public Request allreduceInit(final Object sendBuf, final int sendOffset, final Object recvBuf, final int recvOffset, final int count, final Datatype type, final Op op)
    {
        return persistent(() -> Reductions.allreduce(state, sendBuf, sendOffset, recvBuf, recvOffset, count, type, op));
    }

    /** MPI_Gather: the root receives rank i's block at {@code i * recvCount} items of {@code recvType}. IN_PLACE as send buffer at the root: its block is already in place. */
    public void gather(final Object sendBuf, final int sendOffset, final int sendCount, final Datatype sendType, final Object recvBuf, final int recvOffset, final int recvCount, final Datatype recvType, final int root)
    {
        run(() -> Collectives.gather(state, sendBuf, sendOffset, sendCount, sendType, recvBuf, recvOffset, recvCount, recvType, root));
    }

    /** MPI_Igather: nonblocking gather; the buffers must not be touched until the request completes. */
    public Request igather(final Object sendBuf, final int sendOffset, final int sendCount, final Datatype sendType, final Object recvBuf, final int recvOffset, final int recvCount, final Datatype recvType, final int root)
    {
        return begin(() -> Collectives.gather(state, sendBuf, sendOffset, sendCount, sendType, recvBuf, recvOffset, recvCount, recvType, root));
    }

    /** MPI_Gather_init (MPI-4): a persistent gather; arguments are checked and the schedule built once, each start() runs it. */
    public Request gatherInit(final Object sendBuf, final int sendOffset, final int sendCount, final Datatype sendType, final Object recvBuf, final int recvOffset, final int recvCount, final Datatype recvType, final int root)
    {
        return persistent(() -> Collectives.gather(state, sendBuf, sendOffset, sendCount, sendType, recvBuf, recvOffset, recvCount, recvType, root));
    }

    /** MPI_Gatherv: as gather with per-rank counts and displacements (in extents of {@code recvType}), significant at the root only. */
    public void gatherv(final Object sendBuf, final int sendOffset, final int sendCount, final Datatype sendType, final Object recvBuf, final int recvOffset, final int[] recvCounts, final int[] displs, final Datatype recvType, final int root)
    {
        run(() -> Collectives.gatherv(state, sendBuf, sendOffset, sendCount, sendType, recvBuf, recvOffset, recvCounts, displs, recvType, root));
    }

    /** MPI_Igatherv: nonblocking gatherv; the buffers must not be touched until the request completes. */
    public Request igatherv(final Object sendBuf, final int sendOffset, final int sendCount, final Datatype sendType, final Object recvBuf, final int recvOffset, final int[] recvCounts, final int[] displs, final Datatype recvType, final int root)
    {
        return begin(() -> Collectives.gatherv(state, sendBuf, sendOffset, sendCount, sendType, recvBuf, recvOffset, recvCounts, displs, recvType, root));
    }

    /** MPI_Gatherv_init (MPI-4): a persistent gatherv; arguments are checked and the schedule built once, each start() runs it. */
    public Request gathervInit(final Object sendBuf, final int sendOffset, final int sendCount, final Datatype sendType, final Object recvBuf, final int recvOffset, final int[] recvCounts, final int[] displs, final Datatype recvType, final int root)
    {
        return persistent(() -> Collectives.gatherv(state, sendBuf, sendOffset, sendCount, sendType, recvBuf, recvOffset, recvCounts, displs, recvType, root));
    }

    /** MPI_Scatter: rank i receives the root's block at {@code i * sendCount} items of {@code sendType}. IN_PLACE as receive buffer at the root: its block stays where it is. */
    public void scatter(final Object sendBuf, final int sendOffset, final int sendCount, final Datatype sendType, final Object recvBuf, final int recvOffset, final int recvCount, final Datatype recvType, final int root)
    {
        run(() -> Collectives.scatter(state, sendBuf, sendOffset, sendCount, sendType, recvBuf, recvOffset, recvCount, recvType, root));
    }

    /** MPI_Iscatter: nonblocking scatter; the buffers must not be touched until the request completes. */
    public Request iscatter(final Object sendBuf, final int sendOffset, final int sendCount, final Datatype sendType, final Object recvBuf, final int recvOffset, final int recvCount, final Datatype recvType, final int root)
    {
        return begin(() -> Collectives.scatter(state, sendBuf, sendOffset, sendCount, sendType, recvBuf, recvOffset, recvCount, recvType, root));
    }

    /** MPI_Scatter_init (MPI-4): a persistent scatter; arguments are checked and the schedule built once, each start() runs it. */
    public Request scatterInit(final Object sendBuf, final int sendOffset, final int sendCount, final Datatype sendType, final Object recvBuf, final int recvOffset, final int recvCount, final Datatype recvType, final int root)
    {
        return persistent(() -> Collectives.scatter(state, sendBuf, sendOffset, sendCount, sendType, recvBuf, recvOffset, recvCount, recvType, root));
    }

    /** MPI_Scatterv: as scatter with per-rank counts and displacements (in extents of {@code sendType}), significant at the root only. */
    public void scatterv(final Object sendBuf, final int sendOffset, final int[] sendCounts, final int[] displs, final Datatype sendType, final Object recvBuf, final int recvOffset, final int recvCount, final Datatype recvType, final int root)
    {
        run(() -> Collectives.scatterv(state, sendBuf, sendOffset, sendCounts, displs, sendType, recvBuf, recvOffset, recvCount, recvType, root));
    }

    /** MPI_Iscatterv: nonblocking scatterv; the buffers must not be touched until the request completes. */
    public Request iscatterv(final Object sendBuf, final int sendOffset, final int[] sendCounts, final int[] displs, final Datatype sendType, final Object recvBuf, final int recvOffset, final int recvCount, final Datatype recvType, final int root)
    {
        return begin(() -> Collectives.scatterv(state, sendBuf, sendOffset, sendCounts, displs, sendType, recvBuf, recvOffset, recvCount, recvType, root));
    }

    /** MPI_Scatterv_init (MPI-4): a persistent scatterv; arguments are checked and the schedule built once, each start() runs it. */
    public Request scattervInit(final Object sendBuf, final int sendOffset, final int[] sendCounts, final int[] displs, final Datatype sendType, final Object recvBuf, final int recvOffset, final int recvCount, final Datatype recvType, final int root)
    {
        return persistent(() -> Collectives.scatterv(state, sendBuf, sendOffset, sendCounts, displs, sendType, recvBuf, recvOffset, recvCount, recvType, root));
    }

    /** MPI_Allgather: every rank receives rank i's block at {@code i * recvCount} items of {@code recvType}. IN_PLACE as send buffer: the own block is already in place. Ring, or recursive doubling on power-of-two sizes. */
    public void allgather(final Object sendBuf, final int sendOffset, final int sendCount, final Datatype sendType, final Object recvBuf, final int recvOffset, final int recvCount, final Datatype recvType)
    {
        run(() -> Collectives.allgather(state, sendBuf, sendOffset, sendCount, sendType, recvBuf, recvOffset, recvCount, recvType));
    }

    /** MPI_Iallgather: nonblocking allgather; the buffers must not be touched until the request completes. */
    public Request iallgather(final Object sendBuf, final int sendOffset, final int sendCount, final Datatype sendType, final Object recvBuf, final int recvOffset, final int recvCount, final Datatype recvType)
    {
        return begin(() -> Collectives.allgather(state, sendBuf, sendOffset, sendCount, sendType, recvBuf, recvOffset, recvCount, recvType));
    }

    /** MPI_Allgather_init (MPI-4): a persistent allgather; arguments are checked and the schedule built once, each start() runs it. */
    public Request allgatherInit(final Object sendBuf, final int sendOffset, final int sendCount, final Datatype sendType, final Object recvBuf, final int recvOffset, final int recvCount, final Datatype recvType)
    {
        return persistent(() -> Collectives.allgather(state, sendBuf, sendOffset, sendCount, sendType, recvBuf, recvOffset, recvCount, recvType));
    }

    /** MPI_Allgatherv: as allgather with per-rank counts and displacements (in extents of {@code recvType}). Ring. */
    public void allgatherv(final Object sendBuf, final int sendOffset, final int sendCount, final Datatype sendType, final Object recvBuf, final int recvOffset, final int[] recvCounts, final int[] displs, final Datatype recvType)
    {
        run(() -> Collectives.allgatherv(state, sendBuf, sendOffset, sendCount, sendType, recvBuf, recvOffset, recvCounts, displs, recvType));
    }

    /** MPI_Iallgatherv: nonblocking allgatherv; the buffers must not be touched until the request completes. */
    public Request iallgatherv(final Object sendBuf, final int sendOffset, final int sendCount, final Datatype sendType, final Object recvBuf, final int recvOffset, final int[] recvCounts, final int[] displs, final Datatype recvType)
    {
        return begin(() -> Collectives.allgatherv(state, sendBuf, sendOffset, sendCount, sendType, recvBuf, recvOffset, recvCounts, displs, recvType));
    }

    /** MPI_Allgatherv_init (MPI-4): a persistent allgatherv; arguments are checked and the schedule built once, each start() runs it. */
    public Request allgathervInit(final Object sendBuf, final int sendOffset, final int sendCount, final Datatype sendType, final Object recvBuf, final int recvOffset, final int[] recvCounts, final int[] displs, final Datatype recvType)
    {
        return persistent(() -> Collectives.allgatherv(state, sendBuf, sendOffset, sendCount, sendType, recvBuf, recvOffset, recvCounts, displs, recvType));
    }

    /** MPI_Alltoall: rank j's block i goes to rank i's block j. IN_PLACE as send buffer: the data is taken from the receive buffer. Bruck for small blocks, linear or pairwise for larger. */
    public void alltoall(final Object sendBuf, final int sendOffset, final int sendCount, final Datatype sendType, final Object recvBuf, final int recvOffset, final int recvCount, final Datatype recvType)
    {
        run(() -> Collectives.alltoall(state, sendBuf, sendOffset, sendCount, sendType, recvBuf, recvOffset, recvCount, recvType));
    }

    /** MPI_Ialltoall: nonblocking alltoall; the buffers must not be touched until the request completes. */
    public Request ialltoall(final Object sendBuf, final int sendOffset, final int sendCount, final Datatype sendType, final Object recvBuf, final int recvOffset, final int recvCount, final Datatype recvType)
    {
        return begin(() -> Collectives.alltoall(state, sendBuf, sendOffset, sendCount, sendType, recvBuf, recvOffset, recvCount, recvType));
    }

    /** MPI_Alltoall_init (MPI-4): a persistent alltoall; arguments are checked and the schedule built once, each start() runs it. */
    public Request alltoallInit(final Object sendBuf, final int sendOffset, final int sendCount, final Datatype sendType, final Object recvBuf, final int recvOffset, final int recvCount, final Datatype recvType)
    {
        return persistent(() -> Collectives.alltoall(state, sendBuf, sendOffset, sendCount, sendType, recvBuf, recvOffset, recvCount, recvType));
    }

    /** MPI_Alltoallv: as alltoall with per-rank counts and displacements (in extents of the types). */
    public void alltoallv(final Object sendBuf, final int sendOffset, final int[] sendCounts, final int[] sendDispls, final Datatype sendType, final Object recvBuf, final int recvOffset, final int[] recvCounts, final int[] recvDispls, final Datatype recvType)
    {
        run(() -> Collectives.alltoallv(state, sendBuf, sendOffset, sendCounts, sendDispls, sendType, recvBuf, recvOffset, recvCounts, recvDispls, recvType));
    }

    /** MPI_Ialltoallv: nonblocking alltoallv; the buffers must not be touched until the request completes. */
    public Request ialltoallv(final Object sendBuf, final int sendOffset, final int[] sendCounts, final int[] sendDispls, final Datatype sendType, final Object recvBuf, final int recvOffset, final int[] recvCounts, final int[] recvDispls, final Datatype recvType)
    {
        return begin(() -> Collectives.alltoallv(state, sendBuf, sendOffset, sendCounts, sendDispls, sendType, recvBuf, recvOffset, recvCounts, recvDispls, recvType));
    }

    /** MPI_Alltoallv_init (MPI-4): a persistent alltoallv; arguments are checked and the schedule built once, each start() runs it. */
    public Request alltoallvInit(final Object sendBuf, final int sendOffset, final int[] sendCounts, final int[] sendDispls, final Datatype sendType, final Object recvBuf, final int recvOffset, final int[] recvCounts, final int[] recvDispls, final Datatype recvType)
    {
        return persistent(() -> Collectives.alltoallv(state, sendBuf, sendOffset, sendCounts, sendDispls, sendType, recvBuf, recvOffset, recvCounts, recvDispls, recvType));
    }

    /** MPI_Alltoallw: as alltoallv with a type per rank and displacements in bytes. */
    public void alltoallw(final Object sendBuf, final int sendOffset, final int[] sendCounts, final long[] sendDisplsBytes, final Datatype[] sendTypes, final Object recvBuf, final int recvOffset, final int[] recvCounts, final long[] recvDisplsBytes, final Datatype[] recvTypes)
    {
        run(() -> Collectives.alltoallw(state, sendBuf, sendOffset, sendCounts, sendDisplsBytes, sendTypes, recvBuf, recvOffset, recvCounts, recvDisplsBytes, recvTypes));
    }

    /** MPI_Ialltoallw: nonblocking alltoallw; the buffers must not be touched until the request completes. */
    public Request ialltoallw(final Object sendBuf, final int sendOffset, final int[] sendCounts, final long[] sendDisplsBytes, final Datatype[] sendTypes, final Object recvBuf, final int recvOffset, final int[] recvCounts, final long[] recvDisplsBytes, final Datatype[] recvTypes)
    {
        return begin(() -> Collectives.alltoallw(state, sendBuf, sendOffset, sendCounts, sendDisplsBytes, sendTypes, recvBuf, recvOffset, recvCounts, recvDisplsBytes, recvTypes));
    }

    /** MPI_Alltoallw_init (MPI-4): a persistent alltoallw; arguments are checked and the schedule built once, each start() runs it. */
    public Request alltoallwInit(final Object sendBuf, final int sendOffset, final int[] sendCounts, final long[] sendDisplsBytes, final Datatype[] sendTypes, final Object recvBuf, final int recvOffset, final int[] recvCounts, final long[] recvDisplsBytes, final Datatype[] recvTypes)
    {
        return persistent(() -> Collectives.alltoallw(state, sendBuf, sendOffset, sendCounts, sendDisplsBytes, sendTypes, recvBuf, recvOffset, recvCounts, recvDisplsBytes, recvTypes));
    }

    /** MPI_Reduce_scatter_block: reduces {@code size * recvCount} items and leaves block i on rank i. IN_PLACE as send buffer: the input is the receive buffer's first {@code size * recvCount} items. */
    public void reduceScatterBlock(final Object sendBuf, final int sendOffset, final Object recvBuf, final int recvOffset, final int recvCount, final Datatype type, final Op op)
    {
        run(() -> Reductions.reduceScatterBlock(state, sendBuf, sendOffset, recvBuf, recvOffset, recvCount, type, op));
    }

    /** MPI_Ireduce_scatter_block: nonblocking reduceScatterBlock; the buffers must not be touched until the request completes. */
    public Request ireduceScatterBlock(final Object sendBuf, final int sendOffset, final Object recvBuf, final int recvOffset, final int recvCount, final Datatype type, final Op op)
    {
        return begin(() -> Reductions.reduceScatterBlock(state, sendBuf, sendOffset, recvBuf, recvOffset, recvCount, type, op));
    }

    /** MPI_Reduce_scatter_block_init (MPI-4): a persistent reduceScatterBlock; arguments are checked and the schedule built once, each start() runs it. */
    public Request reduceScatterBlockInit(final Object sendBuf, final int sendOffset, final Object recvBuf, final int recvOffset, final int recvCount, final Datatype type, final Op op)
    {
        return persistent(() -> Reductions.reduceScatterBlock(state, sendBuf, sendOffset, recvBuf, recvOffset, recvCount, type, op));
    }

    /** MPI_Reduce_scatter: as reduceScatterBlock with per-rank counts. */
    public void reduceScatter(final Object sendBuf, final int sendOffset, final Object recvBuf, final int recvOffset, final int[] recvCounts, final Datatype type, final Op op)
    {
        run(() -> Reductions.reduceScatter(state, sendBuf, sendOffset, recvBuf, recvOffset, recvCounts, type, op));
    }

    /** MPI_Ireduce_scatter: nonblocking reduceScatter; the buffers must not be touched until the request completes. */
    public Request ireduceScatter(final Object sendBuf, final int sendOffset, final Object recvBuf, final int recvOffset, final int[] recvCounts, final Datatype type, final Op op)
    {
        return begin(() -> Reductions.reduceScatter(state, sendBuf, sendOffset, recvBuf, recvOffset, recvCounts, type, op));
    }

    /** MPI_Reduce_scatter_init (MPI-4): a persistent reduceScatter; arguments are checked and the schedule built once, each start() runs it. */
    public Request reduceScatterInit(final Object sendBuf, final int sendOffset, final Object recvBuf, final int recvOffset, final int[] recvCounts, final Datatype type, final Op op)
    {
        return persistent(() -> Reductions.reduceScatter(state, sendBuf, sendOffset, recvBuf, recvOffset, recvCounts, type, op));
    }

    /** MPI_Scan: rank i receives the reduction of ranks 0..i. IN_PLACE as send buffer: input from the receive buffer. Recursive doubling. */
    public void scan(final Object sendBuf, final int sendOffset, final Object recvBuf, final int recvOffset, final int count, final Datatype type, final Op op)
    {
        run(() -> Reductions.scan(state, sendBuf, sendOffset, recvBuf, recvOffset, count, type, op));
    }

    /** MPI_Iscan: nonblocking scan; the buffers must not be touched until the request completes. */
    public Request iscan(final Object sendBuf, final int sendOffset, final Object recvBuf, final int recvOffset, final int count, final Datatype type, final Op op)
    {
        return begin(() -> Reductions.scan(state, sendBuf, sendOffset, recvBuf, recvOffset, count, type, op));
    }

    /** MPI_Scan_init (MPI-4): a persistent scan; arguments are checked and the schedule built once, each start() runs it. */
    public Request scanInit(final Object sendBuf, final int sendOffset, final Object recvBuf, final int recvOffset, final int count, final Datatype type, final Op op)
    {
        return persistent(() -> Reductions.scan(state, sendBuf, sendOffset, recvBuf, recvOffset, count, type, op));
    }

    /** MPI_Exscan: rank i &gt; 0 receives the reduction of ranks 0..i-1; rank 0's receive buffer is left untouched. IN_PLACE as send buffer: input from the receive buffer. */
    public void exscan(final Object sendBuf, final int sendOffset, final Object recvBuf, final int recvOffset, final int count, final Datatype type, final Op op)
    {
        run(() -> Reductions.exscan(state, sendBuf, sendOffset, recvBuf, recvOffset, count, type, op));
    }

    /** MPI_Iexscan: nonblocking exscan; the buffers must not be touched until the request completes. */
    public Request iexscan(final Object sendBuf, final int sendOffset, final Object recvBuf, final int recvOffset, final int count, final Datatype type, final Op op)
    {
        return begin(() -> Reductions.exscan(state, sendBuf, sendOffset, recvBuf, recvOffset, count, type, op));
    }

    /** MPI_Exscan_init (MPI-4): a persistent exscan; arguments are checked and the schedule built once, each start() runs it. */
    public Request exscanInit(final Object sendBuf, final int sendOffset, final Object recvBuf, final int recvOffset, final int count, final Datatype type, final Op op)
    {
        return persistent(() -> Reductions.exscan(state, sendBuf, sendOffset, recvBuf, recvOffset, count, type, op));
    }

    /** MPI_Reduce_local: {@code inout = in op inout} on this rank, no communication. */
    public static void reduceLocal(final Object inBuf, final int inOffset, final Object inoutBuf, final int inoutOffset, final int count,
        final Datatype type, final Op op)
    {
        Reductions.reduceLocal(inBuf, inOffset, inoutBuf, inoutOffset, count, type, op);
    }

    // ============================================================================================
    // Communicators and groups (issue 4)
    // ============================================================================================

    private Comm wrap(final CommState derived)
    {
        return derived == null ? null : new Comm(derived);
    }

    private void checkNotFreed(final String call)
    {
        if (org.jmpi.internal.coll.CollContext.of(state).freed())
        {
            throw state.handle(new MpiException(ErrorClass.ERR_COMM, call + ": communicator " + state.name() + " was freed"));
        }
    }

    /** MPI_Comm_group: this communicator's members, in rank order. */
    public Group group()
    {
        return new Group(state.worldRanks(), state.worldRank(state.rank()));
    }

    /** MPI_Comm_dup: same members, own matching contexts, same error handler. Collective. */
    public Comm dup()
    {
        checkNotFreed("dup");
        try
        {
            final Comm copy = wrap(Communicators.dup(state));
            Attributes.of(state).copyTo(this, copy);
            return copy;
        }
        catch (final MpiException ex)
        {
            throw state.handle(ex);
        }
    }

    /**
     * MPI_Comm_idup: a nonblocking {@link #dup()}. {@code newComm[0]} is set to the new communicator when the
     * returned request completes (not before); attributes are copied then. Collective.
     */
    public Request idup(final Comm[] newComm)
    {
        checkNotFreed("idup");
        if (newComm == null || newComm.length < 1)
        {
            throw state.handle(new MpiException(ErrorClass.ERR_ARG, "idup: need an array of at least one element for the new communicator"));
        }
        try
        {
            return org.jmpi.internal.comm.IdupRequest.start(state, created ->
            {
                final Comm copy = new Comm(created);
                Attributes.of(state).copyTo(this, copy);
                newComm[0] = copy;
            });
        }
        catch (final MpiException ex)
        {
            throw state.handle(ex);
        }
    }

    /**
     * MPI_Comm_split: ranks passing the same {@code color} (&gt;= 0) form a communicator, ordered by {@code key}
     * then by rank here. A rank passing {@link #UNDEFINED} gets {@code null}. Collective.
     */
    public Comm split(final int color, final int key)
    {
        checkNotFreed("split");
        try
        {
            return wrap(Communicators.split(state, color, key));
        }
        catch (final MpiException ex)
        {
            throw state.handle(ex);
        }
    }

    /**
     * MPI_Comm_split_type: with {@link #TYPE_SHARED}, the ranks of this node (same processor name), ordered by
     * {@code key}; with {@link #UNDEFINED}, {@code null}. Collective.
     */
    public Comm splitType(final int splitType, final int key)
    {
        checkNotFreed("splitType");
        try
        {
            if (splitType == UNDEFINED)
            {
                return wrap(Communicators.split(state, UNDEFINED, key));
            }
            if (splitType != TYPE_SHARED)
            {
                throw new MpiException(ErrorClass.ERR_ARG, "splitType: unknown split type " + splitType + " (TYPE_SHARED or UNDEFINED)");
            }
            return wrap(Communicators.splitShared(state, Mpi.current().processorName(), key));
        }
        catch (final MpiException ex)
        {
            throw state.handle(ex);
        }
    }

    /** MPI_Comm_create: collective over this communicator; members of {@code group} get the new one, others {@code null}. */
    public Comm create(final Group group)
    {
        checkNotFreed("create");
        try
        {
            return wrap(Communicators.create(state, group));
        }
        catch (final MpiException ex)
        {
            throw state.handle(ex);
        }
    }

    /**
     * MPI_Comm_create_group: collective over the members of {@code group} only (a subset of this
     * communicator); concurrent calls over overlapping groups must use different tags.
     */
    public Comm createGroup(final Group group, final int tag)
    {
        checkNotFreed("createGroup");
        try
        {
            return wrap(Communicators.createGroup(state, group, tag));
        }
        catch (final MpiException ex)
        {
            throw state.handle(ex);
        }
    }

    /**
     * MPI_Comm_compare: {@link #IDENT} (the same communicator), {@link #CONGRUENT} (same members and order),
     * {@link #SIMILAR} (same members), else {@link #UNEQUAL}.
     */
    public int compare(final Comm other)
    {
        if (other == null)
        {
            throw state.handle(new MpiException(ErrorClass.ERR_COMM, "compare: communicator is null"));
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
     * MPI_Comm_free: collectives on this communicator then fail with ERR_COMM. Local in jmpi; its context ids
     * go back to the rank's pool for later communicators. Freeing WORLD or SELF is ERR_COMM.
     */
    public void free()
    {
        if (state.contextId() < org.jmpi.internal.runtime.RankRuntime.FIRST_FREE_CONTEXT)
        {
            throw state.handle(new MpiException(ErrorClass.ERR_COMM, "free: " + state.name() + " cannot be freed"));
        }
        Attributes.of(state).deleteAll(this);
        org.jmpi.internal.coll.CollContext.free(state);
        state.releaseContextIds();
    }

    /** MPI_Comm_set_attr: caches {@code value} under {@code key} (the old value goes to the key's delete callback). */
    public void setAttr(final Keyval key, final Object value)
    {
        try
        {
            Attributes.of(state).set(this, key, value);
        }
        catch (final MpiException ex)
        {
            throw state.handle(ex);
        }
    }

    /** MPI_Comm_get_attr: the cached value, or {@code null}; predefined keys ({@link Keyval#TAG_UB}...) answer on every communicator. */
    public Object getAttr(final Keyval key)
    {
        try
        {
            return Attributes.of(state).get(key);
        }
        catch (final MpiException ex)
        {
            throw state.handle(ex);
        }
    }

    /** MPI_Comm_delete_attr: removes the value and passes it to the key's delete callback. */
    public void deleteAttr(final Keyval key)
    {
        try
        {
            Attributes.of(state).delete(this, key);
        }
        catch (final MpiException ex)
        {
            throw state.handle(ex);
        }
    }

    /** MPI_Comm_set_info: stores the hints (jmpi acts on none yet); copied by {@link #dup()}. */
    public void setInfo(final Info info)
    {
        Attributes.of(state).info(info);
    }

    /** MPI_Comm_get_info: a copy of the hints in use. */
    public Info getInfo()
    {
        return Attributes.of(state).info();
    }

    /** Whether {@link #free()} was called on this communicator. */
    public boolean isFreed()
    {
        return org.jmpi.internal.coll.CollContext.of(state).freed();
    }

    // ============================================================================================
    // Topologies (issue 4)
    // ============================================================================================

    /** MPI_Topo_test: {@link #CART}, {@link #GRAPH}, {@link #DIST_GRAPH}, or {@link #UNDEFINED} for none. */
    public int topology()
    {
        return UNDEFINED;
    }

    /** {sources, destinations, send posting order or null} of the neighbour collectives; ERR_TOPOLOGY without a topology. */
    int[][] neighbours()
    {
        throw new MpiException(ErrorClass.ERR_TOPOLOGY, "neighbour collective on " + state.name() + ", which has no topology");
    }

    private int[][] neighboursChecked()
    {
        try
        {
            return neighbours();
        }
        catch (final MpiException ex)
        {
            throw state.handle(ex);
        }
    }

    /**
     * MPI_Cart_create: a Cartesian grid of {@code dims} over the first prod(dims) ranks (the others get
     * {@code null}). {@code reorder} is accepted and ignored (jmpi keeps rank order). Collective.
     */
    public CartComm cartCreate(final int[] dims, final boolean[] periods, final boolean reorder)
    {
        if (dims == null || periods == null || dims.length != periods.length)
        {
            throw state.handle(new MpiException(ErrorClass.ERR_ARG, "cartCreate: dims and periods must have the same length"));
        }
        long cells = 1;
        for (final int d : dims)
        {
            if (d <= 0)
            {
                throw state.handle(new MpiException(ErrorClass.ERR_DIMS, "cartCreate: dimension " + d + " must be > 0 in " +
                    java.util.Arrays.toString(dims)));
            }
            cells *= d;
        }
        if (cells > size())
        {
            throw state.handle(new MpiException(ErrorClass.ERR_DIMS, "cartCreate: grid of " + cells + " cells exceeds the " + size() +
                " ranks of " + name()));
        }
        final Comm part = split(rank() < cells ? 0 : UNDEFINED, rank());
        return part == null ? null : new CartComm(part.state, dims, periods);
    }

    /**
     * MPI_Graph_create: node i's neighbours are {@code edges[index[i-1] .. index[i])}; ranks at or beyond
     * {@code index.length} get {@code null}. {@code reorder} is ignored. Collective.
     */
    public GraphComm graphCreate(final int[] index, final int[] edges, final boolean reorder)
    {
        if (index == null || edges == null || index.length > size())
        {
            throw state.handle(new MpiException(ErrorClass.ERR_ARG, "graphCreate: need index (at most " + size() + " nodes) and edges"));
        }
        for (int i = 0; i < index.length; i++)
        {
            if (index[i] < (i == 0 ? 0 : index[i - 1]) || index[i] > edges.length)
            {
                throw state.handle(new MpiException(ErrorClass.ERR_ARG, "graphCreate: index must be non-decreasing and within edges"));
            }
        }
        for (final int e : edges)
        {
            if (e < 0 || e >= index.length)
            {
                throw state.handle(new MpiException(ErrorClass.ERR_TOPOLOGY, "graphCreate: edge to " + e + " outside 0.." + (index.length - 1)));
            }
        }
        final Comm part = split(rank() < index.length ? 0 : UNDEFINED, rank());
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
        final String call = "distGraphCreateAdjacent";
        if (sources == null || destinations == null)
        {
            throw state.handle(new MpiException(ErrorClass.ERR_ARG, call + ": sources and destinations must not be null"));
        }
        if ((sourceWeights == null) != (destWeights == null))
        {
            throw state.handle(new MpiException(ErrorClass.ERR_ARG, call + ": give weights for both sources and destinations, or for " +
                "neither (unweighted); sourceWeights is " + (sourceWeights == null ? "null" : "given") + ", destWeights " +
                (destWeights == null ? "null" : "given")));
        }
        checkEdges(call, "source", sources, sourceWeights);
        checkEdges(call, "destination", destinations, destWeights);
        return new DistGraphComm(dup().state, sources, sourceWeights, destinations, destWeights);
    }

    private void checkEdges(final String call, final String what, final int[] ranks, final int[] weights)
    {
        for (final int r : ranks)
        {
            if (r < 0 || r >= size())
            {
                throw state.handle(new MpiException(ErrorClass.ERR_RANK, call + ": invalid " + what + " " + r + " (communicator size " +
                    size() + ")"));
            }
        }
        if (weights == null)
        {
            return;
        }
        if (weights.length != ranks.length)
        {
            throw state.handle(new MpiException(ErrorClass.ERR_ARG, call + ": " + ranks.length + " " + what + "s but " + weights.length +
                " " + what + " weights"));
        }
        for (int i = 0; i < weights.length; i++)
        {
            if (weights[i] < 0)
            {
                throw state.handle(new MpiException(ErrorClass.ERR_ARG, call + ": negative weight " + weights[i] + " for " + what + " " +
                    ranks[i] + " (entry " + i + ")"));
            }
        }
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
        checkNotFreed("distGraphCreate");
        try
        {
            final Neighbors.Edges edges = Neighbors.distGraphEdges(state, sources, degrees, destinations, weights);
            return new DistGraphComm(dup().state, edges.sources(), edges.sourceWeights(), edges.destinations(), edges.destWeights());
        }
        catch (final MpiException ex)
        {
            throw state.handle(ex);
        }
    }

    /**
     * MPI_Neighbor_allgather: receive block i ({@code recvCount} items at {@code i * recvCount}) from this
     * rank's i-th source neighbour; send the send buffer to every destination neighbour. ERR_TOPOLOGY
     * without a topology. Neighbour order: see {@link CartComm}, {@link GraphComm}, {@link DistGraphComm}.
     */
    public void neighborAllgather(final Object sendBuf, final int sendOffset, final int sendCount, final Datatype sendType,
        final Object recvBuf, final int recvOffset, final int recvCount, final Datatype recvType)
    {
        final int[][] n = neighboursChecked();
        run(() -> Neighbors.neighborAllgather(state, n[0], n[1], n[2], sendBuf, sendOffset, sendCount, sendType, recvBuf, recvOffset,
            recvCount, recvType));
    }

    /** MPI_Ineighbor_allgather: nonblocking neighborAllgather; the buffers must not be touched until the request completes. */
    public Request ineighborAllgather(final Object sendBuf, final int sendOffset, final int sendCount, final Datatype sendType,
        final Object recvBuf, final int recvOffset, final int recvCount, final Datatype recvType)
    {
        final int[][] n = neighboursChecked();
        return begin(() -> Neighbors.neighborAllgather(state, n[0], n[1], n[2], sendBuf, sendOffset, sendCount, sendType, recvBuf,
            recvOffset, recvCount, recvType));
    }

    /**
     * MPI_Neighbor_alltoall: send block j ({@code sendCount} items at {@code j * sendCount}) to the j-th
     * destination neighbour, receive block i from the i-th source neighbour.
     */
    public void neighborAlltoall(final Object sendBuf, final int sendOffset, final int sendCount, final Datatype sendType,
        final Object recvBuf, final int recvOffset, final int recvCount, final Datatype recvType)
    {
        final int[][] n = neighboursChecked();
        run(() -> Neighbors.neighborAlltoall(state, n[0], n[1], n[2], sendBuf, sendOffset, sendCount, sendType, recvBuf, recvOffset,
            recvCount, recvType));
    }

    /** MPI_Ineighbor_alltoall: nonblocking neighborAlltoall; the buffers must not be touched until the request completes. */
    public Request ineighborAlltoall(final Object sendBuf, final int sendOffset, final int sendCount, final Datatype sendType,
        final Object recvBuf, final int recvOffset, final int recvCount, final Datatype recvType)
    {
        final int[][] n = neighboursChecked();
        return begin(() -> Neighbors.neighborAlltoall(state, n[0], n[1], n[2], sendBuf, sendOffset, sendCount, sendType, recvBuf,
            recvOffset, recvCount, recvType));
    }

    /** MPI_Neighbor_allgather_init (MPI-4): a persistent neighbour allgather. */
    public Request neighborAllgatherInit(final Object sendBuf, final int sendOffset, final int sendCount, final Datatype sendType,
        final Object recvBuf, final int recvOffset, final int recvCount, final Datatype recvType)
    {
        final int[][] n = neighboursChecked();
        return persistent(() -> Neighbors.neighborAllgather(state, n[0], n[1], n[2], sendBuf, sendOffset, sendCount, sendType, recvBuf,
            recvOffset, recvCount, recvType));
    }

    /** MPI_Neighbor_alltoall_init (MPI-4): a persistent neighbour alltoall. */
    public Request neighborAlltoallInit(final Object sendBuf, final int sendOffset, final int sendCount, final Datatype sendType,
        final Object recvBuf, final int recvOffset, final int recvCount, final Datatype recvType)
    {
        final int[][] n = neighboursChecked();
        return persistent(() -> Neighbors.neighborAlltoall(state, n[0], n[1], n[2], sendBuf, sendOffset, sendCount, sendType, recvBuf,
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
        final int[][] n = neighboursChecked();
        run(() -> Neighbors.neighborAllgatherv(state, n[0], n[1], n[2], sendBuf, sendOffset, sendCount, sendType, recvBuf, recvOffset,
            recvCounts, displs, recvType));
    }

    /** MPI_Ineighbor_allgatherv: nonblocking neighborAllgatherv; the buffers must not be touched until the request completes. */
    public Request ineighborAllgatherv(final Object sendBuf, final int sendOffset, final int sendCount, final Datatype sendType,
        final Object recvBuf, final int recvOffset, final int[] recvCounts, final int[] displs, final Datatype recvType)
    {
        final int[][] n = neighboursChecked();
        return begin(() -> Neighbors.neighborAllgatherv(state, n[0], n[1], n[2], sendBuf, sendOffset, sendCount, sendType, recvBuf,
            recvOffset, recvCounts, displs, recvType));
    }

    /** MPI_Neighbor_allgatherv_init (MPI-4): a persistent neighborAllgatherv; arguments are checked and the schedule built once, each start() runs it. */
    public Request neighborAllgathervInit(final Object sendBuf, final int sendOffset, final int sendCount, final Datatype sendType,
        final Object recvBuf, final int recvOffset, final int[] recvCounts, final int[] displs, final Datatype recvType)
    {
        final int[][] n = neighboursChecked();
        return persistent(() -> Neighbors.neighborAllgatherv(state, n[0], n[1], n[2], sendBuf, sendOffset, sendCount, sendType, recvBuf,
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
        final int[][] n = neighboursChecked();
        run(() -> Neighbors.neighborAlltoallv(state, n[0], n[1], n[2], sendBuf, sendOffset, sendCounts, sendDispls, sendType, recvBuf,
            recvOffset, recvCounts, recvDispls, recvType));
    }

    /** MPI_Ineighbor_alltoallv: nonblocking neighborAlltoallv; the buffers must not be touched until the request completes. */
    public Request ineighborAlltoallv(final Object sendBuf, final int sendOffset, final int[] sendCounts, final int[] sendDispls,
        final Datatype sendType, final Object recvBuf, final int recvOffset, final int[] recvCounts, final int[] recvDispls,
        final Datatype recvType)
    {
        final int[][] n = neighboursChecked();
        return begin(() -> Neighbors.neighborAlltoallv(state, n[0], n[1], n[2], sendBuf, sendOffset, sendCounts, sendDispls, sendType,
            recvBuf, recvOffset, recvCounts, recvDispls, recvType));
    }

    /** MPI_Neighbor_alltoallv_init (MPI-4): a persistent neighborAlltoallv; arguments are checked and the schedule built once, each start() runs it. */
    public Request neighborAlltoallvInit(final Object sendBuf, final int sendOffset, final int[] sendCounts, final int[] sendDispls,
        final Datatype sendType, final Object recvBuf, final int recvOffset, final int[] recvCounts, final int[] recvDispls,
        final Datatype recvType)
    {
        final int[][] n = neighboursChecked();
        return persistent(() -> Neighbors.neighborAlltoallv(state, n[0], n[1], n[2], sendBuf, sendOffset, sendCounts, sendDispls,
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
        final int[][] n = neighboursChecked();
        run(() -> Neighbors.neighborAlltoallw(state, n[0], n[1], n[2], sendBuf, sendOffset, sendCounts, sendDisplsBytes, sendTypes,
            recvBuf, recvOffset, recvCounts, recvDisplsBytes, recvTypes));
    }

    /** MPI_Ineighbor_alltoallw: nonblocking neighborAlltoallw; the buffers must not be touched until the request completes. */
    public Request ineighborAlltoallw(final Object sendBuf, final int sendOffset, final int[] sendCounts, final long[] sendDisplsBytes,
        final Datatype[] sendTypes, final Object recvBuf, final int recvOffset, final int[] recvCounts, final long[] recvDisplsBytes,
        final Datatype[] recvTypes)
    {
        final int[][] n = neighboursChecked();
        return begin(() -> Neighbors.neighborAlltoallw(state, n[0], n[1], n[2], sendBuf, sendOffset, sendCounts, sendDisplsBytes,
            sendTypes, recvBuf, recvOffset, recvCounts, recvDisplsBytes, recvTypes));
    }

    /** MPI_Neighbor_alltoallw_init (MPI-4): a persistent neighborAlltoallw; arguments are checked and the schedule built once, each start() runs it. */
    public Request neighborAlltoallwInit(final Object sendBuf, final int sendOffset, final int[] sendCounts, final long[] sendDisplsBytes,
        final Datatype[] sendTypes, final Object recvBuf, final int recvOffset, final int[] recvCounts, final long[] recvDisplsBytes,
        final Datatype[] recvTypes)
    {
        final int[][] n = neighboursChecked();
        return persistent(() -> Neighbors.neighborAlltoallw(state, n[0], n[1], n[2], sendBuf, sendOffset, sendCounts, sendDisplsBytes,
            sendTypes, recvBuf, recvOffset, recvCounts, recvDisplsBytes, recvTypes));
    }

    /** MPI_Abort: stops every rank of the job with {@code code} as exit code. Does not return. */
    public void abort(final int code)
    {
        throw state.abort(code, "MPI_Abort called on " + state.name() + " by rank " + state.rank());
    }
}
