package org.jmpi.testkit.transport;

import org.jmpi.internal.runtime.CoreParams;
import org.jmpi.internal.bootstrap.LocalJob;
import org.jmpi.spi.Bootstrap;
import org.jmpi.spi.Params;
import org.jmpi.spi.TransportContext;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import java.util.function.IntFunction;

/**
 * A {@link TransportContext} for a rank of an in-JVM {@link LocalJob}, with node and JVM identities
 * chosen by the test: {@link #separateJvms} makes every rank look like its own JVM on one node (what
 * a node-local cross-JVM transport needs to engage in one test JVM), {@link #sameJvm} the truth.
 *
 * <p>Immutable; one per rank, used by that rank's thread.
 */
public final class JobTransportContext implements TransportContext
{
    private final LocalJob job;
    private final int rank;
    private final Bootstrap bootstrap;
    private final IntFunction<String> nodeIds;
    private final IntFunction<String> jvmIds;
    private final AtomicLong wakeups = new AtomicLong();
    private final Runnable waker = wakeups::incrementAndGet;

    private JobTransportContext(
        final LocalJob job, final int rank, final IntFunction<String> nodeIds, final IntFunction<String> jvmIds)
    {
        this.job = job;
        this.rank = rank;
        this.bootstrap = job.bootstrap(rank);
        this.nodeIds = nodeIds;
        this.jvmIds = jvmIds;
    }

    /** Rank {@code rank} of {@code job} with the given node and JVM identity of every rank. */
    public static JobTransportContext of(
        final LocalJob job, final int rank, final IntFunction<String> nodeIds, final IntFunction<String> jvmIds)
    {
        return new JobTransportContext(job, rank, nodeIds, jvmIds);
    }

    /** Every rank on one node, each in a JVM of its own. */
    public static JobTransportContext separateJvms(final LocalJob job, final int rank)
    {
        return of(job, rank, r -> "node-0", r -> "jvm-" + r);
    }

    /** Every rank on one node in one JVM. */
    public static JobTransportContext sameJvm(final LocalJob job, final int rank)
    {
        return of(job, rank, r -> "node-0", r -> "jvm-0");
    }

    @Override
    public int rank()
    {
        return rank;
    }

    @Override
    public int size()
    {
        return job.size();
    }

    @Override
    public String jobId()
    {
        return job.jobId();
    }

    @Override
    public Bootstrap bootstrap()
    {
        return bootstrap;
    }

    @Override
    public Params params()
    {
        return job.params();
    }

    /** Counts the wake-ups the transport asked for (there is no engine to wake in a transport test). */
    @Override
    public Runnable waker()
    {
        return waker;
    }

    /** How many times the transport called {@link #waker()}. */
    public long wakeups()
    {
        return wakeups.get();
    }

    @Override
    public long initTimeoutNs()
    {
        return TimeUnit.MILLISECONDS.toNanos(job.params().getLong(CoreParams.INIT_TIMEOUT));
    }

    @Override
    public ConcurrentMap<String, Object> jvmShared()
    {
        return job.shared();
    }

    @Override
    public String nodeId(final int rank)
    {
        return nodeIds.apply(rank);
    }

    @Override
    public String jvmId(final int rank)
    {
        return jvmIds.apply(rank);
    }
}
