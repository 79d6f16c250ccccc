package org.jmpi;

import org.jmpi.internal.bootstrap.LocalJob;

import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Runs a body on every rank of an in-JVM job (ranks as threads) and fails with the first rank's
 * failure. Core's own copy of testkit's Ranks (testkit depends on core, so core cannot use it).
 */
public final class Ranks
{
    /** A rank's body, given its world communicator. */
    @FunctionalInterface
    public interface Body
    {
        void run(Mpi mpi, Intracomm world) throws Throwable;
    }

    private Ranks()
    {
    }

    public static void run(final int size, final Body body)
    {
        run(size, ThreadLevel.SINGLE, Map.of(), body);
    }

    public static void run(final int size, final ThreadLevel level, final Map<String, String> params, final Body body)
    {
        run(size, level, params, 60, body);
    }

    /** As above, with the job's time limit: a long test (tens of thousands of messages) on a busy machine. */
    public static void run(final int size, final ThreadLevel level, final Map<String, String> params, final int timeoutSeconds,
        final Body body)
    {
        final LocalJob job = LocalJob.create(size, params);
        final LocalJob.Outcome outcome = job.run(rank ->
        {
            try (Mpi mpi = Mpi.init(new String[0], level))
            {
                mpi.world().setErrorHandler(ErrorHandler.ERRORS_RETURN);
                body.run(mpi, mpi.world());
            }
        }, TimeUnit.SECONDS.toNanos(timeoutSeconds));
        final LocalJob.RankOutcome failed = outcome.firstFailure();
        if (failed != null)
        {
            if (failed.timedOut())
            {
                throw new AssertionError("rank " + failed.rank() + " timed out (job of " + size + ")");
            }
            final Throwable cause = rootFailure(outcome);
            if (cause instanceof AssertionError ae)
            {
                throw ae;
            }
            throw new AssertionError("rank " + failed.rank() + " failed (job of " + size + "): " + cause, cause);
        }
    }

    /** The first failure that is not merely another rank's abort showing up. */
    private static Throwable rootFailure(final LocalJob.Outcome outcome)
    {
        Throwable first = null;
        for (final LocalJob.RankOutcome r : outcome.ranks())
        {
            if (r.failure() == null)
            {
                continue;
            }
            if (first == null)
            {
                first = r.failure();
            }
            if (!(r.failure() instanceof MpiException me && me.errorClass() == ErrorClass.ERR_PROC_ABORTED))
            {
                return r.failure();
            }
        }
        return first;
    }
}
