package org.jmpi.transport.verbs;

import org.agrona.concurrent.UnsafeBuffer;
import org.jmpi.spi.FrameWriter;

/**
 * Frames offered to a peer before its pair is connected ({@link Connector} works on it), kept in order on the heap
 * until {@link VerbsTransport} can post them: a ring of at most {@code capacity} frames (the pair's send slots), so
 * the writer runs at the offer as with a connected peer, and back-pressure starts where it would. Dropped once empty.
 *
 * <p>Threading: the rank's thread only.
 */
final class PendingFrames
{
    private final UnsafeBuffer buffer;
    private final int frameLength;
    private final int[] lengths;
    private final int[] immediates;
    private int head;
    private int count;

    PendingFrames(final int capacity, final int frameLength)
    {
        this.buffer = new UnsafeBuffer(new byte[capacity * frameLength]);
        this.frameLength = frameLength;
        this.lengths = new int[capacity];
        this.immediates = new int[capacity];
    }

    boolean isEmpty()
    {
        return count == 0;
    }

    boolean isFull()
    {
        return count == lengths.length;
    }

    /** Runs {@code writer} into the next entry (not kept when it throws). */
    void add(final int lengthBytes, final FrameWriter writer, final int immediate)
    {
        final int at = (head + count) % lengths.length;
        writer.write(buffer, at * frameLength, lengthBytes);
        lengths[at] = lengthBytes;
        immediates[at] = immediate;
        count++;
    }

    int headLength()
    {
        return lengths[head];
    }

    int headImmediate()
    {
        return immediates[head];
    }

    /** Copies the oldest frame to {@code to} at {@code index} and forgets it. */
    void moveHead(final UnsafeBuffer to, final int index)
    {
        to.putBytes(index, buffer, head * frameLength, lengths[head]);
        head = (head + 1) % lengths.length;
        count--;
    }
}
