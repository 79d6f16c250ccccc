package org.jmpi.launcher.it;

import org.jmpi.launcher.it.SlurmCluster.Run;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * jmpi across two Slurm nodes: a private cluster ({@link SlurmCluster} with two nodes, {@code jn1} and {@code jn2},
 * each a network namespace with its own address, host name and slurmd; slurmctld and the commands on {@code jn1})
 * runs 2 nodes x 2 tasks started by {@code srun --mpi=pmi2} and by srun without PMI, {@code jmpirun} inside
 * {@code salloc -N 2}, the hybrid {@code jmpirun --threads --npernode 2} (one JVM per node, two rank threads each),
 * and a rank on the second node killed with {@code kill -9}. Every job checks from {@code transports.show} that
 * ranks of one node use shared memory (or in-JVM) and ranks of different nodes tcp. Needs root (skipped otherwise).
 */
@Timeout(value = 15, unit = TimeUnit.MINUTES)
class SlurmTwoNodeIT
{
    private static final long JOB_LIMIT_MS = 240_000;
    private static SlurmCluster slurm;

    @BeforeAll
    static void startSlurm() throws IOException, InterruptedException
    {
        slurm = SlurmCluster.start(2);
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
    void shouldRunTwoNodesTimesTwoTasksStartedBySrunWithPmi2() throws IOException, InterruptedException
    {
        final Run run = srun("slurm2-srun-pmi2", "--mpi=pmi2", List.of(), "ring");
        assertEquals(0, run.exitCode(), run.toString());
        assertTwoByTwo(run, "shm");
    }

    @Test
    void shouldRunTwoNodesTimesTwoTasksStartedBySrunThroughTheMungeRendezvous() throws IOException, InterruptedException
    {
        final Run run = srun("slurm2-srun-munge", "--mpi=none",
            List.of("-Djmpi.slurm.munge.socket=" + slurm.state.resolve("munge/munge.socket")), "ring");
        assertEquals(0, run.exitCode(), run.toString());
        assertTwoByTwo(run, "shm");
    }

    @Test
    void shouldRunJmpirunInsideAnAllocationOfTwoNodes() throws IOException, InterruptedException
    {
        final Run run = slurm.login("slurm2-salloc-jmpirun", Map.of(), JOB_LIMIT_MS, "salloc", "-N", "2", "--ntasks-per-node=2",
            "--time=5", Jmpirun.SCRIPT.toString(), "--tag-output", "--param", "transports.show=true", "-cp", Jmpirun.TEST_CLASSES,
            SlurmProgram.class.getName());
        assertEquals(0, run.exitCode(), run.toString());
        assertTwoByTwo(run, "shm");
        assertTrue(run.stdout().contains("3: slurm-program: rank 3 of 4 on jn2"), "--tag-output became srun's --label: " + run);
    }

    /** The hybrid layout across nodes: one srun task per node, each a JVM running two ranks as threads. */
    @Test
    void shouldRunAHybridJobWithTwoRankThreadsOnEachOfTwoNodes() throws IOException, InterruptedException
    {
        final Run run = slurm.login("slurm2-salloc-jmpirun-threads", Map.of(), JOB_LIMIT_MS, "salloc", "-N", "2", "--time=5",
            Jmpirun.SCRIPT.toString(), "--threads", "--npernode", "2", "--param", "transports.show=true", "-cp", Jmpirun.TEST_CLASSES,
            SlurmProgram.class.getName());
        assertEquals(0, run.exitCode(), run.toString());
        assertTwoByTwo(run, "jvm");
    }

    @Test
    void shouldEndTheStepWhenARankOnTheOtherNodeIsKilled() throws IOException, InterruptedException
    {
        final Run run = srun("slurm2-srun-kill", "--mpi=pmi2", List.of(), "kill");
        assertNotEquals(0, run.exitCode(), run.toString());
        assertTrue(run.stdout().contains("rank 2 kills itself"), run.toString());
        assertTrue(!run.stdout().contains(" ok"), "no rank may complete after rank 2 died: " + run);
        assertTrue(run.elapsedMs() < 90_000, "the step ends soon after the kill: " + run);
    }

    /**
     * Ranks 0 and 1 on jn1, 2 and 3 on jn2 (block placement), every rank done, and each rank's peers by the
     * transport {@code transports.show} printed: {@code within} (shm or jvm) on its node, tcp to the other.
     */
    private static void assertTwoByTwo(final Run run, final String within)
    {
        SlurmCluster.assertRanksOk(4, run);
        for (int rank = 0; rank < 4; rank++)
        {
            final String node = rank < 2 ? "jn1" : "jn2";
            assertTrue(run.stdout().contains("slurm-program: rank " + rank + " of 4 on " + node), "rank " + rank + " on " + node + ": " + run);
            final String peers = rank < 2
                ? (rank == 0 ? "0=jvm 1=" + within : "0=" + within + " 1=jvm") + " 2=tcp 3=tcp"
                : "0=tcp 1=tcp " + (rank == 2 ? "2=jvm 3=" + within : "2=" + within + " 3=jvm");
            assertTrue(run.stderr().contains("jmpi: rank " + rank + " on node " + node + ": peers " + peers),
                "rank " + rank + " reaches its node's rank by " + within + " and the other node's by tcp: " + run);
        }
    }

    private static Run srun(final String name, final String mpi, final List<String> jvmArgs, final String mode)
        throws IOException, InterruptedException
    {
        final List<String> command = new ArrayList<>(List.of("srun", mpi, "--kill-on-bad-exit=1", "--nodes=2", "--ntasks-per-node=2",
            "--time=5"));
        final List<String> args = new ArrayList<>(jvmArgs);
        args.add("-Djmpi.transports.show=true");
        command.addAll(SlurmCluster.rankJava(args, SlurmProgram.class.getName(), mode));
        return slurm.login(name, Map.of(), JOB_LIMIT_MS, command.toArray(String[]::new));
    }
}
