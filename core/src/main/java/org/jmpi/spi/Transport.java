package org.jmpi.spi;

/**
 * Moves frames between ranks. A transport knows nothing of communicators, tags or datatypes: the
 * protocol layer in core writes and reads the frames.
 *
 * <p>Threading: {@link #offer}, {@link #progress} and {@link #close} are called only by the rank's
 * progress owner (one thread at a time); {@link #wakeup} may be called from any thread.
 *
 * <p>Ordering: frames from one sender to one receiver are delivered in the order they were offered.
 */
public interface Transport extends AutoCloseable
{
    /** The provider's name. */
    String name();

    /** What this transport can do. */
    Capabilities capabilities();

    /** Whether this transport can carry frames to {@code rank} (a world rank). */
    boolean reaches(int rank);

    /**
     * Offers a frame of {@code lengthBytes} (at most {@link Capabilities#maxFrameLength()}) to
     * {@code dstRank}. When there is room, calls {@code writer.write(buffer, index, lengthBytes)}
     * exactly once, publishes the frame and returns {@code true}; under back-pressure returns
     * {@code false} without calling the writer.
     *
     * @param attachment an object handed to the receiver's handler as is; only transports whose
     *                   capabilities say {@code objectAttachments} accept non-null attachments.
     */
    boolean offer(int dstRank, int lengthBytes, FrameWriter writer, Object attachment);

    /** {@link #offer(int, int, FrameWriter, Object)} without an attachment. */
    default boolean offer(final int dstRank, final int lengthBytes, final FrameWriter writer)
    {
        return offer(dstRank, lengthBytes, writer, null);
    }

    /**
     * Delivers pending inbound frames to {@code handler}.
     *
     * @return the work done, 0 when there was nothing to do (the caller may then idle).
     */
    int progress(FrameHandler handler);

    /** Wakes a progress loop that is idling on this transport. Any thread. */
    void wakeup();

    /** Releases the transport's resources. After the job's final barrier. */
    @Override
    void close();
}
