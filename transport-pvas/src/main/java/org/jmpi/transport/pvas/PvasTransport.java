package org.jmpi.transport.pvas;

import org.jmpi.spi.ArenaMemory;
import org.jmpi.spi.FrameHandler;
import org.jmpi.spi.FrameWriter;
import org.jmpi.spi.PeerMemory;
import org.jmpi.spi.PeerWaker;
import org.jmpi.spi.Transport;

/**
 * The arena transport: frames go through the transport it wraps (the shm transport's rings, by default), and
 * it adds the node's arena: {@link ArenaMemory} (where {@code mpi.allocMem} allocates) and {@link PeerMemory}
 * over arena buffers, so the protocol copies rendezvous messages directly between two JVMs' buffers when the
 * send buffer, or both, lie in the arena (docs/pvas.md).
 *
 * <p>Threading: as the SPI says; the frame methods are the wrapped transport's. Memory: owns the arena's
 * mappings and the wrapped transport; {@link #close} releases both.
 */
final class PvasTransport implements Transport
{
    private final Transport frames;
    private final Arena arena;
    private final ArenaPeerMemory peerMemory;

    PvasTransport(final Transport frames, final Arena arena)
    {
        this.frames = frames;
        this.arena = arena;
        this.peerMemory = new ArenaPeerMemory(arena, frames.feature(PeerWaker.class));
    }

    @Override
    public String name()
    {
        return PvasTransportProvider.NAME;
    }

    @Override
    public int maxFrameLength()
    {
        return frames.maxFrameLength();
    }

    @Override
    public boolean reaches(final int rank)
    {
        return frames.reaches(rank);
    }

    @Override
    public boolean offer(final int dstRank, final int lengthBytes, final FrameWriter writer)
    {
        return frames.offer(dstRank, lengthBytes, writer);
    }

    @Override
    public int progress(final FrameHandler handler)
    {
        return frames.progress(handler);
    }

    @Override
    public void wakeup()
    {
        frames.wakeup();
    }

    @Override
    public <T> T feature(final Class<T> type)
    {
        if (type == PeerMemory.class)
        {
            return type.cast(peerMemory);
        }
        if (type == ArenaMemory.class)
        {
            return type.cast(arena);
        }
        return frames.feature(type);
    }

    /** The arena, for tests. */
    Arena arena()
    {
        return arena;
    }

    /** Finalize: the checking mode's verdict on the buffers still allocated, and the counters, on standard error. */
    @Override
    public void close()
    {
        try
        {
            frames.close();
        }
        finally
        {
            if (arena.config().check())
            {
                for (final String damage : arena.verifyAll())
                {
                    System.err.println("jmpi: pvas check at finalize: " + damage);
                }
            }
            if (arena.config().stats())
            {
                System.err.println(arena.stats().format(arena.rank()));
            }
            arena.close();
        }
    }
}
