package org.jmpi.transport.pvas;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ArenaAllocatorTest
{
    @Test
    void shouldAlignAndNeverStraddleASegment()
    {
        final ArenaAllocator a = new ArenaAllocator(3 * 4096, 4096);
        assertEquals(0, a.allocate(100, 64));
        assertEquals(128, a.allocate(10, 128));
        // 4000 bytes no longer fit in segment 0 after 138 bytes: the next segment
        assertEquals(4096, a.allocate(4000, 8));
        assertEquals(-1, a.allocate(4097, 8), "larger than a segment");
        assertEquals(8192, a.allocate(4096, 4096));
        assertEquals(-1, a.allocate(4000, 1));
        assertEquals(3 * 4096 - 100 - 10 - 4000 - 4096, a.freeBytes());
    }

    @Test
    void shouldMergeNeighboursOnFreeWithinASegmentOnly()
    {
        final ArenaAllocator a = new ArenaAllocator(2 * 4096, 4096);
        final long x = a.allocate(4096, 8);
        final long y = a.allocate(4096, 8);
        assertEquals(4096, a.free(x));
        assertEquals(4096, a.free(y));
        assertEquals(-1, a.free(y), "double free");
        assertEquals(4096, a.largestFreeBlock(), "blocks of two segments are not merged");
        assertEquals(8192, a.freeBytes());
        assertEquals(0, a.allocationCount());
    }

    @Test
    void shouldReserveRangesForGood()
    {
        final ArenaAllocator a = new ArenaAllocator(2 * 4096, 4096);
        assertTrue(a.reserve(4096 - 64, 64));
        assertTrue(a.reserve(0, 64));
        assertEquals(false, a.reserve(32, 64), "no longer free");
        assertEquals(false, a.reserve(4000, 200), "across a segment boundary");
        assertEquals(64, a.allocate(10, 64));
        assertEquals(4096, a.allocate(4096, 8), "the second segment is whole");
        assertEquals(-1, a.allocate(4096 - 128 - 10 + 1, 1));
        assertEquals(2 * 4096 - 128 - 10 - 4096, a.freeBytes());
    }

    @Test
    void shouldReturnToOneBlockPerSegmentAfterRandomTraffic()
    {
        final long seed = System.nanoTime();
        final SplittableRandom random = new SplittableRandom(seed);
        final ArenaAllocator a = new ArenaAllocator(4 * 65536, 65536);
        final List<long[]> live = new ArrayList<>();
        for (int step = 0; step < 20_000; step++)
        {
            if (!live.isEmpty() && random.nextInt(3) == 0)
            {
                final long[] block = live.remove(random.nextInt(live.size()));
                assertEquals(block[1], a.free(block[0]), "seed " + seed);
            }
            else
            {
                final long length = 1 + random.nextInt(9000);
                final long alignment = 1L << random.nextInt(13);
                final long at = a.allocate(length, alignment);
                if (at >= 0)
                {
                    assertEquals(0, at % alignment, "seed " + seed);
                    assertEquals(at / 65536, (at + length - 1) / 65536, "straddles a segment, seed " + seed);
                    for (final long[] other : live)
                    {
                        assertTrue(at + length <= other[0] || other[0] + other[1] <= at, "overlap, seed " + seed);
                    }
                    live.add(new long[] {at, length});
                }
            }
        }
        for (final long[] block : live)
        {
            a.free(block[0]);
        }
        assertEquals(4 * 65536, a.freeBytes(), "seed " + seed);
        assertEquals(65536, a.largestFreeBlock(), "seed " + seed);
    }
}
