package org.jmpi.launcher.it;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.jar.Attributes;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** bin/jmpirun in its default mode, one JVM per rank. */
@Timeout(90)
class JmpiRunIT
{
    private static final String CP = Jmpirun.TEST_CLASSES;
    private static final String PKG = "org.jmpi.launcher.it.";

    @AfterEach
    void noStragglers()
    {
        assertEquals(0, Jmpirun.killStragglers(), "processes left behind");
    }

    @Test
    void shouldForwardEveryLineAndExitZeroWhenAllRanksSucceed() throws Exception
    {
        final Jmpirun.Result result = Jmpirun.run("lines", "-np", "3", "-cp", CP, PKG + "PrintLinesProgram", "50");
        assertEquals(0, result.exitCode(), result::toString);
        for (int rank = 0; rank < 3; rank++)
        {
            for (int i = 0; i < 50; i++)
            {
                assertTrue(result.stdoutLines().contains("line " + i + " of rank " + rank), result::toString);
            }
            assertTrue(result.stdoutLines().contains("unterminated " + rank), result::toString);
            assertTrue(result.stderr().lines().toList().contains("err of rank " + rank), result::toString);
        }
        assertEquals(3 * 51, result.stdoutLines().size(), result::toString);
    }

    @Test
    void shouldPrefixLinesWithRankWhenTagOutput() throws Exception
    {
        final Jmpirun.Result result = Jmpirun.run("tag", "-np", "2", "--tag-output", "-cp", CP, PKG + "PrintLinesProgram", "3");
        assertEquals(0, result.exitCode(), result::toString);
        final Pattern tagged = Pattern.compile("\\[(\\d)] (line \\d of rank |unterminated )(\\d)");
        for (final String line : result.stdoutLines())
        {
            final Matcher matcher = tagged.matcher(line);
            assertTrue(matcher.matches(), line);
            assertEquals(matcher.group(1), matcher.group(3), "tag and rank agree: " + line);
        }
        assertEquals(2 * 4, result.stdoutLines().size(), result::toString);
        assertTrue(result.stderr().lines().toList().contains("[1] err of rank 1"), result::toString);
    }

    @Test
    void shouldExitWithFirstFailingRankCodeAndStopTheOthers() throws Exception
    {
        final Jmpirun.Result result = Jmpirun.run("exitcode", "-np", "3", "-cp", CP, PKG + "ExitProgram", "sleep=60000", "1:3:500");
        assertEquals(3, result.exitCode(), result::toString);
        assertTrue(result.stderr().matches("(?s).*jmpirun: rank 1 \\(pid \\d+\\) exited with code 3; stopping the job.*"), result::toString);
        assertTrue(result.elapsedMs() < 15_000, result::toString);
        Jmpirun.assertAllGone(Jmpirun.pids(result));
    }

    @Test
    void shouldExitZeroWhenRanksExitZero() throws Exception
    {
        final Jmpirun.Result result = Jmpirun.run("exitzero", "-np", "2", "-cp", CP, PKG + "ExitProgram", "0:0", "1:0");
        assertEquals(0, result.exitCode(), result::toString);
        assertFalse(result.stderr().contains("jmpirun:"), result::toString);
    }

    @Test
    void shouldStopJobWithin5sAndRemoveShmFilesWhenRankIsKilled() throws Exception
    {
        final Jmpirun.Result result = Jmpirun.run("kill9", "-np", "4", "-cp", CP, PKG + "KillSelfProgram", "2", "1000");
        assertEquals(137, result.exitCode(), result::toString);
        assertTrue(result.stderr().matches("(?s).*jmpirun: rank 2 \\(pid \\d+\\) killed by signal 9 \\(SIGKILL\\); stopping the job.*"),
            result::toString);
        assertTrue(result.elapsedMs() < 1_000 + 5_000 + 5_000, "JVM start + kill delay + at most 5 s to stop: " + result);
        Jmpirun.assertAllGone(Jmpirun.pids(result));
        final String job = result.stdoutLines().stream().filter(l -> l.contains("job=")).findFirst().orElseThrow()
            .replaceAll(".*job=", "");
        if (Files.isDirectory(Path.of("/dev/shm")))
        {
            try (Stream<Path> files = Files.list(Path.of("/dev/shm")))
            {
                assertEquals(List.of(), files.filter(f -> f.getFileName().toString().startsWith("jmpi-" + job)).toList());
            }
        }
    }

