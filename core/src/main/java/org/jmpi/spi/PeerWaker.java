package org.jmpi.spi;

/**
 * A transport feature: wakes a peer's engine without sending it a frame, for layers that write into a peer's
 * memory directly (a split copy's progress record, a one-sided counter in an arena across JVMs). The shm
 * transport rings the peer's {@link Doorbell}; a peer that is not parked pays nothing but a shared read.
 *
 * <p>Threading: any thread.
 */
public interface PeerWaker
{
    /** Wakes {@code worldRank}'s engine if it is parked on its doorbell. */
    void wake(int worldRank);
}
