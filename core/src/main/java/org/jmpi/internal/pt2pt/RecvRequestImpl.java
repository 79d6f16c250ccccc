package org.jmpi.internal.pt2pt;

import org.jmpi.ErrorClass;
import org.jmpi.MpiException;
import org.jmpi.Status;
import org.jmpi.internal.datatype.Convertor;
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
    final Convertor convertor;
    final long capacityBytes;
    final int sigCode;
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
        final Convertor convertor,
        final int sigCode)
    {
        super(engine, errors);
        this.protocol = protocol;
        this.convertor = convertor;
        this.capacityBytes = convertor.totalBytes();
        this.sigCode = sigCode;
        entry.contextId = contextId;
        entry.source = source;
        entry.tag = tag;
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
