package org.jmpi.internal.pt2pt;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.ManyToOneConcurrentLinkedQueue;
import org.jmpi.ErrorClass;
import org.jmpi.MpiException;
import org.jmpi.internal.engine.ProgressEngine;
import org.jmpi.spi.FrameHandler;
import org.jmpi.spi.PeerMemory;
import org.jmpi.spi.RemoteMemory;
import org.jmpi.spi.Transport;

import java.util.ArrayList;

import static org.jmpi.internal.pt2pt.FrameDescriptor.*;

/**
 * The point-to-point protocol of one rank, as roles: {@link Matcher} (posted and unexpected messages,
 * probes), {@link SendSide} (eager or rendezvous, and the rendezvous path per message), {@link RecvSide}
 * (delivery), the rendezvous paths ({@link FragmentPath}, {@link PeerCopyPath}, {@link SplitCopyPath}) and the
 * choice between them ({@link PathSelector}). This class wires them,
 * dispatches inbound frames by type, and keeps each peer's outbound frames in order under back-pressure.
 * Frames are laid out by {@link FrameDescriptor}; frame types of other layers go to the handler they
 * {@link #register}.
 *
 * <p>Flow control: every eager frame costs its length against a per-peer window; the receiver returns
 * credits when it consumes the message (piggy-backed on any frame back, or a CREDIT frame once half a
 * window is owed). A sender out of window sends by rendezvous, whose envelope holds no payload, so
 * unexpected messages never hold more than one window of a receiver's memory per peer.
 *
 * <p>Threading: engine thread only (see {@link ProgressEngine}).
 */
public final class Protocol implements FrameHandler, ProgressEngine.Pollable
{
    private static final int FRAME_TYPES = 128;

    private final Transport[] transports;
    private final PeerChannel[] peers;
    private final Matcher matcher = new Matcher();
    private final FrameEncoder encoder = new FrameEncoder();
    private final FragmentPath fragments;
    private final SendSide sendSide;
    private final SplitCopyPath splitCopy;
    private final RdmaPath rdma;
    private final PathSelector selector;
    private final RecvSide recvSide;
    private final FrameHandler[] extensions = new FrameHandler[FRAME_TYPES];
    private final ArrayList<PeerChannel> pendingChannels = new ArrayList<>();
    /** Contexts opened (id) and closed (~id) by communicators, on any thread; applied in order by the engine. */
    private final ManyToOneConcurrentLinkedQueue<Integer> contextEvents = new ManyToOneConcurrentLinkedQueue<>();
    private ProgressEngine engine;
    /** The BYE this rank sends once finalize has waited long enough (announceFinalizedAt). Engine thread. */
    private boolean byePending;
    private long byeDeadlineNs;
    private int byeSelf;
    private int byeContext;

    /**
     * @param routes the transport carrying each world rank's traffic (index = world rank).
     */
    public Protocol(final Transport[] routes, final long eagerLimit, final int fragmentSize, final long eagerWindow)
    {
        this.peers = new PeerChannel[routes.length];
        final ArrayList<Transport> distinct = new ArrayList<>();
        final ArrayList<SharedRemoteMemory> shared = new ArrayList<>();
        for (int r = 0; r < routes.length; r++)
        {
            if (!distinct.contains(routes[r]))
            {
                distinct.add(routes[r]);
                final RemoteMemory remote = routes[r].feature(RemoteMemory.class);
                shared.add(remote == null ? null : new SharedRemoteMemory(remote));
            }
            peers[r] = new PeerChannel(r, routes[r], shared.get(distinct.indexOf(routes[r])));
        }
        this.transports = distinct.toArray(new Transport[0]);
        this.selector = new PathSelector(fragmentSize);
        this.fragments = new FragmentPath(this, selector);
        final PeerCopyPath peerCopy = new PeerCopyPath(this, selector, fragments);
        this.splitCopy = new SplitCopyPath(this, peerCopy, fragments, selector);
        this.rdma = new RdmaPath(this, fragments);
        for (final SharedRemoteMemory remote : shared)
        {
            if (remote != null)
            {
                remote.path(rdma);
            }
        }
        final RendezvousPath[] paths = new RendezvousPath[RdmaFrameDescriptor.PATH_RDMA + 1];
        paths[RdmaFrameDescriptor.PATH_RDMA] = rdma;
        paths[PATH_FRAGMENTS] = fragments;
        paths[PATH_PEER_COPY] = peerCopy;
        paths[PATH_SPLIT_COPY] = splitCopy;
        this.sendSide = new SendSide(this, fragments, peerCopy, splitCopy, selector, encoder, eagerLimit, eagerWindow);
        sendSide.rdma(rdma);
        this.recvSide = new RecvSide(this, matcher, paths, eagerWindow);
    }

