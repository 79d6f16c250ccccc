package org.jmpi.internal.pt2pt;

import org.jmpi.Comm;
import org.jmpi.Datatype;
import org.jmpi.ErrorClass;
import org.jmpi.Message;
import org.jmpi.MpiException;
import org.jmpi.Request;
import org.jmpi.Status;
import org.jmpi.internal.datatype.BufferView;
import org.jmpi.internal.datatype.Convertor;
import org.jmpi.internal.datatype.OneRun;
import org.jmpi.internal.datatype.Signatures;
import org.jmpi.internal.engine.ProgressEngine;

/**
 * The point-to-point calls behind {@link Comm}: arguments are checked here, once, then the operation
 * is posted to the engine. Errors are thrown as {@link MpiException}; the caller applies the
 * communicator's error handler.
 *
 * <p>Threading: any thread allowed by the rank's thread level.
 */
public final class PointToPoint
{
    /** The largest tag (MPI_TAG_UB); tags are 0..TAG_UB. */
    public static final int TAG_UB = (1 << 30) - 1;

    /** What a null buffer with count 0 stands for (MPI and Open MPI's Java API allow it): an empty buffer. */
    private static final java.nio.ByteBuffer EMPTY = java.nio.ByteBuffer.allocate(0);

    private PointToPoint()
    {
    }

    public static RequestImpl isend(
        final CommState c,
        final Object buf,
        final int offset,
        final int count,
        final Datatype type,
        final int dest,
        final int tag,
        final SendMode mode)
    {
        return isend(c, c.contextId, buf, offset, count, type, dest, tag, mode);
    }

    /**
     * A send on an explicit context (the collective context for collectives). In direct mode a standard or ready
     * send takes its communicator's spare request ({@link BlockingRequests}), and when the message goes eager and
     * completes while posted, puts it back and returns a small completed handle ({@link SentRequest}) instead: the
     * caller never sees the request that carried the message, so it can serve the next one. The spare is taken and
     * put back while this thread holds the engine, so a second thread calling in by mistake is refused before it can
     * touch it.
     */
    public static RequestImpl isend(
        final CommState c,
        final int contextId,
        final Object buf,
        final int givenOffset,
        final int count,
        final Datatype type,
        final int dest,
        final int tag,
        final SendMode mode)
    {
        if ((mode != SendMode.STANDARD && mode != SendMode.READY) || !c.engine.enter())
        {
            return isend(c, contextId, buf, givenOffset, count, type, dest, tag, mode, null);
        }
        try
        {
            final SendRequestImpl spare = c.spareSend;
            c.spareSend = null;
            final RequestImpl r = isend(c, contextId, buf, givenOffset, count, type, dest, tag, mode, spare);
            if (r instanceof SendRequestImpl s && s.isDone() && s.reusable())
            {
                c.spareSend = s;
                return new SentRequest(c.engine, c.errorSink(), dest, tag, s.totalBytes);
            }
            return r;
        }
        finally
        {
            c.engine.exit();
        }
    }

    /** As above; {@code spare}: a reusable request to rearm instead of making one ({@link BlockingRequests}), or null. */
    static RequestImpl isend(
        final CommState c,
        final int contextId,
        final Object buf,
        final int givenOffset,
        final int count,
        final Datatype type,
        final int dest,
        final int tag,
        final SendMode mode,
        final SendRequestImpl spare)
    {
        final String op = opName(mode);
        final boolean empty = buf == null && count == 0;
        final int offset = empty ? 0 : givenOffset;
        final BufferView view = checkSend(op, c, empty ? EMPTY : buf, offset, count, type, dest, tag);
        if (dest == Comm.PROC_NULL)
        {
            Convertor.create(view, offset, count, type);
            return new CompletedRequest(c.engine, c.errorSink(), new Status(Comm.PROC_NULL, Comm.ANY_TAG, ErrorClass.SUCCESS, false, 0));
        }
        final int sig = Signatures.homogeneousCode(type);
        if (mode == SendMode.BUFFERED)
        {
            return bufferedSend(c, contextId, view, offset, count, type, dest, tag, sig);
        }
        final long run = sendRun(c, view, offset, count, type);
        final SendRequestImpl s = spare != null ? spare.rearm(contextId, dest, c.worldRanks[dest], tag, mode, view, offset, count, type, sig, run)
            : new SendRequestImpl(c.engine, c.errorSink(), c.protocol, contextId, c.rank, dest, c.worldRanks[dest], tag, mode, view, offset,
            count, type, sig, run);
        c.engine.execute(s);
        return s;
    }

