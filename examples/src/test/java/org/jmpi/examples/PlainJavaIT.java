package org.jmpi.examples;

import org.jmpi.internal.bootstrap.JvmFlags;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.*;

/**
 * {@link Basics} started as a user starts a program outside jmpirun: plain {@code java -cp}, a singleton
 * world. Without jmpi's JVM flags init must fail at once with the message naming them; with them, the
 * program runs; and the same program runs under jmpirun on 4 ranks. Output under target/it-logs.
 */
@Timeout(120)
class PlainJavaIT
{
    private static final Path HOME = Path.of(System.getProperty("jmpi.home", "..")).toAbsolutePath().normalize();
    private static final String CLASSES = System.getProperty("jmpi.examples.classes", "target/classes");
    private static final Path LOGS = Path.of("target", "it-logs");

    private record Run(int exitCode, String stdout, String stderr)
    {
        String all()
        {
            return stdout + "\n" + stderr;
        }
    }

    private static Run java(final String logName, final List<String> jvmFlags) throws IOException, InterruptedException
    {
        final List<String> command = new ArrayList<>();
        command.add(ProcessHandle.current().info().command().orElseThrow());
        command.addAll(jvmFlags);
        command.addAll(List.of("-cp", CLASSES + File.pathSeparator + HOME.resolve("launcher/target/lib") + File.separator + "*",
            Basics.class.getName()));
        Files.createDirectories(LOGS);
        final Path out = LOGS.resolve(logName + ".out");
        final Path err = LOGS.resolve(logName + ".err");
        final Process p = new ProcessBuilder(command).redirectOutput(out.toFile()).redirectError(err.toFile())
            .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null"))).start();
        if (!p.waitFor(60, TimeUnit.SECONDS))
        {
            p.destroyForcibly();
            fail(String.join(" ", command) + " did not finish in 60 s; output in " + out.toAbsolutePath());
        }
        return new Run(p.exitValue(), Files.readString(out, StandardCharsets.UTF_8), Files.readString(err, StandardCharsets.UTF_8));
    }

    @Test
    void shouldRunAsASingletonWorldWithTheFlags() throws Exception
    {
        final Run run = java("plain-java-flags", JvmFlags.FLAGS);
        assertEquals(0, run.exitCode(), run.all());
        assertTrue(run.stdout().contains("basics: rank 0 of 1 ok"), run.all());
        assertFalse(run.stderr().contains("Exception"), run.stderr());
    }

    @Test
    void shouldNameTheMissingFlagAndWhereToPutItWithoutTheFlags() throws Exception
    {
        final Run run = java("plain-java-no-flags", List.of());
        assertNotEquals(0, run.exitCode(), run.all());
        assertTrue(run.stderr().contains("--add-exports java.base/jdk.internal.misc=ALL-UNNAMED"), run.stderr());
        assertTrue(run.stderr().contains("argLine") && run.stderr().contains("jvmArgs"), run.stderr());
        assertFalse(run.stderr().contains("IllegalAccessError"), run.stderr());
        assertFalse(run.stdout().contains("basics:"), run.all());
    }

    @Test
    void shouldRunTheSameProgramUnderJmpirunOnFourRanks() throws Exception
    {
        final JmpirunIT.Run run = JmpirunIT.jmpirun("basics-jvms-4", 120, "-np", "4", "--timeout", "100", "-cp", CLASSES, Basics.class.getName());
        assertEquals(0, run.exitCode(), run.all());
        for (int r = 0; r < 4; r++)
        {
            assertTrue(run.stdout().contains("basics: rank " + r + " of 4 ok"), run.all());
        }
    }
}
