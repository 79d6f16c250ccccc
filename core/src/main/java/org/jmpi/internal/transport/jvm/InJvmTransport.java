package org.jmpi.internal.transport.jvm;

import org.agrona.concurrent.ManyToOneConcurrentLinkedQueue;
import org.agrona.concurrent.UnsafeBuffer;
import org.jmpi.ErrorClass;
import org.jmpi.MpiException;
import org.jmpi.internal.runtime.RankContext;
import org.jmpi.spi.Capabilities;
import org.jmpi.spi.FrameHandler;
import org.jmpi.spi.FrameWriter;
import org.jmpi.spi.Transport;
import org.jmpi.spi.TransportContext;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Frames between ranks of one JVM: each rank has an inbox (a many-to-one concurrent queue) in a hub
 * the job's ranks share. A frame is a small heap buffer; attachments pass object references, so the
 * protocol can copy rendezvous payloads directly from the sender's buffer (single copy).
 *
 * <p>Back-pressure: an inbox holds at most {@code jmpi.jvm.inbox.size} bytes of frames; beyond that
 * {@link #offer} returns false until the receiver drains it.
 *
 * <p>Threading: {@link #offer} and {@link #progress} on the rank's engine thread; the receiving
 * rank's inbox is written by many sender threads.
 */
final class InJvmTransport implements Transport
{
    /** Frames up to this, and up to half the inbox; rendezvous payloads are copied directly, never framed. */
    static final int MAX_FRAME_LENGTH = 1 << 20;
    private static final int POLL_LIMIT = 64;

    /** One inbound frame. */
    private record Frame(int sourceRank, UnsafeBuffer buffer, int length, Object attachment)
    {
    }

    /** A rank's inbox and who to wake when a frame lands in it. */
    static final class Inbox
    {
        final ManyToOneConcurrentLinkedQueue<Frame> queue = new ManyToOneConcurrentLinkedQueue<>();
        final AtomicLong queuedBytes = new AtomicLong();
        final long capacityBytes;
        volatile Runnable waker = () -> { };

        Inbox(final long capacityBytes)
        {
            this.capacityBytes = capacityBytes;
        }

        /** Reserves room for a frame; false when the inbox is full (an empty inbox takes any frame). */
        boolean reserve(final int lengthBytes)
        {
            while (true)
            {
                final long queued = queuedBytes.get();
                if (queued > 0 && queued + lengthBytes > capacityBytes)
                {
                    return false;
                }
                if (queuedBytes.compareAndSet(queued, queued + lengthBytes))
                {
                    return true;
                }
            }
        }
    }

    /** The inboxes of the ranks of one JVM, by world rank. */
    static final class Hub
    {
        final ConcurrentHashMap<Integer, Inbox> inboxes = new ConcurrentHashMap<>();
    }

    private final TransportContext context;
    private final int rank;
    private final Hub hub;
    private final Inbox inbox;
    private final Inbox[] peers;
    private final boolean[] reachable;
    private final Capabilities capabilities;

    InJvmTransport(final TransportContext context)
    {
        this.context = context;
        this.rank = context.rank();
        final RankContext rankContext = RankContext.current();
        this.hub = rankContext == null ? new Hub() :
            (Hub)rankContext.job().shared().computeIfAbsent("jvm.hub", k -> new Hub());
        this.inbox = new Inbox(context.params().getLong(InJvmTransportProvider.INBOX_SIZE));
        hub.inboxes.put(rank, inbox);
        this.capabilities = new Capabilities((int)Math.min(MAX_FRAME_LENGTH, inbox.capacityBytes / 2), true, true, false, false);
        this.peers = new Inbox[context.size()];
        this.reachable = new boolean[context.size()];
        final String myJvm = context.jvmId(rank);
        for (int r = 0; r < context.size(); r++)
        {
            reachable[r] = r == rank || (rankContext != null && myJvm.equals(context.jvmId(r)));
        }
    }

    /** Sets what wakes this rank's engine when a frame arrives (the engine's wakeup). */
    void waker(final Runnable waker)
    {
        inbox.waker = waker;
    }

    @Override
    public String name()
    {
        return "jvm";
    }

    @Override
    public Capabilities capabilities()
    {
        return capabilities;
    }

    @Override
    public boolean reaches(final int rank)
    {
        return rank >= 0 && rank < reachable.length && reachable[rank];
    }

    @Override
    public boolean offer(final int dstRank, final int lengthBytes, final FrameWriter writer, final Object attachment)
    {
        Inbox target = peers[dstRank];
        if (target == null)
        {
            target = hub.inboxes.get(dstRank);
            if (target == null)
            {
                throw new MpiException(ErrorClass.ERR_INTERN, "in-JVM transport: rank " + dstRank + " has no inbox in job " + context.jobId());
            }
            peers[dstRank] = target;
        }
        if (!target.reserve(lengthBytes))
        {
            return false;
        }
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[lengthBytes]);
        try
        {
            writer.write(buffer, 0, lengthBytes);
        }
        catch (final RuntimeException | Error ex)
        {
            target.queuedBytes.addAndGet(-lengthBytes);
            throw ex;
        }
        target.queue.offer(new Frame(rank, buffer, lengthBytes, attachment));
        target.waker.run();
        return true;
    }

    @Override
    public int progress(final FrameHandler handler)
    {
        int count = 0;
        Frame f;
        while (count < POLL_LIMIT && (f = inbox.queue.poll()) != null)
        {
            inbox.queuedBytes.addAndGet(-f.length());
            handler.onFrame(f.sourceRank(), f.buffer(), 0, f.length(), f.attachment());
            count++;
        }
        return count;
    }

    @Override
    public void wakeup()
    {
        inbox.waker.run();
    }

    @Override
    public void close()
    {
        hub.inboxes.remove(rank, inbox);
    }
}
