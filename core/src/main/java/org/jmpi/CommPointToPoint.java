package org.jmpi;

import org.jmpi.internal.coll.CollectiveOps;
import org.jmpi.internal.pt2pt.BlockingRequests;
import org.jmpi.internal.pt2pt.CommState;
import org.jmpi.internal.pt2pt.PointToPoint;
import org.jmpi.internal.pt2pt.SendMode;

/**
 * {@link Comm}'s point-to-point calls (MPI 4.1 ch. 3): the send modes in blocking, nonblocking and persistent
 * forms, receives, sendrecv, and the probes. Package-private: a program calls them on {@link Comm}.
 *
 * <p>The calls that carry small messages (send, isend, recv, irecv, iprobe) check and handle errors inline rather
 * than through {@link #call}: they allocate nothing per call and add no megamorphic site.
 *
 * <p><b>Threading</b>: as {@link Comm}'s.
 */
abstract sealed class CommPointToPoint extends CommBase permits CommCollectives
{
    CommPointToPoint(final CommState state, final CommState local, final CollectiveOps coll)
    {
        super(state, local, coll);
    }

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
}
