package org.jmpi.internal.pt2pt;

import org.jmpi.spi.PeerMemory;
import org.jmpi.spi.RemoteMemory;
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
    /** The transport's peer memory, or null when it has none. */
    final PeerMemory peerMemory;
    /** The transport's remote memory, or null when it has none. */
    final RemoteMemory remoteMemory;
    final int maxFrameLength;
    /** The largest frame the transport carries at full speed ({@link Transport#fastFrameLength()}). */
    final int fastFrameLength;
    /** The datatypes this pair of ranks described to each other (peer-copy RTS). */
    final TypeTable types;
    final ArrayDeque<Outbound> queue = new ArrayDeque<>();
    /** Eager bytes sent to this peer and not yet returned as credits. */
    long eagerOutstanding;
    /** Eager bytes received from this peer and consumed, to return with the next frame. */
    int creditsToReturn;
    boolean creditFrameQueued;
    boolean pending;
    /** The peer finalized (its BYE arrived): nothing more comes from it but its finalize barrier's messages. */
    boolean finalized;
    /** The context of that barrier. */
    int finalizeContext;

    /** @param remoteMemory the transport's remote memory as the protocol shares it ({@link SharedRemoteMemory}), or null. */
    PeerChannel(final int worldRank, final Transport transport, final RemoteMemory remoteMemory)
    {
        this.worldRank = worldRank;
        this.transport = transport;
        this.peerMemory = transport.feature(PeerMemory.class);
        this.remoteMemory = remoteMemory;
        this.maxFrameLength = transport.maxFrameLength();
        this.fastFrameLength = Math.max(1, Math.min(maxFrameLength, transport.fastFrameLength()));
        this.types = new TypeTable(worldRank);
    }

    /** Takes the credits to piggy-back on a frame being written now. */
    int takeCredits()
    {
        final int credits = creditsToReturn;
        creditsToReturn = 0;
        return credits;
    }
}
