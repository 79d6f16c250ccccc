package org.jmpi.internal.pt2pt;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.jmpi.ErrorClass;
import org.jmpi.MpiException;
import org.jmpi.internal.datatype.Signatures;

import static org.jmpi.internal.pt2pt.FrameDescriptor.*;

/**
 * The receive side of the protocol: an arriving envelope is matched against the posted receives
 * ({@link Matcher}) or kept as unexpected; an eager payload is unpacked straight from the frame (or from
 * its unexpected copy); a rendezvous is handed to the path its RTS names. Eager bytes consumed are
 * returned to the sender as credits.
 *
 * <p>Threading: engine thread only.
 */
final class RecvSide
{
    private static final byte[] EMPTY = new byte[0];

    private final Protocol protocol;
    private final Matcher matcher;
    private final RendezvousPath[] paths;
    private final long eagerWindow;
    private final UnsafeBuffer scratch = new UnsafeBuffer(EMPTY);
    private long bufferedBytes;
    /** Whether some peer has finalized: until then no receive checks whether its sources can still send. */
    private boolean peerFinalized;

    RecvSide(final Protocol protocol, final Matcher matcher, final RendezvousPath[] paths, final long eagerWindow)
    {
        this.protocol = protocol;
        this.matcher = matcher;
        this.paths = paths;
        this.eagerWindow = eagerWindow;
    }

    /** Payload bytes of eager messages held as unexpected. */
    long bufferedBytes()
    {
        return bufferedBytes;
    }

    void postRecv(final RecvRequestImpl r)
    {
        final Unexpected u = matcher.takeUnexpectedOrPost(r);
        if (u != null)
        {
            consume(u, r);
        }
        else if (peerFinalized && neverArrives(r.entry.contextId, r.entry.source, r.sourcesWorld))
        {
            matcher.cancel(r);
            r.completeSourceFinalized(finalizedDetail(r.entry.source, r.sourcesWorld));
        }
    }

    void postProbe(final ProbeRequestImpl p)
    {
        matcher.postProbe(p);
        if (peerFinalized && !p.isDone() && neverArrives(p.contextId, p.source, p.sourcesWorld))
        {
            matcher.removeProbe(p);
            p.completeSourceFinalized(finalizedDetail(p.source, p.sourcesWorld));
        }
    }

    /**
     * A peer finalized (its BYE arrived behind everything it sent): the posted receives and probes that only it
     * (or, for ANY_SOURCE, only finalized ranks) could satisfy fail now, naming it, instead of waiting forever.
     * Messages of its finalize barrier ({@code barrierContext}) still come.
     */
    void onPeerFinalized(final PeerChannel ch, final int barrierContext)
    {
        ch.finalized = true;
        ch.finalizeContext = barrierContext;
        peerFinalized = true;
        for (final RecvRequestImpl r : matcher.takePosted(r -> neverArrives(r.entry.contextId, r.entry.source, r.sourcesWorld)))
        {
            r.completeSourceFinalized(finalizedDetail(r.entry.source, r.sourcesWorld));
        }
        for (final ProbeRequestImpl p : matcher.takeProbes(p -> neverArrives(p.contextId, p.source, p.sourcesWorld)))
        {
            p.completeSourceFinalized(finalizedDetail(p.source, p.sourcesWorld));
        }
    }

    /**
     * Whether no message can arrive any more for a receive on {@code contextId} from {@code source}: the source
     * (every member, for ANY_SOURCE) has finalized, and the context is not its finalize barrier's. A communicator
     * that holds this rank never passes for ANY_SOURCE (this rank may still send to itself).
     */
    private boolean neverArrives(final int contextId, final int source, final int[] sourcesWorld)
    {
        if (source != org.jmpi.Comm.ANY_SOURCE)
        {
            return gone(protocol.channel(sourcesWorld[source]), contextId);
        }
        for (final int world : sourcesWorld)
        {
            if (!gone(protocol.channel(world), contextId))
            {
                return false;
            }
        }
        return true;
    }

    private static boolean gone(final PeerChannel ch, final int contextId)
    {
        return ch.finalized && ch.finalizeContext != contextId;
    }