    /**
     * The PVAS split copy between ranks with peer memory: rendezvous messages of at least {@code minBytes} take it,
     * the receiver starting on {@code fraction} of each. Before any traffic.
     */
    public void splitCopy(final double fraction, final long minBytes)
    {
        splitCopy.split(fraction);
        sendSide.splitMin(minBytes);
    }

    /**
     * How rendezvous messages to ranks with peer memory move ({@code jmpi.pvas.mode}: auto, direct or staged) and,
     * for auto, where the cost model comes from ({@code jmpi.pvas.calibration}: a file, or blank to measure now,
     * which only a rank with a peer reached by peer memory does), and auto's on-line check of the model's choice:
     * {@code samples} timed messages per candidate path of a repeated message (0: off), from its {@code delay}th
     * message, re-checked after {@code recheck} messages (0: never) ({@code jmpi.pvas.online.samples},
     * {@code jmpi.pvas.online.delay}, {@code jmpi.pvas.online.recheck}; docs/pvas.md). Before any traffic.
     *
     * @throws MpiException ERR_ARG for an unknown mode or an unreadable calibration file
     */
    public void pathSelection(final String mode, final String calibration, final int samples, final long recheck, final long delay)
    {
        boolean anyPeerMemory = false;
        for (final PeerChannel ch : peers)
        {
            anyPeerMemory |= ch.peerMemory != null;
        }
        selector.configure(mode, calibration, anyPeerMemory, samples, recheck, delay);
    }

    /**
     * A communicator's own path choice for its point-to-point context {@code contextId}: {@code mode} (auto, direct,
     * staged) and the staged {@code fragment} size (bytes, {@code 8k}), each null or blank for the job's
     * ({@code Comm.setInfo} with the hints {@code jmpi.pvas.mode} and {@code jmpi.fragment.size}). Any thread.
     *
     * @throws MpiException ERR_ARG for an unknown mode or a malformed size
     */
    public void pathHints(final int contextId, final String mode, final String fragment)
    {
        selector.hint(contextId, mode, fragment);
    }

    /**
     * Rendezvous through remote memory (transports with it and without peer memory; {@link RdmaPath}): {@code mode}
     * auto, read, write or off ({@code jmpi.rdma.rendezvous}); under auto, messages of at least {@code readMinBytes}
     * are read by the receiver, smaller ones written by the sender ({@code jmpi.rdma.read.min}); a non-contiguous side
     * whose mean run has at least {@code sgeMinBytes} moves by a scatter-gather list ({@code jmpi.rdma.sge.min}). Before
     * any traffic.
     */
    public void rdmaRendezvous(final String mode, final long readMinBytes, final long sgeMinBytes)
    {
        rdma.configure(mode, readMinBytes, sgeMinBytes);
    }

    /** Rendezvous messages this rank sent by a gather list and received by a scatter list ({@link RdmaSegments}). Engine thread. */
    long[] rdmaSegmented()
    {
        return rdma.segmented();
    }

