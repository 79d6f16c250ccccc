package org.jmpi.launcher.it;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.File;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * jmpi under a real Slurm: a private single-host cluster (munged, slurmctld and slurmd from Debian's
 * packages, installed when missing) started by {@code src/test/slurm/slurm-up.sh} in a temporary
 * directory with ports of its own, stopped by {@code slurm-down.sh} after. Runs 4-rank jobs with
 * {@code srun --mpi=pmi2}, with srun without PMI (the MUNGE rendezvous), with {@code jmpirun} inside
 * {@code salloc}, the documented batch script through {@code sbatch}, and a rank killed with {@code kill -9}
 * under {@code --kill-on-bad-exit}. Needs root (skipped otherwise, with the reason). Logs: target/it-logs/slurm-*.
 */
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class SlurmIT
{
    private static final Path SLURM_SCRIPTS = Path.of("src/test/slurm").toAbsolutePath();
    private static final long JOB_LIMIT_MS = 180_000;
    private static Path state;
    private static Map<String, String> slurmEnv;

    @BeforeAll
    static void startSlurm() throws IOException, InterruptedException
    {
        Assumptions.assumeTrue(System.getProperty("os.name").toLowerCase().contains("linux"), "Slurm tests need Linux");
        Assumptions.assumeTrue("root".equals(System.getProperty("user.name")), "Slurm tests need root (slurmd, munged); running as " +
            System.getProperty("user.name"));
        state = Files.createTempDirectory("jmpi-slurm-");
        final int port = freePortPair();
        final Run up = exec("slurm-up", Map.of(), 300_000, SLURM_SCRIPTS.resolve("slurm-up.sh").toString(), state.toString(),
            Integer.toString(port));
        Assumptions.assumeTrue(up.exitCode != 3, "Slurm tests need slurm-wlm and munge, which could not be installed: " + up.stderr);
        assertEquals(0, up.exitCode, "slurm-up.sh failed: " + up);
        slurmEnv = Map.of("SLURM_CONF", state.resolve("slurm.conf").toString());
    }

    @AfterAll
    static void stopSlurm() throws IOException, InterruptedException
    {
        if (state != null)
        {
            exec("slurm-down", Map.of(), 60_000, SLURM_SCRIPTS.resolve("slurm-down.sh").toString(), state.toString());
            final Path logs = Jmpirun.LOG_DIR.resolve("slurm-daemons");
            Files.createDirectories(logs);
            try (var files = Files.list(state.resolve("log")))
            {
                for (final Path log : files.toList())
                {
                    Files.copy(log, logs.resolve(log.getFileName()), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
                }
            }
            exec("slurm-rm", Map.of(), 60_000, "rm", "-rf", state.toString());
        }
    }

    @Test
    void shouldRunFourRanksStartedBySrunWithPmi2() throws IOException, InterruptedException
    {
        final Run run = srun("slurm-srun-pmi2", "--mpi=pmi2", List.of("-Djmpi.transports.show=true"), "ring");
        assertEquals(0, run.exitCode, run.toString());
        assertFourRanksOk(run);
        assertTrue(run.stderr.contains("jmpi: rank 0 on node ") && run.stderr.contains("1=shm 2=shm 3=shm"),
            "ranks of one Slurm node use shared memory: " + run);
    }

    @Test
    void shouldRunFourRanksStartedBySrunWithoutPmiThroughTheMungeRendezvous() throws IOException, InterruptedException
    {
        final Run run = srun("slurm-srun-munge", "--mpi=none",
            List.of("-Djmpi.slurm.munge.socket=" + state.resolve("munge/munge.socket")), "ring");
        assertEquals(0, run.exitCode, run.toString());
        assertFourRanksOk(run);
    }

    @Test
    void shouldRunJmpirunInsideSallocWithSrun() throws IOException, InterruptedException
    {
        final Run run = exec("slurm-salloc-jmpirun", slurmEnv, JOB_LIMIT_MS, "salloc", "-n", "4", "--time=5",
            Jmpirun.SCRIPT.toString(), "--tag-output", "-cp", Jmpirun.TEST_CLASSES, SlurmProgram.class.getName());
        assertEquals(0, run.exitCode, run.toString());
        assertFourRanksOk(run);
        assertTrue(run.stdout.contains("2: slurm-program: rank 2 of 4"), "--tag-output became srun's --label: " + run);
    }

    /**
     * A hybrid job under srun: one task (this cluster has one node) running the 4 ranks as threads, which find the
     * job through PMI-2 like ranks started by srun one per task.
     */
    @Test
    void shouldRunAHybridJobAsOneTaskPerNodeWithRanksAsThreads() throws IOException, InterruptedException
    {
        final Run run = exec("slurm-salloc-jmpirun-threads", slurmEnv, JOB_LIMIT_MS, "salloc", "-N", "1", "-n", "1", "--time=5",
            Jmpirun.SCRIPT.toString(), "--threads", "--npernode", "4", "--param", "transports.show=true", "-cp", Jmpirun.TEST_CLASSES,
            SlurmProgram.class.getName());
        assertEquals(0, run.exitCode, run.toString());
        assertFourRanksOk(run);
        assertTrue(run.stderr.contains("jmpi: rank 0 on node ") && run.stderr.contains("1=jvm 2=jvm 3=jvm"),
            "the ranks are threads of one JVM: " + run);
    }

    @Test
    void shouldRunTheDocumentedBatchScript() throws IOException, InterruptedException
    {
        final Path output = state.resolve("batch-%j.out");
        final Path repo = Jmpirun.SCRIPT.getParent().getParent();
        final Run run = exec("slurm-sbatch", Map.of("SLURM_CONF", slurmEnv.get("SLURM_CONF"), "JMPI_HOME", repo.toString(),
                "APP_CP", Jmpirun.TEST_CLASSES, "APP_MAIN", SlurmProgram.class.getName()), JOB_LIMIT_MS,
            "sbatch", "--wait", "--output=" + output, SLURM_SCRIPTS.resolve("example.sbatch").toString());
        assertEquals(0, run.exitCode, run.toString());
        final String jobId = run.stdout.replaceAll("(?s).*Submitted batch job (\\d+).*", "$1").strip();
        final String batchOut = Files.readString(state.resolve("batch-" + jobId + ".out"));
        assertFourRanksOk(new Run(0, batchOut, "", 0));
    }

    @Test
    void shouldEndTheStepWhenARankIsKilled() throws IOException, InterruptedException
    {
        final Run run = srun("slurm-srun-kill", "--mpi=pmi2", List.of(), "kill");
        assertNotEquals(0, run.exitCode, run.toString());
        assertTrue(run.stdout.contains("rank 2 kills itself"), run.toString());
        assertTrue(!run.stdout.contains(" ok"), "no rank may complete after rank 2 died: " + run);
        assertTrue(run.elapsedMs < 60_000, "the step ends soon after the kill: " + run);
    }

    private static void assertFourRanksOk(final Run run)
    {
        for (int rank = 0; rank < 4; rank++)
        {
            assertTrue(run.stdout.contains("slurm-program: rank " + rank + " of 4 on ") && run.stdout.contains("sum=6 ok"),
                "rank " + rank + " did not complete: " + run);
        }
    }

    private static Run srun(final String name, final String mpi, final List<String> jvmArgs, final String mode)
        throws IOException, InterruptedException
    {
        final List<String> command = new ArrayList<>(List.of("srun", mpi, "--kill-on-bad-exit=1", "--ntasks=4", "--time=5",
            Path.of(System.getProperty("java.home"), "bin", "java").toString(),
            "--add-exports", "java.base/jdk.internal.misc=ALL-UNNAMED", "--enable-native-access=ALL-UNNAMED"));
        command.addAll(jvmArgs);
        command.add("-cp");
        command.add(Jmpirun.TEST_CLASSES + File.pathSeparator + Path.of("target/classes").toAbsolutePath() + File.pathSeparator +
            Path.of("target/lib").toAbsolutePath() + File.separator + "*");
        command.add(SlurmProgram.class.getName());
        command.add(mode);
        return exec(name, slurmEnv, JOB_LIMIT_MS, command.toArray(String[]::new));
    }

    private record Run(int exitCode, String stdout, String stderr, long elapsedMs)
    {
        @Override
        public String toString()
        {
            return "exit=" + exitCode + " elapsedMs=" + elapsedMs + "\n--- stdout\n" + stdout + "--- stderr\n" + stderr;
        }
    }

    private static Run exec(final String name, final Map<String, String> env, final long limitMs, final String... command)
        throws IOException, InterruptedException
    {
        Files.createDirectories(Jmpirun.LOG_DIR);
        final Path out = Jmpirun.LOG_DIR.resolve(name + ".out");
        final Path err = Jmpirun.LOG_DIR.resolve(name + ".err");
        final ProcessBuilder builder = new ProcessBuilder(command).redirectOutput(out.toFile()).redirectError(err.toFile())
            .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
        builder.environment().putAll(env);
        final long start = System.nanoTime();
        final Process process = builder.start();
        if (!process.waitFor(limitMs, TimeUnit.MILLISECONDS))
        {
            process.descendants().forEach(ProcessHandle::destroyForcibly);
            process.destroyForcibly().waitFor();
            throw new AssertionError(name + ": " + String.join(" ", command) + " did not end within " + limitMs + " ms; output in " + out);
        }
        return new Run(process.exitValue(), Files.readString(out, StandardCharsets.UTF_8), Files.readString(err, StandardCharsets.UTF_8),
            TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start));
    }

    /** A port p with p + 1 free too (slurmctld and slurmd); best effort, like any ephemeral choice. */
    private static int freePortPair() throws IOException
    {
        for (int attempt = 0; attempt < 50; attempt++)
        {
            try (ServerSocket first = new ServerSocket(0))
            {
                final int port = first.getLocalPort();
                if (port < 65535)
                {
                    try (ServerSocket second = new ServerSocket(port + 1))
                    {
                        return port;
                    }
                    catch (final IOException ex)
                    {
                        // taken: try another
                    }
                }
            }
        }
        throw new IOException("no free pair of ports");
    }
}
