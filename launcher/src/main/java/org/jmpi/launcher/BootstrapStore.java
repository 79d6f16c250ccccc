package org.jmpi.launcher;

import org.jmpi.internal.bootstrap.BootstrapEnv;
import org.jmpi.internal.bootstrap.BootstrapMessage;

import java.util.BitSet;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.jmpi.internal.bootstrap.BootstrapProtocolDescriptor.*;

/**
 * The state a {@link BootstrapServer} serves to authenticated ranks: the key/value store, the fence,
 * the ranks' heartbeats and exits, and the job's failure. Each request method answers with the response
 * message to send (a failure response when the job has failed, the wait timed out or the request is a
 * protocol error); waiting requests wait on this object and are woken by puts, fence arrivals and
 * {@link #fail}.
 *
 * <p>Threading: every method is synchronized on this object; any thread.
 */
final class BootstrapStore
{
    private final int size;
    private final Map<String, byte[]> store = new HashMap<>();
    private final BitSet fenceArrived = new BitSet();
    private final BitSet exited = new BitSet();
    /** Per rank: System.nanoTime() of its last heartbeat, 0 before the first (not watched). */
    private final long[] lastHeartbeatNs;
    private long fenceGeneration;
    private String failure;

    BootstrapStore(final int size)
    {
        this.size = size;
        this.lastHeartbeatNs = new long[size];
    }

    synchronized boolean initialized(final int rank)
    {
        return store.containsKey(BootstrapEnv.INIT_KEY_PREFIX + rank);
    }

    synchronized boolean finalized(final int rank)
    {
        return store.containsKey(BootstrapEnv.FINALIZED_KEY_PREFIX + rank);
    }

    /** {@code rank}'s process ended; the job fails unless the rank had finalized. */
    synchronized void rankExited(final int rank, final String how)
    {
        exited.set(rank);
        if (!finalized(rank))
        {
            fail("rank " + rank + " " + how);
        }
    }

    /** The job failed: the first reason sticks, every waiting request is answered with it. */
    synchronized void fail(final String reason)
    {
        if (failure == null)
        {
            failure = reason;
        }
        notifyAll();
    }

    synchronized BootstrapMessage put(final BootstrapMessage request)
    {
        if (request.key().isEmpty())
        {
            return BootstrapMessage.failure(STATUS_ERROR, "put with an empty key");
        }
        store.put(request.key(), request.value());
        notifyAll();
        return BootstrapMessage.response(STATUS_OK, null);
    }

    synchronized BootstrapMessage get(final BootstrapMessage request)
    {
        final long deadlineNs = System.nanoTime() + clampTimeout(request.timeoutNs());
        byte[] value;
        while ((value = store.get(request.key())) == null)
        {
            if (failure != null)
            {
                return BootstrapMessage.failure(STATUS_JOB_FAILED, failure);
            }
            final long leftNs = deadlineNs - System.nanoTime();
            if (leftNs <= 0)
            {
                return BootstrapMessage.failure(STATUS_TIMEOUT, "key " + request.key() + " not published");
            }
            if (!await(leftNs))
            {
                return BootstrapMessage.failure(STATUS_JOB_FAILED, "interrupted");
            }
        }
        return BootstrapMessage.response(STATUS_OK, value);
    }

    /**
     * 1. Fail at once if the job has failed or the rank is already waiting (a protocol error).
     * 2. Mark the rank arrived; the last arrival starts the next generation and wakes everyone.
     * 3. Otherwise wait for the generation to change, the job to fail, or the timeout; a rank that times
     *    out withdraws its arrival so a retry counts once.
     */
    synchronized BootstrapMessage fence(final int rank, final long timeoutNs)
    {
        if (failure != null)
        {
            return BootstrapMessage.failure(STATUS_JOB_FAILED, failure);
        }
        if (fenceArrived.get(rank))
        {
            return BootstrapMessage.failure(STATUS_ERROR, "rank " + rank + " entered the fence twice");
        }
        final long generation = fenceGeneration;
        fenceArrived.set(rank);
        if (fenceArrived.cardinality() == size)
        {
            fenceArrived.clear();
            fenceGeneration++;
            notifyAll();
            return BootstrapMessage.response(STATUS_OK, null);
        }
        final long deadlineNs = System.nanoTime() + clampTimeout(timeoutNs);
        while (fenceGeneration == generation)
        {
            final long leftNs = deadlineNs - System.nanoTime();
            if (failure != null || leftNs <= 0 || !await(leftNs))
            {
                fenceArrived.clear(rank);
                return failure != null ?
                    BootstrapMessage.failure(STATUS_JOB_FAILED, failure) :
                    BootstrapMessage.failure(STATUS_TIMEOUT, "fence: " + fenceArrived.cardinality() + " of " + size + " ranks arrived");
            }
        }
        return BootstrapMessage.response(STATUS_OK, null);
    }

    /** Notes {@code rank} as heard from now; answers after {@code timeoutNs}, or at once when the job fails. */
    synchronized BootstrapMessage heartbeat(final int rank, final long timeoutNs)
    {
        lastHeartbeatNs[rank] = System.nanoTime() | 1;
        final long deadlineNs = System.nanoTime() + clampTimeout(timeoutNs);
        while (failure == null)
        {
            final long leftNs = deadlineNs - System.nanoTime();
            if (leftNs <= 0 || !await(leftNs))
            {
                break;
            }
        }
        return failure != null ? BootstrapMessage.failure(STATUS_JOB_FAILED, failure) : BootstrapMessage.response(STATUS_OK, null);
    }

    /** See {@link BootstrapService#silentRank}. */
    synchronized int silentRank(final long silenceNs)
    {
        final long now = System.nanoTime();
        for (int rank = 0; rank < size; rank++)
        {
            if (lastHeartbeatNs[rank] != 0 && now - lastHeartbeatNs[rank] > silenceNs && !exited.get(rank) && !finalized(rank))
            {
                return rank;
            }
        }
        return -1;
    }

    private boolean await(final long leftNs)
    {
        try
        {
            TimeUnit.NANOSECONDS.timedWait(this, Math.max(1, leftNs));
            return true;
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private static long clampTimeout(final long timeoutNs)
    {
        return Math.max(0, Math.min(timeoutNs, TimeUnit.DAYS.toNanos(365)));
    }
}
