package org.jmpi.transport.shm;

import org.jmpi.internal.runtime.CoreParams;
import org.jmpi.internal.bootstrap.JvmFlags;
import org.jmpi.spi.FrameHandler;
import org.jmpi.spi.FrameWriter;
import org.jmpi.spi.Transport;
import org.jmpi.testkit.transport.FramePattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Two ranks in two JVMs over the real /dev/shm: this JVM is rank 1; {@link ShmPeerMain} in a child
 * JVM is rank 0 and so creates the node's file. Checks that the file is created 0600, is gone once
 * both ranks attached, 10k 8-byte ping-pongs, and 100 MiB streamed through the fragment pool with
 * every byte checked. Prints the round trip and the stream rate (measured, not asserted). The child's
 * output goes to {@code target/shm-two-process/<jobId>.log}.
 */
class ShmTwoProcessTest
{
    static final ByteOrder ORDER = ByteOrder.LITTLE_ENDIAN;
    static final int PING_LENGTH = 8;
    static final int WARMUP_PING_PONGS = 10_000;
    static final int MEASURED_PING_PONGS = 10_000;
    static final int PING_PONGS = WARMUP_PING_PONGS + MEASURED_PING_PONGS;
    static final long STREAM_BYTES = 100L << 20;
    static final int STREAM_HEADER_LENGTH = Long.BYTES;
    static final int STREAM_PAYLOAD_LENGTH = 32 * 1024;
    static final int DONE_LENGTH = Long.BYTES;

    private static final Path SHM_DIR = Path.of(ShmParams.DIR.defaultValue());
    private static final long WAIT_NS = TimeUnit.SECONDS.toNanos(60);

