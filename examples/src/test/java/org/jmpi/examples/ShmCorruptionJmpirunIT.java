package org.jmpi.examples;

import org.agrona.IoUtil;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.ringbuffer.RingBufferDescriptor;
import org.jmpi.transport.shm.ShmFileDescriptor;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.File;
import java.io.IOException;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Issue 20's corruption case through the real launcher: while two rank JVMs ping-pong over shm, this test plays a
 * buggy process of the node and writes garbage over rank 0's inbound ring positions through the job's shared file
 * (reached through a rank's {@code /proc/PID/map_files} entry, since the file is unlinked once every rank has
 * mapped it). The whole job must end within 5 s, non-zero, naming the corrupted structure, and leave no file.
 * Needs root (map_files); skipped otherwise.
 */
class ShmCorruptionJmpirunIT
{
    private static final Path HOME = Path.of(System.getProperty("jmpi.home", "..")).toAbsolutePath().normalize();
    private static final String CLASSES = System.getProperty("jmpi.examples.classes", "target/classes");
    private static final Path LOGS = Path.of("target", "it-logs");

    @Test
    @Timeout(180)
    void shouldEndTheJobNamingTheRingWhenItsPositionsAreOverwritten() throws Exception
    {
        assumeTrue("root".equals(System.getProperty("user.name")), "reading /proc/PID/map_files needs root");
        Files.createDirectories(LOGS);
        final Path out = LOGS.resolve("shm-corruption-jvms.out");
        final Path err = LOGS.resolve("shm-corruption-jvms.err");
        final Process job = new ProcessBuilder(HOME.resolve("bin/jmpirun").toString(), "-np", "2", "--timeout", "150",
            "-cp", CLASSES, "org.jmpi.examples.PingPongSoak", "120")
            .directory(HOME.toFile()).redirectOutput(out.toFile()).redirectError(err.toFile())
            .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null"))).start();
        try
        {
            final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
            while (!Files.readString(out, StandardCharsets.UTF_8).contains("soak: started"))
            {
                assertTrue(job.isAlive() && System.nanoTime() < deadline, "the soak did not start: " + Files.readString(err));
                Thread.sleep(50);
            }
            final Path mapping = jobMapping(job).orElseThrow(() -> new AssertionError("no mapping of the job's shm file found"));
            final Path file = Path.of(Files.readSymbolicLink(mapping).toString().replace(" (deleted)", ""));
            final long writtenNs;
            try (FileChannel channel = FileChannel.open(mapping, StandardOpenOption.READ, StandardOpenOption.WRITE))
            {
                final MappedByteBuffer headerMap = channel.map(FileChannel.MapMode.READ_WRITE, 0, ShmFileDescriptor.REGION_ALIGNMENT);
                final UnsafeBuffer header = new UnsafeBuffer(headerMap);
                final int ranks = header.getInt(ShmFileDescriptor.LOCAL_RANK_COUNT_OFFSET, ShmFileDescriptor.BYTE_ORDER);
                final int capacity = header.getInt(ShmFileDescriptor.RING_CAPACITY_OFFSET, ShmFileDescriptor.BYTE_ORDER);
                IoUtil.unmap(headerMap);
                final long trailer = ShmFileDescriptor.ringOffset(ranks, capacity, 1, 0) + capacity; // the ring local rank 1 -> 0
                final MappedByteBuffer ring = channel.map(FileChannel.MapMode.READ_WRITE, trailer, RingBufferDescriptor.TRAILER_LENGTH);
                final UnsafeBuffer positions = new UnsafeBuffer(ring);
                positions.putLongVolatile(RingBufferDescriptor.TAIL_POSITION_OFFSET, 0x0000_0100_0000_3A20L);
                writtenNs = System.nanoTime();
                IoUtil.unmap(ring);
            }
            assertTrue(job.waitFor(30, TimeUnit.SECONDS), "the job did not end after the corruption");
            final long endedMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - writtenNs);
            final String stderr = Files.readString(err, StandardCharsets.UTF_8);
            System.out.println("shm corruption through jmpirun: job ended " + endedMs + " ms after the write, exit " + job.exitValue());
            assertNotEquals(0, job.exitValue(), stderr);
            assertTrue(stderr.contains("ERR_INTERN") && stderr.contains("corrupted shared memory: the inbound ring of rank 0"), stderr);
            assertTrue(endedMs < 5_000, "the job ended " + endedMs + " ms after the write: " + stderr);
            assertEquals(List.of(), leftFiles(file), "files left in the shm directory");
        }
        finally
        {
            job.descendants().forEach(ProcessHandle::destroyForcibly);
            job.destroyForcibly();
        }
    }

    /** A rank's /proc/PID/map_files entry for the job's (deleted) shm file. */
    private static Optional<Path> jobMapping(final Process job) throws IOException
    {
        for (final ProcessHandle rank : job.descendants().toList())
        {
            final Path maps = Path.of("/proc", Long.toString(rank.pid()), "maps");
            if (!Files.isReadable(maps))
            {
                continue;
            }
            for (final String line : Files.readAllLines(maps))
            {
                final String[] fields = line.trim().split("\\s+", 6);
                if (fields.length == 6 && fields[5].contains("/jmpi-") && !fields[5].contains("pvas") && fields[2].equals("00000000"))
                {
                    final Path entry = Path.of("/proc", Long.toString(rank.pid()), "map_files", fields[0]);
                    if (Files.exists(entry))
                    {
                        return Optional.of(entry);
                    }
                }
            }
        }
        return Optional.empty();
    }

    /** Files of the job left in the directory its shm file lived in. */
    private static List<String> leftFiles(final Path file) throws IOException
    {
        final String jobPrefix = file.getFileName().toString().replaceAll("-[0-9a-f]+$", "");
        try (var files = Files.list(file.getParent()))
        {
            return files.map(f -> f.getFileName().toString()).filter(n -> n.startsWith(jobPrefix)).toList();
        }
    }
}
