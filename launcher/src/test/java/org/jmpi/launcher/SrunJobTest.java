package org.jmpi.launcher;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SrunJobTest
{
    private static final Map<String, String> ALLOCATION = Map.of("SLURM_JOB_ID", "17", "SLURM_NTASKS", "6", "SLURM_JOB_NUM_NODES", "2");

    @Test
    void shouldStartTheRanksWithOneSrunInsideAnAllocation() throws UsageException
    {
        final LaunchOptions options = LaunchOptions.parse(new String[] {"--tag-output", "--map-by", "node", "--param", "eager.limit=8k",
            "-cp", "app.jar", "Main", "x"}, ALLOCATION);
        assertNotNull(options.srun());
        assertEquals(6, options.rankCount(), "-np defaults to SLURM_NTASKS");
        final List<String> command = new SrunJob(options, ALLOCATION, null, List.of("/opt/jmpi/lib/a.jar")).command();
        assertEquals(List.of("srun", "--mpi=pmi2", "--kill-on-bad-exit=1", "--input=0", "--ntasks=6", "--distribution=cyclic", "--label"),
            command.subList(0, 7));
        assertTrue(command.get(7).endsWith("/bin/java"), command.toString());
        assertTrue(command.contains("-Djmpi.eager.limit=8k"), command.toString());
        assertEquals(List.of("-cp", "/opt/jmpi/lib/a.jar:app.jar", "Main", "x"), command.subList(command.size() - 4, command.size()));
    }

    @Test
    void shouldMapNpernodeAndOversubscribeOntoSrun() throws UsageException
    {
        final LaunchOptions options = LaunchOptions.parse(new String[] {"--npernode", "3", "--oversubscribe", "-cp", "c", "Main"}, ALLOCATION);
        assertEquals(6, options.rankCount(), "--npernode times SLURM_JOB_NUM_NODES");
        final List<String> command = new SrunJob(options, ALLOCATION, null, List.of()).command();
        assertTrue(command.containsAll(List.of("--ntasks=6", "--ntasks-per-node=3", "--distribution=block", "--overcommit")), command.toString());
    }

    @Test
    void shouldRunLocallyWithHostsLocalLauncherOrThreadsOrOutsideAnAllocation() throws UsageException
    {
        assertNull(LaunchOptions.parse(new String[] {"-np", "2", "--launcher", "local", "-cp", "c", "Main"}, ALLOCATION).srun());
        assertNull(LaunchOptions.parse(new String[] {"-np", "2", "--threads", "-cp", "c", "Main"}, ALLOCATION).srun());
        assertNull(LaunchOptions.parse(new String[] {"--host", "a,b", "-cp", "c", "Main"}, ALLOCATION).srun());
        assertNull(LaunchOptions.parse(new String[] {"-np", "2", "-cp", "c", "Main"}, Map.of()).srun());
        final UsageException outside = assertThrows(UsageException.class,
            () -> LaunchOptions.parse(new String[] {"-np", "2", "--launcher", "srun", "-cp", "c", "Main"}, Map.of()));
        assertTrue(outside.getMessage().contains("allocation"), outside.getMessage());
        assertThrows(UsageException.class, () -> LaunchOptions.parse(new String[] {"--threads", "--launcher", "srun", "-cp", "c", "Main"},
            ALLOCATION));
        assertThrows(UsageException.class, () -> LaunchOptions.parse(new String[] {"--launcher", "slurm", "-cp", "c", "Main"}, ALLOCATION));
    }

    @Test
    void shouldStartAHybridJobAsOneTaskPerNodeWithThreads() throws UsageException
    {
        final LaunchOptions options = LaunchOptions.parse(new String[] {"--threads", "--npernode", "4", "--tag-output", "-cp", "app.jar",
            "Main", "x"}, ALLOCATION);
        assertNotNull(options.srun());
        assertTrue(options.srun().threads());
        assertEquals(8, options.rankCount(), "--npernode times SLURM_JOB_NUM_NODES");
        final List<String> command = new SrunJob(options, ALLOCATION, null, List.of("/opt/jmpi/lib/a.jar")).command();
        assertEquals(List.of("srun", "--mpi=pmi2", "--kill-on-bad-exit=1", "--input=0", "--ntasks=2", "--nodes=2", "--ntasks-per-node=1",
            "--label"), command.subList(0, 8));
        assertEquals(List.of("-cp", "/opt/jmpi/lib/a.jar", HostJob.class.getName(), "app.jar", "Main", "x"),
            command.subList(command.size() - 6, command.size()));
        final UsageException uneven = assertThrows(UsageException.class,
            () -> LaunchOptions.parse(new String[] {"-np", "6", "--threads", "--npernode", "4", "-cp", "c", "Main"}, ALLOCATION));
        assertTrue(uneven.getMessage().contains("multiple of --npernode 4"), uneven.getMessage());
        final UsageException noPerNode = assertThrows(UsageException.class,
            () -> LaunchOptions.parse(new String[] {"--threads", "--launcher", "srun", "-cp", "c", "Main"}, ALLOCATION));
        assertTrue(noPerNode.getMessage().contains("--npernode K"), noPerNode.getMessage());
    }

    @Test
    void shouldCountTheRanksOfAnAllocationFromSlurmsVariables()
    {
        assertEquals(7, SrunJob.allocationRanks(Map.of("SLURM_TASKS_PER_NODE", "2(x3),1"), 0));
        assertEquals(8, SrunJob.allocationRanks(Map.of("SLURM_NNODES", "2", "SLURM_NTASKS", "3"), 4));
        assertEquals(3, SrunJob.allocationRanks(Map.of("SLURM_NTASKS", "3"), 0));
        assertEquals(-1, SrunJob.allocationRanks(Map.of(), 0));
        assertEquals(-1, SrunJob.allocationRanks(Map.of("SLURM_TASKS_PER_NODE", "2(x"), 0));
    }
}
