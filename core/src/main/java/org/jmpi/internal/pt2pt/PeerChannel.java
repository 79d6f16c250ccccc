package org.jmpi.internal.pt2pt;

import org.jmpi.spi.Transport;

import java.util.ArrayDeque;

/**
 * The protocol's view of one peer (a world rank): the transport that reaches it, the frames waiting
 * for room in that transport (in order, so back-pressure never reorders envelopes), and the eager
 * flow-control window in both directions.
 *
 * <p>Threading: engine thread only.
 */
final class PeerChannel
{
    final int worldRank;
    final Transport transport;
    final boolean directCopy;
    final int maxFrameLength;
    final ArrayDeque<Outbound> queue = new ArrayDeque<>();
    /** Eager bytes sent to this peer and not yet returned as credits. */
    long eagerOutstanding;
    /** Eager bytes received from this peer and consumed, to return with the next frame. */
    int creditsToReturn;
    boolean creditFrameQueued;
    boolean pending;

    PeerChannel(final int worldRank, final Transport transport)
    {
        this.worldRank = worldRank;
        this.transport = transport;
        this.directCopy = transport.capabilities().objectAttachments();
        this.maxFrameLength = transport.capabilities().maxFrameLength();
    }

    /** Takes the credits to piggy-back on a frame being written now. */
    int takeCredits()
    {
        final int credits = creditsToReturn;
        creditsToReturn = 0;
        return credits;
    }
}
