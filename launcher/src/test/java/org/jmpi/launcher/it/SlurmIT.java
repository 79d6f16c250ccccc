package org.jmpi.launcher.it;

import org.jmpi.launcher.it.SlurmCluster.Run;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
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
 * packages, installed when missing; {@link SlurmCluster}) started in a temporary directory with ports of its
 * own, stopped after. Runs 4-rank jobs with
 * {@code srun --mpi=pmi2}, with srun without PMI (the MUNGE rendezvous), with {@code jmpirun} inside
 * {@code salloc}, the documented batch script through {@code sbatch}, and a rank killed with {@code kill -9}
 * under {@code --kill-on-bad-exit}. Needs root (skipped otherwise, with the reason). Logs: target/it-logs/slurm-*.
 * Jobs across two nodes: {@link SlurmTwoNodeIT}.
 */
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class SlurmIT
{
    private static final long JOB_LIMIT_MS = 180_000;
    private static SlurmCluster slurm;

    @BeforeAll
    static void startSlurm() throws IOException, InterruptedException
    {
        slurm = SlurmCluster.start(1);
    }

    @AfterAll
    static void stopSlurm() throws IOException, InterruptedException
    {
        if (slurm != null)
        {
            slurm.stop();
        }
    }

    @Test
    void shouldRunFourRanksStartedBySrunWithPmi2() throws IOException, InterruptedException
    {
        final Run run = srun("slurm-srun-pmi2", "--mpi=pmi2", List.of("-Djmpi.transports.show=true"), "ring");
        assertEquals(0, run.exitCode(), run.toString());
        SlurmCluster.assertRanksOk(4, run);
        assertTrue(run.stderr().contains("jmpi: rank 0 on node ") && run.stderr().contains("1=shm 2=shm 3=shm"),
            "ranks of one Slurm node use shared memory: " + run);
    }

    @Test
    void shouldRunFourRanksStartedBySrunWithoutPmiThroughTheMungeRendezvous() throws IOException, InterruptedException
    {
        final Run run = srun("slurm-srun-munge", "--mpi=none",
            List.of("-Djmpi.slurm.munge.socket=" + slurm.state.resolve("munge/munge.socket")), "ring");
        assertEquals(0, run.exitCode(), run.toString());
        SlurmCluster.assertRanksOk(4, run);
    }

    @Test
    void shouldRunJmpirunInsideSallocWithSrun() throws IOException, InterruptedException
    {
        final Run run = slurm.login("slurm-salloc-jmpirun", Map.of(), JOB_LIMIT_MS, "salloc", "-n", "4", "--time=5",
            Jmpirun.SCRIPT.toString(), "--tag-output", "-cp", Jmpirun.TEST_CLASSES, SlurmProgram.class.getName());
        assertEquals(0, run.exitCode(), run.toString());
        SlurmCluster.assertRanksOk(4, run);
        assertTrue(run.stdout().contains("2: slurm-program: rank 2 of 4"), "--tag-output became srun's --label: " + run);
    }

    /**
     * A hybrid job under srun: one task (this cluster has one node) running the 4 ranks as threads, which find the
     * job through PMI-2 like ranks started by srun one per task.
     */
    @Test
    void shouldRunAHybridJobAsOneTaskPerNodeWithRanksAsThreads() throws IOException, InterruptedException
    {
        final Run run = slurm.login("slurm-salloc-jmpirun-threads", Map.of(), JOB_LIMIT_MS, "salloc", "-N", "1", "-n", "1", "--time=5",
            Jmpirun.SCRIPT.toString(), "--threads", "--npernode", "4", "--param", "transports.show=true", "-cp", Jmpirun.TEST_CLASSES,
            SlurmProgram.class.getName());
        assertEquals(0, run.exitCode(), run.toString());
        SlurmCluster.assertRanksOk(4, run);
        assertTrue(run.stderr().contains("jmpi: rank 0 on node ") && run.stderr().contains("1=jvm 2=jvm 3=jvm"),
            "the ranks are threads of one JVM: " + run);
    }

    @Test
    void shouldRunTheDocumentedBatchScript() throws IOException, InterruptedException
    {
        final Path output = slurm.state.resolve("batch-%j.out");
        final Path repo = Jmpirun.SCRIPT.getParent().getParent();
        final Run run = slurm.login("slurm-sbatch", Map.of("JMPI_HOME", repo.toString(),
                "APP_CP", Jmpirun.TEST_CLASSES, "APP_MAIN", SlurmProgram.class.getName()), JOB_LIMIT_MS,
            "sbatch", "--wait", "--output=" + output, SlurmCluster.SCRIPTS.resolve("example.sbatch").toString());
        assertEquals(0, run.exitCode(), run.toString());
        final String jobId = run.stdout().replaceAll("(?s).*Submitted batch job (\\d+).*", "$1").strip();
        final String batchOut = Files.readString(slurm.state.resolve("batch-" + jobId + ".out"));
        SlurmCluster.assertRanksOk(4, new Run(0, batchOut, "", 0));
    }

    @Test
    void shouldEndTheStepWhenARankIsKilled() throws IOException, InterruptedException
    {
        final Run run = srun("slurm-srun-kill", "--mpi=pmi2", List.of(), "kill");
        assertNotEquals(0, run.exitCode(), run.toString());
        assertTrue(run.stdout().contains("rank 2 kills itself"), run.toString());
        assertTrue(!run.stdout().contains(" ok"), "no rank may complete after rank 2 died: " + run);
        assertTrue(run.elapsedMs() < 60_000, "the step ends soon after the kill: " + run);
    }

    private static Run srun(final String name, final String mpi, final List<String> jvmArgs, final String mode)
        throws IOException, InterruptedException
    {
        final List<String> command = new ArrayList<>(List.of("srun", mpi, "--kill-on-bad-exit=1", "--ntasks=4", "--time=5"));
        command.addAll(SlurmCluster.rankJava(jvmArgs, SlurmProgram.class.getName(), mode));
        return slurm.login(name, Map.of(), JOB_LIMIT_MS, command.toArray(String[]::new));
    }
}
