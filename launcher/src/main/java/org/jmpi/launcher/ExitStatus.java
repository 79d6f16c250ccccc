package org.jmpi.launcher;

/**
 * How a rank process ended, in words. On Unix the JDK reports a process killed by signal N as exit
 * code 128+N, which is also what the launcher passes on as the job's exit code.
 *
 * <p>Stateless.
 */
final class ExitStatus
{
    private static final String[] SIGNAL_NAMES = {
        null, "SIGHUP", "SIGINT", "SIGQUIT", "SIGILL", "SIGTRAP", "SIGABRT", "SIGBUS", "SIGFPE", "SIGKILL",
        "SIGUSR1", "SIGSEGV", "SIGUSR2", "SIGPIPE", "SIGALRM", "SIGTERM"};

    private ExitStatus()
    {
    }

    /** "exited with code 3" or "killed by signal 9 (SIGKILL)". */
    static String describe(final int exitCode)
    {
        if (exitCode > 128 && exitCode < 128 + 32)
        {
            final int signal = exitCode - 128;
            final String name = signal < SIGNAL_NAMES.length ? SIGNAL_NAMES[signal] : null;
            return "killed by signal " + signal + (name == null ? "" : " (" + name + ")");
        }
        return "exited with code " + exitCode;
    }
}
