package org.jmpi.internal.pt2pt;

/**
 * Something waiting to go out on a peer channel: a send in one of its frame-emitting states, or a
 * control frame. Engine thread only.
 */
interface Outbound
{
    /** Emits as much as the transport takes; true when this item is finished with. */
    boolean emit(Protocol protocol, PeerChannel channel);
}
