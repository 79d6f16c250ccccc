package org.jmpi.spi;

import java.nio.ByteBuffer;

/**
 * A transport feature: memory this rank allocates from a region its peers can address (a node's shared
 * arena), so a buffer placed there can be copied to or from directly by a peer through {@link PeerMemory}.
 * {@code Mpi.allocMem} allocates from the first open transport that offers it (MPI_Alloc_mem), and from
 * ordinary direct memory when none does.
 *
 * <p>Threading: any thread (allocation is the application's call, not the engine's); implementations
 * synchronise themselves. The memory belongs to the arena: it stays valid until {@link #free} or the
 * transport's close.
 */
public interface ArenaMemory
{
    /**
     * Allocates {@code lengthBytes} (at least 1) whose address is a multiple of {@code alignment} (a power
     * of two), as a native-order direct buffer whose capacity is {@code lengthBytes}.
     *
     * @throws org.jmpi.MpiException ERR_NO_MEM naming the size asked for and the space left when the arena
     *                               has no such block free.
     */
    ByteBuffer allocate(long lengthBytes, int alignment);

    /**
     * Frees a buffer {@link #allocate} returned (the very object, or any buffer starting at the same address).
     *
     * @return false when the buffer is not one of this arena's allocations (nothing freed).
     */
    boolean free(ByteBuffer buffer);

    /** Whether {@code buffer} (any nio buffer) lies in this arena's memory. */
    boolean contains(java.nio.Buffer buffer);
}
