package org.jmpi.launcher.it;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** The rank JVMs' ahead-of-time cache (AotCache): made once by a training job, then given to every rank JVM. */
@Timeout(120)
class AotCacheIT
{
    private static final String CP = Jmpirun.TEST_CLASSES;
    private static final String PROGRAM = "org.jmpi.launcher.it.JvmArgsProgram";

    @TempDir
    Path cacheDir;

    @AfterEach
    void noStragglers()
    {
        assertEquals(0, Jmpirun.killStragglers(), "processes left behind");
    }

    private Jmpirun.Result run(final String name, final String setting) throws Exception
    {
        return Jmpirun.run(name, env -> env.put("JMPIRUN_AOT_CACHE", setting), null, 90_000,
            List.of("-np", "2", "-cp", CP, PROGRAM, "-XX:AOTCache"));
    }

    private List<Path> caches() throws Exception
    {
        try (Stream<Path> files = Files.list(cacheDir))
        {
            return files.toList();
        }
    }

    @Test
    void shouldTrainOnceAndStartEveryRankWithTheCache() throws Exception
    {
        final Jmpirun.Result info = Jmpirun.run("aot-info", "--info");
        assumeTrue(info.stdout().matches("(?s).*JDK:\\s+(2[5-9]|[3-9][0-9]).*"), "bin/jmpirun's JDK predates 25:\n" + info.stdout());

        final Jmpirun.Result first = run("aot-first", cacheDir.toString());
        assertEquals(0, first.exitCode(), first.toString());
        final List<Path> made = caches();
        assertEquals(1, made.size(), "one cache, no training leftovers: " + made);
        final String option = "-XX:AOTCache=" + made.get(0);
        assertEquals(List.of("rank 0 done", "rank 0 jvm-arg " + option, "rank 1 done", "rank 1 jvm-arg " + option),
            first.stdoutLines().stream().sorted().toList(), "the training's output stays out of the job's: " + first);
        assertTrue(first.stderr().isEmpty(), first.toString());

        final FileTime madeAt = Files.getLastModifiedTime(made.get(0));
        final Jmpirun.Result second = run("aot-second", cacheDir.toString());
        assertEquals(0, second.exitCode(), second.toString());
        assertEquals(first.stdoutLines().stream().sorted().toList(), second.stdoutLines().stream().sorted().toList());
        assertEquals(made, caches());
        assertEquals(madeAt, Files.getLastModifiedTime(made.get(0)), "not trained again");
    }

    @Test
    void shouldStartRanksWithoutACacheWhenTurnedOff() throws Exception
    {
        final Jmpirun.Result off = run("aot-off", "off");
        assertEquals(0, off.exitCode(), off.toString());
        assertEquals(List.of("rank 0 done", "rank 1 done"), off.stdoutLines().stream().sorted().toList());
    }
}