    /** Rendezvous messages this rank received through remote memory: {@code [by read, by the sender's write]}. Engine thread. */
    public long[] rdmaReceived()
    {
        return new long[] {rdma.reads(), rdma.pushes()};
    }

    /** The {@code jmpi.pvas.stats} line of this rank's rendezvous paths: what went which way and why. Engine thread. */
    public String pathStats(final int rank)
    {
        return selector.format(rank);
    }

    public void engine(final ProgressEngine engine)
    {
        this.engine = engine;
    }

    public ProgressEngine engine()
    {
        return engine;
    }

    /**
     * Routes inbound frames of {@code type} (from {@link FrameDescriptor#FIRST_EXTENSION_TYPE} to 127) to
     * {@code handler}, which reads what follows the common header. Before traffic of that type.
     */
    public void register(final byte type, final FrameHandler handler)
    {
        if (type < FIRST_EXTENSION_TYPE)
        {
            throw new MpiException(ErrorClass.ERR_INTERN, "frame type " + type + " belongs to point-to-point");
        }
        if (extensions[type] != null && extensions[type] != handler)
        {
            throw new MpiException(ErrorClass.ERR_INTERN, "frame type " + type + " already has a handler");
        }
        extensions[type] = handler;
    }

    /** Sends a frame of another layer to {@code dstWorld}, in order with point-to-point frames. Engine thread. */
    public void send(final int dstWorld, final ExtensionFrame frame)
    {
        submit(peers[dstWorld], frame);
    }

    @Override
    public int poll()
    {
        if (!contextEvents.isEmpty())
        {
            applyContextEvents();
        }
        if (byePending && System.nanoTime() - byeDeadlineNs >= 0)
        {
            byePending = false;
            announceFinalized(byeSelf, byeContext);
        }
        int work = 0;
        for (final Transport t : transports)
        {
            work += t.progress(this);
        }
        if (!pendingChannels.isEmpty())
        {
            work += flushChannels();
        }
        return work;
    }

    /** Payload bytes of eager messages held as unexpected (bounded by the eager window per peer). Engine thread. */
    public long bufferedUnexpectedBytes()
    {
        return recvSide.bufferedBytes();
    }

    /** Rendezvous messages this rank sent by {@code path} ({@link FrameDescriptor#PATH_FRAGMENTS}...). Engine thread. */
    public long rendezvousSent(final byte path)
    {
        return sendSide.rendezvousSent(path);
    }

    /** The name of the transport that carries traffic to {@code worldRank}. */
    public String transportName(final int worldRank)
    {
        return peers[worldRank].transport.name();
    }

    /** Whether the transport reaching {@code worldRank} offers peer memory. */
    public boolean hasPeerMemory(final int worldRank)
    {
        return peers[worldRank].peerMemory != null;
    }

    /** The peer memory of the transport reaching {@code worldRank}, or null when it has none. */
    public PeerMemory peerMemory(final int worldRank)
    {
        return peers[worldRank].peerMemory;
    }

    /** The remote memory of the transport reaching {@code worldRank}, or null when it has none. */
    public RemoteMemory remoteMemory(final int worldRank)
    {
        return peers[worldRank].remoteMemory;
    }

    /** The largest frame the transport reaching {@code worldRank} takes. */
    public int maxFrameLength(final int worldRank)
    {
        return peers[worldRank].maxFrameLength;
    }

    /** Size of the world (ranks this protocol has a channel to). */
    public int worldSize()
    {
        return peers.length;
    }

    /** Whether frames still wait for room in a transport (finalize drains them). */
    public boolean hasPendingOutput()
    {
        return !pendingChannels.isEmpty();
    }

    /**
     * This rank finalized: from {@code deadlineNs} on (if the engine still runs then, its finalize barrier waiting
     * for a peer), tells every other rank, behind everything already sent to it, so that a receive waiting for this
     * rank alone fails instead of waiting forever. Not at once: a rank that finalizes because its code threw must
     * first get its exception out and end the job (RankRuntime.finish). {@code barrierContext} is the context of the
     * finalize barrier, whose messages still flow. Engine thread.
     */
    public void announceFinalizedAt(final int selfWorld, final int barrierContext, final long deadlineNs)
    {
        byeSelf = selfWorld;
        byeContext = barrierContext;
        byeDeadlineNs = deadlineNs;
        byePending = true;
    }