    @Test
    void shouldReportUncaughtExceptionAsExitCode1() throws Exception
    {
        final Jmpirun.Result result = Jmpirun.run("throw", "-np", "3", "-cp", CP, PKG + "ThrowProgram", "2", "60000");
        assertEquals(1, result.exitCode(), result::toString);
        assertTrue(result.stderr().contains("rank 2 fails on purpose"), result::toString);
        assertTrue(result.stderr().matches("(?s).*jmpirun: rank 2 \\(pid \\d+\\) exited with code 1; stopping the job.*"), result::toString);
        Jmpirun.assertAllGone(Jmpirun.pids(result));
    }

    @Test
    void shouldStopJobAndExit124WhenTimeoutExpires() throws Exception
    {
        final Jmpirun.Result result = Jmpirun.run("timeout", "--timeout", "2", "-np", "2", "-cp", CP, PKG + "ExitProgram", "sleep=60000");
        assertEquals(124, result.exitCode(), result::toString);
        assertTrue(result.stderr().contains("jmpirun: job timed out after 2 s; stopping 2 rank(s)"), result::toString);
        assertTrue(result.elapsedMs() < 12_000, result::toString);
        Jmpirun.assertAllGone(Jmpirun.pids(result));
    }

    @Test
    void shouldDeliverStdinToRank0Only() throws Exception
    {
        final Jmpirun.Result result = Jmpirun.run("stdin", env -> { }, "alpha\nbeta\n", 60_000,
            List.of("-np", "3", "-cp", CP, PKG + "StdinProgram"));
        assertEquals(0, result.exitCode(), result::toString);
        assertTrue(result.stdoutLines().contains("rank 0 read: alpha"), result::toString);
        assertTrue(result.stdoutLines().contains("rank 0 read: beta"), result::toString);
        assertTrue(result.stdoutLines().contains("rank 0 lines=2"), result::toString);
        assertTrue(result.stdoutLines().contains("rank 1 lines=0"), result::toString);
        assertTrue(result.stdoutLines().contains("rank 2 lines=0"), result::toString);
    }

    @Test
    void shouldExportVariablesAndPassParamsAsSystemProperties() throws Exception
    {
        final Jmpirun.Result result = Jmpirun.run("envparam", env -> env.put("JMPI_IT_INHERITED", "from-launcher"), null, 60_000,
            List.of("-np", "2", "-x", "JMPI_IT_SET=forty two", "-x", "JMPI_IT_INHERITED", "--param", "eager.limit=8k",
                "--param", "jmpi.it.custom=yes", "-cp", CP, PKG + "EnvProgram",
                "JMPI_IT_SET", "JMPI_IT_INHERITED", "jmpi.eager.limit", "jmpi.it.custom"));
        assertEquals(0, result.exitCode(), result::toString);
        for (int rank = 0; rank < 2; rank++)
        {
            assertTrue(result.stdoutLines().contains("rank " + rank + " env JMPI_IT_SET=forty two"), result::toString);
            assertTrue(result.stdoutLines().contains("rank " + rank + " env JMPI_IT_INHERITED=from-launcher"), result::toString);
            assertTrue(result.stdoutLines().contains("rank " + rank + " prop jmpi.eager.limit=8k"), result::toString);
            assertTrue(result.stdoutLines().contains("rank " + rank + " prop jmpi.it.custom=yes"), result::toString);
        }
        assertTrue(result.stderr().contains("--param jmpi.it.custom is not a known jmpi parameter"), result::toString);
    }

    @Test
    void shouldServeBootstrapPutGetFenceToRanks() throws Exception
    {
        final Jmpirun.Result result = Jmpirun.run("bootstrap", "-np", "4", "-cp", CP, PKG + "BootstrapProgram", "exchange");
        assertEquals(0, result.exitCode(), result::toString);
        for (int rank = 0; rank < 4; rank++)
        {
            assertTrue(result.stdoutLines().contains("rank " + rank + " got [hello from 0][hello from 1][hello from 2][hello from 3]"),
                result::toString);
        }
    }

    @Test
    void shouldStopJobWithAbortCodeWhenRankCallsAbort() throws Exception
    {
        final Jmpirun.Result result = Jmpirun.run("abort", "-np", "3", "-cp", CP, PKG + "BootstrapProgram", "abort");
        assertEquals(7, result.exitCode(), result::toString);
        assertTrue(result.stderr().contains("jmpirun: rank 1 called abort with code 7: rank 1 gives up"), result::toString);
        assertFalse(result.stderr().contains("exited with code"), "the abort is reported, not the aborting rank's exit: " + result);
        Jmpirun.assertAllGone(Jmpirun.pids(result));
    }

