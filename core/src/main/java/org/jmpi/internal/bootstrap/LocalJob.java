package org.jmpi.internal.bootstrap;

import org.jmpi.ErrorClass;
import org.jmpi.MpiException;
import org.jmpi.spi.Bootstrap;
import org.jmpi.spi.Params;

import com.sun.management.HotSpotDiagnosticMXBean;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Phaser;
import java.util.concurrent.TimeUnit;
import java.util.function.IntFunction;

/**
 * A job whose ranks are threads of this JVM: the launcher's {@code --threads} mode and the
 * multi-rank tests. Each rank runs on its own platform thread named {@code jmpi-rank-N} with a
 * {@link RankContext} bound, so {@code Mpi.init} on that thread (or any thread it starts) joins this job.
 *
 * <p>Threading: {@link #run} blocks its caller; {@link #abort} may be called from any thread.
 */
public final class LocalJob
{
    /** The code a rank runs. Throwing fails the rank (and the job). */
    @FunctionalInterface
    public interface RankBody
    {
        void run(int rank) throws Throwable;
    }

    /** How one rank ended. */
    public record RankOutcome(int rank, Throwable failure, boolean timedOut)
    {
        public boolean ok()
        {
            return failure == null && !timedOut;
        }
    }

    /** How the job ended: per-rank outcomes, and the abort code/message if a rank called abort. */
    public record Outcome(List<RankOutcome> ranks, boolean aborted, int abortCode, int abortRank, String abortMessage)
    {
        /** The first failing rank, or {@code null} when every rank succeeded. */
        public RankOutcome firstFailure()
        {
            for (final RankOutcome r : ranks)
            {
                if (!r.ok())
                {
                    return r;
                }
            }
            return null;
        }
    }

    private final int size;
    private final String jobId;
    private final Params params;
    private final ConcurrentHashMap<String, byte[]> store = new ConcurrentHashMap<>();
    private final Phaser fence;
    private final ConcurrentHashMap<String, Object> shared = new ConcurrentHashMap<>();
    private final List<Thread> threads = new ArrayList<>();
    private volatile boolean aborted;
    private volatile int abortCode;
    private volatile int abortRank = -1;
    private volatile String abortMessage;

    /** When not null, the bootstrap of each local rank (a hybrid job's ranks of this host); else the job's own. */
    private final IntFunction<Bootstrap> bootstraps;

    private LocalJob(final int size, final Map<String, String> explicitParams, final IntFunction<Bootstrap> bootstraps)
    {
        this.bootstraps = bootstraps;
        if (size < 1)
        {
            throw new MpiException(ErrorClass.ERR_ARG, "job size must be at least 1: size=" + size);
        }
        this.size = size;
        final byte[] random = new byte[6];
        new SecureRandom().nextBytes(random);
        this.jobId = "t" + HexFormat.of().formatHex(random);
        this.params = new Params(explicitParams);
        this.fence = new Phaser(size);
    }

    /** A job of {@code size} ranks with these explicit parameter values (full names, {@code jmpi.*}). */
    public static LocalJob create(final int size, final Map<String, String> explicitParams)
    {
        return new LocalJob(size, explicitParams, null);
    }

    /**
     * The ranks of one host of a hybrid job ({@code jmpirun --threads --npernode K} across hosts): the
     * {@code localCount} threads run with the bootstraps {@code bootstraps} gives by local index, each
     * connected to the launcher as its global rank; ranks of other hosts are reached by their transports.
     */
    public static LocalJob forHost(final int localCount, final Map<String, String> explicitParams, final IntFunction<Bootstrap> bootstraps)
    {
        return new LocalJob(localCount, explicitParams, bootstraps);
    }

    public int size()
    {
        return size;
    }

    public String jobId()
    {
        return jobId;
    }

    public Params params()
    {
        return params;
    }

    /** A bootstrap for {@code rank}. */
    public Bootstrap bootstrap(final int rank)
    {
        return bootstraps != null ? bootstraps.apply(rank) : new LocalBootstrap(this, rank, store, fence);
    }

