package org.jmpi.launcher.it;

/**
 * Arguments {@code RANK:CODE[:DELAY_MS] ...}: the named ranks exit with their code after the delay
 * ({@code System.exit}); every other rank sleeps for {@code args[0]} ms ("sleep=MS") or exits 0 at once.
 * Prints {@code pid=<pid>} first.
 */
public final class ExitProgram
{
    private ExitProgram()
    {
    }

    public static void main(final String[] args)
    {
        final int rank = TestRank.rank();
        System.out.println("pid=" + ProcessHandle.current().pid() + " rank=" + rank);
        long sleepMs = 0;
        for (final String arg : args)
        {
            if (arg.startsWith("sleep="))
            {
                sleepMs = Long.parseLong(arg.substring(6));
                continue;
            }
            final String[] parts = arg.split(":");
            if (Integer.parseInt(parts[0]) == rank)
            {
                TestRank.sleepMs(parts.length > 2 ? Long.parseLong(parts[2]) : 0);
                System.exit(Integer.parseInt(parts[1]));
            }
        }
        TestRank.sleepMs(sleepMs);
    }
}
