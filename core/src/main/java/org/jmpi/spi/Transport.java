package org.jmpi.spi;

/**
 * Moves frames between ranks, and may offer typed features beyond frames. A transport knows nothing of
 * communicators, tags or datatypes: the protocol layer in core writes and reads the frames and picks,
 * per message, a path from the features the transport offers (see docs/transports.md).
 *
 * <p>Frames are the active-message layer every transport has. Features are optional interfaces a
 * transport returns from {@link #feature}: {@link PeerMemory} (a peer's exposed memory is directly
 * addressable: threads of one JVM, a shared arena), and later remote-memory operations (RDMA).
 *
 * <p>Threading: {@link #offer}, {@link #progress}, {@link #close} and every feature's methods are called
 * only by the rank's progress owner (one thread at a time), unless a feature says otherwise;
 * {@link #wakeup} may be called from any thread.
 *
 * <p>Ordering: frames from one sender to one receiver are delivered in the order they were offered.
 */
public interface Transport extends AutoCloseable
{
    /** The provider's name. */
    String name();

    /** The largest frame, header included, one {@link #offer} takes. */
    int maxFrameLength();

    /**
     * The largest frame, header included, this transport carries at full speed, without a side allocation or an extra
     * copy (at most {@link #maxFrameLength()}, which it is unless the transport says otherwise): the staged pipeline's
     * fragments fit it when the protocol chooses their size.
     */
    default int fastFrameLength()
    {
        return maxFrameLength();
    }

    /** Whether this transport can carry frames to {@code rank} (a world rank). */
    boolean reaches(int rank);

    /**
     * Offers a frame of {@code lengthBytes} (at most {@link #maxFrameLength()}) to {@code dstRank}. When
     * there is room, calls {@code writer.write(buffer, index, lengthBytes)} exactly once, publishes the
     * frame and returns {@code true}; under back-pressure returns {@code false} without calling the writer.
     */
    boolean offer(int dstRank, int lengthBytes, FrameWriter writer);

    /**
     * Delivers pending inbound frames to {@code handler}.
     *
     * @return the work done, 0 when there was nothing to do (the caller may then idle).
     */
    int progress(FrameHandler handler);

    /** Wakes a progress loop that is blocked inside this transport, if it can block at all. Any thread. */
    void wakeup();

    /**
     * A feature this transport offers, or {@code null} when it offers none of that type.
     *
     * @param type the feature's interface, for example {@code PeerMemory.class}.
     */
    default <T> T feature(final Class<T> type)
    {
        return null;
    }

    /** Releases the transport's resources. After the job's final barrier. */
    @Override
    void close();
}
