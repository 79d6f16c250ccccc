package org.jmpi.internal.transport.jvm;

import org.agrona.concurrent.ManyToOneConcurrentLinkedQueue;
import org.agrona.concurrent.UnsafeBuffer;
import org.jmpi.ErrorClass;
import org.jmpi.MpiException;
import org.jmpi.spi.FrameHandler;
import org.jmpi.spi.FrameWriter;
import org.jmpi.spi.PeerMemory;
import org.jmpi.spi.RemoteMemory;
import org.jmpi.spi.Transport;
import org.jmpi.spi.TransportContext;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Frames between ranks of one JVM: each rank has an inbox (a many-to-one concurrent queue) in a hub
 * the job's ranks share. A frame is a small heap buffer. Every object of the heap is reachable by
 * every rank, so this transport offers {@link PeerMemory}: an exposed buffer is mapped by the peer as
 * the very object, and the protocol copies rendezvous payloads directly from buffer to buffer.
 *
 * <p>Back-pressure: an inbox holds at most {@code jmpi.jvm.inbox.size} bytes of frames; beyond that
 * {@link #offer} returns false until the receiver drains it.
 *
 * <p>Threading: {@link #offer}, {@link #progress} and the peer-memory methods on the rank's engine
 * thread; the receiving rank's inbox is written by many sender threads, and its exposures read by them.
 */
final class InJvmTransport implements Transport
{
    /** Frames up to this, and up to half the inbox; rendezvous payloads are copied directly, never framed. */
    static final int MAX_FRAME_LENGTH = 1 << 20;
    private static final int POLL_LIMIT = 64;

    /** One inbound frame. */
    private record Frame(int sourceRank, UnsafeBuffer buffer, int length)
    {
    }

    /** A rank's inbox and who to wake when a frame lands in it. */
    static final class Inbox
    {
        final ManyToOneConcurrentLinkedQueue<Frame> queue = new ManyToOneConcurrentLinkedQueue<>();
        final AtomicLong queuedBytes = new AtomicLong();
        final long capacityBytes;
        final Runnable waker;

        Inbox(final long capacityBytes, final Runnable waker)
        {
            this.capacityBytes = capacityBytes;
            this.waker = waker;
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

    /** What one rank offers the others of its JVM: its inbox and the memory it exposes. */
    record Endpoint(Inbox inbox, HeapExposures exposures)
    {
    }

    /** The endpoints of the ranks of one JVM, by world rank. */
    static final class Hub
    {
        final ConcurrentHashMap<Integer, Endpoint> endpoints = new ConcurrentHashMap<>();
    }

    private final TransportContext context;
    private final int rank;
    private final Hub hub;
    private final Endpoint self;
    private final Endpoint[] peers;
    private final boolean[] reachable;
    private final int maxFrameLength;
    /** Offered unless {@code jmpi.jvm.memory=remote}; then {@link #remoteMemory} is, in its place. */
    private final PeerMemory peerMemory;
    private final HeapRemoteMemory remoteMemory;

    InJvmTransport(final TransportContext context)
    {
        this.context = context;
        this.rank = context.rank();
        this.hub = (Hub)context.jvmShared().computeIfAbsent("jvm.hub", k -> new Hub());
        final Inbox inbox = new Inbox(context.params().getLong(InJvmTransportProvider.INBOX_SIZE), context.waker());
        this.self = new Endpoint(inbox, new HeapExposures());
        final String memory = context.params().get(InJvmTransportProvider.MEMORY);
        if (!memory.equals("peer") && !memory.equals("remote"))
        {
            throw new MpiException(ErrorClass.ERR_ARG, "jmpi.jvm.memory must be peer or remote, not '" + memory + "'");
        }
        final boolean remote = memory.equals("remote");
        this.peerMemory = remote ? null : new HeapPeerMemory();
        this.remoteMemory = remote ? new HeapRemoteMemory(rank, self.exposures(), r -> peer(r).exposures()) : null;
        hub.endpoints.put(rank, self);
        this.maxFrameLength = (int)Math.min(MAX_FRAME_LENGTH, inbox.capacityBytes / 2);
        this.peers = new Endpoint[context.size()];
        this.reachable = new boolean[context.size()];
        final String myJvm = context.jvmId(rank);
        for (int r = 0; r < context.size(); r++)
        {
            reachable[r] = r == rank || myJvm.equals(context.jvmId(r));
        }
    }

    @Override
    public String name()
    {
        return "jvm";
    }

    @Override
    public int maxFrameLength()
    {
        return maxFrameLength;
    }

    @Override
    public boolean reaches(final int rank)
    {
        return rank >= 0 && rank < reachable.length && reachable[rank];
    }

    @Override
    public <T> T feature(final Class<T> type)
    {
        if (type == PeerMemory.class)
        {
            return type.cast(peerMemory);
        }
        return type == RemoteMemory.class ? type.cast(remoteMemory) : null;
    }

    private Endpoint peer(final int peerRank)
    {
        Endpoint target = peers[peerRank];
        if (target == null)
        {
            target = hub.endpoints.get(peerRank);
            if (target == null)
            {
                throw new MpiException(ErrorClass.ERR_INTERN, "in-JVM transport: rank " + peerRank + " has no inbox in job " + context.jobId());
            }
            peers[peerRank] = target;
        }
        return target;
    }

    @Override
    public boolean offer(final int dstRank, final int lengthBytes, final FrameWriter writer)
    {
        final Inbox target = peer(dstRank).inbox();
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
        target.queue.offer(new Frame(rank, buffer, lengthBytes));
        target.waker.run();
        return true;
    }

    @Override
    public int progress(final FrameHandler handler)
    {
        final Inbox inbox = self.inbox();
        int count = remoteMemory == null ? 0 : remoteMemory.reportCompletions();
        Frame f;
        while (count < POLL_LIMIT && (f = inbox.queue.poll()) != null)
        {
            inbox.queuedBytes.addAndGet(-f.length());
            handler.onFrame(f.sourceRank(), f.buffer(), 0, f.length());
            count++;
        }
        return count;
    }

    @Override
    public void wakeup()
    {
        // Never blocks inside itself: the engine parks, and senders wake it through the context's waker.
    }

    @Override
    public void close()
    {
        hub.endpoints.remove(rank, self);
    }

    /** Peer memory between threads of one JVM: a handle names an object in the owner's exposure table. */
    private final class HeapPeerMemory implements PeerMemory
    {
        @Override
        public long expose(final Object memory)
        {
            return self.exposures().expose(memory);
        }

        @Override
        public void withdraw(final long handle)
        {
            self.exposures().withdraw(handle);
        }

        @Override
        public Object map(final int peerRank, final long handle)
        {
            if (!reaches(peerRank))
            {
                throw new MpiException(ErrorClass.ERR_INTERN, "in-JVM peer memory: rank " + peerRank + " is not in this JVM");
            }
            return peer(peerRank).exposures().map(peerRank, handle);
        }

        @Override
        public void wake(final int peerRank)
        {
            peer(peerRank).inbox().waker.run();
        }
    }
}
