package org.jmpi.internal.engine;

import org.junit.jupiter.api.Test;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class JitActivityTest
{
    private final AtomicLong compileMs = new AtomicLong(100);
    private final AtomicInteger reads = new AtomicInteger();
    private final JitActivity jit = new JitActivity(() ->
    {
        reads.incrementAndGet();
        return compileMs.get();
    });

    @Test
    void shouldCountAsBusyForTheWindowAfterTheCounterMoved()
    {
        final long t0 = 1_000_000_000L;
        assertTrue(jit.busyAt(t0), "a JVM's first look: compiling");
        assertTrue(jit.busyAt(t0 + JitActivity.BUSY_NS - 1));
        assertFalse(jit.busyAt(t0 + JitActivity.BUSY_NS), "the counter stood still for the whole window");
        compileMs.addAndGet(3);
        final long t1 = t0 + 2 * JitActivity.BUSY_NS;
        assertTrue(jit.busyAt(t1), "the counter moved");
        assertTrue(jit.busyAt(t1 + JitActivity.BUSY_NS / 2));
        assertFalse(jit.busyAt(t1 + JitActivity.BUSY_NS + JitActivity.SAMPLE_NS));
    }

    @Test
    void shouldReadTheCounterAtMostOncePerSamplePeriod()
    {
        final long t0 = -5_000_000_000L; // nanoTime may be negative
        for (int i = 0; i < 1_000; i++)
        {
            jit.busyAt(t0 + i * (JitActivity.SAMPLE_NS / 100));
        }
        assertEquals(10, reads.get(), "1,000 calls over 10 sample periods");
        compileMs.incrementAndGet();
        assertTrue(jit.busyAt(t0 + JitActivity.BUSY_NS), "the counter moved since the last read");
        assertTrue(jit.busyAt(t0 + JitActivity.BUSY_NS + JitActivity.BUSY_NS / 2), "within the window of that move");
    }

    @Test
    void shouldNeverBeBusyWithoutACounter()
    {
        final JitActivity none = new JitActivity(null);
        assertFalse(none.busyAt(0));
        assertFalse(none.busyAt(1));
    }
}
