package org.jmpi.transport.pvas;

import java.util.Map;
import java.util.TreeMap;

/**
 * Blocks of one rank's data area: first fit over the free blocks ordered by offset, neighbours merged on
 * free. A block never straddles a segment boundary (each segment is mapped on its own). Offsets are
 * relative to the data area's start, which is page aligned in the file and in every mapping, so an
 * offset aligned to at most a page gives an address aligned the same.
 *
 * <p>Threading: not thread-safe; {@link Arena} synchronises. Pure bookkeeping: touches no memory.
 */
final class ArenaAllocator
{
    private final long capacity;
    private final long segmentLength;
    /** Free blocks: offset to length. */
    private final TreeMap<Long, Long> free = new TreeMap<>();
    /** Allocated blocks: offset to length. */
    private final TreeMap<Long, Long> used = new TreeMap<>();
    private long freeBytes;

    ArenaAllocator(final long capacity, final long segmentLength)
    {
        this.capacity = capacity;
        this.segmentLength = segmentLength;
        // one free block per segment, so no block ever straddles a boundary
        for (long at = 0; at < capacity; at += segmentLength)
        {
            free.put(at, Math.min(segmentLength, capacity - at));
        }
        this.freeBytes = capacity;
    }

    /**
     * A block of {@code length} bytes at an offset that is a multiple of {@code alignment} (a power of two),
     * or -1 when no free block holds one.
     */
    long allocate(final long length, final long alignment)
    {
        assert length > 0 && Long.bitCount(alignment) == 1;
        for (final Map.Entry<Long, Long> block : free.entrySet())
        {
            final long start = block.getKey();
            final long end = start + block.getValue();
            final long at = (start + alignment - 1) & -alignment;
            if (at + length <= end)
            {
                free.remove(start);
                if (at > start)
                {
                    free.put(start, at - start);
                }
                if (at + length < end)
                {
                    free.put(at + length, end - at - length);
                }
                used.put(at, length);
                freeBytes -= length;
                return at;
            }
        }
        return -1;
    }

    /**
     * Takes {@code [offset, offset + length)} out of the free blocks for good (the checking mode's partition guards);
     * false when that range is not free in one block.
     */
    boolean reserve(final long offset, final long length)
    {
        final Map.Entry<Long, Long> block = free.floorEntry(offset);
        if (block == null || length <= 0 || offset + length > block.getKey() + block.getValue())
        {
            return false;
        }
        final long start = block.getKey();
        final long end = start + block.getValue();
        free.remove(start);
        if (offset > start)
        {
            free.put(start, offset - start);
        }
        if (offset + length < end)
        {
            free.put(offset + length, end - offset - length);
        }
        freeBytes -= length;
        return true;
    }

    /** Frees the block at {@code offset}; returns its length, or -1 when no block starts there. */
    long free(final long offset)
    {
        final Long length = used.remove(offset);
        if (length == null)
        {
            return -1;
        }
        long start = offset;
        long end = offset + length;
        final Map.Entry<Long, Long> before = free.floorEntry(start);
        if (before != null && before.getKey() + before.getValue() == start && sameSegment(before.getKey(), start))
        {
            start = before.getKey();
            free.remove(start);
        }
        final Long after = free.get(end);
        if (after != null && sameSegment(start, end))
        {
            free.remove(end);
            end += after;
        }
        free.put(start, end - start);
        freeBytes += length;
        return length;
    }

    private boolean sameSegment(final long a, final long b)
    {
        return a / segmentLength == b / segmentLength;
    }

    /** The length of the block allocated at {@code offset}, or -1. */
    long lengthAt(final long offset)
    {
        final Long length = used.get(offset);
        return length == null ? -1 : length;
    }

    long capacity()
    {
        return capacity;
    }

    long freeBytes()
    {
        return freeBytes;
    }

    long largestFreeBlock()
    {
        long largest = 0;
        for (final long length : free.values())
        {
            largest = Math.max(largest, length);
        }
        return largest;
    }

    int allocationCount()
    {
        return used.size();
    }
}
