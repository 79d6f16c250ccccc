package org.jmpi.launcher;

import java.util.List;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

class CpuBindingTest
{
    @Test
    void shouldParseLinuxCpuLists()
    {
        assertArrayEquals(new int[] {0, 1, 2, 3, 8, 10, 11}, CpuBinding.parseList("0-3,8,10-11"));
        assertArrayEquals(new int[] {5}, CpuBinding.parseList("5"));
        assertArrayEquals(new int[0], CpuBinding.parseList(""));
        assertArrayEquals(new int[0], CpuBinding.parseList("3-1"), "a reversed range is malformed");
        assertArrayEquals(new int[0], CpuBinding.parseList("a-b"));
    }

    @Test
    void shouldBindByDefaultOnlyWhenTheRanksFitTheCpus()
    {
        final int[] allowed = {2, 3};
        assertArrayEquals(new int[] {2, 3}, CpuBinding.plan(CpuBinding.AUTO, 2, allowed));
        assertArrayEquals(new int[] {2}, CpuBinding.plan(CpuBinding.AUTO, 1, allowed));
        assertArrayEquals(new int[] {-1, -1, -1, -1}, CpuBinding.plan(CpuBinding.AUTO, 4, allowed), "oversubscribed: unbound");
        assertArrayEquals(new int[] {2, 3, 2}, CpuBinding.plan(CpuBinding.CORE, 3, allowed), "core binds round robin");
        assertArrayEquals(new int[] {-1, -1}, CpuBinding.plan(CpuBinding.NONE, 2, allowed));
        assertArrayEquals(new int[] {-1}, CpuBinding.plan(CpuBinding.CORE, 1, new int[0]), "unknown CPUs: unbound");
    }

    @Test
    void shouldStartTheJvmUnderTasksetSeeingEveryAllowedCpu()
    {
        final List<String> command = List.of("/jdk/bin/java", "-Xmx1g", "-cp", "x", "Main");
        assertEquals(List.of("/usr/bin/taskset", "-c", "3", "/jdk/bin/java", "-XX:ActiveProcessorCount=4", "-Xmx1g", "-cp", "x", "Main"),
            CpuBinding.bound(command, 3, 4, "/usr/bin/taskset"));
        assertSame(command, CpuBinding.bound(command, -1, 4, "/usr/bin/taskset"));
        assertSame(command, CpuBinding.bound(command, 3, 4, null), "no taskset: unbound");
    }

    @Test
    void shouldRejectAnUnknownMode()
    {
        final UsageException ex = assertThrows(UsageException.class, () -> CpuBinding.parseMode("socket"));
        assertEquals("--bind-to takes core or none, got socket", ex.getMessage());
    }
}
