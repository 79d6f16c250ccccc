package org.jmpi.dist;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * The archive works on its own: unpacked into an empty directory (no source tree around it), its
 * bin/jmpirun runs the demo at -np 2 from the examples jar it ships, and --info names its version.
 */
@Timeout(180)
class DistributionIT
{
    private static final Path ARCHIVE = Path.of(System.getProperty("jmpi.dist.archive", "target/jmpi.tar.gz"));
    private static final String VERSION = System.getProperty("jmpi.version", "");

    @Test
    void shouldRunTheDemoFromTheUnpackedArchive(@TempDir final Path empty) throws Exception
    {
        assertTrue(Files.isRegularFile(ARCHIVE), "no archive at " + ARCHIVE + ": run mvn package");
        run(empty, List.of("tar", "-xzf", ARCHIVE.toAbsolutePath().toString()), 60);
        final Path home = empty.resolve("jmpi-" + VERSION);
        assertTrue(Files.isExecutable(home.resolve("bin/jmpirun")), "bin/jmpirun executable");
        assertTrue(Files.isRegularFile(home.resolve("docs/cluster.md")), "docs shipped");
        assertTrue(Files.isRegularFile(home.resolve("examples/src/org/jmpi/examples/Demo.java")), "example sources shipped");
        try (var jars = Files.list(home.resolve("lib")))
        {
            final List<String> names = jars.map(p -> p.getFileName().toString()).sorted().toList();
            for (final String module : List.of("jmpi-launcher-", "jmpi-core-", "jmpi-datatype-", "jmpi-transport-shm-", "jmpi-transport-tcp-", "jmpi-transport-verbs-", "jmpi-native-", "jna-", "agrona-"))
            {
                assertTrue(names.stream().anyMatch(n -> n.startsWith(module)), module + " in lib/: " + names);
            }
        }
        // run from a directory outside the archive, as a user would
        final Path work = Files.createDirectory(empty.resolve("work"));
        final String demo = run(work, List.of(home.resolve("bin/jmpirun").toString(), "-np", "2", "--timeout", "120",
            "-cp", home.resolve("examples/jmpi-examples.jar").toString(), "org.jmpi.examples.Demo"), 150);
        assertTrue(demo.contains("ring: token came back from rank 1 with sum 1 (ok)") && demo.contains("demo done"), demo);
        final String info = run(work, List.of(home.resolve("bin/jmpirun").toString(), "--info"), 60);
        assertTrue(info.startsWith("jmpi " + VERSION), info);
        assertTrue(info.contains("  verbs ") && info.contains("      here:"), "the verbs transport and its device line in --info:\n" + info);
    }

    private static String run(final Path dir, final List<String> command, final long timeoutSeconds) throws Exception
    {
        final Path out = Files.createTempFile("dist-it", ".out");
        final Process process = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true)
            .redirectOutput(out.toFile()).redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null"))).start();
        if (!process.waitFor(timeoutSeconds, TimeUnit.SECONDS))
        {
            process.descendants().forEach(ProcessHandle::destroyForcibly);
            process.destroyForcibly();
            fail(String.join(" ", command) + " did not finish in " + timeoutSeconds + " s:\n" + Files.readString(out));
        }
        final String text = Files.readString(out, StandardCharsets.UTF_8);
        Files.delete(out);
        assertEquals(0, process.exitValue(), String.join(" ", command) + ":\n" + text);
        return text;
    }
}
