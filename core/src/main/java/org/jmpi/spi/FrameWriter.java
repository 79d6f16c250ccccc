package org.jmpi.spi;

import org.agrona.MutableDirectBuffer;

/** Writes one outbound frame into the transport's memory; the region is valid only during the call. */
@FunctionalInterface
public interface FrameWriter
{
    void write(MutableDirectBuffer buffer, int index, int lengthBytes);
}
