package org.jmpi.launcher;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class AotCacheTest
{
    @TempDir
    Path dir;

    private List<String> jars() throws IOException
    {
        final Path jar = dir.resolve("jmpi-core.jar");
        if (!Files.exists(jar))
        {
            Files.writeString(jar, "not really a jar");
        }
        return List.of(jar.toString());
    }

    private AotCache cache() throws IOException
    {
        final AotCache cache = AotCache.of(Map.of(AotCache.ENV, dir.resolve("aot").toString()), List.of("-Xmx1g"), jars());
        assertNotNull(cache, "this build's JDK is " + Runtime.version() + "; these tests need " + AotCache.FIRST_JDK + "+");
        return cache;
    }

    /** A training job that writes what a rank JVM would: the file named by -XX:AOTCacheOutput, %p replaced. */
    private static AotCache.TrainingJob writing(final int exitCode, final List<List<String>> calls)
    {
        return (extra, log) ->
        {
            calls.add(extra);
            final String output = extra.get(0).substring("-XX:AOTCacheOutput=".length());
            try
            {
                Files.writeString(Path.of(output.replace("%p", "pid1")), "cache");
                Files.writeString(Path.of(output.replace("%p", "pid2")), "cache");
            }
            catch (final IOException ex)
            {
                throw new IllegalStateException(ex);
            }
            log.writeBytes("AOTCache creation is complete\n".getBytes(StandardCharsets.UTF_8));
            return exitCode;
        };
    }

    @Test
    void shouldBeOffWhenTurnedOffOrWithoutAPlace() throws IOException
    {
        assertNull(AotCache.of(Map.of(AotCache.ENV, "off"), List.of(), jars()));
        assertNull(AotCache.of(Map.of(), List.of(), jars()), "no HOME, no XDG_CACHE_HOME, no setting");
        final AotCache home = AotCache.of(Map.of("HOME", "/home/u"), List.of(), jars());
        if (Runtime.version().feature() >= AotCache.FIRST_JDK)
        {
            assertTrue(home.file().startsWith(Path.of("/home/u/.cache/jmpi/aot")), home.file().toString());
            assertTrue(AotCache.of(Map.of("HOME", "/home/u", "XDG_CACHE_HOME", "/c"), List.of(), jars()).file()
                .startsWith(Path.of("/c/jmpi/aot")));
        }
        else
        {
            assertNull(home, "JDK " + Runtime.version().feature() + " has no one-step training");
        }
    }

    @Test
    void shouldNameTheCacheByJvmOptionsAndJars() throws IOException
    {
        final List<String> jars = jars();
        final String key = AotCache.key(List.of("-Xmx1g"), jars);
        assertEquals(key, AotCache.key(List.of("-Xmx1g"), jars));
        assertNotEquals(key, AotCache.key(List.of("-Xmx2g"), jars), "other rank JVM options");
        Files.setLastModifiedTime(Path.of(jars.get(0)), FileTime.fromMillis(12345));
        assertNotEquals(key, AotCache.key(List.of("-Xmx1g"), jars), "a rebuilt jar");
    }

    @Test
    void shouldTrainOnceAndThenGiveTheRankJvmsTheCache() throws IOException
    {
        final AotCache cache = cache();
        assertTrue(cache.needsTraining());
        assertEquals(List.of(), cache.jvmOptions(), "nothing to use yet");
        final List<List<String>> calls = new ArrayList<>();
        final ByteArrayOutputStream err = new ByteArrayOutputStream();
        cache.train(writing(0, calls), new LineSink(err));
        assertEquals(1, calls.size());
        assertTrue(calls.get(0).get(0).contains("%p"), "each rank JVM writes its own file: " + calls.get(0));
        assertEquals("", err.toString(StandardCharsets.UTF_8));
        assertFalse(cache.needsTraining());
        assertEquals("-XX:AOTCache=" + cache.file(), cache.jvmOptions().get(0));
        try (Stream<Path> left = Files.list(cache.file().getParent()))
        {
            assertEquals(List.of(cache.file()), left.toList(), "the other rank's file and temporaries removed");
        }
    }

    @Test
    void shouldRememberAFailedTrainingAndSaySoOnce() throws IOException
    {
        final AotCache cache = cache();
        final ByteArrayOutputStream err = new ByteArrayOutputStream();
        cache.train(writing(3, new ArrayList<>()), new LineSink(err));
        final String said = err.toString(StandardCharsets.UTF_8);
        assertTrue(said.startsWith("jmpirun: note: no ahead-of-time cache") && said.contains("exited 3") &&
            said.contains(AotCache.ENV + "=off"), said);
        assertEquals(List.of(), cache.jvmOptions());
        assertFalse(cache.needsTraining(), "a failed training is not tried again");
    }

    @Test
    void shouldKeepOnlyTheNewestCaches() throws IOException
    {
        final Path aot = dir.resolve("aot");
        Files.createDirectories(aot);
        for (int i = 0; i < AotCache.KEPT + 3; i++)
        {
            final Path old = aot.resolve("ranks-old" + i + ".aot");
            Files.writeString(old, "old");
            Files.setLastModifiedTime(old, FileTime.fromMillis(1_000L * i));
        }
        final AotCache cache = cache();
        cache.train(writing(0, new ArrayList<>()), new LineSink(new ByteArrayOutputStream()));
        try (Stream<Path> left = Files.list(aot))
        {
            final List<Path> kept = left.toList();
            assertEquals(AotCache.KEPT, kept.size(), kept.toString());
            assertTrue(kept.contains(cache.file()));
            assertFalse(kept.contains(aot.resolve("ranks-old0.aot")), "the oldest went first");
        }
    }

    /**
     * A training that timed out returns while its JVMs still exit, and a dying training JVM writes its .aot.config late:
     * here a process the job started (and did not wait for) writes a temporary a second after the job returned.
     * The temporaries are deleted only once that process has exited, so none is left.
     */
    @Test
    void shouldDeleteTemporariesOnlyAfterTheTrainingProcessesExited() throws IOException
    {
        final AotCache cache = cache();
        final ByteArrayOutputStream err = new ByteArrayOutputStream();
        cache.train((extra, log) ->
        {
            final String output = extra.get(0).substring("-XX:AOTCacheOutput=".length());
            final Path late = Path.of(output.replace("%p", "pid3") + ".config");
            try
            {
                new ProcessBuilder("/bin/sh", "-c", "sleep 1; echo config > '" + late + "'").start();
            }
            catch (final IOException ex)
            {
                throw new IllegalStateException(ex);
            }
            return 124;
        }, new LineSink(err));
        assertTrue(err.toString(StandardCharsets.UTF_8).contains("exited 124"), err.toString(StandardCharsets.UTF_8));
        try (Stream<Path> left = Files.list(cache.file().getParent()))
        {
            assertEquals(List.of(cache.file().resolveSibling(cache.file().getFileName() + ".failed")), left.toList(),
                "only the failure marker: the late temporary was deleted after its writer exited");
        }
    }

    @Test
    void shouldDeleteStaleTemporariesOfEarlierTrainingsOnly() throws IOException
    {
        final AotCache cache = cache();
        final Path aot = cache.file().getParent();
        Files.createDirectories(aot);
        final Path stale = aot.resolve(".ranks-0123.aot.tmp-77-pid78.aot.config");
        final Path young = aot.resolve(".ranks-0123.aot.tmp-79-pid80.aot.config");
        final Path other = aot.resolve("ranks-0123.aot");
        for (final Path path : List.of(stale, young, other))
        {
            Files.writeString(path, "x");
        }
        final java.time.Instant now = java.time.Instant.now();
        Files.setLastModifiedTime(stale, FileTime.from(now.minus(AotCache.STALE_AGE).minusSeconds(1)));
        Files.setLastModifiedTime(other, FileTime.from(now.minus(AotCache.STALE_AGE).minusSeconds(1)));
        cache.deleteStaleTemporaries(now);
        assertFalse(Files.exists(stale), "a dead training's temporary");
        assertTrue(Files.exists(young), "a training that may still run");
        assertTrue(Files.exists(other), "a cache is no temporary");
    }
}
