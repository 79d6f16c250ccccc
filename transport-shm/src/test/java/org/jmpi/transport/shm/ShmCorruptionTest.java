package org.jmpi.transport.shm;

import org.agrona.concurrent.AtomicBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.ringbuffer.OneToOneRingBuffer;
import org.agrona.concurrent.ringbuffer.RingBufferDescriptor;
import org.jmpi.internal.runtime.CoreParams;
import org.jmpi.internal.bootstrap.JvmFlags;
import org.jmpi.spi.Params;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

import static org.jmpi.transport.shm.ShmTwoProcessTest.ORDER;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * A buggy rank writes through its mappings into a live peer's shared structures; the peer must raise an
 * ERR_INTERN naming the structure and the sender within 5 s, never hang or deliver the damage. This JVM
 * is rank 1, the buggy one; {@link ShmVictimMain} in a child JVM is rank 0, echoing what it gets and
 * polling without pause. Each test warms the pair up with ping-pongs, corrupts one structure, and times
 * the child's exit from the moment of the write. The child's output goes to
 * {@code target/shm-corruption/<jobId>.log}; random bytes come from a seed printed there and in this
 * test's output.
 */
class ShmCorruptionTest
{
    private static final Path SHM_DIR = Path.of(ShmParams.DIR.defaultValue());
    private static final long WAIT_NS = TimeUnit.SECONDS.toNanos(60);
    private static final long DETECTION_LIMIT_MS = 5_000;
    private static final int SMALL = 64;
    private static final int LARGE = 16 * 1024;
    private static final int SLOT_LENGTH = Integer.parseInt(ShmParams.SLOT_SIZE.defaultValue());
    private static final int SLOT_COUNT = Integer.parseInt(ShmParams.POOL_SLOTS.defaultValue());

    @TempDir
    Path bootstrapDir;

    @Test
    @Timeout(90)
    void shouldNameTheRingWhenRandomBytesCoverItsPositions() throws Exception
    {
        final long seed = new SecureRandom().nextLong();
        corrupt(false, (transport) ->
        {
            final AtomicBuffer ring = transport.outbound(0).ring().buffer();
            final int capacity = transport.outbound(0).ring().capacity();
            final Random random = new Random(seed);
            System.out.println("positions seed " + seed);
            ring.putLong(capacity + RingBufferDescriptor.TAIL_POSITION_OFFSET, random.nextLong());
            ring.putLong(capacity + RingBufferDescriptor.HEAD_CACHE_POSITION_OFFSET, random.nextLong());
            ring.putLong(capacity + RingBufferDescriptor.HEAD_POSITION_OFFSET, random.nextLong());
        }, "the inbound ring of rank 0");
    }

    @Test
    @Timeout(90)
    void shouldNameTheRingWhenItsTailIsFarAheadWhichUsedToHangTheJob() throws Exception
    {
        corrupt(false, (transport) ->
        {
            final OneToOneRingBuffer ring = transport.outbound(0).ring();
            final int tailIndex = ring.capacity() + RingBufferDescriptor.TAIL_POSITION_OFFSET;
            ring.buffer().putLongVolatile(tailIndex, ring.buffer().getLongVolatile(tailIndex) + (1L << 40));
        }, "the inbound ring of rank 0 from rank 1: positions");
    }

    @Test
    @Timeout(90)
    void shouldNameTheRingWhenRandomBytesCoverItsData() throws Exception
    {
        final long seed = new SecureRandom().nextLong();
        corrupt(false, (transport) ->
        {
            final OneToOneRingBuffer ring = transport.outbound(0).ring();
            final byte[] noise = new byte[ring.capacity()];
            new Random(seed).nextBytes(noise);
            System.out.println("data seed " + seed);
            ring.buffer().putBytes(0, noise);
        }, "the inbound ring of rank 0");
    }

