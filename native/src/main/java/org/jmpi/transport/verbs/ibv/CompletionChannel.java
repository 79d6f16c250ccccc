package org.jmpi.transport.verbs.ibv;

import com.sun.jna.Native;
import com.sun.jna.Pointer;
import com.sun.jna.ptr.PointerByReference;

/**
 * A completion channel: a thread blocks in {@link #await} until an armed {@link CompletionQueue} of this
 * channel has a completion ({@code ibv_get_cq_event}), for a rank that waits instead of polling.
 *
 * <p>Threading: one waiting thread; {@link #close} after every queue of the channel is destroyed.
 */
public final class CompletionChannel implements AutoCloseable
{
    private final IbvLibrary lib;
    private Pointer channel;
    private final PointerByReference cqOut = new PointerByReference();
    private final PointerByReference contextOut = new PointerByReference();

    CompletionChannel(final IbvLibrary lib, final Pointer channel)
    {
        this.lib = lib;
        this.channel = channel;
    }

    Pointer pointer()
    {
        return channel;
    }

    /** The channel's file descriptor (for poll(2)). */
    public int fd()
    {
        return channel.getInt(8);
    }

    /**
     * Blocks until {@code cq} (armed with {@link CompletionQueue#requestNotify}) has an event, and acknowledges it.
     *
     * @throws VerbsException when the wait fails or the event is for another queue.
     */
    public void await(final CompletionQueue cq)
    {
        if (lib.ibv_get_cq_event(channel, cqOut, contextOut) != 0)
        {
            throw new VerbsException("ibv_get_cq_event", Native.getLastError());
        }
        final Pointer got = cqOut.getValue();
        lib.ibv_ack_cq_events(got, 1);
        if (!got.equals(cq.pointer()))
        {
            throw new VerbsException("ibv_get_cq_event: event for another completion queue", 0);
        }
    }

    @Override
    public void close()
    {
        if (channel != null)
        {
            final int rc = lib.ibv_destroy_comp_channel(channel);
            channel = null;
            if (rc != 0)
            {
                throw new VerbsException("ibv_destroy_comp_channel", rc);
            }
        }
    }
}
