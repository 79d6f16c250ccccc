package org.jmpi.examples;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The node's arena (transport-pvas, docs/pvas.md) between real JVMs through {@code bin/jmpirun}: allocMem
 * buffers exchanged directly, and a rank killed with SIGKILL leaves neither the arena nor the shm file. Each
 * run has a shm directory of its own under target/, so what is left can be listed exactly.
 */
@Timeout(180)
class PvasJmpirunIT
{
    private static final String CLASSES = System.getProperty("jmpi.examples.classes", "target/classes");

    private static Path shmDir(final String name) throws IOException
    {
        final Path dir = Path.of("target", "it-shm", name).toAbsolutePath();
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

    @ParameterizedTest
    @ValueSource(ints = {2, 3})
    void shouldExchangeAllocMemBuffersDirectlyBetweenJvms(final int np) throws Exception
    {
        final Path dir = shmDir("exchange-" + np);
        final JmpirunIT.Run run = JmpirunIT.jmpirun("pvas-exchange-" + np, 150, "-np", Integer.toString(np), "--timeout", "120",
            "--param", "pvas.partition.size=16m", "--param", "shm.dir=" + dir, "--param", "transports.show=true",
            "-cp", CLASSES, "org.jmpi.examples.ArenaExchange");
        assertEquals(0, run.exitCode(), run.all());
        assertFalse(run.stderr().contains("Exception"), run.stderr());
        for (int r = 0; r < np; r++)
        {
            assertTrue(run.stdout().contains("arena: rank " + r + " ok"), "rank " + r + ":\n" + run.all());
        }
        assertTrue(run.stderr().contains("1=pvas"), "peers reached through the arena transport:\n" + run.stderr());
        assertEquals(List.of(), left(dir), "files left in the shm directory");
    }

    /** Every DDTBench pattern with the applications' datatypes, to and fro between arena buffers of two JVMs. */
    @Test
    void shouldExchangeEveryDdtBenchPatternThroughTheArena() throws Exception
    {
        final Path dir = shmDir("ddt");
        final JmpirunIT.Run run = JmpirunIT.jmpirun("pvas-ddt", 150, "-np", "2", "--timeout", "120",
            "--param", "pvas.partition.size=64m", "--param", "shm.dir=" + dir, "--param", "pvas.stats=true", "--param", "eager.limit=0",
            "--param", "pvas.mode=direct", // the arena's direct paths; auto may stage a pattern (PathSelectionTest covers it)
            "-cp", CLASSES, "org.jmpi.examples.ddt.DdtExchange", "--arena");
        assertEquals(0, run.exitCode(), run.all());
        for (final String name : org.jmpi.examples.ddt.DdtPatterns.NAMES)
        {
            assertTrue(run.stdout().contains("ddt: " + name + " ok"), name + ":\n" + run.all());
        }
        // every buffer was in the arena, and the messages went directly (a type whose wire form is larger than one
        // frame is published in the arena, so none went through fragments for it) (and the one heap buffer refused:
        // the node-collective region's name, sent by point-to-point at the first collective, which eager.limit=0
        // makes a rendezvous)
        assertFalse(run.stderr().matches("(?s).*type-not-sendable=[1-9].*"), "types too large for a frame:\n" + run.stderr());
        final java.util.regex.Matcher exposed = java.util.regex.Pattern.compile("rank 0: pvas: exposed (\\d+) buffers to peers \\(refused (\\d+) not")
            .matcher(run.stderr());
        assertTrue(exposed.find() && Integer.parseInt(exposed.group(1)) > 0 && Integer.parseInt(exposed.group(2)) <= 1,
            "counters:\n" + run.stderr());
        assertEquals(List.of(), left(dir), "files left in the shm directory");
    }

    /**
     * The same under {@code pvas.mode=auto}: the finely scattered patterns pack at send into the sender's arena
     * partition and the receiver unpacks from there (docs/pvas.md, "Pack at send"); every pattern still arrives whole.
     */
    @Test
    void shouldExchangeEveryDdtBenchPatternThroughTheArenaPackingAtSend() throws Exception
    {
        final Path dir = shmDir("ddt-auto");
        final Path calibration = dir.resolveSibling(dir.getFileName() + ".properties");
        // Packing is the model's choice: a calibration that makes runs dear and fragments dearer makes it for short runs.
        Files.writeString(calibration, "perByteNs=0.01\nperRunCopyNs=10\nperRunPackNs=0.5\nperFragmentNs=100000\n");
        final JmpirunIT.Run run = JmpirunIT.jmpirun("pvas-ddt-auto", 150, "-np", "2", "--timeout", "120",
            "--param", "pvas.partition.size=64m", "--param", "shm.dir=" + dir, "--param", "pvas.stats=true", "--param", "eager.limit=0",
            "--param", "pvas.mode=auto", "--param", "pvas.calibration=" + calibration,
            "-cp", CLASSES, "org.jmpi.examples.ddt.DdtExchange", "--arena");
        assertEquals(0, run.exitCode(), run.all());
        for (final String name : org.jmpi.examples.ddt.DdtPatterns.NAMES)
        {
            assertTrue(run.stdout().contains("ddt: " + name + " ok"), name + ":\n" + run.all());
        }
        assertTrue(run.stderr().matches("(?s).*packed at send [1-9].*"), "no message packed at send:\n" + run.stderr());
        assertEquals(List.of(), left(dir), "files left in the shm directory");
    }

    /** Put- and get-based persistent collectives between 3 JVMs: counters, staging and scratch in the arena, no active message. */
    @ParameterizedTest
    @ValueSource(strings = {"put", "get"})
    void shouldRunPersistentCollectivesThroughTheArena(final String schedule) throws Exception
    {
        final Path dir = shmDir("persistent-" + schedule);
        final JmpirunIT.Run run = JmpirunIT.jmpirun("pvas-persistent-" + schedule, 150, "-np", "3", "--timeout", "120",
            "--param", "pvas.partition.size=16m", "--param", "shm.dir=" + dir, "--param", "pvas.stats=true",
            "--param", "coll.persistent.schedule=" + schedule, "-cp", CLASSES, "org.jmpi.examples.ArenaPersistent");
        assertEquals(0, run.exitCode(), run.all());
        for (int r = 0; r < 3; r++)
        {
            assertTrue(run.stdout().contains("persistent: rank " + r + " ok"), "rank " + r + ":\n" + run.all());
        }
        // Every rank exposed its registrations from the arena (none refused, so none went by frames) and mapped its peers'.
        final java.util.regex.Matcher m = java.util.regex.Pattern.compile("rank (\\d+): pvas: exposed (\\d+) buffers to peers " +
            "\\(refused (\\d+) not in the arena, \\d+ with the exposure table full\\), mapped (\\d+) peer buffers").matcher(run.stderr());
        int ranks = 0;
        while (m.find())
        {
            ranks++;
            assertTrue(Integer.parseInt(m.group(2)) >= 3 && m.group(3).equals("0") && Integer.parseInt(m.group(4)) > 0,
                "rank " + m.group(1) + ": " + m.group() + "\n" + run.stderr());
        }
        assertEquals(3, ranks, "a counters line per rank:\n" + run.stderr());
        assertEquals(List.of(), left(dir), "files left in the shm directory");
    }

    @Test
    void shouldLeaveNoFileWhenARankIsKilled() throws Exception
    {
        final Path dir = shmDir("kill");
        final JmpirunIT.Run run = JmpirunIT.jmpirun("pvas-kill-9", 90, "-np", "3", "--timeout", "60",
            "--param", "pvas.partition.size=16m", "--param", "shm.dir=" + dir,
            "-cp", CLASSES, "org.jmpi.examples.KillOneRank", "1");
        assertNotEquals(0, run.exitCode(), run.all());
        assertTrue(run.all().contains("rank 1"), "names the dead rank:\n" + run.all());
        assertEquals(List.of(), left(dir), "files left in the shm directory");
    }
}