    @Test
    @Timeout(90)
    void shouldNameTheSenderWhenAPooledDescriptorNamesTheWrongSlot() throws Exception
    {
        corrupt(false, (transport) ->
        {
            final OneToOneRingBuffer ring = transport.outbound(0).ring();
            final int index = ring.tryClaim(ShmMessageDescriptor.recordType(1, ShmMessageDescriptor.KIND_POOLED),
                ShmMessageDescriptor.POOLED_DESCRIPTOR_LENGTH);
            assertTrue(index >= 0, "claim");
            ring.buffer().putLong(index + ShmMessageDescriptor.SLOT_SEQUENCE_OFFSET, 12345, ShmMessageDescriptor.BYTE_ORDER);
            ring.buffer().putInt(index + ShmMessageDescriptor.FRAME_LENGTH_OFFSET, LARGE, ShmMessageDescriptor.BYTE_ORDER);
            ring.commit(index);
        }, "a record from rank 1 in the inbound ring of rank 0: pooled frame descriptor", "slot sequence 12345");
    }

    @Test
    @Timeout(90)
    void shouldNameThePoolWhenItsProducerPositionIsOverwritten() throws Exception
    {
        corrupt(false, (transport) ->
        {
            sleepVictim(transport);
            offer(transport, LARGE, 7);
            transport.outbound(0).pool().putLongVolatile(FragmentPoolDescriptor.PRODUCER_POSITION_OFFSET, 1L << 50);
        }, "the fragment pool rank 1 -> rank 0: producer position");
    }

    @Test
    @Timeout(90)
    void shouldNameTheMessageWhenAPooledPayloadIsCorruptedWithChecksumsOn() throws Exception
    {
        corrupt(true, (transport) ->
        {
            sleepVictim(transport);
            final UnsafeBuffer pool = transport.outbound(0).pool();
            final int slot = (int)(pool.getLongVolatile(FragmentPoolDescriptor.PRODUCER_POSITION_OFFSET) % SLOT_COUNT);
            assertEquals(20 % SLOT_COUNT, slot, "slot of the next large frame after 20");
            offer(transport, LARGE, 7);
            final int slotOffset = FragmentPoolDescriptor.slotOffset(SLOT_LENGTH, slot);
            pool.putByte(slotOffset + 1000, (byte)(pool.getByte(slotOffset + 1000) ^ 0x10));
        }, "a record from rank 1 in the inbound ring of rank 0: checksum mismatch in message 221 from rank 1",
            "pooled frame in slot 4 at offset " + FragmentPoolDescriptor.slotOffset(SLOT_LENGTH, 4) + " of the pool, 16384 bytes");
    }

    @Test
    @Timeout(90)
    void shouldNameTheMessageWhenAnInlinePayloadIsCorruptedWithChecksumsOn() throws Exception
    {
        corrupt(true, (transport) ->
        {
            sleepVictim(transport);
            final OneToOneRingBuffer ring = transport.outbound(0).ring();
            final long tail = ring.producerPosition();
            offer(transport, SMALL, 7);
            final int frameIndex = (int)tail + 8 + ShmMessageDescriptor.CHECKSUM_HEADER_LENGTH;
            assertEquals(7, ring.buffer().getLong(frameIndex, ORDER), "the frame just offered");
            ring.buffer().putByte(frameIndex + 40, (byte)0x5A);
        }, "a record from rank 1 in the inbound ring of rank 0: checksum mismatch in message 221 from rank 1",
            "inline frame at offset");
    }