    @Test
    void shouldFailJobWhenRankExitsZeroAfterInitWithoutFinalize() throws Exception
    {
        final Jmpirun.Result result = Jmpirun.run("nofinalize", "-np", "2", "-cp", CP, PKG + "BootstrapProgram", "nofinalize");
        assertEquals(1, result.exitCode(), result::toString);
        assertTrue(result.stderr().matches(
            "(?s).*jmpirun: rank 0 \\(pid \\d+\\) exited with code 0 after init without finalize; stopping the job.*"), result::toString);
        Jmpirun.assertAllGone(Jmpirun.pids(result));
    }

    @Test
    void shouldReportDeadRankWhileOthersWaitInFence() throws Exception
    {
        final Jmpirun.Result result = Jmpirun.run("fencedeath", "-np", "3", "-cp", CP, PKG + "BootstrapProgram", "fencedeath");
        assertEquals(5, result.exitCode(), result::toString);
        assertTrue(result.stderr().matches("(?s).*jmpirun: rank 1 \\(pid \\d+\\) exited with code 5; stopping the job.*"), result::toString);
        assertFalse(result.stdout().contains("fence passed"), result::toString);
        Jmpirun.assertAllGone(Jmpirun.pids(result));
    }

    @Test
    void shouldKillRanksThatIgnoreSigtermAfterGracePeriod() throws Exception
    {
        final Jmpirun.Result result = Jmpirun.run("stubborn", "--timeout", "3", "-np", "2", "-cp", CP, PKG + "SleepProgram", "stubborn");
        assertEquals(124, result.exitCode(), result::toString);
        assertTrue(result.elapsedMs() < 3_000 + 2_000 + 7_000, "timeout + SIGKILL grace + slack, far below the ranks' 60 s: " + result);
        Jmpirun.assertAllGone(Jmpirun.pids(result));
    }

    @Test
    void shouldStopRanksAndRemoveShmFilesWhenJmpirunGetsSigterm() throws Exception
    {
        Files.createDirectories(Jmpirun.LOG_DIR);
        final Path stdout = Jmpirun.LOG_DIR.resolve("sigterm.out");
        final Process jmpirun = new ProcessBuilder(Jmpirun.SCRIPT.toString(), "-np", "3", "-cp", CP, PKG + "SleepProgram")
            .redirectOutput(stdout.toFile())
            .redirectError(Jmpirun.LOG_DIR.resolve("sigterm.err").toFile())
            .start();
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        List<String> lines = List.of();
        while (lines.stream().filter(l -> l.startsWith("pid=")).count() < 3)
        {
            assertTrue(System.nanoTime() < deadline && jmpirun.isAlive(), "ranks did not start: " + lines);
            Thread.sleep(50);
            lines = Files.readAllLines(stdout);
        }
        jmpirun.destroy();
        assertTrue(jmpirun.waitFor(15, TimeUnit.SECONDS), "jmpirun did not exit on SIGTERM");
        final Jmpirun.Result result = new Jmpirun.Result(jmpirun.exitValue(), Files.readString(stdout),
            Files.readString(Jmpirun.LOG_DIR.resolve("sigterm.err")), 0);
        assertEquals("jmpirun: interrupted; stopping the job", result.stderr().strip(), result::toString);
        Jmpirun.assertAllGone(Jmpirun.pids(result));
        final String job = lines.get(0).replaceAll(".*job=", "");
        assertTrue(Files.notExists(Path.of("/dev/shm", "jmpi-" + job + "-sleeptest")), "shm file of job " + job + " left behind");
    }

    @Test
    void shouldRunAJarByItsManifest(@TempDir final Path dir) throws Exception
    {
        final Manifest manifest = new Manifest();
        manifest.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
        manifest.getMainAttributes().put(Attributes.Name.MAIN_CLASS, PKG + "PrintLinesProgram");
        manifest.getMainAttributes().put(Attributes.Name.CLASS_PATH, Path.of(CP).toUri().getRawPath());
        final Path jar = dir.resolve("app.jar");
        try (OutputStream out = Files.newOutputStream(jar))
        {
            new JarOutputStream(out, manifest).close();
        }
        final Jmpirun.Result result = Jmpirun.run("jar", "-np", "2", "-jar", jar.toString(), "1");
        assertEquals(0, result.exitCode(), result::toString);
        assertTrue(result.stdoutLines().contains("line 0 of rank 0") && result.stdoutLines().contains("line 0 of rank 1"), result::toString);
    }
}
