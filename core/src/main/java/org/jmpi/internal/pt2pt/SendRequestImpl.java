package org.jmpi.internal.pt2pt;

import org.jmpi.Datatype;
import org.jmpi.ErrorClass;
import org.jmpi.internal.datatype.BufferView;
import org.jmpi.internal.datatype.Convertor;
import org.jmpi.internal.datatype.OneRun;
import org.jmpi.internal.engine.ProgressEngine;

/**
 * A send in flight. States: {@code EAGER_PENDING} or {@code RTS_PENDING} (queued for its envelope
 * frame), {@code WAIT_ACK} (synchronous eager, waiting for the match), {@code WAIT_CTS}/{@code WAIT_FIN}
 * (rendezvous, waiting for the receiver), {@code STREAMING} (sending fragments), done.
 *
 * <p>Threading: built by the caller; after posting, engine thread only.
 */
final class SendRequestImpl extends RequestImpl implements Outbound, Runnable
{
    enum State
    {
        NEW, EAGER_PENDING, RTS_PENDING, WAIT_ACK, WAIT_CTS, STREAMING, DONE
    }

    int contextId;
    int sourceRank;
    int destRank;
    int destWorld;
    int tag;
    SendMode mode;
    int sigCode;
    /** The send buffer, which the peer-copy path exposes. */
    BufferView view;
    long elementOffset;
    long count;
    Datatype type;
    /**
     * The cursor over the send buffer; null for a message whose data is one native run ({@link #runAddress}) until a
     * rendezvous path needs it ({@link #ensureConvertor}): an eager message of contiguous data needs none.
     */
    Convertor convertor;
    /** With {@code view.base()}: the address of the data when it is one native run, else -1. */
    long runAddress;
    long totalBytes;
    private final Protocol protocol;
    /** Runs on the engine thread when the send completes (buffered sends free their space). */
    Runnable onComplete;

    State state = State.NEW;
    /** Rendezvous: the path moving the data, and the peer-copy path's exposure and type description. */
    RendezvousPath path;
    long exposedHandle;
    int typeId;
    int wireLength;
    /** The send type's wire form published in the arena, when {@code wireLength} is {@code WIRE_PUBLISHED}. */
    PublishedTypes.Ref typeRef;
    /** Pack at send ({@link SendPacking}): the staging buffer the RTS offers instead of {@link #view}, or null. */
    Object staging;
    long id;
    long receiverRequest;
    long acceptBytes;
    long sentBytes;
    /** Staged path: payload bytes per DATA fragment, chosen on the CTS ({@link PathSelector#fragmentBytes}). */
    int fragmentBytes;

    /** {@code runAddress}: the data's {@link OneRun#address} ({@link PointToPoint#sendRun}), or -1. */
    SendRequestImpl(
        final ProgressEngine engine,
        final ErrorSink errors,
        final Protocol protocol,
        final int contextId,
        final int sourceRank,
        final int destRank,
        final int destWorld,
        final int tag,
        final SendMode mode,
        final BufferView view,
        final long elementOffset,
        final long count,
        final Datatype type,
        final int sigCode,
        final long runAddress)
    {
        super(engine, errors);
        this.protocol = protocol;
        arm(contextId, sourceRank, destRank, destWorld, tag, mode, view, elementOffset, count, type, sigCode, runAddress);
    }

    /** Sets the message's fields, the per-message state back to new (a request made or {@link #rearm rearmed}). */
    private void arm(
        final int contextId,
        final int sourceRank,
        final int destRank,
        final int destWorld,
        final int tag,
        final SendMode mode,
        final BufferView view,
        final long elementOffset,
        final long count,
        final Datatype type,
        final int sigCode,
        final long runAddress)
    {
        this.contextId = contextId;
        this.sourceRank = sourceRank;
        this.destRank = destRank;
        this.destWorld = destWorld;
        this.tag = tag;
        this.mode = mode;
        this.view = view;
        this.elementOffset = elementOffset;
        this.count = count;
        this.type = type;
        this.runAddress = runAddress;
        this.convertor = runAddress >= 0 ? null : Convertor.create(view, elementOffset, count, type);
        this.totalBytes = convertor == null ? count * type.size() : convertor.totalBytes();
        this.sigCode = sigCode;
        onComplete = null;
        state = State.NEW;
        path = null;
        exposedHandle = 0;
        typeId = 0;
        wireLength = 0;
        typeRef = null;
        staging = null;
        id = 0;
        receiverRequest = 0;
        acceptBytes = 0;
        sentBytes = 0;
        fragmentBytes = 0;
    }

    /**
     * This request, completed and reported, made new for the next blocking send of the same rank and communicator
     * ({@link BlockingRequests}); the arguments are checked already.
     */
    SendRequestImpl rearm(
        final int contextId,
        final int destRank,
        final int destWorld,
        final int tag,
        final SendMode mode,
        final BufferView view,
        final long elementOffset,
        final long count,
        final Datatype type,
        final int sigCode,
        final long runAddress)
    {
        rearm();
        arm(contextId, sourceRank, destRank, destWorld, tag, mode, view, elementOffset, count, type, sigCode, runAddress);
        return this;
    }

    /**
     * Whether the send completed without a failure and through no rendezvous path (an eager message): then no
     * path, map or peer holds the request any more and the next blocking send may take it.
     */
    boolean reusable()
    {
        return state == State.DONE && path == null && onComplete == null && failure() == null;
    }

    /** Makes the cursor a one-run message left out (a rendezvous path walks the buffer with it). Engine thread. */
    void ensureConvertor()
    {
        if (convertor == null)
        {
            convertor = Convertor.create(view, elementOffset, count, type);
        }
    }

    /** Posts the send; run by the engine ({@link ProgressEngine#execute}: inline in direct mode). */
    @Override
    public void run()
    {
        protocol.postSend(this);
    }

    @Override
    public boolean emit(final Protocol protocol, final PeerChannel channel)
    {
        return protocol.emitSend(this, channel);
    }

    void completeSend()
    {
        state = State.DONE;
        if (onComplete != null)
        {
            onComplete.run();
        }
        complete(destRank, tag, ErrorClass.SUCCESS, totalBytes, null);
    }

    @Override
    public void cancel()
    {
        // MPI 4.1 deprecates cancelling sends; a cancel is allowed to fail, so the send completes normally.
    }
}
