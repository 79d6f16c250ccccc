package org.jmpi.transport.shm;

import org.jmpi.internal.bootstrap.LocalJob;
import org.jmpi.spi.FrameHandler;
import org.jmpi.spi.FrameWriter;
import org.jmpi.spi.Transport;
import org.jmpi.testkit.transport.JobTransportContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.lang.management.ManagementFactory;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** offer and progress allocate nothing: each rank measures its own thread's allocation over a burst. */
class ShmTransportAllocationTest
{
    private static final int FRAMES = 200_000;
    private static final int INLINE_LENGTH = 64;
    private static final int POOLED_LENGTH = 32 * 1024 + 64;
    /** Slack for anything the measuring itself allocates; a per-frame allocation would be megabytes. */
    private static final long SLACK_BYTES = 16 * 1024;
    private static final long TIMEOUT_NS = TimeUnit.SECONDS.toNanos(60);

    @TempDir
    Path dir;

    private static final class Counter implements FrameHandler, FrameWriter
    {
        long sequence;
        long received;

        @Override
        public void onFrame(final int srcRank, final org.agrona.DirectBuffer buffer, final int index, final int lengthBytes)
        {
            if (buffer.getLong(index, ByteOrder.LITTLE_ENDIAN) != received)
            {
                throw new AssertionError("frame " + received + " out of order");
            }
            received++;
        }

        @Override
        public void write(final org.agrona.MutableDirectBuffer buffer, final int index, final int lengthBytes)
        {
            buffer.putLong(index, sequence, ByteOrder.LITTLE_ENDIAN);
        }
    }

    @Test
    @Timeout(60)
    void shouldNotAllocateOnOfferOrProgress()
    {
        final com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean)ManagementFactory.getThreadMXBean();
        final LocalJob job = LocalJob.create(2, Map.of(ShmParams.DIR.name(), dir.toString()));
        final long[] allocated = new long[2];
        final LocalJob.Outcome outcome = job.run(rank ->
        {
            final JobTransportContext context = JobTransportContext.separateJvms(job, rank);
            try (Transport transport = new ShmTransportProvider().open(context))
            {
                final Counter counter = new Counter();
                final long tid = Thread.currentThread().threadId();
                for (int round = 0; round < 2; round++)
                {
                    // Round 0 warms up; round 1 is measured.
                    final long before = threads.getThreadAllocatedBytes(tid);
                    if (rank == 1)
                    {
                        for (int i = 0; i < FRAMES; i++)
                        {
                            final int length = (i & 7) == 0 ? POOLED_LENGTH : INLINE_LENGTH;
                            while (!transport.offer(0, length, counter))
                            {
                                transport.progress(counter);
                                job.checkAborted();
                            }
                            counter.sequence++;
                        }
                    }
                    else
                    {
                        final long target = (long)FRAMES * (round + 1);
                        while (counter.received < target)
                        {
                            if (transport.progress(counter) == 0)
                            {
                                job.checkAborted();
                            }
                        }
                    }
                    allocated[rank] = threads.getThreadAllocatedBytes(tid) - before;
                    context.bootstrap().put(rank + ".alloc.round." + round, "1".getBytes(StandardCharsets.UTF_8));
                    context.bootstrap().get((1 - rank) + ".alloc.round." + round, TIMEOUT_NS);
                }
                context.bootstrap().fence(TIMEOUT_NS);
            }
        }, TIMEOUT_NS);
        assertNull(outcome.firstFailure(), () -> "rank failed: " + outcome.firstFailure());
        assertTrue(allocated[1] < SLACK_BYTES, "sender allocated " + allocated[1] + " bytes for " + FRAMES + " offers");
        assertTrue(allocated[0] < SLACK_BYTES, "receiver allocated " + allocated[0] + " bytes for " + FRAMES + " frames");
        assertEquals(0, dir.toFile().list().length, "files left");
    }
}
