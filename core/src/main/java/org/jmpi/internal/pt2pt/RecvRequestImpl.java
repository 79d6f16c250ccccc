package org.jmpi.internal.pt2pt;

import org.agrona.DirectBuffer;
import org.jmpi.Datatype;
import org.jmpi.ErrorClass;
import org.jmpi.MpiException;
import org.jmpi.Status;
import org.jmpi.internal.datatype.BufferView;
import org.jmpi.internal.datatype.Convertor;
import org.jmpi.internal.datatype.OneRun;
import org.jmpi.internal.engine.ProgressEngine;

/**
 * A receive in flight: posted (waiting in its context's posted list), or matched to a rendezvous and
 * taking fragments, or done.
 *
 * <p>Threading: built by the caller; after posting, engine thread only.
 */
final class RecvRequestImpl extends RequestImpl implements Runnable
{
    final Protocol protocol;
    /**
     * The cursor over the receive buffer; null for a buffer whose items are one native run ({@link #runAddress})
     * until a rendezvous path needs it ({@link #ensureConvertor}): an eager message into contiguous data needs none.
     */
    Convertor convertor;
    BufferView view;
    long count;
    Datatype type;
    /** With {@code view.base()}: the address of the items when they are one native run, else -1. */
    long runAddress;
    long capacityBytes;
    int sigCode;
    final Posted entry = new Posted(this);

    /** The world rank of each source rank of the communicator (its remote group for an intercommunicator). */
    int[] sourcesWorld;
    long id;
    /** Where the receive buffer's items start, in its elements (the split copy tells the sender). */
    long elementOffset;
    int messageSource;
    int messageTag;
    long messageBytes;
    long expectedBytes;
    long receivedBytes;
    ErrorClass error = ErrorClass.SUCCESS;
    String errorDetail;
    /** Whether the matched message was eager (its payload unpacked from a frame or an unexpected copy). */
    boolean eager;
    /** The on-line path check timing this receive's completion ({@link PathSelector#timed}), or null, and its path. */
    PathTrials trials;
    int trialPath;

    /** The posted-list entry of a receive. */
    static final class Posted extends MatchEntry
    {
        final RecvRequestImpl request;

        Posted(final RecvRequestImpl request)
        {
            this.request = request;
        }
    }

    RecvRequestImpl(
        final ProgressEngine engine,
        final ErrorSink errors,
        final Protocol protocol,
        final int contextId,
        final int source,
        final int tag,
        final BufferView view,
        final long elementOffset,
        final long count,
        final Datatype type,
        final int sigCode,
        final long runAddress)
    {
        super(engine, errors);
        this.protocol = protocol;
        arm(contextId, source, tag, view, elementOffset, count, type, sigCode, runAddress);
    }

    /**
     * Sets the receive's fields ({@code runAddress}: the items' {@link OneRun#address} with {@link Convertor#RECEIVE},
     * {@link PointToPoint#recvRun}), the per-message state back to new (a request made or {@link #rearm rearmed}). */
    private void arm(
        final int contextId,
        final int source,
        final int tag,
        final BufferView view,
        final long elementOffset,
        final long count,
        final Datatype type,
        final int sigCode,
        final long runAddress)
    {
        this.view = view;
        this.elementOffset = elementOffset;
        this.count = count;
        this.type = type;
        this.runAddress = runAddress;
        this.convertor = runAddress >= 0 ? null : Convertor.createForReceive(view, elementOffset, count, type);
        this.capacityBytes = convertor == null ? count * type.size() : convertor.totalBytes();
        this.sigCode = sigCode;
        entry.prev = null;
        entry.next = null;
        entry.list = null;
        entry.contextId = contextId;
        entry.source = source;
        entry.tag = tag;
        sourcesWorld = null;
        id = 0;
        messageSource = 0;
        messageTag = 0;
        messageBytes = 0;
        expectedBytes = 0;
        receivedBytes = 0;
        error = ErrorClass.SUCCESS;
        errorDetail = null;
        eager = false;
        trials = null;
    }

    /**
     * This request, completed and reported, made new for the next blocking receive of the same rank and
     * communicator ({@link BlockingRequests}); the arguments are checked already.
     */
    RecvRequestImpl rearm(
        final int contextId,
        final int source,
        final int tag,
        final BufferView view,
        final long elementOffset,
        final long count,
        final Datatype type,
        final int sigCode,
        final long runAddress)
    {
        rearm();
        arm(contextId, source, tag, view, elementOffset, count, type, sigCode, runAddress);
        return this;
    }

    /**
     * Whether the receive completed without a failure from an eager payload ({@link RecvSide}): then no path, map
     * or peer holds the request any more and the next blocking receive may take it.
     */
    boolean reusable()
    {
        return eager && failure() == null;
    }

    /** Makes the cursor a one-run receive left out (a rendezvous path walks the buffer with it). Engine thread. */
    void ensureConvertor()
    {
        if (convertor == null)
        {
            convertor = Convertor.createForReceive(view, elementOffset, count, type);
        }
    }

    /** Copies an eager payload of {@code n} bytes at {@code index} into the receive buffer. Engine thread. */
    void unpackEager(final DirectBuffer buffer, final int index, final int n)
    {
        if (convertor == null)
        {
            OneRun.unpack(buffer, index, n, view.base(), runAddress);
        }
        else
        {
            convertor.unpack(buffer, index, n);
        }
    }

    /** Completes with the matched message's status and any error recorded while receiving. Engine thread. */
    void completeReceive()
    {
        MpiException failure = null;
        if (error == ErrorClass.ERR_TRUNCATE)
        {
            failure = new MpiException(ErrorClass.ERR_TRUNCATE, "recv truncated: received=" + messageBytes +
                " bytes, buffer=" + capacityBytes + " bytes, source=" + messageSource + ", tag=" + messageTag);
        }
        else if (error != ErrorClass.SUCCESS)
        {
            failure = new MpiException(error, errorDetail + ", source=" + messageSource + ", tag=" + messageTag);
        }
        complete(messageSource, messageTag, error, messageBytes, failure);
    }

    /** Fails the receive: every rank it may receive from has finalized and nothing it sent matches. Engine thread. */
    void completeSourceFinalized(final String detail)
    {
        complete(new Status(entry.source, entry.tag, ErrorClass.ERR_OTHER, false, 0),
            new MpiException(ErrorClass.ERR_OTHER, "recv: " + detail + ", tag=" + entry.tag));
    }

    /** Posts the receive; run by the engine ({@link ProgressEngine#execute}: inline in direct mode). */
    @Override
    public void run()
    {
        protocol.postRecv(this);
    }

    void completeCancelled()
    {
        complete(new Status(entry.source, entry.tag, ErrorClass.SUCCESS, true, 0), null);
    }

    @Override
    public void cancel()
    {
        protocol.cancel(this);
    }
}
