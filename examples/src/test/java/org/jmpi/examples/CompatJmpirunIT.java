package org.jmpi.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Compat programs (written against Open MPI's Java API only; compat's test classes) run by {@code bin/jmpirun},
 * with only the programs on {@code -cp}: the compat jar is on the ranks' class path by default. Ranks as JVMs and as threads ({@code --threads}, each rank its own class loader), at 2 and 8
 * ranks, judged by exit code as the hidden suites are (0 pass, 77 skip). Each run's output is kept under
 * target/it-logs.
 */
@Timeout(240)
class CompatJmpirunIT
{
    private static final Path HOME = Path.of(System.getProperty("jmpi.home", "..")).toAbsolutePath().normalize();
    private static final String CLASSPATH = System.getProperty("jmpi.compat.classpath", "../compat/target/test-classes");
    private static final Path LOGS = Path.of("target", "it-logs");

    private record Run(int exitCode, String output)
    {
    }

    private static Run jmpirun(final boolean threads, final int np, final String program, final String... args)
        throws IOException, InterruptedException
    {
        final List<String> rest = new ArrayList<>(List.of(program));
        rest.addAll(List.of(args));
        return jmpirunWith(threads, np, rest);
    }

    /** {@code optionsProgramAndArgs}: jmpirun options (those starting with "--" and their values), the program, its arguments. */
    private static Run jmpirunWith(final boolean threads, final int np, final List<String> optionsProgramAndArgs)
        throws IOException, InterruptedException
    {
        int next = 0;
        final List<String> options = new ArrayList<>();
        while (optionsProgramAndArgs.get(next).startsWith("--"))
        {
            options.add(optionsProgramAndArgs.get(next++));
            options.add(optionsProgramAndArgs.get(next++));
        }
        final String program = optionsProgramAndArgs.get(next);
        final List<String> args = optionsProgramAndArgs.subList(next + 1, optionsProgramAndArgs.size());
        final List<String> command = new ArrayList<>(List.of(HOME.resolve("bin/jmpirun").toString()));
        if (threads)
        {
            command.add("--threads");
        }
        command.addAll(options);
        command.addAll(List.of("-np", Integer.toString(np), "--timeout", "180", "-cp", CLASSPATH, "org.jmpi.compat.programs." + program));
        command.addAll(args);
        Files.createDirectories(LOGS);
        final Path log = LOGS.resolve(program + "-" + np + (threads ? "-threads" : "-jvms") + (args.isEmpty() ? "" : "-" + String.join("-", args).replaceAll("[^A-Za-z0-9]", "_")) + ".log");
        final Process p = new ProcessBuilder(command).directory(HOME.toFile()).redirectErrorStream(true)
            .redirectOutput(log.toFile()).redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null"))).start();
        if (!p.waitFor(200, TimeUnit.SECONDS))
        {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
            fail(String.join(" ", command) + " did not finish; output in " + log.toAbsolutePath());
        }
        return new Run(p.exitValue(), Files.readString(log, StandardCharsets.UTF_8));
    }

    @ParameterizedTest
    @CsvSource({"false, 2", "true, 2", "false, 8", "true, 8"})
    void shouldConnectEveryPair(final boolean threads, final int np) throws Exception
    {
        final Run run = jmpirun(threads, np, "Connectivity");
        assertEquals(0, run.exitCode(), run.output());
        assertTrue(run.output().contains("Connectivity test on " + np + " processes PASSED."), run.output());
    }

    @ParameterizedTest
    @CsvSource({"false, 8", "true, 8"})
    void shouldRunTheRingAndHello(final boolean threads, final int np) throws Exception
    {
        final Run ring = jmpirun(threads, np, "Ring", "4");
        assertEquals(0, ring.exitCode(), ring.output());
        for (int r = 0; r < np; r++)
        {
            assertTrue(ring.output().contains("ring: rank " + r + " exiting after " + (r == 0 ? 4 : 5) + " passes"), ring.output());
        }
        final Run hello = jmpirun(threads, np, "Hello");
        assertEquals(0, hello.exitCode(), hello.output());
        assertTrue(hello.output().contains("I am " + (np - 1) + " of " + np), hello.output());
    }

