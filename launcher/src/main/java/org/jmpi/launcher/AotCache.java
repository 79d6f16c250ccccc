package org.jmpi.launcher;

import org.jmpi.internal.bootstrap.JvmFlags;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileTime;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The rank JVMs' ahead-of-time cache (JDK 25 and later: {@code -XX:AOTCache}): jmpi's classes as a training
 * run ({@link AotTraining}) loaded and linked them, so that a rank JVM reaches {@code main} and its first
 * messages sooner (docs/performance.md, "Start-up"). Without method profiles: see {@link #train}.
 *
 * <p>The cache holds jmpi's classes only: it is trained with jmpi's class path alone, and rank JVMs get jmpi's
 * class path first and the application's after it, the one layout in which the JDK checks a cache against the
 * class path (an application class can never come from the cache). It is made the first time a job needs it,
 * by a 2-rank training job before the user's job (about 2 s, once per JDK, jmpi build and rank JVM options),
 * and kept in {@code $JMPIRUN_AOT_CACHE} (default {@code ~/.cache/jmpi/aot}; {@code off} turns it off), named by
 * a digest of everything the JDK checks. A training that fails leaves a marker, so it is not tried again.
 * A training's temporaries are deleted once its JVMs have exited ({@link #awaitExit}); those of a training that
 * could not clean up are deleted by a later jmpirun once they are {@link #STALE_AGE} old.
 *
 * <p>Threading: the launcher's main thread.
 */
final class AotCache
{
    /** The environment variable that places the cache or turns it off. */
    static final String ENV = "JMPIRUN_AOT_CACHE";
    /** The first JDK with one-step training ({@code -XX:AOTCacheOutput}, JEP 514). */
    static final int FIRST_JDK = 25;
    /** Caches kept in the directory; older ones (other jmpi builds, other JDKs) are deleted at training. */
    static final int KEPT = 8;
    /** A training job that runs longer than this is abandoned. */
    static final long TRAINING_TIMEOUT_NS = TimeUnit.SECONDS.toNanos(60);
    /**
     * How long a training's processes (rank JVMs, and the JVMs they start to assemble the cache) may go on after the
     * training job returned before they are killed; as long again for them to die. A JVM stopped by the training's
     * timeout writes its 17 MB {@code .aot.config} and starts the assembly while it exits, well after the job gave up.
     */
    static final long TRAINING_EXIT_WAIT_NS = TimeUnit.SECONDS.toNanos(15);
    /** Temporaries older than this are a dead training's (one lasts {@link #TRAINING_TIMEOUT_NS} and its exit wait at most). */
    static final Duration STALE_AGE = Duration.ofMinutes(10);

    private final Path file;
    private final Path failedMarker;

    private AotCache(final Path file)
    {
        this.file = file;
        this.failedMarker = file.resolveSibling(file.getFileName() + ".failed");
    }

    /**
     * The cache for rank JVMs started with {@code jvmArgs} and jmpi's class path {@code jmpiClassPath}, or null
     * when there is none to use here (JDK before 25, turned off, no place for it).
     */
    static AotCache of(final Map<String, String> env, final List<String> jvmArgs, final List<String> jmpiClassPath)
    {
        final String setting = env.getOrDefault(ENV, "").trim();
        if (setting.equals("off") || Runtime.version().feature() < FIRST_JDK)
        {
            return null;
        }
        final Path dir;
        if (!setting.isEmpty())
        {
            dir = Path.of(setting);
        }
        else if (env.get("XDG_CACHE_HOME") != null && !env.get("XDG_CACHE_HOME").isBlank())
        {
            dir = Path.of(env.get("XDG_CACHE_HOME"), "jmpi", "aot");
        }
        else if (env.get("HOME") != null && !env.get("HOME").isBlank())
        {
            dir = Path.of(env.get("HOME"), ".cache", "jmpi", "aot");
        }
        else
        {
            return null;
        }
        return new AotCache(dir.resolve("ranks-" + key(jvmArgs, jmpiClassPath) + ".aot"));
    }

    /** The rank JVM options that use the cache, or an empty list when it does not exist (yet). */
    List<String> jvmOptions()
    {
        return Files.isRegularFile(file) ? List.of("-XX:AOTCache=" + file, "-Xlog:aot*=off", "-Xlog:cds*=off") : List.of();
    }

    /** Whether the cache is neither there nor known to fail here: a training run would make it. */
    boolean needsTraining()
    {
        return !Files.isRegularFile(file) && !Files.exists(failedMarker);
    }

    /**
     * Makes the cache with a 2-rank training job of {@code trainingCommand} (the rank JVM command line with the
     * cache's output options added by this method); on failure leaves the marker and says so on {@code err} in
     * one line. Never throws.
     *
     * @param trainingJob runs a 2-rank job whose rank JVMs get the given extra options; returns its exit code
     */
    void train(final TrainingJob trainingJob, final LineSink err)
    {
        final Path dir = file.getParent();
        // Hidden, so that no glob for caches matches a training's output.
        final String prefix = "." + file.getFileName() + ".tmp-" + ProcessHandle.current().pid() + "-";
        final Set<Long> before = descendants().map(ProcessHandle::pid).collect(Collectors.toSet());
        String why;
        try
        {
            Files.createDirectories(dir);
            final ByteArrayOutputStream log = new ByteArrayOutputStream();
            // Classes only, no method profiles: with the training's profiles replayed, a 128-double halo exchange
            // between 2 JVMs ran at 8-11 us instead of 1.5-3.7 over its 40,000th to 60,000th exchanges
            // (recompilation when the program's paths left the training's; docs/performance.md).
            final int code = trainingJob.run(List.of("-XX:AOTCacheOutput=" + dir.resolve(prefix + "%p.aot"),
                "-XX:+IgnoreUnrecognizedVMOptions", "-XX:+UnlockDiagnosticVMOptions", "-XX:-AOTRecordTraining"), log);
            final Path made = firstMade(dir, prefix);
            if (code == 0 && made != null)
            {
                moveIntoPlace(made);
                deleteOld(dir);
                why = null;
            }
            else
            {
                why = "training job exited " + code + (made == null ? " and made no cache" : "") + ": " + tail(log);
            }
        }
        catch (final IOException | RuntimeException ex)
        {
            why = ex.toString();
        }
        finally
        {
            // The training's JVMs may still be writing temporaries (a timed-out job gives up on them): only once they
            // have exited is deleting final.
            awaitExit(before, TRAINING_EXIT_WAIT_NS);
            deleteTemporaries(dir, prefix);
        }
        if (why != null)
        {
            try
            {
                Files.writeString(failedMarker, why + "\n");
            }
            catch (final IOException ex)
            {
                // No marker: the next job tries again.
            }
            err.println("jmpirun: note: no ahead-of-time cache for rank JVMs (" + why + "); ranks start without it (" +
                ENV + "=off skips this)");
        }
    }

    /**
     * Waits until every descendant of this process that is not in {@code before} (the training's JVMs and what they
     * started) has exited; kills those left after {@code waitNs}, and waits as long again for them.
     *
     * @return whether none is left
     */
    static boolean awaitExit(final Set<Long> before, final long waitNs)
    {
        final long killAt = System.nanoTime() + waitNs;
        final long giveUpAt = killAt + waitNs;
        boolean killed = false;
        while (true)
        {
            final List<ProcessHandle> left = descendants().filter(p -> !before.contains(p.pid())).toList();
            if (left.isEmpty())
            {
                return true;
            }
            final long now = System.nanoTime();
            if (now - giveUpAt >= 0)
            {
                return false;
            }
            if (!killed && now - killAt >= 0)
            {
                left.forEach(ProcessHandle::destroyForcibly);
                killed = true;
            }
            try
            {
                left.get(0).onExit().get(50, TimeUnit.MILLISECONDS);
            }
            catch (final TimeoutException | ExecutionException ex)
            {
                // look again
            }
            catch (final InterruptedException ex)
            {
                Thread.currentThread().interrupt();
                return false;
            }
        }
    }

    private static Stream<ProcessHandle> descendants()
    {
        return ProcessHandle.current().descendants().filter(ProcessHandle::isAlive);
    }

    /**
     * Deletes the temporaries of trainings that ended without cleaning up (a launcher killed while training, or JVMs
     * that outlived {@link #awaitExit}'s wait): those last modified more than {@link #STALE_AGE} before {@code now}.
     * Never throws.
     */
    void deleteStaleTemporaries(final Instant now)
    {
        final Path dir = file.getParent();
        if (!Files.isDirectory(dir))
        {
            return;
        }
        try (DirectoryStream<Path> left = Files.newDirectoryStream(dir, ".ranks-*.aot.tmp-*"))
        {
            for (final Path path : left)
            {
                if (modified(path).toInstant().isBefore(now.minus(STALE_AGE)))
                {
                    Files.deleteIfExists(path);
                }
            }
        }
        catch (final IOException ex)
        {
            // Left for the next start.
        }
    }

    /** A training job: the rank JVMs' extra options in, the exit code out, its output into {@code log}. */
    interface TrainingJob
    {
        int run(List<String> extraJvmOptions, ByteArrayOutputStream log);
    }

    Path file()
    {
        return file;
    }

    /** A digest of everything the JDK checks a cache against: the JDK, the JVM options, jmpi's jars by name, size and time. */
    static String key(final List<String> jvmArgs, final List<String> jmpiClassPath)
    {
        final MessageDigest digest;
        try
        {
            digest = MessageDigest.getInstance("SHA-256");
        }
        catch (final NoSuchAlgorithmException ex)
        {
            throw new IllegalStateException(ex);
        }
        final List<String> parts = new ArrayList<>();
        parts.add(System.getProperty("java.home"));
        parts.add(System.getProperty("java.vm.version"));
        parts.addAll(JvmFlags.FLAGS);
        parts.addAll(jvmArgs);
        for (final String entry : jmpiClassPath)
        {
            final Path path = Path.of(entry);
            long size = -1;
            long modified = -1;
            try
            {
                size = Files.size(path);
                modified = Files.getLastModifiedTime(path).toMillis();
            }
            catch (final IOException ex)
            {
                // A missing entry: its name alone.
            }
            parts.add(entry + "|" + size + "|" + modified);
        }
        for (final String part : parts)
        {
            digest.update(part.getBytes(StandardCharsets.UTF_8));
            digest.update((byte)0);
        }
        return HexFormat.of().formatHex(digest.digest(), 0, 12);
    }

    private static Path firstMade(final Path dir, final String prefix) throws IOException
    {
        try (DirectoryStream<Path> made = Files.newDirectoryStream(dir, prefix + "*.aot"))
        {
            for (final Path path : made)
            {
                if (Files.size(path) > 0)
                {
                    return path;
                }
            }
        }
        return null;
    }

    private void moveIntoPlace(final Path made) throws IOException
    {
        try
        {
            Files.move(made, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        }
        catch (final AtomicMoveNotSupportedException ex)
        {
            Files.move(made, file, StandardCopyOption.REPLACE_EXISTING);
        }
    }

    private static void deleteTemporaries(final Path dir, final String prefix)
    {
        try (DirectoryStream<Path> left = Files.newDirectoryStream(dir, prefix + "*"))
        {
            for (final Path path : left)
            {
                Files.deleteIfExists(path);
            }
        }
        catch (final IOException ex)
        {
            // Nothing to clean, or not ours to clean.
        }
    }

    /** Keeps the {@link #KEPT} newest caches. */
    private static void deleteOld(final Path dir)
    {
        final List<Path> caches = new ArrayList<>();
        try (DirectoryStream<Path> all = Files.newDirectoryStream(dir, "ranks-*.aot"))
        {
            all.forEach(caches::add);
            caches.sort(Comparator.comparing(AotCache::modified).reversed());
            for (int i = KEPT; i < caches.size(); i++)
            {
                Files.deleteIfExists(caches.get(i));
            }
        }
        catch (final IOException ex)
        {
            // Old caches stay.
        }
    }

    private static FileTime modified(final Path path)
    {
        try
        {
            return Files.getLastModifiedTime(path);
        }
        catch (final IOException ex)
        {
            return FileTime.fromMillis(0);
        }
    }

    private static String tail(final ByteArrayOutputStream log)
    {
        final String text = log.toString(StandardCharsets.UTF_8).strip().replace('\n', ' ');
        return text.length() <= 300 ? text : "..." + text.substring(text.length() - 300);
    }
}
