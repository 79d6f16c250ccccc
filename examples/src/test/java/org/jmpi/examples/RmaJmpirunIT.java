package org.jmpi.examples;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * RMA windows and coarrays between real JVMs through {@code bin/jmpirun} (issue 18): {@code RmaSelfCheck} (every
 * synchronisation mode, the coarray API, allocate_shared) at 2 and 4 JVMs over shm, through the PVAS arena and over
 * tcp, and {@code RmaKillInEpoch}: a rank killed inside a lock_all epoch ends the job within 5 s, naming it, and
 * leaves no file. Each run has a shm directory of its own under target/, so what is left can be listed exactly; the
 * logs are under target/it-logs.
 */
@Timeout(240)
class RmaJmpirunIT
{
    private static final String CLASSES = System.getProperty("jmpi.examples.classes", "target/classes");

    private static Path shmDir(final String name) throws IOException
    {
        final Path dir = Path.of("target", "it-shm", "rma-" + name).toAbsolutePath();
        Files.createDirectories(dir);
        try (Stream<Path> old = Files.list(dir))
        {
            for (final Path p : old.toList())
            {
                Files.delete(p);
            }
        }
        return dir;
    }

    private static List<String> left(final Path dir) throws IOException
    {
        try (Stream<Path> files = Files.list(dir))
        {
            return files.map(p -> p.getFileName().toString()).toList();
        }
    }

    /** {@code spec}: "np:mode", mode shm (the default transports), pvas (the arena, with --shared) or tcp. */
    @ParameterizedTest
    @ValueSource(strings = {"2:shm", "4:shm", "2:pvas", "4:pvas", "2:tcp"})
    void shouldCheckWindowsAndCoarraysAcrossJvms(final String spec) throws Exception
    {
        final int np = Integer.parseInt(spec.split(":")[0]);
        final String mode = spec.split(":")[1];
        final Path dir = shmDir(mode + "-" + np);
        final List<String> args = new ArrayList<>(List.of("-np", Integer.toString(np), "--timeout", "200",
            "--param", "shm.dir=" + dir, "--param", "transports.show=true"));
        switch (mode)
        {
            case "pvas" -> args.addAll(List.of("--param", "pvas.partition.size=16m"));
            case "tcp" -> args.addAll(List.of("--param", "transports=tcp,jvm", "--param", "tcp.local=true"));
            default -> { }
        }
        args.addAll(List.of("-cp", CLASSES, "org.jmpi.examples.rma.RmaSelfCheck"));
        if (mode.equals("pvas"))
        {
            args.add("--shared");
        }
        final JmpirunIT.Run run = JmpirunIT.jmpirun("rma-" + mode + "-" + np, 230, args.toArray(new String[0]));
        assertEquals(0, run.exitCode(), run.all());
        assertFalse(run.stderr().contains("Exception"), run.stderr());
        for (int r = 0; r < np; r++)
        {
            assertTrue(run.stdout().contains("rma: rank " + r + " ok (" + np + " ranks"), "rank " + r + ":\n" + run.all());
        }
        final String peer = switch (mode)
        {
            case "pvas" -> "1=pvas";
            case "tcp" -> "1=tcp";
            default -> "1=shm";
        };
        assertTrue(run.stderr().contains(peer), "peers reached through " + mode + ":\n" + run.stderr());
        assertEquals(List.of(), left(dir), "files left in the shm directory");
    }

    @ParameterizedTest
    @ValueSource(strings = {"shm", "pvas"})
    void shouldEndTheJobWhenARankIsKilledInsideAnEpoch(final String mode) throws Exception
    {
        final Path dir = shmDir("kill-" + mode);
        final List<String> args = new ArrayList<>(List.of("-np", "3", "--timeout", "90", "--param", "shm.dir=" + dir));
        if (mode.equals("pvas"))
        {
            args.addAll(List.of("--param", "pvas.partition.size=16m"));
        }
        args.addAll(List.of("-cp", CLASSES, "org.jmpi.examples.rma.RmaKillInEpoch", "1"));
        final JmpirunIT.Run run = JmpirunIT.jmpirun("rma-kill-" + mode, 120, args.toArray(new String[0]));
        assertNotEquals(0, run.exitCode(), run.all());
        assertTrue(run.all().contains("rank 1"), "names the dead rank:\n" + run.all());
        final Matcher m = Pattern.compile("kills itself at (\\d+)").matcher(run.stdout());
        assertTrue(m.find(), run.all());
        final long afterKillMs = run.endEpochMillis() - Long.parseLong(m.group(1));
        assertTrue(afterKillMs < 5_000, "job ended " + afterKillMs + " ms after the kill:\n" + run.all());
        assertEquals(List.of(), left(dir), "files left in the shm directory");
    }
}