    private static RequestImpl bufferedSend(
        final CommState c,
        final int contextId,
        final BufferView view,
        final int offset,
        final int count,
        final Datatype type,
        final int dest,
        final int tag,
        final int sig)
    {
        final Convertor source = Convertor.create(view, offset, count, type);
        final long bytes = source.totalBytes();
        final BsendBuffer bb = c.bsendBuffer;
        final long at = bb.allocate(bytes);
        final BufferView attached = bb.view();
        final long attachedOffset = at / attached.elementSize();
        final Convertor packed = Convertor.create(attached, attachedOffset, bytes, Datatype.BYTE);
        Convertor.copy(source, packed, 0, bytes);
        final SendRequestImpl s = new SendRequestImpl(c.engine, c.errorSink(), c.protocol, contextId, c.rank, dest, c.worldRanks[dest],
            tag, SendMode.BUFFERED, attached, attachedOffset, bytes, Datatype.BYTE, sig, OneRun.address(attached, attachedOffset, bytes, Datatype.BYTE, 0));
        s.onComplete = () -> bb.release(at);
        c.engine.execute(s);
        return new CompletedRequest(c.engine, c.errorSink(), new Status(dest, tag, ErrorClass.SUCCESS, false, bytes));
    }

    public static RequestImpl irecv(
        final CommState c,
        final Object buf,
        final int offset,
        final int count,
        final Datatype type,
        final int source,
        final int tag)
    {
        return irecv(c, c.contextId, buf, offset, count, type, source, tag);
    }

    public static RequestImpl irecv(
        final CommState c,
        final int contextId,
        final Object buf,
        final int offset,
        final int count,
        final Datatype type,
        final int source,
        final int tag)
    {
        return irecv(c, contextId, buf, offset, count, type, source, tag, null);
    }

    /** As above; {@code spare}: a reusable request to rearm instead of making one ({@link BlockingRequests}), or null. */
    static RequestImpl irecv(
        final CommState c,
        final int contextId,
        final Object buf,
        final int offset,
        final int count,
        final Datatype type,
        final int source,
        final int tag,
        final RecvRequestImpl spare)
    {
        final boolean empty = buf == null && count == 0;
        final RecvRequestImpl r = newRecv(c, contextId, "recv", empty ? EMPTY : buf, empty ? 0 : offset, count, type, source, tag, spare);
        if (r == null)
        {
            return procNullRecv(c);
        }
        c.engine.execute(r);
        return r;
    }

    private static RecvRequestImpl newRecv(
        final CommState c,
        final int contextId,
        final String op,
        final Object buf,
        final int offset,
        final int count,
        final Datatype type,
        final int source,
        final int tag,
        final RecvRequestImpl spare)
    {
        checkCount(op, count);
        checkType(op, type);
        checkSource(op, c, source);
        checkTag(op, tag, true);
        final BufferView last = c.lastRecvView;
        final BufferView view = last != null && last.buffer() == buf ? last : BufferView.of(buf, "receive buffer");
        if (view != last && view.base() == buf)
        {
            c.lastRecvView = view; // an array: the same view serves the next receive into it
        }
        checkOffset(op, offset);
        if (view.readOnly())
        {
            throw new MpiException(ErrorClass.ERR_BUFFER, op + ": receive buffer is read-only");
        }
        if (source == Comm.PROC_NULL)
        {
            Convertor.createForReceive(view, offset, count, type); // the checks a real receive would make
            return null;
        }
        final int sig = Signatures.homogeneousCode(type);
        final long run = recvRun(c, view, offset, count, type);
        final RecvRequestImpl r = spare != null ? spare.rearm(contextId, source, tag, view, offset, count, type, sig, run)
            : new RecvRequestImpl(c.engine, c.errorSink(), c.protocol, contextId, source, tag, view, offset, count, type, sig, run);
        r.sourcesWorld = c.worldRanks;
        return r;
    }

    /**
     * The {@link OneRun#address} of a send's data, from {@code c}'s {@link RunKey} when the last send named the same.
     * Kept only for an array's view, which the communicator keeps too ({@code lastSendView}): a buffer's view is
     * made per call, so a key for it would never match again and would cost an allocation per message.
     */
    static long sendRun(final CommState c, final BufferView view, final long offset, final long count, final Datatype type)
    {
        final RunKey last = c.lastSendRun;
        if (last != null && last.matches(view, offset, count, type))
        {
            return last.address();
        }
        final long address = OneRun.address(view, offset, count, type, 0);
        if (view == c.lastSendView)
        {
            c.lastSendRun = new RunKey(view, offset, count, type, address);
        }
        return address;
    }

