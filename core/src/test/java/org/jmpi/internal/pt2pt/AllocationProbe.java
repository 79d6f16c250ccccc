package org.jmpi.internal.pt2pt;

import java.lang.management.ManagementFactory;

/** Bytes the calling thread has allocated so far (HotSpot's per-thread allocation counter). */
final class AllocationProbe
{
    private static final com.sun.management.ThreadMXBean THREADS =
        (com.sun.management.ThreadMXBean)ManagementFactory.getThreadMXBean();

    private AllocationProbe()
    {
    }

    static long allocatedBytes()
    {
        return THREADS.getCurrentThreadAllocatedBytes();
    }
}
