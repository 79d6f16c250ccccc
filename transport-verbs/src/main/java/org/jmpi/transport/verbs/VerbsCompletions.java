package org.jmpi.transport.verbs;

import org.agrona.concurrent.UnsafeBuffer;
import org.jmpi.ErrorClass;
import org.jmpi.MpiException;
import org.jmpi.spi.FrameHandler;
import org.jmpi.transport.verbs.ibv.Ibv;
import org.jmpi.transport.verbs.ibv.MemoryRegion;
import org.jmpi.transport.verbs.ibv.RecvRequests;
import org.jmpi.transport.verbs.ibv.SendRequests;
import org.jmpi.transport.verbs.ibv.WorkCompletions;

import static org.jmpi.transport.verbs.VerbsTransport.IMM_BYE;
import static org.jmpi.transport.verbs.VerbsTransport.IMM_STAGED;

/**
 * What each completion {@link VerbsTransport#progress} polls means: a received frame handed over and its buffer
 * posted again, credits returned to the peer in batches (an RDMA WRITE of the consumed count), a send slot freed, a
 * BYE, a put or get completed, and a failed work request (the peer's death, or a failed put/get reported to its
 * request).
 *
 * <p>Threading: the transport's progress owner only. It holds no memory of its own: the work completions, request
 * lists and credit words are the transport's.
 */
final class VerbsCompletions
{
    private final VerbsTransport transport;
    private final VerbsPairs pairs;
    private final Peer[] peers;
    private final WorkCompletions wcs;
    private final RecvRequests recvs = new RecvRequests(1);
    private final SendRequests sends;
    private final VerbsRemoteMemory remoteMemory;
    private final UnsafeBuffer creditOutView;
    private final MemoryRegion creditOutMr;
    private final int rank;
    private final int slots;
    private final int frameLength;
    private final int creditBatch;

    VerbsCompletions(final VerbsTransport transport, final VerbsPairs pairs, final Peer[] peers, final WorkCompletions wcs,
        final SendRequests sends, final VerbsRemoteMemory remoteMemory, final UnsafeBuffer creditOutView, final MemoryRegion creditOutMr,
        final int slots, final int frameLength)
    {
        this.transport = transport;
        this.pairs = pairs;
        this.peers = peers;
        this.wcs = wcs;
        this.sends = sends;
        this.remoteMemory = remoteMemory;
        this.creditOutView = creditOutView;
        this.creditOutMr = creditOutMr;
        this.rank = transport.rank();
        this.slots = slots;
        this.frameLength = frameLength;
        this.creditBatch = Math.max(1, slots / 2);
    }

