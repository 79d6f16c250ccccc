package org.jmpi.internal.pt2pt;

import org.jmpi.Comm;
import org.jmpi.Datatype;
import org.jmpi.Status;
import org.jmpi.internal.engine.ProgressEngine;

/**
 * Blocking send and receive with one request each per communicator, made once and rearmed for every later
 * message (issue 12, item 3: no request per message). A blocking call's request never reaches the caller, so
 * once it has completed and been reported nothing else needs it, provided that:
 * <ul>
 * <li>the calling thread drives the engine (direct mode: no progress thread, which could still be inside the
 * completing call when the caller sees the request done);</li>
 * <li>the message went eager and the request completed without a failure ({@code reusable()}): no rendezvous
 * path, map or peer holds it.</li>
 * </ul>
 * A request in use is taken off its communicator, so a blocking call made while another is under way on the same
 * communicator (from an error handler, say) makes its own; one that fails or goes by rendezvous is not kept. The
 * spare is taken and put back while the calling thread holds the engine ({@link ProgressEngine#enter}), so a
 * second thread calling in by mistake is refused (ERR_OTHER) before it can rearm a request in use. Nonblocking
 * standard sends share the spare send ({@link PointToPoint#isend}).
 *
 * <p>Threading: the calling thread (direct mode, so one thread in the library at a time).
 */
public final class BlockingRequests
{
    private BlockingRequests()
    {
    }

    /** MPI_Send (standard mode) on {@code c}'s point-to-point context. */
    public static void send(final CommState c, final Object buf, final int offset, final int count, final Datatype type, final int dest,
        final int tag)
    {
        if (!c.engine.enter())
        {
            PointToPoint.isend(c, c.contextId, buf, offset, count, type, dest, tag, SendMode.STANDARD, null).awaitCompletion();
            return;
        }
        try
        {
            final SendRequestImpl spare = c.spareSend;
            c.spareSend = null;
            final RequestImpl r = PointToPoint.isend(c, c.contextId, buf, offset, count, type, dest, tag, SendMode.STANDARD, spare);
            r.awaitCompletion();
            if (r instanceof SendRequestImpl s && s.reusable())
            {
                c.spareSend = s;
            }
        }
        finally
        {
            c.engine.exit();
        }
    }

    /** MPI_Recv on {@code c}'s point-to-point context: the message's status (source may be {@link Comm#ANY_SOURCE}). */
    public static Status recv(final CommState c, final Object buf, final int offset, final int count, final Datatype type, final int source,
        final int tag)
    {
        if (!c.engine.enter())
        {
            return PointToPoint.irecv(c, c.contextId, buf, offset, count, type, source, tag, null).await();
        }
        try
        {
            final RecvRequestImpl spare = c.spareRecv;
            c.spareRecv = null;
            final RequestImpl r = PointToPoint.irecv(c, c.contextId, buf, offset, count, type, source, tag, spare);
            final Status status = r.await();
            if (r instanceof RecvRequestImpl rr && rr.reusable())
            {
                c.spareRecv = rr;
            }
            return status;
        }
        finally
        {
            c.engine.exit();
        }
    }
}
