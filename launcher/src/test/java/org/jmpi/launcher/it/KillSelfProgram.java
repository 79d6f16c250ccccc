package org.jmpi.launcher.it;

import org.jmpi.internal.bootstrap.BootstrapEnv;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Every rank prints its pid and sleeps a minute, except rank {@code args[0]}, which first creates
 * {@code /dev/shm/jmpi-<jobId>-killtest} (standing in for the shm transport's file) and then kills
 * itself with {@code kill -9} after {@code args[1]} ms.
 */
public final class KillSelfProgram
{
    private KillSelfProgram()
    {
    }

    public static void main(final String[] args) throws Exception
    {
        final int rank = TestRank.rank();
        final long pid = ProcessHandle.current().pid();
        System.out.println("pid=" + pid + " rank=" + rank + " job=" + System.getenv(BootstrapEnv.JOB_ID_ENV_NAME));
        if (rank == Integer.parseInt(args[0]))
        {
            final Path dir = Path.of("/dev/shm");
            if (Files.isDirectory(dir))
            {
                Files.writeString(dir.resolve("jmpi-" + System.getenv(BootstrapEnv.JOB_ID_ENV_NAME) + "-killtest"), "x");
            }
            TestRank.sleepMs(Long.parseLong(args[1]));
            new ProcessBuilder("kill", "-9", Long.toString(pid)).start().waitFor();
        }
        TestRank.sleepMs(60_000);
    }
}
