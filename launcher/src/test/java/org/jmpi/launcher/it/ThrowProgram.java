package org.jmpi.launcher.it;

/** Rank {@code args[0]} throws; the others sleep {@code args[1]} ms (interruptible). */
public final class ThrowProgram
{
    private ThrowProgram()
    {
    }

    public static void main(final String[] args)
    {
        final int rank = TestRank.rank();
        System.out.println("pid=" + ProcessHandle.current().pid() + " rank=" + rank);
        if (rank == Integer.parseInt(args[0]))
        {
            throw new IllegalStateException("rank " + rank + " fails on purpose");
        }
        TestRank.sleepMs(Long.parseLong(args[1]));
    }
}