    private static String finalizedDetail(final int source, final int[] sourcesWorld)
    {
        return source == org.jmpi.Comm.ANY_SOURCE
            ? "every rank it may receive from (ANY_SOURCE) has finalized; no message can arrive"
            : "source " + source + " (world rank " + sourcesWorld[source] + ") has finalized; no matching message from it can arrive";
    }

    /** An EAGER or RTS frame. */
    void onEnvelope(final PeerChannel ch, final DirectBuffer buffer, final int index, final int lengthBytes, final boolean rendezvous)
    {
        final int contextId = buffer.getInt(index + CONTEXT_OFFSET, BYTE_ORDER);
        final int tag = buffer.getInt(index + TAG_OFFSET, BYTE_ORDER);
        final int source = buffer.getInt(index + SOURCE_OFFSET, BYTE_ORDER);
        final int sigCode = buffer.getByte(index + SIG_OFFSET) & 0xFF;
        final long length = buffer.getLong(index + LENGTH_OFFSET, BYTE_ORDER);
        final long senderRequest = buffer.getLong(index + ENVELOPE_SENDER_REQUEST_OFFSET, BYTE_ORDER);
        final boolean sync = (buffer.getByte(index + FLAGS_OFFSET) & FLAG_SYNC) != 0;
        final int cost = rendezvous ? 0 : ENVELOPE_LENGTH + (int)length;
        RendezvousPath path = null;
        Object arrival = null;
        if (rendezvous)
        {
            path = path(buffer.getByte(index + PATH_OFFSET), ch);
            arrival = path.onArrival(ch, buffer, index + ENVELOPE_LENGTH, lengthBytes - ENVELOPE_LENGTH);
        }
        final RecvRequestImpl r = matcher.takePosted(contextId, source, tag);
        if (r == null && matcher.isClosed(contextId))
        {
            drop(ch, contextId, source, tag, length, cost, path, senderRequest);
        }
        else if (r == null)
        {
            keepUnexpected(ch, buffer, index, contextId, source, tag, sigCode, length, senderRequest, sync, cost, path, arrival);
        }
        else if (rendezvous)
        {
            matchRendezvous(r, ch, source, tag, sigCode, length, senderRequest, path, arrival);
        }
        else
        {
            deliverEager(r, ch, buffer, index + ENVELOPE_LENGTH, source, tag, sigCode, length, sync, senderRequest, cost);
        }
    }

    /** Files an envelope no receive was posted for, with a copy of its eager payload. */
    private void keepUnexpected(final PeerChannel ch, final DirectBuffer buffer, final int index, final int contextId,
        final int source, final int tag, final int sigCode, final long length, final long senderRequest, final boolean sync,
        final int cost, final RendezvousPath path, final Object arrival)
    {
        final Unexpected u = new Unexpected();
        u.contextId = contextId;
        u.source = source;
        u.tag = tag;
        u.rendezvous = path != null;
        u.sync = sync;
        u.sourceWorld = ch.worldRank;
        u.sigCode = sigCode;
        u.length = length;
        u.senderRequest = senderRequest;
        u.path = path;
        u.arrival = arrival;
        u.creditCost = cost;
        if (path == null)
        {
            u.payload = new byte[(int)length];
            buffer.getBytes(index + ENVELOPE_LENGTH, u.payload);
            bufferedBytes += length;
        }
        matcher.addUnexpected(u);
    }

    /**
     * A communicator was freed here: its context's frames are dropped from now on, and the unexpected
     * messages it held are dropped now, their eager credits returned to the senders.
     */
    void closeContext(final int contextId)
    {
        for (final Unexpected u : matcher.close(contextId))
        {
            if (!u.rendezvous)
            {
                bufferedBytes -= u.length;
            }
            drop(protocol.channel(u.sourceWorld), contextId, u.source, u.tag, u.length, u.creditCost, u.path, u.senderRequest);
        }
    }

    void openContext(final int contextId)
    {
        matcher.open(contextId);
    }

