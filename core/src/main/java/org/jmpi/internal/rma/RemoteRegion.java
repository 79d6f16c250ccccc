package org.jmpi.internal.rma;

import org.jmpi.internal.datatype.BufferView;

/**
 * A peer's region as one rank reaches it: the peer's world rank, the key it sent, and the path. Where this
 * rank can copy to it directly (itself, or through the transport's peer memory) the view of its memory;
 * else, where the transport offers remote memory and the peer registered the region with it, that; else
 * frames (active messages). Made by {@link OneSided#resolve} once, so that repeated operations map nothing.
 *
 * @param rank   the target's world rank.
 * @param key    the region's key, as the target registered it.
 * @param direct the target's memory, or null.
 * @param remote whether puts and gets go through the transport's remote memory (when {@code direct} is null).
 */
public record RemoteRegion(int rank, RegionKey key, BufferView direct, boolean remote)
{
    /** The memory object the region is, where this rank reaches it directly (e.g. the peer's byte[]); else null. */
    public Object directMemory()
    {
        return direct == null ? null : direct.buffer();
    }

    /** The remote-memory key as the transport takes it. */
    long[] remoteKey()
    {
        return new long[] {key.remote0(), key.remote1()};
    }
}
