package org.jmpi.launcher.it;

import org.jmpi.internal.bootstrap.BootstrapEnv;
import org.jmpi.internal.bootstrap.RankContext;

/** The rank a test program runs as: its thread's in --threads mode, else the launcher's environment. */
final class TestRank
{
    private TestRank()
    {
    }

    static int rank()
    {
        final RankContext context = RankContext.current();
        if (context != null)
        {
            return context.rank();
        }
        final String env = System.getenv(BootstrapEnv.RANK_ENV_NAME);
        return env == null ? -1 : Integer.parseInt(env);
    }

    static void sleepMs(final long ms)
    {
        try
        {
            Thread.sleep(ms);
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", ex);
        }
    }
}
