package org.jmpi;

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
        try
        {
            PointToPoint.barrier(state);
        }
        catch (final MpiException ex)
        {
            throw state.handle(ex);
        }
    }

    /** MPI_Abort: stops every rank of the job with {@code code} as exit code. Does not return. */
    public void abort(final int code)
    {
        throw state.abort(code, "MPI_Abort called on " + state.name() + " by rank " + state.rank());
    }
}
