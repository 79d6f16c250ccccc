package org.jmpi;

import java.nio.ByteBuffer;

/**
 * Memory from {@link Mpi#allocBlock}, freed by {@link #close()} ({@code MPI_Free_mem}), for
 * try-with-resources:
 * <pre>{@code
 * try (MemoryBlock block = mpi.allocBlock(1 << 20, 4096)) {
 *     DoubleBuffer halo = block.buffer().asDoubleBuffer();
 *     world.send(halo, 0, n, Datatype.DOUBLE, 1, 0);
 * }
 * }</pre>
 * <p>Threading: any thread; {@link #close()} is idempotent. The buffer must not be used after close.
 */
public final class MemoryBlock implements AutoCloseable
{
    private final Mpi mpi;
    private final ByteBuffer buffer;
    private boolean closed;

    MemoryBlock(final Mpi mpi, final ByteBuffer buffer)
    {
        this.mpi = mpi;
        this.buffer = buffer;
    }

    /** The memory: a native-order direct buffer of the size asked for (in this rank's arena partition when there is one). */
    public ByteBuffer buffer()
    {
        return buffer;
    }

    /** Frees the memory ({@link Mpi#freeMem}); later calls do nothing. */
    @Override
    public synchronized void close()
    {
        if (!closed)
        {
            closed = true;
            mpi.freeMem(buffer);
        }
    }
}
