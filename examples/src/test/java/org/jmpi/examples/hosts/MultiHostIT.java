package org.jmpi.examples.hosts;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Jobs across two hosts: network namespaces joined by a veth pair ({@link NetnsHosts}), jmpirun started in
 * host A, ranks started through {@code --launch-agent 'ip netns exec'}. Every rank prints which transport
 * reaches each peer ({@code jmpi.transports.show}), so the tests check shm within a host and tcp between.
 * Skipped, with the reason, when not root or without iproute2. Logs under target/it-logs/hosts-*, the
 * times of every job in target/it-logs/hosts.figures. The jobs' shared-memory files go to a directory of
 * this test's own, checked empty after each fault and at the end.
 */
@Timeout(300)
class MultiHostIT
{
    private static final Path HOME = Path.of(System.getProperty("jmpi.home", "..")).toAbsolutePath().normalize();
    private static final String CLASSES = Path.of(System.getProperty("jmpi.examples.classes", "target/classes")).toAbsolutePath() +
        ":" + Path.of("target/test-classes").toAbsolutePath();
    private static final Path LOGS = Path.of("target", "it-logs");
    private static final Pattern PEERS = Pattern.compile("jmpi: rank (\\d+) on node (\\S+): peers(( \\d+=\\w+)+)");
    /** The jobs' shared-memory files go here (jmpi.shm.dir), so other jobs on the machine do not disturb the leftover checks. */
    private static final Path SHM_DIR = Path.of("/dev/shm", "jmpihosts-" + ProcessHandle.current().pid());
    private static NetnsHosts hosts;

    record Run(int exitCode, String stdout, String stderr, long endEpochMillis)
    {
        String all()
        {
            return stdout + "\n" + stderr;
        }
    }

    @BeforeAll
    static void createHosts() throws Exception
    {
        final String reason = NetnsHosts.unavailableReason();
        Assumptions.assumeTrue(reason == null, () -> "skipped: " + reason);
        hosts = NetnsHosts.create();
        Files.createDirectories(SHM_DIR);
    }

    @AfterAll
    static void removeHosts() throws IOException
    {
        if (hosts != null)
        {
            hosts.close();
            assertFalse(hosts.anyLeft(), "a namespace was left behind");
        }
        if (Files.isDirectory(SHM_DIR))
        {
            final Set<String> left = shmFiles();
            for (final String name : left)
            {
                Files.delete(SHM_DIR.resolve(name));
            }
            Files.delete(SHM_DIR);
            assertTrue(left.isEmpty(), "shared-memory files left behind: " + left);
        }
    }

    @Test
    void shouldRunPointToPointAtTwoHostsByOne() throws Exception
    {
        // the collectives run at 2 x 2 and as a hybrid job: every rank there has a tcp peer too
        final Run tour = jmpirun("hosts-tour-2x1", job(1, false, "org.jmpi.examples.PointToPointTour"));
        assertOk(tour);
        assertTrue(tour.stdout().contains("tour: rank 0 ok") && tour.stdout().contains("tour: rank 1 ok"), tour.all());
        assertRoutes(tour, 2, 1);
    }

    @Test
    void shouldRunMixedJobsWithShmWithinAndTcpBetweenAtTwoHostsByTwo() throws Exception
    {
        final Run coll = jmpirun("hosts-coll-2x2", job(2, false, "org.jmpi.examples.coll.CollectiveSelfCheck"));
        assertOk(coll);
        assertTrue(coll.stdout().contains("collectives OK (4 ranks)"), coll.all());
        assertRoutes(coll, 4, 2);
        final Run tour = jmpirun("hosts-tour-2x2", job(2, false, "org.jmpi.examples.PointToPointTour"));
        assertOk(tour);
        for (int r = 0; r < 4; r++)
        {
            assertTrue(tour.stdout().contains("tour: rank " + r + " ok"), "rank " + r + ":\n" + tour.all());
        }
    }

    /**
     * The two-level collectives forced ("hier"; auto chooses them too at 2 x 2) with the ranks interleaved over the hosts
     * (--map-by node: ranks 0 and 2 on host A, 1 and 3 on B), so that allgather's blocks come from non-consecutive
     * ranks of each node and non-commutative reductions take the flat algorithms.
     */
    @Test
    void shouldComputeEveryCollectiveInTwoLevelsWithRanksInterleavedOverTwoHosts() throws Exception
    {
        final List<String> args = new ArrayList<>(List.of("--map-by", "node"));
        for (final String op : new String[] {"barrier", "bcast", "reduce", "allreduce", "allgather"})
        {
            args.addAll(List.of("--param", "coll." + op + ".algorithm=hier"));
        }
        args.addAll(job(2, false, "org.jmpi.examples.coll.CollectiveSelfCheck"));
        final Run coll = jmpirun("hosts-coll-hier-2x2", args);
        assertOk(coll);
        assertTrue(coll.stdout().contains("collectives OK (4 ranks)"), coll.all());
        assertPeers(coll, (rank, node, other, route) ->
        {
            assertEquals(rank % 2 == 0 ? hosts.hostA : hosts.hostB, node, coll.stderr());
            assertEquals(other == rank ? "jvm" : other % 2 == rank % 2 ? "shm" : "tcp", route, "rank " + rank + " to " + other);
        });
    }

