package org.jmpi.internal.pt2pt;

/**
 * A message envelope that arrived before its receive was posted: an eager message with its payload
 * (bounded by the sender's eager window) or a rendezvous request (no payload).
 *
 * <p>Threading: engine thread only.
 */
final class Unexpected extends MatchEntry
{
    boolean rendezvous;
    boolean sync;
    int sourceWorld;
    int sigCode;
    long length;
    long senderRequest;
    byte[] payload;
    /** Rendezvous: the path the RTS named, and what it kept of the RTS. */
    RendezvousPath path;
    Object arrival;
    int creditCost;
}
