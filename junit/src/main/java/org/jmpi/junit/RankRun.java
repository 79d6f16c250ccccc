package org.jmpi.junit;

import org.jmpi.ErrorClass;
import org.jmpi.ErrorHandler;
import org.jmpi.Mpi;
import org.jmpi.MpiException;
import org.jmpi.ThreadLevel;
import org.jmpi.internal.bootstrap.JvmFlags;
import org.jmpi.internal.bootstrap.LocalJob;
import org.junit.jupiter.api.extension.ExtensionConfigurationException;
import org.opentest4j.TestAbortedException;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * One run of an {@link MpiTest} method at one job size:
 * <ol>
 * <li>check the JVM has jmpi's flags (fail at once, naming them, if not);</li>
 * <li>start the ranks as threads of an in-JVM job; each initialises jmpi, calls the method with its world
 * communicator and finalizes;</li>
 * <li>wait up to the timeout; on expiry take every rank's stack, then abort the job;</li>
 * <li>turn the outcome into the test's: the first rank (in time) whose failure is its own, not another
 * rank's abort reaching it, is the cause; the other ranks' own failures are suppressed.</li>
 * </ol>
 *
 * <p>Threading: {@link #run} on JUnit's thread; the ranks on their own threads, supervised from a
 * daemon thread so that ranks that never return cannot hold up the test JVM.
 */
final class RankRun
{
    /** How long aborted ranks get to return before the run reports them and moves on. */
    static final long STOP_WAIT_MS = 5_000;
    private static final long NO_LIMIT_NS = TimeUnit.DAYS.toNanos(365);

    private final int size;
    private final long timeoutNs;
    private final ThreadLevel level;
    private final AtomicReferenceArray<Thread> threads;
    private final AtomicReferenceArray<Throwable> failures;
    /** The rank whose failure came first in time, -1 while none has. */
    private final AtomicInteger firstFailedRank = new AtomicInteger(-1);
    /** Per rank: whether its failure came after another rank had aborted the job. */
    private final AtomicReferenceArray<Boolean> afterAbort;
    private volatile LocalJob job;

    RankRun(final int size, final long timeoutNs, final ThreadLevel level)
    {
        this.size = size;
        this.timeoutNs = timeoutNs;
        this.level = level;
        this.threads = new AtomicReferenceArray<>(size);
        this.failures = new AtomicReferenceArray<>(size);
        this.afterAbort = new AtomicReferenceArray<>(size);
    }

    /** Calls {@code method} on {@code target} on every rank, with {@code args[commIndex]} that rank's world. */
    void run(final Method method, final Object target, final Object[] args, final int commIndex) throws Throwable
    {
        if (!JvmFlags.unsafeExported())
        {
            throw new ExtensionConfigurationException(JvmFlags.missingExportMessage("@MpiTest " + method.getName()));
        }
        method.setAccessible(true);
        final LocalJob job = LocalJob.create(size, Map.of());
        this.job = job;
        final Thread supervisor = Thread.ofPlatform().daemon().name("jmpi-junit-" + method.getName() + "-" + size).start(() ->
            job.run(rank ->
            {
                threads.set(rank, Thread.currentThread());
                final Mpi mpi;
                try
                {
                    mpi = Mpi.init(new String[0], level);
                }
                catch (final Throwable ex)
                {
                    fail(rank, ex);
                    throw ex;
                }
                try
                {
                    mpi.world().setErrorHandler(ErrorHandler.ERRORS_RETURN);
                    final Object[] rankArgs = args.clone();
                    rankArgs[commIndex] = mpi.world();
                    method.invoke(target, rankArgs);
                }
                catch (final Throwable ex)
                {
                    final Throwable cause = ex instanceof InvocationTargetException ite && ite.getCause() != null ? ite.getCause() : ex;
                    fail(rank, cause);
                    // Abort before finalize: finalize waits for the other ranks, which may wait for this one.
                    job.abort(rank, 1, "rank " + rank + " failed: " + cause);
                    closeAfterFailure(mpi, cause);
                    throw cause;
                }
                try
                {
                    mpi.close();
                }
                catch (final Throwable ex)
                {
                    fail(rank, ex);
                    throw ex;
                }
            }, NO_LIMIT_NS));

        boolean interrupted = false;
        try
        {
            supervisor.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(timeoutNs)));
        }
        catch (final InterruptedException ex)
        {
            interrupted = true;
        }
        if (supervisor.isAlive())
        {
            final String why = interrupted ? "was interrupted (an outer timeout?)" : "timed out after " + formatTimeout();
            final AssertionError hang = hang(method, why);
            job.abort(-1, 1, "@MpiTest " + why);
            joinQuietly(supervisor);
            if (interrupted)
            {
                Thread.currentThread().interrupt();
            }
            throw hang;
        }
        final Throwable failure = outcome(method);
        if (failure != null)
        {
            throw failure;
        }
    }

    /** The failure every rank's stack goes into: ranks still running first, each stack as a suppressed exception. */
    private AssertionError hang(final Method method, final String why)
    {
        final List<Integer> running = new ArrayList<>();
        final StringBuilder stacks = new StringBuilder();
        final List<Throwable> rankStacks = new ArrayList<>();
        for (int rank = 0; rank < size; rank++)
        {
            final Thread t = threads.get(rank);
            if (t == null || !t.isAlive())
            {
                stacks.append("rank ").append(rank).append(": ").append(t == null ? "not started" : "returned")
                    .append(failures.get(rank) == null ? "" : ", failed: " + failures.get(rank)).append('\n');
                continue;
            }
            running.add(rank);
            final StackTraceElement[] stack = t.getStackTrace();
            final Throwable rankStack = new RankStack("rank " + rank + " of " + size + " (" + t.getName() + ", " + t.getState() + ")");
            rankStack.setStackTrace(stack);
            rankStacks.add(rankStack);
            stacks.append(rankStack.getMessage()).append('\n');
            for (final StackTraceElement e : stack)
            {
                stacks.append("\tat ").append(e).append('\n');
            }
        }
        final AssertionError error = new AssertionError("@MpiTest " + method.getName() + " with " + size + " ranks " + why +
            "; ranks still running: " + running + "\n" + stacks, firstOwnFailure());
        rankStacks.forEach(error::addSuppressed);
        return error;
    }

    /** {@code null} when every rank returned normally. */
    private Throwable outcome(final Method method)
    {
        final Throwable cause = firstOwnFailure();
        if (cause == null)
        {
            return null;
        }
        final int failedRank = rankOf(cause);
        boolean allAborted = true;
        for (int rank = 0; rank < size; rank++)
        {
            allAborted &= failures.get(rank) instanceof TestAbortedException;
        }
        if (allAborted)
        {
            return cause;
        }
        final AssertionError error = new AssertionError("@MpiTest " + method.getName() + ": rank " + failedRank + " of " + size +
            " failed: " + cause, cause);
        for (int rank = 0; rank < size; rank++)
        {
            final Throwable other = failures.get(rank);
            if (rank != failedRank && other != null && !collateral(rank))
            {
                final AssertionError also = new AssertionError("rank " + rank + " of " + size + " failed too: " + other, other);
                also.setStackTrace(new StackTraceElement[0]);
                error.addSuppressed(also);
            }
        }
        return error;
    }

    private void fail(final int rank, final Throwable failure)
    {
        afterAbort.compareAndSet(rank, null, job.aborted());
        if (failures.compareAndSet(rank, null, failure))
        {
            firstFailedRank.compareAndSet(-1, rank);
        }
    }

    /**
     * The failure that caused the others: the first in time unless that one is another rank's abort
     * reaching it, then the lowest rank's that is not; failing that, the first of any kind.
     */
    private Throwable firstOwnFailure()
    {
        final int first = firstFailedRank.get();
        if (first < 0)
        {
            return null;
        }
        if (!collateral(first))
        {
            return failures.get(first);
        }
        for (int rank = 0; rank < size; rank++)
        {
            final Throwable f = failures.get(rank);
            if (f != null && !collateral(rank))
            {
                return f;
            }
        }
        return failures.get(first);
    }

    private int rankOf(final Throwable failure)
    {
        for (int rank = 0; rank < size; rank++)
        {
            if (failures.get(rank) == failure)
            {
                return rank;
            }
        }
        return -1;
    }

    /** Whether rank's failure is another rank's abort reaching it, or an MPI call failing after that abort. */
    private boolean collateral(final int rank)
    {
        final Throwable f = failures.get(rank);
        return abortedByOthers(f) || Boolean.TRUE.equals(afterAbort.get(rank)) && f instanceof MpiException;
    }

    /** Whether a rank's failure is the job's abort (or the interrupt that carries it) reaching that rank. */
    private static boolean abortedByOthers(final Throwable failure)
    {
        for (Throwable t = failure; t != null; t = t.getCause())
        {
            if (t instanceof MpiException me && me.errorClass() == ErrorClass.ERR_PROC_ABORTED ||
                t instanceof InterruptedException || t instanceof java.nio.channels.ClosedByInterruptException)
            {
                return true;
            }
        }
        return false;
    }

    /** Finalizes a failed rank; a further failure other than the job's abort is kept with the first. */
    private static void closeAfterFailure(final Mpi mpi, final Throwable failure)
    {
        try
        {
            mpi.close();
        }
        catch (final Throwable ex)
        {
            if (!abortedByOthers(ex))
            {
                failure.addSuppressed(ex);
            }
        }
    }

    private String formatTimeout()
    {
        final long ms = TimeUnit.NANOSECONDS.toMillis(timeoutNs);
        return ms % 1000 == 0 ? ms / 1000 + " s" : ms + " ms";
    }

    private static void joinQuietly(final Thread thread)
    {
        try
        {
            thread.join(STOP_WAIT_MS);
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
        }
    }

    /** A rank's stack at the moment a run timed out (carries no cause of its own). */
    private static final class RankStack extends Throwable
    {
        RankStack(final String message)
        {
            super(message, null, false, true);
        }
    }
}
