package org.jmpi.launcher.it;

import org.jmpi.internal.bootstrap.BootstrapEnv;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Prints {@code pid=<pid> rank=<rank> job=<jobId>} and sleeps a minute. Rank 0 first creates
 * {@code /dev/shm/jmpi-<jobId>-sleeptest} (standing in for the shm transport's file). With the argument
 * {@code stubborn}, every rank ignores SIGTERM by blocking in a shutdown hook, so only SIGKILL ends it.
 */
public final class SleepProgram
{
    private SleepProgram()
    {
    }

    public static void main(final String[] args) throws Exception
    {
        final int rank = TestRank.rank();
        final String job = System.getenv(BootstrapEnv.JOB_ID_ENV_NAME);
        if (args.length > 0 && args[0].equals("stubborn"))
        {
            Runtime.getRuntime().addShutdownHook(new Thread(() -> TestRank.sleepMs(60_000)));
        }
        if (rank == 0 && Files.isDirectory(Path.of("/dev/shm")))
        {
            Files.writeString(Path.of("/dev/shm", "jmpi-" + job + "-sleeptest"), "x");
        }
        System.out.println("pid=" + ProcessHandle.current().pid() + " rank=" + rank + " job=" + job);
        TestRank.sleepMs(60_000);
    }
}