    /**
     * Drops a message of a freed communicator with a diagnostic: an eager one's credits go back, a rendezvous
     * is declined so that its sender completes instead of waiting forever.
     */
    private void drop(final PeerChannel ch, final int contextId, final int source, final int tag, final long length, final int cost,
        final RendezvousPath path, final long senderRequest)
    {
        System.err.println("jmpi: dropped a message for a freed communicator: context=" + contextId + ", from world rank " +
            ch.worldRank + " (source " + source + ", tag " + tag + ", " + length + " bytes)");
        returnCredits(ch, cost);
        if (path != null)
        {
            path.decline(ch, senderRequest);
        }
    }

    /** Receives an unexpected message into {@code r} (a receive just posted, or an mrecv). */
    void consume(final Unexpected u, final RecvRequestImpl r)
    {
        final PeerChannel ch = protocol.channel(u.sourceWorld);
        if (u.rendezvous)
        {
            matchRendezvous(r, ch, u.source, u.tag, u.sigCode, u.length, u.senderRequest, u.path, u.arrival);
        }
        else
        {
            bufferedBytes -= u.length;
            scratch.wrap(u.payload);
            deliverEager(r, ch, scratch, 0, u.source, u.tag, u.sigCode, u.length, u.sync, u.senderRequest, u.creditCost);
            scratch.wrap(EMPTY);
        }
    }

    private RendezvousPath path(final byte id, final PeerChannel ch)
    {
        if (id < 0 || id >= paths.length)
        {
            throw new MpiException(ErrorClass.ERR_INTERN, "RTS from rank " + ch.worldRank + " names unknown path " + id);
        }
        return paths[id];
    }

    /**
     * Records the matched message's envelope in {@code r} and returns the bytes it takes: all, fewer on
     * truncation (ERR_TRUNCATE recorded), none on a type mismatch (ERR_TYPE recorded).
     */
    private static long accept(final RecvRequestImpl r, final int source, final int tag, final int sigCode, final long length)
    {
        r.messageSource = source;
        r.messageTag = tag;
        r.messageBytes = length;
        if (!checkSignature(r, sigCode, length))
        {
            return 0;
        }
        if (length > r.capacityBytes)
        {
            r.error = ErrorClass.ERR_TRUNCATE;
        }
        return Math.min(length, r.capacityBytes);
    }

    private static boolean checkSignature(final RecvRequestImpl r, final int sigCode, final long length)
    {
        if (length > 0 && !Signatures.compatible(sigCode, r.sigCode))
        {
            r.error = ErrorClass.ERR_TYPE;
            r.errorDetail = "recv type mismatch: the message's basic type (code " + sigCode +
                ") does not match the receive type (code " + r.sigCode + ")";
            return false;
        }
        return true;
    }

    private void deliverEager(
        final RecvRequestImpl r,
        final PeerChannel ch,
        final DirectBuffer buffer,
        final int payloadIndex,
        final int source,
        final int tag,
        final int sigCode,
        final long length,
        final boolean sync,
        final long senderRequest,
        final int cost)
    {
        final long take = accept(r, source, tag, sigCode, length);
        if (take > 0)
        {
            r.unpackEager(buffer, payloadIndex, (int)take);
        }
        returnCredits(ch, cost);
        if (sync)
        {
            protocol.submit(ch, ControlFrame.ack(senderRequest));
        }
        r.eager = true;
        r.completeReceive();
    }

    private void matchRendezvous(
        final RecvRequestImpl r,
        final PeerChannel ch,
        final int source,
        final int tag,
        final int sigCode,
        final long length,
        final long senderRequest,
        final RendezvousPath path,
        final Object arrival)
    {
        final long accept = accept(r, source, tag, sigCode, length);
        r.ensureConvertor();
        path.onMatched(r, ch, senderRequest, accept, arrival);
    }

    private void returnCredits(final PeerChannel ch, final int cost)
    {
        if (cost == 0)
        {
            return;
        }
        ch.creditsToReturn += cost;
        if (!ch.creditFrameQueued && ch.creditsToReturn >= eagerWindow / 2)
        {
            ch.creditFrameQueued = true;
            protocol.submit(ch, ControlFrame.credit());
        }
    }
}
