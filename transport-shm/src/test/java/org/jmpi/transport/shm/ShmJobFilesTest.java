package org.jmpi.transport.shm;

import org.jmpi.spi.Params;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ShmJobFilesTest
{
    @Test
    void shouldDeleteOnlyTheJobsFiles(@TempDir final Path dir) throws IOException
    {
        Files.writeString(dir.resolve(ShmSegment.fileName("0123abcd", "node0")), "x");
        Files.writeString(dir.resolve(ShmSegment.fileName("0123abcd", "node1")), "x");
        Files.writeString(dir.resolve("jmpi-0123abcdef-node0"), "x");
        Files.writeString(dir.resolve("jmpi-99999999-node0"), "x");
        Files.writeString(dir.resolve("other-0123abcd"), "x");
        final List<Path> deleted = ShmJobFiles.delete(dir, "0123abcd");
        assertEquals(2, deleted.size());
        try (Stream<Path> left = Files.list(dir))
        {
            assertEquals(List.of("jmpi-0123abcdef-node0", "jmpi-99999999-node0", "other-0123abcd"),
                left.map(p -> p.getFileName().toString()).sorted().toList());
        }
    }

    @Test
    void shouldIgnoreMissingDirectoryAndEmptyJobId(@TempDir final Path dir)
    {
        assertTrue(ShmJobFiles.delete(dir.resolve("absent"), "abc").isEmpty());
        assertTrue(ShmJobFiles.delete(dir, "").isEmpty());
    }

    @Test
    void shouldCleanTheDirectoryTheParametersNameWhenTheLauncherAsks(@TempDir final Path dir) throws IOException
    {
        final Path file = dir.resolve(ShmSegment.fileName("feedbeef", "n"));
        Files.writeString(file, "x");
        final List<Path> deleted = new ShmTransportProvider().cleanup("feedbeef",
            new Params(Map.of(), Map.of("JMPI_SHM_DIR", dir.toString())));
        assertEquals(List.of(file), deleted);
    }
}