    /**
     * 1. Starts the victim and opens rank 1; 2. 200 small and 20 large ping-pongs; 3. {@code damage};
     * 4. the victim must exit with {@link ShmVictimMain#EXIT_MPI_EXCEPTION} within 5 s of it, its output
     * naming ERR_INTERN and every one of {@code expected}.
     */
    private void corrupt(final boolean checksums, final Consumer<ShmTransport> damage, final String... expected) throws Exception
    {
        final String jobId = "cx" + HexFormat.of().formatHex(new SecureRandom().generateSeed(6));
        final Path log = Path.of("target", "shm-corruption", jobId + ".log");
        final Process victim = startVictim(jobId, checksums, log);
        try
        {
            final FileBootstrap bootstrap = new FileBootstrap(bootstrapDir, 1, 2, jobId);
            final FixedTransportContext context = new FixedTransportContext(1, 2, jobId, bootstrap, new Params(Map.of(
                ShmParams.DIR.name(), SHM_DIR.toString(), ShmParams.CHECKSUM.name(), Boolean.toString(checksums))));
            try (ShmTransport transport = (ShmTransport)new ShmTransportProvider().open(context))
            {
                for (int i = 0; i < 200; i++)
                {
                    pingPong(transport, SMALL, i);
                }
                for (int i = 0; i < 20; i++)
                {
                    pingPong(transport, LARGE, i);
                }
                final long damagedNs = System.nanoTime();
                damage.accept(transport);
                final boolean exited = victim.waitFor(DETECTION_LIMIT_MS + 2_000, TimeUnit.MILLISECONDS);
                final long detectedMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - damagedNs);
                final String output = Files.readString(log, StandardCharsets.UTF_8);
                System.out.println("victim exited " + (exited ? victim.exitValue() : "not") + " after " + detectedMs + " ms: " + output);
                assertTrue(exited, "victim still running " + detectedMs + " ms after the damage; see " + log);
                assertEquals(ShmVictimMain.EXIT_MPI_EXCEPTION, victim.exitValue(), "victim's exit code; output: " + output);
                assertTrue(detectedMs <= DETECTION_LIMIT_MS, "detected after " + detectedMs + " ms");
                assertTrue(output.contains(ShmVictimMain.FAILED) && output.contains("ERR_INTERN: shm: corrupted shared memory: "), output);
                for (final String text : expected)
                {
                    assertTrue(output.contains(text), "expected '" + text + "' in: " + output);
                }
            }
        }
        finally
        {
            if (victim.isAlive())
            {
                victim.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        }
    }

    private static void pingPong(final ShmTransport transport, final int length, final long value)
    {
        offer(transport, length, value);
        final long[] got = {-1};
        final long deadline = System.nanoTime() + WAIT_NS;
        while (got[0] < 0)
        {
            transport.progress((src, buffer, index, frameLength) ->
            {
                assertEquals(length, frameLength, "echo length");
                got[0] = buffer.getLong(index, ORDER);
            });
            if (System.nanoTime() - deadline > 0)
            {
                fail("no echo of " + value);
            }
        }
        assertEquals(value, got[0], "echo");
    }

    /** Makes the victim acknowledge and stop reading for 1.5 s, so what is offered next stays unread meanwhile. */
    private static void sleepVictim(final ShmTransport transport)
    {
        while (!transport.offer(0, ShmVictimMain.SLEEP_LENGTH, (buffer, index, length) ->
        {
            buffer.putLong(index, ShmVictimMain.SLEEP, ORDER);
            buffer.putLong(index + Long.BYTES, 1_500, ORDER);
        }))
        {
            Thread.onSpinWait();
        }
        final long[] got = {0};
        final long deadline = System.nanoTime() + WAIT_NS;
        while (got[0] != ShmVictimMain.SLEEPING)
        {
            transport.progress((src, buffer, index, length) -> got[0] = buffer.getLong(index, ORDER));
            if (System.nanoTime() - deadline > 0)
            {
                fail("victim did not acknowledge the sleep");
            }
        }
    }

    private static void offer(final ShmTransport transport, final int length, final long value)
    {
        while (!transport.offer(0, length, (buffer, index, frameLength) ->
        {
            buffer.setMemory(index, frameLength, (byte)0x33);
            buffer.putLong(index, value, ORDER);
        }))
        {
            Thread.onSpinWait();
        }
    }

    private Process startVictim(final String jobId, final boolean checksums, final Path log) throws IOException
    {
        final List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(JvmFlags.FLAGS);
        command.add("-ea");
        command.add("-D" + CoreParams.INIT_TIMEOUT.name() + "=60000");
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(ShmVictimMain.class.getName());
        command.add(bootstrapDir.toString());
        command.add(jobId);
        command.add(SHM_DIR.toString());
        command.add(Boolean.toString(checksums));
        Files.createDirectories(log.getParent());
        return new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    }
}