    /** Objects the ranks' transports share (for example the in-JVM transport's inboxes). */
    public ConcurrentHashMap<String, Object> shared()
    {
        return shared;
    }

    /**
     * Runs {@code body} on every rank and waits for all of them. If a rank fails or aborts, the others
     * are interrupted and their blocking calls throw; after {@code timeoutNs} the stragglers are
     * reported as timed out (and interrupted).
     */
    public Outcome run(final RankBody body, final long timeoutNs)
    {
        final RankOutcome[] outcomes = new RankOutcome[size];
        for (int r = 0; r < size; r++)
        {
            final int rank = r;
            final Thread t = Thread.ofPlatform().name("jmpi-rank-" + rank).unstarted(() ->
            {
                RankContext.bind(new RankContext(this, rank));
                Throwable failure = null;
                try
                {
                    body.run(rank);
                }
                catch (final Throwable ex)
                {
                    failure = ex;
                    if (!aborted)
                    {
                        abort(rank, 1, "rank " + rank + " failed: " + ex);
                    }
                }
                finally
                {
                    RankContext.bind(null);
                }
                outcomes[rank] = new RankOutcome(rank, failure, false);
            });
            threads.add(t);
        }
        threads.forEach(Thread::start);
        final long deadline = System.nanoTime() + timeoutNs;
        for (int r = 0; r < size; r++)
        {
            final Thread t = threads.get(r);
            try
            {
                final long leftMs = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
                if (leftMs > 0)
                {
                    t.join(leftMs);
                }
            }
            catch (final InterruptedException ex)
            {
                Thread.currentThread().interrupt();
                abort(-1, 1, "job interrupted");
            }
            if (t.isAlive() && !aborted)
            {
                dumpThreads("rank " + r + " still running at the job's time limit");
                abort(-1, 1, "job timed out");
            }
        }
        for (int r = 0; r < size; r++)
        {
            final Thread t = threads.get(r);
            try
            {
                t.join(5_000);
            }
            catch (final InterruptedException ex)
            {
                Thread.currentThread().interrupt();
            }
            if (outcomes[r] == null)
            {
                outcomes[r] = new RankOutcome(r, null, true);
            }
        }
        return new Outcome(List.of(outcomes), aborted, abortCode, abortRank, abortMessage);
    }

    /**
     * Prints every thread's stack (platform and virtual: the JDK's thread dump) to standard error, so a job that
     * hangs says where; falls back to the platform threads' stacks when the dump cannot be written.
     */
    private static void dumpThreads(final String why)
    {
        System.err.println("jmpi: " + why + "; thread dump follows");
        try
        {
            final Path file = Files.createTempFile("jmpi-threads-", ".txt");
            try
            {
                Files.delete(file);
                ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class)
                    .dumpThreads(file.toString(), HotSpotDiagnosticMXBean.ThreadDumpFormat.TEXT_PLAIN);
                System.err.println(Files.readString(file));
            }
            finally
            {
                Files.deleteIfExists(file);
            }
        }
        catch (final IOException | RuntimeException ex)
        {
            Thread.getAllStackTraces().forEach((thread, stack) ->
            {
                System.err.println("\"" + thread.getName() + "\" " + thread.getState());
                for (final StackTraceElement e : stack)
                {
                    System.err.println("    at " + e);
                }
            });
        }
    }

    /** Stops the job: every rank's blocking calls throw {@code ERR_PROC_ABORTED} from now on. */
    public void abort(final int rank, final int exitCode, final String message)
    {
        synchronized (this)
        {
            if (aborted)
            {
                return;
            }
            abortCode = exitCode;
            abortRank = rank;
            abortMessage = message;
            aborted = true;
        }
        for (final Thread t : threads)
        {
            if (t != Thread.currentThread())
            {
                t.interrupt();
            }
        }
    }

    public boolean aborted()
    {
        return aborted;
    }

    /** @throws MpiException ERR_PROC_ABORTED when the job was aborted. */
    public void checkAborted()
    {
        if (aborted)
        {
            throw new MpiException(ErrorClass.ERR_PROC_ABORTED,
                "job aborted by rank " + abortRank + " with code " + abortCode + ": " + abortMessage);
        }
    }
}