    @Test
    @Timeout(180)
    void shouldPingPongAndStreamBetweenTwoJvmsThroughAPrivateFileThatIsGoneOnceAttached(@TempDir final Path bootstrapDir)
        throws Exception
    {
        final String jobId = "it" + HexFormat.of().formatHex(new SecureRandom().generateSeed(6));
        final Process peer = startPeer(bootstrapDir, jobId);
        try
        {
            final FileBootstrap bootstrap = new FileBootstrap(bootstrapDir, 1, 2, jobId);
            final String published = new String(bootstrap.get(0 + ShmTransport.FILE_KEY_SUFFIX, WAIT_NS), StandardCharsets.UTF_8);
            final Path file = Path.of(published.split("\n", 2)[0]);
            assertEquals(SHM_DIR.resolve(ShmSegment.fileName(jobId, "node-0")), file);
            assertEquals(ShmSegment.OWNER_ONLY, Files.getPosixFilePermissions(file, LinkOption.NOFOLLOW_LINKS),
                "permissions of " + file);

            try (Transport transport = new ShmTransportProvider().open(FixedTransportContext.of(bootstrap, SHM_DIR)))
            {
                awaitGone(file);
                pingPong(transport);
                stream(transport);
                while (!transport.offer(0, DONE_LENGTH, (buffer, index, length) -> buffer.putLong(index, STREAM_BYTES, ORDER)))
                {
                    Thread.onSpinWait();
                }
            }
            assertTrue(peer.waitFor(60, TimeUnit.SECONDS), "peer did not exit");
            assertEquals(0, peer.exitValue(), "peer exit code, see " + logFile(jobId));
        }
        finally
        {
            if (peer.isAlive())
            {
                peer.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
            assertEquals(List.of(), filesOf(jobId), "files of the job left in " + SHM_DIR);
        }
    }

    private static void pingPong(final Transport transport)
    {
        final long[] received = {-1};
        final FrameHandler pong = (src, buffer, index, length) ->
        {
            assertEquals(0, src, "source");
            assertEquals(PING_LENGTH, length, "pong length");
            received[0] = buffer.getLong(index, ORDER);
        };
        final long[] sent = {-1};
        final FrameWriter ping = (buffer, index, length) -> buffer.putLong(index, sent[0], ORDER);
        final long[] roundTripNs = new long[MEASURED_PING_PONGS];
        for (int i = 0; i < PING_PONGS; i++)
        {
            final long start = System.nanoTime();
            sent[0] = i;
            while (!transport.offer(0, PING_LENGTH, ping))
            {
                Thread.onSpinWait();
            }
            while (received[0] != i)
            {
                transport.progress(pong);
            }
            if (i >= WARMUP_PING_PONGS)
            {
                roundTripNs[i - WARMUP_PING_PONGS] = System.nanoTime() - start;
            }
        }
        Arrays.sort(roundTripNs);
        System.out.printf("shm two-process ping-pong, %d-byte frames, %d round trips: median %.2f us (one way %.2f us), " +
            "p99 %.2f us, mean %.2f us; %d cores, load average %.1f%n",
            PING_LENGTH, MEASURED_PING_PONGS, roundTripNs[MEASURED_PING_PONGS / 2] / 1e3, roundTripNs[MEASURED_PING_PONGS / 2] / 2e3,
            roundTripNs[MEASURED_PING_PONGS * 99 / 100] / 1e3, Arrays.stream(roundTripNs).average().orElse(0) / 1e3,
            Runtime.getRuntime().availableProcessors(), ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
    }

    private static void stream(final Transport transport)
    {
        final FramePattern pattern = new FramePattern();
        final long[] position = {0};
        final FrameHandler check = (src, buffer, index, length) ->
        {
            assertEquals(0, src, "source");
            final long expected = position[0];
            assertEquals(expected, buffer.getLong(index, ORDER), "stream position");
            final int payload = length - STREAM_HEADER_LENGTH;
            assertEquals(Math.min(STREAM_PAYLOAD_LENGTH, STREAM_BYTES - expected), payload, "payload at " + expected);
            final int wrong = pattern.verify(buffer, index + STREAM_HEADER_LENGTH, payload, expected);
            if (wrong >= 0)
            {
                fail("stream byte " + (expected + wrong) + " differs");
            }
            position[0] += payload;
        };
        final long start = System.nanoTime();
        final long deadline = start + WAIT_NS;
        while (position[0] < STREAM_BYTES)
        {
            if (transport.progress(check) == 0 && System.nanoTime() - deadline > 0)
            {
                fail("stream stalled at byte " + position[0]);
            }
        }
        final double seconds = (System.nanoTime() - start) / 1e9;
        System.out.printf("shm two-process stream: %d MiB in %d-byte fragments, %.0f MB/s (copy-in, copy-out and check)%n",
            STREAM_BYTES >> 20, STREAM_PAYLOAD_LENGTH, STREAM_BYTES / seconds / 1e6);
    }

    private static void awaitGone(final Path file)
    {
        final long deadline = System.nanoTime() + WAIT_NS;
        while (Files.exists(file, LinkOption.NOFOLLOW_LINKS))
        {
            assertFalse(System.nanoTime() - deadline > 0, file + " still exists after every rank attached");
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
        }
    }

    private static Process startPeer(final Path bootstrapDir, final String jobId) throws IOException
    {
        final List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(JvmFlags.FLAGS);
        command.add("-ea");
        command.add("-D" + CoreParams.INIT_TIMEOUT.name() + "=60000");
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(ShmPeerMain.class.getName());
        command.add(bootstrapDir.toString());
        command.add(jobId);
        command.add(SHM_DIR.toString());
        final Path log = logFile(jobId);
        Files.createDirectories(log.getParent());
        return new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    }

    private static Path logFile(final String jobId)
    {
        return Path.of("target", "shm-two-process", jobId + ".log");
    }

    private static List<Path> filesOf(final String jobId) throws IOException
    {
        try (Stream<Path> files = Files.list(SHM_DIR))
        {
            return files.filter(f -> f.getFileName().toString().startsWith("jmpi-" + jobId + "-")).toList();
        }
    }
}
