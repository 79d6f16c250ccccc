package org.jmpi.internal.transport.jvm;

import org.agrona.BitUtil;
import org.agrona.concurrent.ManyToOneConcurrentArrayQueue;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * The frames one rank sends to ranks of its JVM, reused: a receiver hands each frame back once it has handled
 * it ({@link #release}), and the sender takes it again for a later frame of the same size class
 * ({@link #acquire}), so a steady exchange allocates no frames (issue 12, item 3). Size classes are powers of
 * two from {@link #MIN_CAPACITY}; each keeps a bounded number of frames, fewer for large ones, and a frame
 * released to a full class is left to the collector.
 *
 * <p>Threading: {@link #acquire} on the owning (sending) rank's engine thread only; {@link #release} from any
 * receiver's.
 */
final class FramePool
{
    /** The smallest frame capacity. */
    static final int MIN_CAPACITY = 64;
    /** Frames kept per size class up to {@link #SMALL_CLASS_LIMIT} bytes, and above it. */
    static final int SMALL_CLASS_FRAMES = 128;
    static final int LARGE_CLASS_FRAMES = 8;
    static final int SMALL_CLASS_LIMIT = 4096;

    /** One frame: its sender, a buffer of a size class's capacity, and the length of the frame it holds now. */
    static final class Frame
    {
        final int sourceRank;
        final UnsafeBuffer buffer;
        final int sizeClass;
        int length;

        Frame(final int sourceRank, final int sizeClass)
        {
            this.sourceRank = sourceRank;
            this.sizeClass = sizeClass;
            this.buffer = new UnsafeBuffer(new byte[MIN_CAPACITY << sizeClass]);
        }
    }

    private final int owner;
    private final ManyToOneConcurrentArrayQueue<Frame>[] classes;

    @SuppressWarnings("unchecked")
    FramePool(final int owner, final int maxFrameLength)
    {
        this.owner = owner;
        this.classes = new ManyToOneConcurrentArrayQueue[sizeClass(Math.max(MIN_CAPACITY, maxFrameLength)) + 1];
        for (int c = 0; c < classes.length; c++)
        {
            classes[c] = new ManyToOneConcurrentArrayQueue<>((MIN_CAPACITY << c) <= SMALL_CLASS_LIMIT ? SMALL_CLASS_FRAMES : LARGE_CLASS_FRAMES);
        }
    }

    /** The size class of a frame of {@code length} bytes: the power of two at or above it, from {@link #MIN_CAPACITY}. */
    static int sizeClass(final int length)
    {
        return Integer.numberOfTrailingZeros(BitUtil.findNextPositivePowerOfTwo(Math.max(MIN_CAPACITY, length)) / MIN_CAPACITY);
    }

    /** A frame of at least {@code length} bytes, its length set: a released one of its class, or a new one. */
    Frame acquire(final int length)
    {
        final int sizeClass = sizeClass(length);
        Frame frame = classes[sizeClass].poll();
        if (frame == null)
        {
            frame = new Frame(owner, sizeClass);
        }
        frame.length = length;
        return frame;
    }

    /** Takes back a frame its receiver has handled (or that was never sent). */
    void release(final Frame frame)
    {
        classes[frame.sizeClass].offer(frame);
    }
}