    private void announceFinalized(final int selfWorld, final int barrierContext)
    {
        for (final PeerChannel ch : peers)
        {
            if (ch.worldRank != selfWorld)
            {
                submit(ch, ControlFrame.bye(barrierContext));
            }
        }
    }

    // ---------------------------------------------------------------- posting (engine thread)

    void postSend(final SendRequestImpl s)
    {
        sendSide.postSend(s, peers[s.destWorld]);
    }

    void postRecv(final RecvRequestImpl r)
    {
        recvSide.postRecv(r);
    }

    /** Receives a message taken by mprobe. */
    void postMatchedRecv(final RecvRequestImpl r, final Unexpected u)
    {
        recvSide.consume(u, r);
    }

    void postProbe(final ProbeRequestImpl p)
    {
        recvSide.postProbe(p);
    }

    /** The first unexpected message matching, left in place; null when none. */
    Unexpected findUnexpected(final int contextId, final int source, final int tag)
    {
        return matcher.findUnexpected(contextId, source, tag);
    }

    void removeUnexpected(final Unexpected u)
    {
        matcher.removeUnexpected(u);
    }

    void cancel(final RecvRequestImpl r)
    {
        engine.execute(() ->
        {
            if (matcher.cancel(r))
            {
                r.completeCancelled();
            }
        });
    }

    /**
     * A communicator took context {@code contextId} (new, or an id reused after every rank freed it). Any
     * thread: applied by the engine before its next poll of the transports, in order with {@link #contextClosed}.
     */
    public void contextOpened(final int contextId)
    {
        contextEvents.offer(contextId);
    }

    /**
     * The communicator of context {@code contextId} was freed on this rank: receives it posted before the
     * free still complete (MPI 4.1 section 7.4.3), but frames no receive takes are dropped with a diagnostic,
     * never kept, until the id is opened again. Any thread, in order with {@link #contextOpened}.
     */
    public void contextClosed(final int contextId)
    {
        contextEvents.offer(~contextId);
    }

    /** Applies the communicators' open and close events in the order they were made. Engine thread. */
    private void applyContextEvents()
    {
        Integer event;
        while ((event = contextEvents.poll()) != null)
        {
            if (event >= 0)
            {
                recvSide.openContext(event);
            }
            else
            {
                recvSide.closeContext(~event);
            }
        }
    }

    PeerChannel channel(final int worldRank)
    {
        return peers[worldRank];
    }

    // ---------------------------------------------------------------- inbound frames