    @Test
    void shouldRunHybridJobsWithThreadsWithinAndTcpBetweenAtTwoHostsByTwo() throws Exception
    {
        final Run coll = jmpirun("hosts-coll-hybrid-2x2", job(2, true, "org.jmpi.examples.coll.CollectiveSelfCheck"));
        assertOk(coll);
        assertTrue(coll.stdout().contains("collectives OK (4 ranks)"), coll.all());
        assertPeers(coll, (rank, node, other, route) ->
            assertEquals(other / 2 == rank / 2 ? "jvm" : "tcp", route, "rank " + rank + " to " + other + ":\n" + coll.stderr()));
    }

    /** What a test checks of one peer in a rank's {@code transports.show} line. */
    @FunctionalInterface
    private interface PeerCheck
    {
        void check(int rank, String node, int other, String route);
    }

    /** Runs {@code check} on every peer of every rank's peer line; there must be four lines. */
    private static void assertPeers(final Run run, final PeerCheck check)
    {
        final Matcher m = PEERS.matcher(run.stderr());
        int lines = 0;
        while (m.find())
        {
            lines++;
            final int rank = Integer.parseInt(m.group(1));
            for (final String peer : m.group(3).trim().split(" "))
            {
                check.check(rank, m.group(2), Integer.parseInt(peer.split("=")[0]), peer.split("=")[1]);
            }
        }
        assertEquals(4, lines, run.stderr());
    }

    @Test
    void shouldEndTheJobWithinFiveSecondsWhenARemoteRankIsKilled() throws Exception
    {
        final Set<String> before = shmFiles();
        // rank 3 is on host B; it kills itself with kill -9 while the others wait to receive from it
        final Run run = jmpirun("hosts-kill-9", job(2, false, "org.jmpi.examples.KillOneRank", "3"));
        assertNotEquals(0, run.exitCode(), run.all());
        assertTrue(run.stderr().contains("jmpirun: rank 3 (pid ") && run.stderr().contains("on " + hosts.hostB + ") killed by signal 9"),
            run.stderr());
        final Matcher m = Pattern.compile("kills itself at (\\d+)").matcher(run.stdout());
        assertTrue(m.find(), run.all());
        final long afterKillMs = run.endEpochMillis() - Long.parseLong(m.group(1));
        assertTrue(afterKillMs < 5_000, "job ended " + afterKillMs + " ms after the kill");
        assertNoNewShmFiles(before);
        figure("kill-9 of a remote rank to jmpirun's exit: " + afterKillMs + " ms");
    }

    @Test
    void shouldEndTheJobWithinFiveSecondsWhenTheLinkGoesDownMidTransfer() throws Exception
    {
        final Set<String> before = shmFiles();
        final List<String> command = jmpirunCommand(job(1, false, StreamUntilStopped.class.getName()));
        Files.createDirectories(LOGS);
        final Process process = new ProcessBuilder(command).directory(HOME.toFile())
            .redirectError(LOGS.resolve("hosts-link-down.err").toFile()).redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")))
            .start();
        final StringBuilder stdout = new StringBuilder();
        long downAt = 0;
        try
        {
            final BufferedReader reader = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
            final CompletableFuture<Void> running = CompletableFuture.runAsync(() -> readUntilRunning(reader, stdout));
            running.get(120, TimeUnit.SECONDS);
            hosts.setLinkB(false);
            downAt = System.currentTimeMillis();
            if (!process.waitFor(30, TimeUnit.SECONDS))
            {
                fail("jmpirun still running 30 s after the link went down");
            }
        }
        finally
        {
            process.descendants().forEach(ProcessHandle::destroyForcibly);
            process.destroyForcibly();
            hosts.setLinkB(true);
        }
        final long endMs = System.currentTimeMillis() - downAt;
        final String stderr = Files.readString(LOGS.resolve("hosts-link-down.err"), StandardCharsets.UTF_8);
        assertNotEquals(0, process.exitValue(), stderr);
        assertTrue(stderr.contains("jmpirun: rank 1 (pid ") && stderr.contains("on " + hosts.hostB + ") lost: no heartbeat"), stderr);
        assertTrue(endMs < 5_000, "job ended " + endMs + " ms after the link went down:\n" + stderr);
        assertNoNewShmFiles(before);
        figure("link down mid-transfer to jmpirun's exit: " + endMs + " ms");
    }