    @ParameterizedTest
    @CsvSource({"false, 2", "true, 2", "false, 4", "true, 4"})
    void shouldShareAFileBetweenRanks(final boolean threads, final int np) throws Exception
    {
        final Path file = Files.createTempDirectory("jmpi-io").resolve("stripes.dat");
        final Run run = jmpirun(threads, np, "FileStripes", file.toString());
        assertEquals(0, run.exitCode(), run.output());
        assertTrue(run.output().contains("FileStripes on " + np + " processes PASSED."), run.output());
        assertTrue(!Files.exists(file), "deleted on close");
        Files.delete(file.getParent());
    }

    /** Connect/accept between the two halves of one job, the port found through the name service (issue 13). */
    @ParameterizedTest
    @CsvSource({"false, 2", "true, 2", "false, 8", "true, 8"})
    void shouldConnectTwoGroupsThroughAPublishedPort(final boolean threads, final int np) throws Exception
    {
        final Run run = jmpirun(threads, np, "ClientServer");
        assertEquals(0, run.exitCode(), run.output());
        assertTrue(run.output().contains("ClientServer on " + np + " processes PASSED."), run.output());
    }

    /** MPI_Comm_spawn through jmpirun (issue 13): 2 parents start 2 children, exchange, merge and disconnect. */
    @ParameterizedTest
    @CsvSource({"single", "multiple"})
    void shouldSpawnChildrenThatTalkToTheirParents(final String how) throws Exception
    {
        final Run run = jmpirun(false, 2, "SpawnParent", how);
        assertEquals(0, run.exitCode(), run.output());
        assertTrue(run.output().contains("SpawnParent on 2 processes PASSED."), run.output());
        assertTrue(run.output().contains("SpawnChild world of 2 done."), run.output());
    }

    /** Spawn errors: no such class, maxprocs 0, another host (every rank alike); with ranks as threads ERR_SPAWN throughout. */
    @ParameterizedTest
    @CsvSource({"false", "true"})
    void shouldFailBadSpawnsOnEveryRank(final boolean threads) throws Exception
    {
        final Run failures = jmpirun(threads, 2, "SpawnFailures");
        assertEquals(0, failures.exitCode(), failures.output());
        assertTrue(failures.output().contains("SpawnFailures on 2 processes PASSED."), failures.output());
    }

    /** A spawned child that exits with 3 ends the whole job with 3, as a rank does. */
    @org.junit.jupiter.api.Test
    void shouldEndTheJobWhenAChildDies() throws Exception
    {
        final Run dies = jmpirun(false, 2, "SpawnFailures", "die");
        assertEquals(3, dies.exitCode(), dies.output());
        assertTrue(dies.output().contains("spawned rank 0 of job"), dies.output());
    }

    /** Two jmpirun jobs meet through a name both see (jmpi.dyn.names) and connect/accept (issue 13). */
    @ParameterizedTest
    @CsvSource({"2, 2", "3, 1"})
    void shouldConnectTwoJobsThroughAPublishedName(final int servers, final int clients) throws Exception
    {
        final Path names = Files.createTempDirectory("jmpi-names");
        final java.util.concurrent.CompletableFuture<Run> server = java.util.concurrent.CompletableFuture.supplyAsync(() ->
            jmpirunQuietly(servers, "--param", "dyn.names=" + names, "TwoJobs", "server"));
        final Run client = jmpirunQuietly(clients, "--param", "dyn.names=" + names, "TwoJobs", "client");
        final Run served = server.get(220, TimeUnit.SECONDS);
        assertEquals(0, served.exitCode(), served.output());
        assertEquals(0, client.exitCode(), client.output());
        assertTrue(served.output().contains("TwoJobs server on " + servers + " processes PASSED."), served.output());
        assertTrue(client.output().contains("TwoJobs client on " + clients + " processes PASSED."), client.output());
        try (java.util.stream.Stream<Path> left = Files.list(names))
        {
            assertEquals(0, left.count(), "the name is unpublished");
        }
        Files.delete(names);
    }

    private static Run jmpirunQuietly(final int np, final String... optionsProgramAndArgs)
    {
        try
        {
            return jmpirunWith(false, np, List.of(optionsProgramAndArgs));
        }
        catch (final IOException | InterruptedException ex)
        {
            throw new IllegalStateException(ex);
        }
    }

    @ParameterizedTest
    @CsvSource({"false", "true"})
    void shouldEndTheJobWithTheProgramsExitCodeOrAbortCode(final boolean threads) throws Exception
    {
        assertEquals(77, jmpirun(threads, 2, "Skip").exitCode());
        final Run abort = jmpirun(threads, 2, "Abort", "5");
        assertEquals(5, abort.exitCode(), abort.output());
    }
}
