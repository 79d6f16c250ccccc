package org.jmpi.internal.bootstrap;

/**
 * Identity of a rank that runs as a thread of a shared JVM. Bound to the rank's main thread and
 * inherited by every thread it creates (platform or virtual), so {@code Mpi.init} and the launcher's
 * per-rank output know which rank is calling.
 *
 * <p>Immutable; any thread.
 */
public final class RankContext
{
    private static final InheritableThreadLocal<RankContext> CURRENT = new InheritableThreadLocal<>();

    private final LocalJob job;
    private final int rank;

    RankContext(final LocalJob job, final int rank)
    {
        this.job = job;
        this.rank = rank;
    }

    /** The context of the calling thread, or {@code null} when it is not a rank of an in-JVM job. */
    public static RankContext current()
    {
        return CURRENT.get();
    }

    static void bind(final RankContext context)
    {
        if (context == null)
        {
            CURRENT.remove();
        }
        else
        {
            CURRENT.set(context);
        }
    }

    public LocalJob job()
    {
        return job;
    }

    public int rank()
    {
        return rank;
    }

    public int size()
    {
        return job.size();
    }
}
