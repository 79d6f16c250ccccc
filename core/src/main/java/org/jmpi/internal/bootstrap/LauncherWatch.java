package org.jmpi.internal.bootstrap;

import java.util.Optional;

/**
 * Halts a rank whose launcher has gone (for example killed with SIGKILL, so it could not stop its
 * ranks): without it such ranks would wait on their peers forever.
 *
 * <p>Any thread; the callback runs on the JDK's process-reaper thread.
 */
final class LauncherWatch
{
    /** Exit code of a rank halted because its launcher disappeared. */
    static final int ORPHAN_EXIT_CODE = 1;

    private LauncherWatch()
    {
    }

    static void watch(final long launcherPid, final int rank)
    {
        final Optional<ProcessHandle> launcher = ProcessHandle.of(launcherPid);
        if (launcher.isEmpty())
        {
            orphaned(launcherPid, rank);
            return;
        }
        launcher.get().onExit().thenRun(() -> orphaned(launcherPid, rank));
    }

    private static void orphaned(final long launcherPid, final int rank)
    {
        System.err.println("jmpi: rank " + rank + ": launcher (pid " + launcherPid + ") is gone; halting");
        System.err.flush();
        Runtime.getRuntime().halt(ORPHAN_EXIT_CODE);
    }
}
