package org.jmpi.spi;

/**
 * A transport feature: memory one rank exposes is directly addressable by the peers this transport
 * reaches, so a protocol can copy straight from a sender's buffer into a receiver's (single copy) or
 * split that copy between the two. Ranks that are threads of one JVM reach every object; ranks in
 * separate JVMs reach what lies in a shared arena.
 *
 * <p>An exposure is named by a handle, a non-zero {@code long} that travels in a frame; the peer maps the
 * handle back to memory it can copy to or from. The owner keeps the memory valid, and the handle
 * mappable, until it {@link #withdraw withdraws} it, which it does only after the peer said it is done.
 *
 * <p>Threading: {@link #expose} and {@link #withdraw} on the owner's progress thread, {@link #map} on the
 * peer's; an exposure published by {@code expose} is visible to any thread that maps its handle after
 * the handle reached it in a frame.
 */
public interface PeerMemory
{
    /**
     * Exposes {@code memory} (a primitive array or a {@link java.nio.Buffer}) to this transport's peers.
     *
     * @return the handle, or 0 when this transport cannot expose that memory (then the protocol uses
     * another path; for example an arena exposes only memory allocated in it).
     */
    long expose(Object memory);

    /** Ends an exposure; the handle must not be mapped again. */
    void withdraw(long handle);

    /**
     * The memory {@code peerRank} exposed under {@code handle}, as an object a convertor can walk: the
     * very object between threads of one JVM, a view of the arena across JVMs.
     *
     * @throws org.jmpi.MpiException ERR_INTERN when the peer has no such exposure.
     */
    Object map(int peerRank, long handle);

    /**
     * Wakes {@code peerRank}'s progress engine after this rank wrote to the peer's memory directly (a put
     * and its notification counter), so a peer parked waiting for that counter sees it at once. May do
     * nothing where the peer cannot be woken (it then sees the write at its next poll).
     */
    void wake(int peerRank);

    /**
     * A record of {@code longs} longs, zeroed, that this transport can {@link #expose} and both sides may update
     * with atomic operations once the peer {@link #map maps} it (a split copy's progress): a {@code long[]} where
     * any heap object can be exposed, a native-order direct buffer in a shared arena across JVMs.
     *
     * @return the record, or null when there is no room for one now (the caller then takes a path without it).
     */
    default Object record(final int longs)
    {
        return new long[longs];
    }

    /** Gives back a record from {@link #record}, after its exposure was withdrawn. */
    default void releaseRecord(final Object record)
    {
    }
}