    @Override
    public void onFrame(final int srcRank, final DirectBuffer buffer, final int index, final int lengthBytes)
    {
        final PeerChannel ch = peers[srcRank];
        final int credits = buffer.getInt(index + CREDITS_OFFSET, BYTE_ORDER);
        if (credits != 0)
        {
            ch.eagerOutstanding -= credits;
        }
        final byte type = buffer.getByte(index + TYPE_OFFSET);
        switch (type)
        {
            case TYPE_EAGER -> recvSide.onEnvelope(ch, buffer, index, lengthBytes, false);
            case TYPE_RTS -> recvSide.onEnvelope(ch, buffer, index, lengthBytes, true);
            case TYPE_CTS -> sendSide.onCts(ch, buffer.getLong(index + CTS_SENDER_REQUEST_OFFSET, BYTE_ORDER),
                buffer.getLong(index + CTS_RECEIVER_REQUEST_OFFSET, BYTE_ORDER), buffer.getLong(index + CTS_ACCEPT_OFFSET, BYTE_ORDER),
                (buffer.getShort(index + RESERVED_OFFSET, BYTE_ORDER) & 0xFFFF) * FRAGMENT_UNIT, buffer.getByte(index + FLAGS_OFFSET));
            case TYPE_DATA -> fragments.onData(srcRank, buffer, index);
            case TYPE_ACK -> sendSide.onReply(ch, buffer.getLong(index + REPLY_SENDER_REQUEST_OFFSET, BYTE_ORDER), false, (byte)0, 0);
            case TYPE_FIN -> sendSide.onReply(ch, buffer.getLong(index + REPLY_SENDER_REQUEST_OFFSET, BYTE_ORDER), true,
                buffer.getByte(index + FLAGS_OFFSET), (buffer.getShort(index + RESERVED_OFFSET, BYTE_ORDER) & 0xFFFF) * FRAGMENT_UNIT);
            case TYPE_SPLIT -> sendSide.onSplit(ch, buffer, index, lengthBytes);
            case TYPE_CREDIT ->
            {
            }
            case TYPE_BYE -> recvSide.onPeerFinalized(ch, buffer.getInt(index + BYE_CONTEXT_OFFSET, BYTE_ORDER));
            case RdmaFrameDescriptor.TYPE_RDMA_CTS -> sendSide.onRdmaCts(ch, buffer, index);
            case RdmaFrameDescriptor.TYPE_RDMA_DONE -> rdma.onDone(ch, buffer, index);
            default -> onExtension(srcRank, buffer, index, lengthBytes, type);
        }
    }

    private void onExtension(final int srcRank, final DirectBuffer buffer, final int index, final int lengthBytes, final byte type)
    {
        final FrameHandler handler = type >= FIRST_EXTENSION_TYPE ? extensions[type] : null;
        if (handler == null)
        {
            throw new MpiException(ErrorClass.ERR_INTERN,
                "unknown protocol frame type " + type + " from rank " + srcRank + ", length=" + lengthBytes);
        }
        handler.onFrame(srcRank, buffer, index, lengthBytes);
    }

    // ---------------------------------------------------------------- outbound frames

    /** Emits {@code item} now if nothing waits before it on {@code ch}, else queues it in order. */
    void submit(final PeerChannel ch, final Outbound item)
    {
        if (ch.queue.isEmpty() && item.emit(this, ch))
        {
            return;
        }
        ch.queue.addLast(item);
        if (!ch.pending)
        {
            ch.pending = true;
            pendingChannels.add(ch);
        }
    }

    /** Emits what waits on each channel; the work is the items finished plus the fragments of streams still going. */
    private int flushChannels()
    {
        final long streamedBefore = fragments.streamed();
        int work = 0;
        for (int i = pendingChannels.size() - 1; i >= 0; i--)
        {
            final PeerChannel ch = pendingChannels.get(i);
            Outbound head;
            while ((head = ch.queue.peekFirst()) != null && head.emit(this, ch))
            {
                ch.queue.pollFirst();
                work++;
            }
            if (ch.queue.isEmpty())
            {
                ch.pending = false;
                final int last = pendingChannels.size() - 1;
                pendingChannels.set(i, pendingChannels.get(last));
                pendingChannels.remove(last);
            }
        }
        return work + (int)(fragments.streamed() - streamedBefore);
    }

    boolean emitSend(final SendRequestImpl s, final PeerChannel ch)
    {
        return sendSide.emit(s, ch);
    }

    boolean emitControl(final ControlFrame frame, final PeerChannel ch)
    {
        encoder.control(frame, ch);
        if (!ch.transport.offer(ch.worldRank, frame.length(), encoder))
        {
            return false;
        }
        if (frame.type == TYPE_CREDIT)
        {
            ch.creditFrameQueued = false;
        }
        return true;
    }

    boolean emitExtension(final ExtensionFrame frame, final PeerChannel ch)
    {
        encoder.extension(frame, ch);
        return ch.transport.offer(ch.worldRank, frame.frameLength(), encoder);
    }
}
