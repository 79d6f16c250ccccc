package org.jmpi.internal.transport.jvm;

import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.MessageHandler;
import org.agrona.concurrent.UnsafeBuffer;
import org.jmpi.ErrorClass;
import org.jmpi.MpiException;
import org.jmpi.spi.FrameHandler;
import org.jmpi.spi.FrameWriter;
import org.jmpi.spi.PeerMemory;
import org.jmpi.spi.RemoteMemory;
import org.jmpi.spi.Transport;
import org.jmpi.spi.TransportContext;

import java.lang.invoke.VarHandle;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * Frames between ranks of one JVM: each ordered pair of ranks has its own single-producer ring
 * ({@link PairChannel}), made by the sender on its first frame and published in the receiver's inbox, which the
 * job's ranks share through a hub. A frame is packed straight into the ring (no allocation, no CAS, nothing zeroed
 * by the reader); a receiver polls every ring on every call, the most recently active first (a ring that delivers
 * moves to the front). Every object of the heap is reachable by every rank, so this transport
 * offers {@link PeerMemory}: an exposed buffer is mapped by the peer as the very object, and the protocol copies
 * rendezvous payloads directly from buffer to buffer.
 *
 * <p>Back-pressure: a pair's ring holds {@code jmpi.jvm.ring.size} bytes; frames longer than an eighth of it go
 * to a side queue, of which an inbox holds at most {@code jmpi.jvm.inbox.size} bytes; beyond either
 * {@link #offer} returns false until the receiver drains it.
 *
 * <p>Threading: {@link #offer}, {@link #progress} and the peer-memory methods on the rank's engine
 * thread; a receiving rank's inbox is written by many sender threads (each its own ring), and its exposures
 * read by them.
 */
final class InJvmTransport implements Transport
{
    /** Frames up to this, and up to half the inbox; rendezvous payloads are copied directly, never framed. */
    static final int MAX_FRAME_LENGTH = 1 << 20;
    /** Frames one {@link #progress} takes from one ring: every ring is polled on every call, so none starves. */
    private static final int POLL_LIMIT = 64;

    /** A rank's inbox: the rings from each sender, and who to wake when a frame lands in one. */
    static final class Inbox
    {
        final AtomicReferenceArray<PairChannel> channels;
        /** Rings published so far; the receiver looks for new ones when it changes. */
        final AtomicInteger channelCount = new AtomicInteger();
        /** Bytes of frames waiting in the rings' side queues (frames too long for a ring). */
        final AtomicLong queuedBytes = new AtomicLong();
        final long capacityBytes;
        final Runnable waker;

        Inbox(final int ranks, final long capacityBytes, final Runnable waker)
        {
            this.channels = new AtomicReferenceArray<>(ranks);
            this.capacityBytes = capacityBytes;
            this.waker = waker;
        }

        /** Reserves room for a long frame; false when the inbox is full (an empty inbox takes any frame). */
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

        /** Publishes the ring from {@code sourceRank}. Sender's engine thread, once per pair. */
        void attach(final PairChannel channel)
        {
            channels.set(channel.sourceRank, channel);
            channelCount.incrementAndGet();
        }
    }

    /** Reads ring records into the protocol's handler; one per transport, so polling allocates nothing. */
    final class Reader implements MessageHandler
    {
        PairChannel channel;
        FrameHandler handler;

        @Override
        public void onMessage(final int msgTypeId, final MutableDirectBuffer buffer, final int index, final int length)
        {
            if (msgTypeId == PairChannel.MSG_FRAME)
            {
                handler.onFrame(channel.sourceRank, buffer, index, length);
                return;
            }
            final UnsafeBuffer frame = channel.takeOverflow();
            if (frame == null)
            {
                throw new MpiException(ErrorClass.ERR_INTERN, "in-JVM transport: a long frame from rank " + channel.sourceRank +
                    " is missing from its side queue");
            }
            self.inbox().queuedBytes.addAndGet(-frame.capacity());
            handler.onFrame(channel.sourceRank, frame, 0, frame.capacity());
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
    private final int ringBytes;
    /** This rank's rings to each peer, made on the first frame. */
    private final PairChannel[] outbound;
    /** The rings into this rank it knows of, the most recently active first (a ring that delivers moves to the front). */
    private PairChannel[] inbound = new PairChannel[0];
    private int knownChannels;
    private final Reader reader = new Reader();

    InJvmTransport(final TransportContext context)
    {
        this.context = context;
        this.rank = context.rank();
        this.hub = (Hub)context.jvmShared().computeIfAbsent("jvm.hub", k -> new Hub());
        final Inbox inbox = new Inbox(context.size(), context.params().getLong(InJvmTransportProvider.INBOX_SIZE), context.waker());
        final long ring = context.params().getLong(InJvmTransportProvider.RING_SIZE);
        if (!PairChannel.validRingSize(ring))
        {
            throw new MpiException(ErrorClass.ERR_ARG, "jmpi.jvm.ring.size must be a power of two from 1k to 1g, not " + ring);
        }
        this.ringBytes = (int)ring;
        this.outbound = new PairChannel[context.size()];
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

    /** A frame longer than the ring's largest record goes through the inbox's side queue, in a fresh array. */
    @Override
    public int fastFrameLength()
    {
        return Math.min(maxFrameLength, ringBytes / 8);
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
        PairChannel channel = outbound[dstRank];
        if (channel == null)
        {
            channel = new PairChannel(rank, ringBytes);
            outbound[dstRank] = channel;
            target.attach(channel);
        }
        if (!channel.offer(lengthBytes, writer, target))
        {
            return false;
        }
        // The ring's commit is a release store and the waker reads the receiver's parked flag: without a full fence
        // between them the read may pass the store, while the receiver, which sets the flag before its last poll,
        // misses the frame and parks a whole period (a queue's CAS used to give this order).
        VarHandle.fullFence();
        target.waker.run();
        return true;
    }

    @Override
    public int progress(final FrameHandler handler)
    {
        final Inbox inbox = self.inbox();
        int count = remoteMemory == null ? 0 : remoteMemory.reportCompletions();
        if (inbox.channelCount.get() != knownChannels)
        {
            findChannels(inbox);
        }
        final PairChannel[] channels = inbound;
        reader.handler = handler;
        for (int i = 0; i < channels.length; i++)
        {
            final PairChannel channel = channels[i];
            final int read = channel.read(reader, POLL_LIMIT);
            if (read > 0)
            {
                count += read;
                if (i > 0)
                {
                    System.arraycopy(channels, 0, channels, 1, i);
                    channels[0] = channel;
                }
            }
        }
        return count;
    }

    /** Adds the rings senders published since the last look. */
    private void findChannels(final Inbox inbox)
    {
        knownChannels = inbox.channelCount.get();
        final java.util.ArrayList<PairChannel> found = new java.util.ArrayList<>(java.util.List.of(inbound));
        for (int r = 0; r < inbox.channels.length(); r++)
        {
            final PairChannel channel = inbox.channels.get(r);
            if (channel != null && !found.contains(channel))
            {
                found.add(channel);
            }
        }
        inbound = found.toArray(new PairChannel[0]);
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
