package org.jmpi.launcher.it;

import org.jmpi.internal.bootstrap.RankContext;

/**
 * For each argument NAME prints {@code env NAME=value}, {@code prop NAME=value} (system property) and,
 * in {@code --threads} mode, {@code param NAME=value} (the in-JVM job's explicit parameter).
 */
public final class EnvProgram
{
    private EnvProgram()
    {
    }

    public static void main(final String[] args)
    {
        final int rank = TestRank.rank();
        for (final String name : args)
        {
            System.out.println("rank " + rank + " env " + name + "=" + System.getenv(name));
            System.out.println("rank " + rank + " prop " + name + "=" + System.getProperty(name));
            final RankContext context = RankContext.current();
            if (context != null)
            {
                System.out.println("rank " + rank + " param " + name + "=" + context.job().params().explicit().get(name));
            }
        }
    }
}
