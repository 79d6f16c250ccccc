package org.jmpi.launcher;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ShmFilesTest
{
    @Test
    void shouldDeleteOnlyTheJobsFiles(@TempDir final Path dir) throws IOException
    {
        Files.writeString(dir.resolve("jmpi-0123abcd-node0"), "x");
        Files.writeString(dir.resolve("jmpi-0123abcd"), "x");
        Files.writeString(dir.resolve("jmpi-99999999-node0"), "x");
        Files.writeString(dir.resolve("other-0123abcd"), "x");
        final List<Path> deleted = ShmFiles.deleteJobFiles(dir, "0123abcd");
        assertEquals(2, deleted.size());
        try (Stream<Path> left = Files.list(dir))
        {
            assertEquals(List.of("jmpi-99999999-node0", "other-0123abcd"),
                left.map(p -> p.getFileName().toString()).sorted().toList());
        }
    }

    @Test
    void shouldIgnoreMissingDirectoryAndEmptyJobId(@TempDir final Path dir)
    {
        assertTrue(ShmFiles.deleteJobFiles(dir.resolve("absent"), "abc").isEmpty());
        assertTrue(ShmFiles.deleteJobFiles(dir, "").isEmpty());
    }

    @Test
    void shouldAlsoCleanTheShmTransportsConfiguredDirectory(@TempDir final Path dir)
    {
        assertEquals(Set.of(ShmFiles.SHM_DIR, dir), ShmFiles.directories(Map.of("jmpi.shm.dir", dir.toString()), Map.of()));
        assertEquals(Set.of(ShmFiles.SHM_DIR, dir), ShmFiles.directories(Map.of(), Map.of("JMPI_SHM_DIR", dir.toString())));
        assertEquals(Set.of(ShmFiles.SHM_DIR), ShmFiles.directories(Map.of(), Map.of()));
    }
}
