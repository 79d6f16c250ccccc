package org.jmpi.spi;

import org.agrona.DirectBuffer;

/** Receives inbound frames; the buffer region is valid only during the call. */
@FunctionalInterface
public interface FrameHandler
{
    /**
     * @param srcRank the sender's world rank.
     */
    void onFrame(int srcRank, DirectBuffer buffer, int index, int lengthBytes);
}