    /** As {@link #sendRun}, for a receive's ({@link Convertor#RECEIVE}: the buffer was checked writable already). */
    static long recvRun(final CommState c, final BufferView view, final long offset, final long count, final Datatype type)
    {
        final RunKey last = c.lastRecvRun;
        if (last != null && last.matches(view, offset, count, type))
        {
            return last.address();
        }
        final long address = OneRun.address(view, offset, count, type, Convertor.RECEIVE);
        if (view == c.lastRecvView)
        {
            c.lastRecvRun = new RunKey(view, offset, count, type, address);
        }
        return address;
    }

    private static RequestImpl procNullRecv(final CommState c)
    {
        return new CompletedRequest(c.engine, c.errorSink(), new Status(Comm.PROC_NULL, Comm.ANY_TAG, ErrorClass.SUCCESS, false, 0));
    }

    /** MPI_Iprobe: the status of a matching message that has arrived, or null. Makes progress once. */
    public static Status iprobe(final CommState c, final int source, final int tag)
    {
        checkSource("iprobe", c, source);
        checkTag("iprobe", tag, true);
        if (source == Comm.PROC_NULL)
        {
            return new Status(Comm.PROC_NULL, Comm.ANY_TAG, ErrorClass.SUCCESS, false, 0);
        }
        final Unexpected u = arrived(c, source, tag, false);
        return u == null ? null : new Status(u.source, u.tag, ErrorClass.SUCCESS, false, u.length);
    }

    /** MPI_Probe: waits for a matching message and returns its status without receiving it. */
    public static Status probe(final CommState c, final int source, final int tag)
    {
        checkSource("probe", c, source);
        checkTag("probe", tag, true);
        if (source == Comm.PROC_NULL)
        {
            return new Status(Comm.PROC_NULL, Comm.ANY_TAG, ErrorClass.SUCCESS, false, 0);
        }
        final ProbeRequestImpl p = new ProbeRequestImpl(c.engine, c.errorSink(), c.contextId, source, tag, false, c.worldRanks);
        c.engine.execute(() -> c.protocol.postProbe(p));
        return p.await();
    }

    /** MPI_Mprobe: waits for a matching message and takes it out of matching. */
    public static Message mprobe(final CommState c, final int source, final int tag)
    {
        checkSource("mprobe", c, source);
        checkTag("mprobe", tag, true);
        if (source == Comm.PROC_NULL)
        {
            return new MessageImpl(c, null);
        }
        final ProbeRequestImpl p = new ProbeRequestImpl(c.engine, c.errorSink(), c.contextId, source, tag, true, c.worldRanks);
        c.engine.execute(() -> c.protocol.postProbe(p));
        p.await();
        return new MessageImpl(c, p.message);
    }

    /** MPI_Improbe: a matched message taken out of matching, or null when none has arrived. */
    public static Message improbe(final CommState c, final int source, final int tag)
    {
        checkSource("improbe", c, source);
        checkTag("improbe", tag, true);
        if (source == Comm.PROC_NULL)
        {
            return new MessageImpl(c, null);
        }
        final Unexpected u = arrived(c, source, tag, true);
        return u == null ? null : new MessageImpl(c, u);
    }

    /**
     * The first matching message that has arrived (polling the transports once if none has), taken out
     * of matching when {@code take}; null when none. Runs on the engine.
     */
    private static Unexpected arrived(final CommState c, final int source, final int tag, final boolean take)
    {
        if (c.engine.enter())
        {
            try
            {
                return findOrPoll(c, source, tag, take);
            }
            finally
            {
                c.engine.exit();
            }
        }
        final Unexpected[] result = new Unexpected[1];
        engineCall(c, () -> result[0] = findOrPoll(c, source, tag, take)).await();
        return result[0];
    }

    /** The first matching unexpected message, after one poll if none had arrived; taken when {@code take}. Engine thread. */
    private static Unexpected findOrPoll(final CommState c, final int source, final int tag, final boolean take)
    {
        Unexpected u = c.protocol.findUnexpected(c.contextId, source, tag);
        if (u == null)
        {
            c.protocol.poll();
            u = c.protocol.findUnexpected(c.contextId, source, tag);
        }
        if (u != null && take)
        {
            c.protocol.removeUnexpected(u);
        }
        return u;
    }

