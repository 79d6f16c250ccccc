package org.jmpi.launcher.it;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** bin/jmpirun --threads: ranks as threads of the launcher's JVM, one class loader each. */
@Timeout(90)
class JmpiRunThreadsIT
{
    private static final String CP = Jmpirun.TEST_CLASSES;
    private static final String PKG = "org.jmpi.launcher.it.";

    @AfterEach
    void noStragglers()
    {
        assertEquals(0, Jmpirun.killStragglers(), "processes left behind");
    }

    @Test
    void shouldKeepStaticsPerRank() throws Exception
    {
        final Jmpirun.Result result = Jmpirun.run("threads-statics", "--threads", "-np", "4", "-cp", CP, PKG + "StaticCounterProgram");
        assertEquals(0, result.exitCode(), result::toString);
        for (int rank = 0; rank < 4; rank++)
        {
            assertTrue(result.stdoutLines().contains("rank " + rank + " counter=1 loader=jmpi-rank-" + rank), result::toString);
        }
    }

    @Test
    void shouldTagEachRankThreadsOutput() throws Exception
    {
        final Jmpirun.Result result = Jmpirun.run("threads-tag", "--threads", "--tag-output", "-np", "3", "-cp", CP,
            PKG + "PrintLinesProgram", "20");
        assertEquals(0, result.exitCode(), result::toString);
        for (int rank = 0; rank < 3; rank++)
        {
            for (int i = 0; i < 20; i++)
            {
                assertTrue(result.stdoutLines().contains("[" + rank + "] line " + i + " of rank " + rank), result::toString);
            }
            assertTrue(result.stdoutLines().contains("[" + rank + "] unterminated " + rank), result::toString);
            assertTrue(result.stderr().lines().toList().contains("[" + rank + "] err of rank " + rank), result::toString);
        }
        assertEquals(3 * 21, result.stdoutLines().size(), result::toString);
    }

    @Test
    void shouldFailJobWhenRankThrows() throws Exception
    {
        final Jmpirun.Result result = Jmpirun.run("threads-throw", "--threads", "-np", "3", "-cp", CP, PKG + "ThrowProgram", "1", "60000");
        assertEquals(1, result.exitCode(), result::toString);
        assertTrue(result.stderr().contains("jmpirun: rank 1 failed: java.lang.IllegalStateException: rank 1 fails on purpose"),
            result::toString);
        assertTrue(result.elapsedMs() < 15_000, "sleeping ranks are interrupted: " + result);
    }

    @Test
    void shouldPassParamsAndStdinToRank0() throws Exception
    {
        final Jmpirun.Result result = Jmpirun.run("threads-stdin", env -> { }, "one\ntwo\n", 60_000,
            List.of("--threads", "-np", "2", "-cp", CP, PKG + "StdinProgram"));
        assertEquals(0, result.exitCode(), result::toString);
        assertTrue(result.stdoutLines().contains("rank 0 lines=2"), result::toString);
        assertTrue(result.stdoutLines().contains("rank 1 lines=0"), result::toString);
    }

    @Test
    void shouldStopAndExit124OnTimeout() throws Exception
    {
        final Jmpirun.Result result = Jmpirun.run("threads-timeout", "--threads", "--timeout", "1", "-np", "2", "-cp", CP,
            PKG + "ExitProgram", "sleep=60000");
        assertEquals(124, result.exitCode(), result::toString);
        assertTrue(result.stderr().contains("jmpirun: job timed out"), result::toString);
    }

    @Test
    void shouldGiveParamsToTheJobAsExplicitValues() throws Exception
    {
        final Jmpirun.Result result = Jmpirun.run("threads-param", "--threads", "-np", "2", "--param", "eager.limit=8k", "-cp", CP,
            PKG + "EnvProgram", "jmpi.eager.limit");
        assertEquals(0, result.exitCode(), result::toString);
        assertTrue(result.stdoutLines().contains("rank 0 param jmpi.eager.limit=8k"), result::toString);
        assertTrue(result.stdoutLines().contains("rank 1 param jmpi.eager.limit=8k"), result::toString);
    }
}