    private static void readUntilRunning(final BufferedReader reader, final StringBuilder stdout)
    {
        try
        {
            String line;
            while ((line = reader.readLine()) != null)
            {
                stdout.append(line).append('\n');
                if (line.startsWith("stream: running"))
                {
                    return;
                }
            }
            throw new IllegalStateException("jmpirun ended before the stream ran:\n" + stdout);
        }
        catch (final IOException ex)
        {
            throw new IllegalStateException(ex);
        }
    }

    /** {@code --host A:n,B:n --launch-agent 'ip netns exec' [--threads --npernode n] ... main args}. */
    private static List<String> job(final int perHost, final boolean threads, final String main, final String... args)
    {
        final List<String> all = new ArrayList<>(List.of("--host", hosts.hostA + ":" + perHost + "," + hosts.hostB + ":" + perHost,
            "--launch-agent", "ip netns exec", "--param", "transports.show=true", "--param", "shm.dir=" + SHM_DIR, "--timeout", "150"));
        if (threads)
        {
            all.addAll(List.of("--threads", "--npernode", Integer.toString(perHost)));
        }
        all.addAll(List.of("-cp", CLASSES, main));
        all.addAll(Arrays.asList(args));
        return all;
    }

    /** jmpirun itself runs in host A, as it would on a cluster's first node. */
    private static List<String> jmpirunCommand(final List<String> args)
    {
        final List<String> command = new ArrayList<>(List.of("ip", "netns", "exec", hosts.hostA, HOME.resolve("bin/jmpirun").toString()));
        command.addAll(args);
        return command;
    }

    private static Run jmpirun(final String logName, final List<String> args) throws IOException, InterruptedException
    {
        Files.createDirectories(LOGS);
        final Path out = LOGS.resolve(logName + ".out");
        final Path err = LOGS.resolve(logName + ".err");
        final long start = System.nanoTime();
        final Process p = new ProcessBuilder(jmpirunCommand(args)).directory(HOME.toFile())
            .redirectOutput(out.toFile()).redirectError(err.toFile()).redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")))
            .start();
        if (!p.waitFor(200, TimeUnit.SECONDS))
        {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
            fail("jmpirun " + String.join(" ", args) + " did not finish in 200 s; output in " + out.toAbsolutePath());
        }
        final long endEpoch = System.currentTimeMillis();
        figure(logName + ": " + TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start) + " ms");
        return new Run(p.exitValue(), Files.readString(out, StandardCharsets.UTF_8), Files.readString(err, StandardCharsets.UTF_8), endEpoch);
    }

    /** Every rank's peer line: same host (rank / perHost) shm, else tcp; node names are the hosts given. */
    private static void assertRoutes(final Run run, final int size, final int perHost)
    {
        final Matcher m = PEERS.matcher(run.stderr());
        final Set<Integer> seen = new HashSet<>();
        while (m.find())
        {
            final int rank = Integer.parseInt(m.group(1));
            seen.add(rank);
            assertEquals(rank / perHost == 0 ? hosts.hostA : hosts.hostB, m.group(2), run.stderr());
            for (final String peer : m.group(3).trim().split(" "))
            {
                final int other = Integer.parseInt(peer.split("=")[0]);
                final String expected = other == rank ? "jvm" : other / perHost == rank / perHost ? "shm" : "tcp";
                assertEquals(expected, peer.split("=")[1], "rank " + rank + " to " + other + ":\n" + run.stderr());
            }
        }
        assertEquals(size, seen.size(), "one peer line per rank:\n" + run.stderr());
    }

    private static void assertOk(final Run run)
    {
        assertEquals(0, run.exitCode(), run.all());
        assertFalse(run.stderr().contains("Exception"), run.stderr());
    }

    private static Set<String> shmFiles() throws IOException
    {
        try (Stream<Path> files = Files.list(SHM_DIR))
        {
            return files.map(f -> f.getFileName().toString()).collect(Collectors.toSet());
        }
    }

    private static void assertNoNewShmFiles(final Set<String> before) throws IOException
    {
        final Set<String> after = shmFiles();
        after.removeAll(before);
        assertTrue(after.isEmpty(), "shared-memory files left behind: " + after);
    }

    private static void figure(final String line) throws IOException
    {
        Files.createDirectories(LOGS);
        Files.writeString(LOGS.resolve("hosts.figures"), line + "\n", StandardCharsets.UTF_8,
            java.nio.file.StandardOpenOption.CREATE, java.nio.file.StandardOpenOption.APPEND);
    }
}