    /** MPI_Imrecv: receives a message taken by mprobe/improbe. */
    static RequestImpl imrecv(final CommState c, final Unexpected u, final Object buf, final int offset, final int count, final Datatype type)
    {
        if (u == null)
        {
            final RecvRequestImpl unused = newRecv(c, c.contextId, "mrecv", buf, offset, count, type, Comm.PROC_NULL, Comm.ANY_TAG, null);
            assert unused == null;
            return procNullRecv(c);
        }
        final RecvRequestImpl r = newRecv(c, c.contextId, "mrecv", buf, offset, count, type, u.source, u.tag, null);
        c.engine.execute(() -> c.protocol.postMatchedRecv(r, u));
        return r;
    }

    /** A persistent send: arguments checked now, each start posts a send. */
    public static Request sendInit(
        final CommState c,
        final Object buf,
        final int offset,
        final int count,
        final Datatype type,
        final int dest,
        final int tag,
        final SendMode mode)
    {
        final String op = opName(mode) + "Init";
        Convertor.create(checkSend(op, c, buf, offset, count, type, dest, tag), offset, count, type);
        final SendRequestImpl[] last = new SendRequestImpl[1];
        return new PersistentRequestImpl(c.engine, c.errorSink(), opName(mode), () ->
        {
            final RequestImpl r = isend(c, c.contextId, buf, offset, count, type, dest, tag, mode, spare(c, last[0]));
            last[0] = r instanceof SendRequestImpl s ? s : null;
            return r;
        });
    }

    /** A persistent receive. */
    public static Request recvInit(
        final CommState c,
        final Object buf,
        final int offset,
        final int count,
        final Datatype type,
        final int source,
        final int tag)
    {
        newRecv(c, c.contextId, "recvInit", buf, offset, count, type, source, tag, null);
        final RecvRequestImpl[] last = new RecvRequestImpl[1];
        return new PersistentRequestImpl(c.engine, c.errorSink(), "recv", () ->
        {
            final RequestImpl r = irecv(c, c.contextId, buf, offset, count, type, source, tag, spare(c, last[0]));
            last[0] = r instanceof RecvRequestImpl rr ? rr : null;
            return r;
        });
    }

    /**
     * The request of a persistent send's last start, to rearm for this one, or null: a start comes only once the
     * last one was reported, so it may serve again on the terms a blocking call's does ({@link BlockingRequests}).
     */
    private static SendRequestImpl spare(final CommState c, final SendRequestImpl last)
    {
        return last != null && !c.engine.offload() && last.reusable() ? last : null;
    }

    /** As above, for a persistent receive. */
    private static RecvRequestImpl spare(final CommState c, final RecvRequestImpl last)
    {
        return last != null && !c.engine.offload() && last.reusable() ? last : null;
    }

    /**
     * MPI_Sendrecv_replace: the outgoing contents are first packed into a temporary buffer, then sent
     * from it while the receive lands in the user's buffer.
     */
    public static org.jmpi.Status sendrecvReplace(
        final CommState c,
        final Object buf,
        final int offset,
        final int count,
        final Datatype type,
        final int dest,
        final int sendTag,
        final int source,
        final int recvTag)
    {
        final String op = "sendrecvReplace";
        final BufferView view = checkSend(op, c, buf, offset, count, type, dest, sendTag);
        final Convertor source0 = Convertor.create(view, offset, count, type);
        final long bytes = source0.totalBytes();
        if (bytes > Integer.MAX_VALUE - 16)
        {
            throw new MpiException(ErrorClass.ERR_COUNT, op + ": message of " + bytes + " bytes is too large for a temporary copy");
        }
        final byte[] copy = new byte[(int)bytes];
        final BufferView copyView = BufferView.of(copy, "temporary buffer");
        Convertor.copy(source0, Convertor.create(copyView, 0, bytes, Datatype.BYTE), 0, bytes);
        final RequestImpl r = irecv(c, buf, offset, count, type, source, recvTag);
        if (dest != Comm.PROC_NULL)
        {
            final SendRequestImpl s = new SendRequestImpl(c.engine, c.errorSink(), c.protocol, c.contextId, c.rank, dest, c.worldRanks[dest],
                sendTag, SendMode.STANDARD, copyView, 0, bytes, Datatype.BYTE, Signatures.homogeneousCode(type),
                OneRun.address(copyView, 0, bytes, Datatype.BYTE, 0));
            c.engine.execute(s);
            s.await();
        }
        return r.await();
    }

    private static final byte[] NO_BYTES = new byte[0];
    private static final int BARRIER_TAG = 1;

