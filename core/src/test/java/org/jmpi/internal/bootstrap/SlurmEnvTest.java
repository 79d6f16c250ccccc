package org.jmpi.internal.bootstrap;

import org.jmpi.MpiException;
import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SlurmEnvTest
{
    @Test
    void shouldExpandSlurmHostListsKeepingZeroPadding()
    {
        assertEquals(List.of("vm"), SlurmEnv.expandHostList("vm"));
        assertEquals(List.of("n01", "n02", "n03", "n07", "gpu3"), SlurmEnv.expandHostList("n[01-03,07],gpu3"));
        assertEquals(List.of("a1b1", "a1b2", "a2b1", "a2b2"), SlurmEnv.expandHostList("a[1-2]b[1-2]"));
        assertEquals(List.of("x-9", "x-10"), SlurmEnv.expandHostList("x-[9-10]"));
        assertEquals(List.of("n098", "n099", "n100"), SlurmEnv.expandHostList("n[098-100]"));
    }

    @Test
    void shouldRefuseMalformedHostLists()
    {
        assertThrows(MpiException.class, () -> SlurmEnv.expandHostList("n[1-3"));
        assertThrows(MpiException.class, () -> SlurmEnv.expandHostList("n1-3]"));
        assertThrows(MpiException.class, () -> SlurmEnv.expandHostList("n[3-1]"));
        assertThrows(MpiException.class, () -> SlurmEnv.expandHostList("n[a-b]"));
        assertThrows(MpiException.class, () -> SlurmEnv.expandHostList("n[1-999999999]"));
    }

    private static Map<String, String> step()
    {
        final Map<String, String> env = new HashMap<>();
        env.put("SLURM_JOB_ID", "42");
        env.put("SLURM_STEP_ID", "3");
        env.put("SLURM_PROCID", "2");
        env.put("SLURM_STEP_NUM_TASKS", "4");
        env.put("SLURM_STEP_NODELIST", "n[1-2]");
        env.put("SLURMD_NODENAME", "n2");
        return env;
    }

    @Test
    void shouldReadATasksPlaceInItsStep()
    {
        final Map<String, String> env = step();
        env.put("PMI_FD", "11");
        env.put("PMI_JOBID", "42.3");
        env.put("SLURM_STEP_RESV_PORTS", "12000-12002,12010");
        final SlurmEnv slurm = SlurmEnv.from(env);
        assertEquals(2, slurm.rank());
        assertEquals(4, slurm.size());
        assertEquals("slurm-42-3", slurm.jobId());
        assertTrue(BootstrapEnv.JOB_ID_PATTERN.matcher(slurm.jobId()).matches());
        assertEquals("n2", slurm.node());
        assertEquals(List.of("n1", "n2"), slurm.stepNodes());
        assertTrue(slurm.hasPmi());
        assertEquals(11, slurm.pmiFd());
        assertEquals(List.of(12000, 12001, 12002, 12010), slurm.reservedPorts());
    }

    @Test
    void shouldSeeNoStepOutsideSrunAndNoPmiWithoutADescriptor()
    {
        final Map<String, String> env = step();
        env.remove("SLURM_STEP_ID");
        assertNull(SlurmEnv.from(env), "an allocation's shell (salloc) is no step");
        assertNull(SlurmEnv.from(Map.of()));
        assertFalse(SlurmEnv.from(step()).hasPmi());
    }

    @Test
    void shouldRefuseARankOutsideTheStep()
    {
        final Map<String, String> env = step();
        env.put("SLURM_PROCID", "4");
        final MpiException ex = assertThrows(MpiException.class, () -> SlurmEnv.from(env));
        assertTrue(ex.getMessage().contains("SLURM_PROCID=4") && ex.getMessage().contains("SLURM_STEP_NUM_TASKS=4"), ex.getMessage());
        env.put("SLURM_PROCID", "x");
        assertThrows(MpiException.class, () -> SlurmEnv.from(env));
    }

    @Test
    void shouldDeriveTheSameRendezvousPortsOnEveryTaskAndPreferReservedOnes()
    {
        final SlurmEnv a = SlurmEnv.from(step());
        final Map<String, String> other = step();
        other.put("SLURM_PROCID", "0");
        final List<Integer> ports = SlurmKeyServer.candidatePorts(a, 41000, 48999);
        assertEquals(ports, SlurmKeyServer.candidatePorts(SlurmEnv.from(other), 41000, 48999));
        assertEquals(SlurmKeyServer.CANDIDATES, ports.size());
        assertTrue(ports.stream().allMatch(p -> p >= 41000 && p <= 48999), ports.toString());
        final Map<String, String> nextStep = step();
        nextStep.put("SLURM_STEP_ID", "4");
        assertFalse(ports.equals(SlurmKeyServer.candidatePorts(SlurmEnv.from(nextStep), 41000, 48999)));
        final Map<String, String> reserved = step();
        reserved.put("SLURM_STEP_RESV_PORTS", "12000-12009");
        assertEquals(List.of(12000, 12001, 12002, 12003), SlurmKeyServer.candidatePorts(SlurmEnv.from(reserved), 41000, 48999));
    }

    @Test
    void shouldKeepTheLeadingEndpointsThatFit()
    {
        assertEquals("a:1,b:2", SlurmBootstrap.fitting("a:1,b:2,c:3", 7));
        assertEquals("a:1", SlurmBootstrap.fitting("a:1", 1));
    }

    @Test
    void shouldDeriveDistinctTicketsPerRankAndJob()
    {
        final byte[] key = BootstrapAuth.newSecret();
        assertEquals(BootstrapAuth.SECRET_LENGTH, BootstrapAuth.derivedTicket(key, "slurm-1-0", 0).length);
        assertFalse(java.util.Arrays.equals(BootstrapAuth.derivedTicket(key, "slurm-1-0", 0), BootstrapAuth.derivedTicket(key, "slurm-1-0", 1)));
        assertFalse(java.util.Arrays.equals(BootstrapAuth.derivedTicket(key, "slurm-1-0", 0), BootstrapAuth.derivedTicket(key, "slurm-1-1", 0)));
        assertTrue(java.util.Arrays.equals(BootstrapAuth.derivedTicket(key, "slurm-1-0", 2), BootstrapAuth.derivedTicket(key, "slurm-1-0", 2)));
    }
}
