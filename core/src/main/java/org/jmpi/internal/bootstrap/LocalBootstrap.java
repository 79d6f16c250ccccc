package org.jmpi.internal.bootstrap;

import org.jmpi.ErrorClass;
import org.jmpi.MpiException;
import org.jmpi.spi.Bootstrap;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Phaser;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Bootstrap for ranks that are threads of one JVM: a shared map and a phaser.
 *
 * <p>One instance per rank; the map and phaser are the job's and shared by all ranks.
 */
final class LocalBootstrap implements Bootstrap
{
    private final LocalJob job;
    private final int rank;
    private final ConcurrentHashMap<String, byte[]> store;
    private final Phaser fence;

    LocalBootstrap(final LocalJob job, final int rank, final ConcurrentHashMap<String, byte[]> store, final Phaser fence)
    {
        this.job = job;
        this.rank = rank;
        this.store = store;
        this.fence = fence;
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
    public void put(final String key, final byte[] value)
    {
        synchronized (store)
        {
            store.put(key, value.clone());
            store.notifyAll();
        }
    }

    @Override
    public byte[] get(final String key, final long timeoutNs)
    {
        final long deadline = System.nanoTime() + timeoutNs;
        synchronized (store)
        {
            byte[] value;
            while ((value = store.get(key)) == null)
            {
                job.checkAborted();
                final long leftNs = deadline - System.nanoTime();
                if (leftNs <= 0)
                {
                    throw new MpiException(ErrorClass.ERR_OTHER, "bootstrap get timed out: key=" + key + ", rank=" + rank);
                }
                try
                {
                    store.wait(Math.max(1, Math.min(TimeUnit.NANOSECONDS.toMillis(leftNs), 100)));
                }
                catch (final InterruptedException ex)
                {
                    Thread.currentThread().interrupt();
                    throw new MpiException(ErrorClass.ERR_OTHER, "bootstrap get interrupted: key=" + key, ex);
                }
            }
            return value.clone();
        }
    }

    @Override
    public void fence(final long timeoutNs)
    {
        final int phase = fence.arrive();
        final long deadline = System.nanoTime() + timeoutNs;
        while (true)
        {
            job.checkAborted();
            try
            {
                fence.awaitAdvanceInterruptibly(phase, Math.min(100_000_000L, Math.max(1, deadline - System.nanoTime())), TimeUnit.NANOSECONDS);
                return;
            }
            catch (final TimeoutException ex)
            {
                if (System.nanoTime() - deadline >= 0)
                {
                    throw new MpiException(ErrorClass.ERR_OTHER, "bootstrap fence timed out: rank=" + rank + ", phase=" + phase);
                }
            }
            catch (final InterruptedException ex)
            {
                Thread.currentThread().interrupt();
                throw new MpiException(ErrorClass.ERR_OTHER, "bootstrap fence interrupted: rank=" + rank, ex);
            }
        }
    }

    @Override
    public void abort(final int exitCode, final String message)
    {
        job.abort(rank, exitCode, message);
    }

    @Override
    public void close()
    {
    }
}