    /**
     * MPI_Barrier by dissemination, on the communicator's collective context:
     * <ol>
     * <li>In round k = 0, 1, ... while 2^k &lt; size, send a zero-byte message to rank + 2^k and
     * receive one from rank - 2^k (mod size).</li>
     * <li>After ceil(log2(size)) rounds every rank has heard, directly or not, from every other.</li>
     * </ol>
     */
    public static void barrier(final CommState c)
    {
        final int size = c.size();
        final int rank = c.rank;
        for (int distance = 1, round = 0; distance < size; distance <<= 1, round++)
        {
            final int to = (rank + distance) % size;
            final int from = (rank - distance + size) % size;
            final RequestImpl r = irecv(c, c.collContextId, NO_BYTES, 0, 0, Datatype.BYTE, from, BARRIER_TAG + round);
            final RequestImpl s = isend(c, c.collContextId, NO_BYTES, 0, 0, Datatype.BYTE, to, BARRIER_TAG + round, SendMode.STANDARD);
            s.await();
            r.await();
        }
    }

    /** Runs {@code body} on the engine and returns a request completed when it has run. */
    private static RequestImpl engineCall(final CommState c, final Runnable body)
    {
        final EngineCall call = new EngineCall(c.engine, c.errorSink());
        c.engine.execute(() ->
        {
            try
            {
                body.run();
                call.done(null);
            }
            catch (final MpiException ex)
            {
                call.done(ex);
            }
        });
        return call;
    }

    /** The completion of a synchronous call run on the engine. */
    private static final class EngineCall extends RequestImpl
    {
        EngineCall(final ProgressEngine engine, final ErrorSink errors)
        {
            super(engine, errors);
        }

        void done(final MpiException failure)
        {
            complete(new Status(Comm.ANY_SOURCE, Comm.ANY_TAG, ErrorClass.SUCCESS, false, 0), failure);
        }

        @Override
        public void cancel()
        {
        }
    }

    private static String opName(final SendMode mode)
    {
        return switch (mode)
        {
            case STANDARD -> "send";
            case SYNC -> "ssend";
            case READY -> "rsend";
            case BUFFERED -> "bsend";
        };
    }

    /** The checks every send makes, in MPI's order of arguments; returns the resolved send buffer. */
    private static BufferView checkSend(
        final String op,
        final CommState c,
        final Object buf,
        final int offset,
        final int count,
        final Datatype type,
        final int dest,
        final int tag)
    {
        checkCount(op, count);
        checkType(op, type);
        checkDest(op, c, dest);
        checkTag(op, tag, false);
        final BufferView last = c.lastSendView;
        final BufferView view = last != null && last.buffer() == buf ? last : BufferView.of(buf, "send buffer");
        if (view != last && view.base() == buf)
        {
            c.lastSendView = view; // an array: the same view serves the next send from it
        }
        checkOffset(op, offset);
        return view;
    }

    static void checkCount(final String op, final int count)
    {
        if (count < 0)
        {
            throw new MpiException(ErrorClass.ERR_COUNT, op + ": negative count " + count);
        }
    }

    static void checkOffset(final String op, final int offset)
    {
        if (offset < 0)
        {
            throw new MpiException(ErrorClass.ERR_BUFFER, op + ": negative buffer offset " + offset);
        }
    }

    static void checkType(final String op, final Datatype type)
    {
        if (type == null)
        {
            throw new MpiException(ErrorClass.ERR_TYPE, op + ": datatype is null");
        }
        if (!type.isCommitted())
        {
            throw new MpiException(ErrorClass.ERR_TYPE, op + ": datatype " + type.name() + " is not committed");
        }
    }

    static void checkDest(final String op, final CommState c, final int dest)
    {
        if (dest != Comm.PROC_NULL && (dest < 0 || dest >= c.size()))
        {
            throw new MpiException(ErrorClass.ERR_RANK, op + ": invalid destination rank " + dest + " (communicator size " + c.size() + ")");
        }
    }

    static void checkSource(final String op, final CommState c, final int source)
    {
        if (source != Comm.PROC_NULL && source != Comm.ANY_SOURCE && (source < 0 || source >= c.size()))
        {
            throw new MpiException(ErrorClass.ERR_RANK, op + ": invalid source rank " + source + " (communicator size " + c.size() + ")");
        }
    }

    static void checkTag(final String op, final int tag, final boolean wildcardAllowed)
    {
        if ((tag < 0 || tag > TAG_UB) && !(wildcardAllowed && tag == Comm.ANY_TAG))
        {
            throw new MpiException(ErrorClass.ERR_TAG, op + ": invalid tag " + tag + " (valid: 0.." + TAG_UB +
                (wildcardAllowed ? " or ANY_TAG" : "") + ")");
        }
    }
}
