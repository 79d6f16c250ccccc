package org.jmpi.transport.shm;

import org.agrona.IoUtil;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The doorbell's futex through a real file mapping, its owner and its ringer on two threads, each with its own
 * mapping of the file (as two processes have): wake-ups are never lost. The owner parks with a 2 s period, so a
 * lost wake-up shows as a sleep of about 2 s.
 */
@Timeout(120)
class ShmDoorbellTest
{
    private static final int ROUNDS = 10_000;
    private static final long PARK_NS = TimeUnit.SECONDS.toNanos(2);

    @Test
    void shouldNeverLoseAWakeUp(@TempDir final Path dir) throws Exception
    {
        assertNull(Futex.unavailable(), "futexes on this machine");
        final Path file = dir.resolve("bell");
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.READ,
            StandardOpenOption.WRITE))
        {
            final MappedByteBuffer ownerMap = channel.map(FileChannel.MapMode.READ_WRITE, 0, 4096);
            final MappedByteBuffer ringerMap = channel.map(FileChannel.MapMode.READ_WRITE, 0, 4096);
            final ShmDoorbell owner = new ShmDoorbell(new UnsafeBuffer(ownerMap, 0, DoorbellDescriptor.LENGTH), true);
            final ShmDoorbell ringer = new ShmDoorbell(new UnsafeBuffer(ringerMap, 0, DoorbellDescriptor.LENGTH), false);
            final UnsafeBuffer mailbox = new UnsafeBuffer(ringerMap, 1024, 8);
            final UnsafeBuffer ownersMailbox = new UnsafeBuffer(ownerMap, 1024, 8);
            final UnsafeBuffer acks = new UnsafeBuffer(ringerMap, 2048, 8);
            final UnsafeBuffer ownersAcks = new UnsafeBuffer(ownerMap, 2048, 8);
            final AtomicLong longestSleepNs = new AtomicLong();
            long sleeps = 0;

            final Thread sender = Thread.ofPlatform().start(() ->
            {
                for (long i = 1; i <= ROUNDS; i++)
                {
                    while (acks.getLongVolatile(0) != i - 1)
                    {
                        Thread.onSpinWait();
                    }
                    LockSupport.parkNanos(1_000 + (i % 17) * 1_000);
                    mailbox.putLongVolatile(0, i);
                    ringer.ring();
                }
            });
            for (long i = 1; i <= ROUNDS; i++)
            {
                while (ownersMailbox.getLongVolatile(0) != i)
                {
                    final int token = owner.arm();
                    if (ownersMailbox.getLongVolatile(0) != i)
                    {
                        final long start = System.nanoTime();
                        owner.await(token, PARK_NS);
                        sleeps++;
                        longestSleepNs.accumulateAndGet(System.nanoTime() - start, Math::max);
                    }
                    owner.disarm();
                }
                ownersAcks.putLongVolatile(0, i);
            }
            sender.join();
            assertEquals(ROUNDS, ownersMailbox.getLongVolatile(0));
            assertTrue(sleeps >= ROUNDS / 4, "the owner slept " + sleeps + " times in " + ROUNDS + " rounds");
            assertTrue(sleeps <= 4L * ROUNDS, "the futex did not block: " + sleeps + " waits in " + ROUNDS + " rounds");
            assertTrue(longestSleepNs.get() < PARK_NS / 2, "a sleep of " + longestSleepNs.get() / 1000 +
                " us: a wake-up was lost (the park period is " + PARK_NS / 1000 + " us)");
            IoUtil.unmap(ownerMap);
            IoUtil.unmap(ringerMap);
        }
    }
}
