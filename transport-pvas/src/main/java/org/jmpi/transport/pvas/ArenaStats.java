package org.jmpi.transport.pvas;

/**
 * The arena's counters ({@code jmpi.pvas.stats}): what was exposed to peers and what could not be (memory outside
 * the arena: those messages took another path), what was mapped from peers, and the partition's use.
 *
 * <p>Threading: the exposure counters on the engine thread, the allocation ones under the arena's lock; read at
 * finalize.
 */
final class ArenaStats
{
    long exposed;
    long refusedNotInArena;
    long refusedTableFull;
    long mapped;
    long allocations;
    long frees;
    long exhausted;
    long bytesAllocated;
    long peakBytesInUse;

    void allocated(final long bytes, final long inUse)
    {
        allocations++;
        bytesAllocated += bytes;
        peakBytesInUse = Math.max(peakBytesInUse, inUse);
    }

    /** One line for standard error. */
    String format(final int rank)
    {
        return "jmpi: rank " + rank + ": pvas: exposed " + exposed + " buffers to peers (refused " + refusedNotInArena +
            " not in the arena, " + refusedTableFull + " with the exposure table full), mapped " + mapped + " peer buffers; " +
            allocations + " allocations (" + bytesAllocated + " bytes), " + frees + " frees, peak " + peakBytesInUse +
            " bytes of the partition in use, " + exhausted + " refused for want of room";
    }
}
