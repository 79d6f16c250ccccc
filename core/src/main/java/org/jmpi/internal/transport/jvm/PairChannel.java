package org.jmpi.internal.transport.jvm;

import org.agrona.BufferUtil;
import org.agrona.concurrent.ManyToOneConcurrentLinkedQueue;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.ringbuffer.OneToOneRingBuffer;
import org.agrona.concurrent.ringbuffer.RingBufferDescriptor;
import org.jmpi.spi.FrameWriter;

/**
 * The frames from one rank to another of the same JVM, in order: a single-producer single-consumer ring
 * (Agrona's {@link OneToOneRingBuffer}: no compare-and-set on a shared tail, no allocation per frame) into which
 * the sender's frame writer packs each frame in place. A frame longer than the ring's largest message goes
 * into a heap buffer on a side queue, and a marker record in the ring keeps its place in the order.
 *
 * <p>Threading: {@link #offer} on the sending rank's engine thread, {@link #read} on the receiving rank's.
 * Made by the sender on its first frame to the receiver, and published to the receiver's {@link InJvmTransport.Inbox}.
 */
final class PairChannel
{
    /** Ring record: a frame, in the ring. */
    static final int MSG_FRAME = 1;
    /** Ring record: the next frame of the side queue. */
    static final int MSG_OVERFLOW = 2;

    final int sourceRank;
    private final OneToOneRingBuffer ring;
    private final ManyToOneConcurrentLinkedQueue<UnsafeBuffer> overflow = new ManyToOneConcurrentLinkedQueue<>();

    /** @param ringBytes ring capacity, a power of two (frames up to an eighth of it go in the ring). */
    PairChannel(final int sourceRank, final int ringBytes)
    {
        this.sourceRank = sourceRank;
        final int length = ringBytes + RingBufferDescriptor.TRAILER_LENGTH;
        this.ring = new OneToOneRingBuffer(new UnsafeBuffer(BufferUtil.allocateDirectAligned(length, 64)));
    }

    /**
     * Writes a frame of {@code lengthBytes}; false when the ring has no room (back-pressure), or when {@code inbox}
     * refuses a frame too long for the ring.
     */
    boolean offer(final int lengthBytes, final FrameWriter writer, final InJvmTransport.Inbox inbox)
    {
        if (lengthBytes <= ring.maxMsgLength())
        {
            final int index = ring.tryClaim(MSG_FRAME, lengthBytes);
            if (index < 0)
            {
                return false;
            }
            try
            {
                writer.write(ring.buffer(), index, lengthBytes);
            }
            catch (final RuntimeException | Error ex)
            {
                ring.abort(index);
                throw ex;
            }
            ring.commit(index);
            return true;
        }
        return offerOverflow(lengthBytes, writer, inbox);
    }

    private boolean offerOverflow(final int lengthBytes, final FrameWriter writer, final InJvmTransport.Inbox inbox)
    {
        if (!inbox.reserve(lengthBytes))
        {
            return false;
        }
        final int index = ring.tryClaim(MSG_OVERFLOW, 0);
        if (index < 0)
        {
            inbox.queuedBytes.addAndGet(-lengthBytes);
            return false;
        }
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[lengthBytes]);
        try
        {
            writer.write(buffer, 0, lengthBytes);
        }
        catch (final RuntimeException | Error ex)
        {
            ring.abort(index);
            inbox.queuedBytes.addAndGet(-lengthBytes);
            throw ex;
        }
        overflow.offer(buffer);
        ring.commit(index);
        return true;
    }

    /** Hands up to {@code limit} frames to {@code reader}, in order; returns how many. */
    int read(final InJvmTransport.Reader reader, final int limit)
    {
        reader.channel = this;
        return ring.read(reader, limit);
    }

    /** The frame a {@link #MSG_OVERFLOW} marker stands for. */
    UnsafeBuffer takeOverflow()
    {
        return overflow.poll();
    }

    /** The longest frame the ring itself carries. */
    int maxRingFrame()
    {
        return ring.maxMsgLength();
    }

    static boolean validRingSize(final long bytes)
    {
        return bytes >= 1024 && bytes <= (1 << 30) && Long.bitCount(bytes) == 1;
    }
}
