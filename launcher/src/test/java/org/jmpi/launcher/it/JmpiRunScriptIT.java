package org.jmpi.launcher.it;

import org.jmpi.internal.runtime.CoreParams;
import org.jmpi.internal.bootstrap.JvmFlags;
import org.jmpi.spi.ParamSpec;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** bin/jmpirun itself: JDK discovery, its JVM flags, --info, --help and usage errors. */
@Timeout(90)
class JmpiRunScriptIT
{
    private static final Path JVM_DIR = Path.of("/usr/lib/jvm");

    @AfterEach
    void noStragglers()
    {
        assertEquals(0, Jmpirun.killStragglers(), "processes left behind");
    }

    @Test
    void shouldFindJdk21InUsrLibJvmWhenPathHasOnlyOlderJava() throws Exception
    {
        final Optional<Path> oldJdk = jdkOlderThan21();
        assumeTrue(oldJdk.isPresent(), "needs a JDK older than 21 under /usr/lib/jvm");
        final String path = oldJdk.get().resolve("bin") + ":/usr/bin:/bin";
        final Jmpirun.Result result = Jmpirun.run("jdk-discovery", env ->
        {
            env.remove("JAVA_HOME");
            env.put("PATH", path);
        }, null, 60_000, List.of("--info"));
        assertEquals(0, result.exitCode(), result::toString);
        final String javaHome = result.stdoutLines().stream().filter(l -> l.contains("java.home:")).findFirst().orElseThrow();
        assertTrue(javaHome.contains("/usr/lib/jvm/"), javaHome);
        final int major = Integer.parseInt(result.stdoutLines().stream().filter(l -> l.contains("JDK:")).findFirst().orElseThrow()
            .replaceAll(".*JDK: +(\\d+).*", "$1"));
        assertTrue(major >= 21, result::toString);
    }

    @Test
    void shouldSkipTooOldJavaHome() throws Exception
    {
        final Optional<Path> oldJdk = jdkOlderThan21();
        assumeTrue(oldJdk.isPresent(), "needs a JDK older than 21 under /usr/lib/jvm");
        final Jmpirun.Result result = Jmpirun.run("jdk-old-home", env ->
        {
            env.put("JAVA_HOME", oldJdk.get().toString());
            env.put("PATH", oldJdk.get().resolve("bin") + ":/usr/bin:/bin");
        }, null, 60_000, List.of("--help"));
        assertEquals(0, result.exitCode(), result::toString);
        assertTrue(result.stdout().startsWith("usage: jmpirun"), result::toString);
    }

    @Test
    void shouldSayClearlyWhenNoJdk21Exists() throws Exception
    {
        final Optional<Path> oldJdk = jdkOlderThan21();
        assumeTrue(oldJdk.isPresent(), "needs a JDK older than 21 under /usr/lib/jvm");
        final Jmpirun.Result result = Jmpirun.run("jdk-none", env ->
        {
            env.put("JAVA_HOME", oldJdk.get().toString());
            env.put("PATH", oldJdk.get().resolve("bin") + ":/usr/bin:/bin");
            env.put("JMPIRUN_JDK_DIRS", "/nonexistent-jvm-dir");
        }, null, 60_000, List.of("--info"));
        assertEquals(1, result.exitCode(), result::toString);
        assertEquals("jmpirun: no JDK 21 or newer found (checked JAVA_HOME=" + oldJdk.get() + ", PATH, /nonexistent-jvm-dir)",
            result.stderr().strip());
    }

    @Test
    void shouldWorkThroughASymlink(@org.junit.jupiter.api.io.TempDir final Path dir) throws Exception
    {
        final Path link = Files.createSymbolicLink(dir.resolve("jmpirun"), Jmpirun.SCRIPT);
        final Process process = new ProcessBuilder(link.toString(), "--help").redirectErrorStream(true).start();
        final String output = new String(process.getInputStream().readAllBytes());
        assertTrue(process.waitFor(60, java.util.concurrent.TimeUnit.SECONDS));
        assertEquals(0, process.exitValue(), output);
        assertTrue(output.startsWith("usage: jmpirun"), output);
    }

    @Test
    void shouldPassTheSameJvmFlagsAsJvmFlags() throws IOException
    {
        final String script = Files.readString(Jmpirun.SCRIPT);
        final String expected = "readonly JMPI_JVM_FLAGS=(" + String.join(" ", JvmFlags.FLAGS) + ")";
        assertTrue(script.contains(expected), "bin/jmpirun must declare " + expected);
    }

    @Test
    void shouldPrintInfoWithVersionTransportsAndEveryCoreParam() throws Exception
    {
        final Jmpirun.Result result = Jmpirun.run("info", "--info", "--param", "eager.limit=16k");
        assertEquals(0, result.exitCode(), result::toString);
        assertTrue(result.stdout().startsWith("jmpi "), result::toString);
        assertTrue(result.stdout().contains("transports:") && result.stdout().contains("ranks in separate JVMs: "), result::toString);
        for (final ParamSpec spec : CoreParams.ALL)
        {
            final String row = result.stdoutLines().stream().filter(l -> l.trim().startsWith(spec.name() + " ")).findFirst()
                .orElseThrow(() -> new AssertionError(spec.name() + " missing:\n" + result));
            assertTrue(row.contains(spec.defaultValue()) && row.contains(spec.unit()) && row.contains(spec.envName()), row);
            assertTrue(result.stdout().contains(spec.description()), spec.description());
        }
        final String eager = result.stdoutLines().stream().filter(l -> l.trim().startsWith("jmpi.eager.limit ")).findFirst().orElseThrow();
        assertTrue(eager.contains("16k"), "--param shows as the current value: " + eager);
    }

    @Test
    void shouldExit2OnUsageError() throws Exception
    {
        final Jmpirun.Result missingNp = Jmpirun.run("usage-np", "-cp", ".", "Main");
        assertEquals(2, missingNp.exitCode(), missingNp::toString);
        assertTrue(missingNp.stderr().contains("jmpirun: the number of ranks is missing: give -np N"), missingNp::toString);
        final Jmpirun.Result unknown = Jmpirun.run("usage-unknown", "-np", "2", "--bogus", "-cp", ".", "Main");
        assertEquals(2, unknown.exitCode(), unknown::toString);
        assertTrue(unknown.stderr().contains("unknown option --bogus"), unknown::toString);
    }

    private static Optional<Path> jdkOlderThan21() throws IOException
    {
        if (!Files.isDirectory(JVM_DIR))
        {
            return Optional.empty();
        }
        try (Stream<Path> dirs = Files.list(JVM_DIR))
        {
            return dirs.filter(d -> Files.isExecutable(d.resolve("bin/java")))
                .filter(d -> releaseMajor(d).map(m -> m < 21).orElse(false))
                .sorted()
                .findFirst();
        }
    }

    private static Optional<Integer> releaseMajor(final Path jdk)
    {
        try
        {
            for (final String line : Files.readAllLines(jdk.resolve("release")))
            {
                if (line.startsWith("JAVA_VERSION="))
                {
                    final String version = line.substring("JAVA_VERSION=".length()).replace("\"", "");
                    final String major = version.startsWith("1.") ? version.substring(2) : version;
                    return Optional.of(Integer.parseInt(major.split("[.+-]")[0]));
                }
            }
        }
        catch (final IOException | NumberFormatException ex)
        {
            return Optional.empty();
        }
        return Optional.empty();
    }
}
