package org.jmpi.transport.verbs.ibv;

import com.sun.jna.Function;
import com.sun.jna.Native;
import com.sun.jna.Pointer;

/**
 * A completion queue. {@link #poll} calls the provider's {@code poll_cq} through the context's ops table
 * (what the inline {@code ibv_poll_cq} of verbs.h does) into a preallocated {@link WorkCompletions}.
 *
 * <p>Not thread-safe: one poller.
 */
public final class CompletionQueue implements AutoCloseable
{
    private final IbvLibrary lib;
    private Pointer cq;
    private final Function pollCq;
    private final Function reqNotifyCq;
    private final int capacity;
    private final CompletionChannel channel;
    private final Object[] pollArgs = new Object[3];
    private final Object[] notifyArgs = new Object[2];

    CompletionQueue(final IbvLibrary lib, final Pointer cq, final Function pollCq, final Function reqNotifyCq, final int capacity,
        final CompletionChannel channel)
    {
        this.lib = lib;
        this.cq = cq;
        this.pollCq = pollCq;
        this.reqNotifyCq = reqNotifyCq;
        this.capacity = capacity;
        this.channel = channel;
        pollArgs[0] = cq;
        notifyArgs[0] = cq;
    }

    Pointer pointer()
    {
        return cq;
    }

    public int capacity()
    {
        return capacity;
    }

    /** The channel its events go to, or null. */
    public CompletionChannel channel()
    {
        return channel;
    }

    /**
     * Moves up to {@code max} completions into {@code out}, from entry 0.
     *
     * @return how many (0: none).
     * @throws VerbsException when the provider reports an error.
     */
    public int poll(final WorkCompletions out, final int max)
    {
        pollArgs[1] = Math.min(max, out.capacity());
        pollArgs[2] = out.block().pointer();
        final int polled = pollCq.invokeInt(pollArgs);
        if (polled < 0)
        {
            throw new VerbsException("poll_cq", Native.getLastError());
        }
        return polled;
    }

    /** Arms the queue: the next completion sends an event to its channel ({@code ibv_req_notify_cq}). */
    public void requestNotify(final boolean solicitedOnly)
    {
        notifyArgs[1] = solicitedOnly ? 1 : 0;
        final int rc = reqNotifyCq.invokeInt(notifyArgs);
        if (rc != 0)
        {
            throw new VerbsException("req_notify_cq", rc);
        }
    }

    /** Destroys the queue; idempotent. Every queue pair using it must be destroyed first. */
    @Override
    public void close()
    {
        if (cq != null)
        {
            final int rc = lib.ibv_destroy_cq(cq);
            cq = null;
            if (rc != 0)
            {
                throw new VerbsException("ibv_destroy_cq", rc);
            }
        }
    }
}