    /**
     * Handles completion {@code i}; returns the work it was for the caller: a frame delivered, a put or get completed, or
     * a send slot freed while every slot was taken (an offer may have been refused). The device's acknowledgements of
     * frames, credit updates and BYEs are bookkeeping: they arrive whenever the device gets to them, also long after the
     * last frame, and counting them would make an idle transport look busy.
     */
    int complete(final int i, final FrameHandler handler)
    {
        final long wrId = wcs.wrId(i);
        final int kind = WorkRequestIds.kind(wrId);
        final Peer p = peers[WorkRequestIds.peer(wrId)];
        if (!p.connected && p.state == Peer.CONNECTED)
        {
            p.connected = true; // the volatile read publishes the connector's writes to this thread
        }
        final int status = wcs.status(i);
        if (status != Ibv.WC_SUCCESS)
        {
            failed(p, kind, WorkRequestIds.index(wrId), status);
            return kind == WorkRequestIds.RMA || kind == WorkRequestIds.BOUNCE ? 1 : 0; // a failed put or get completed its request
        }
        return switch (kind)
        {
            case WorkRequestIds.RECV ->
            {
                final int slot = WorkRequestIds.index(wrId);
                final int immediate = wcs.immediate(i);
                if (immediate == IMM_BYE)
                {
                    p.byeReceived = true;
                    yield 0;
                }
                if (immediate == IMM_STAGED)
                {
                    remoteMemory.staged().onMessage(p.rank, p.recvView, slot * frameLength, wcs.byteLength(i));
                }
                else
                {
                    handler.onFrame(p.rank, p.recvView, slot * frameLength, wcs.byteLength(i));
                }
                pairs.postRecv(p, slot, recvs);
                p.consumed++;
                returnCredits(p);
                yield 1;
            }
            case WorkRequestIds.SEND ->
            {
                final boolean slotsWereFull = p.sent - p.sendCompleted >= slots;
                p.sendCompleted++;
                yield slotsWereFull ? 1 : 0;
            }
            case WorkRequestIds.CREDIT ->
            {
                p.creditInFlight = false;
                returnCredits(p);
                yield 0;
            }
            case WorkRequestIds.BYE ->
            {
                p.byeAcked = true;
                yield 0;
            }
            case WorkRequestIds.RMA ->
            {
                p.rmaInFlight--;
                remoteMemory.staged().onDirectComplete(WorkRequestIds.index(wrId), null);
                yield 1;
            }
            case WorkRequestIds.BOUNCE ->
            {
                p.rmaInFlight--;
                remoteMemory.staged().onBounceComplete(WorkRequestIds.index(wrId), null);
                yield 1;
            }
            default -> throw new MpiException(ErrorClass.ERR_INTERN, "verbs: completion of unknown kind " + kind + " on rank " + rank);
        };
    }

    /** Writes {@code p}'s consumed count into its credit word for this rank, when a batch is due and none is in flight. */
    private void returnCredits(final Peer p)
    {
        if (p.creditInFlight || p.byeReceived || p.failed || p.consumed - p.creditWritten < creditBatch)
        {
            return;
        }
        final int at = Long.BYTES * p.rank;
        creditOutView.putLong(at, p.consumed);
        sends.prepareRdma(0, WorkRequestIds.of(WorkRequestIds.CREDIT, p.rank, 0), false, creditOutMr.address() + at, Long.BYTES,
            creditOutMr.lkey(), p.remoteCreditAddress, p.remoteCreditRkey, Ibv.SEND_SIGNALED);
        transport.post(p, "credits");
        p.creditWritten = p.consumed;
        p.creditInFlight = true;
    }

    /**
     * A work request of {@code p} failed. After the peer's BYE (or while closing) that is its queue pair going
     * away. A failed put or get is reported to its caller (a wrong key: remote access error) and leaves the
     * queue pair in error, so later frames to the peer fail in {@link VerbsTransport#offer}. Anything else is the peer's
     * death, thrown once (the requests flushed after it are its echo).
     */
    private void failed(final Peer p, final int kind, final int index, final int status)
    {
        final boolean rma = kind == WorkRequestIds.RMA || kind == WorkRequestIds.BOUNCE;
        if (rma)
        {
            p.rmaInFlight--;
            final MpiException failure = new MpiException(ErrorClass.ERR_OTHER,
                "verbs: put/get to rank " + p.rank + " failed: " + Ibv.wcStatus(status) + " (seen by rank " + rank + ")");
            if (kind == WorkRequestIds.RMA)
            {
                remoteMemory.staged().onDirectComplete(index, failure);
            }
            else
            {
                remoteMemory.staged().onBounceComplete(index, failure);
            }
        }
        if (p.byeReceived || transport.closed())
        {
            return;
        }
        final boolean first = !p.failed;
        p.failed = true;
        if (rma && first)
        {
            return;
        }
        if (first || status != Ibv.WC_WR_FLUSH_ERR)
        {
            throw transport.gone(p, Ibv.wcStatus(status) + " on a " + kindName(kind));
        }
    }

    private static String kindName(final int kind)
    {
        return switch (kind)
        {
            case WorkRequestIds.RECV -> "receive";
            case WorkRequestIds.SEND -> "frame";
            case WorkRequestIds.CREDIT -> "credit update";
            case WorkRequestIds.BYE -> "BYE";
            default -> "put/get";
        };
    }
}
