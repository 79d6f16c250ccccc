package org.jmpi.transport.verbs;

import org.agrona.concurrent.UnsafeBuffer;
import org.jmpi.ErrorClass;
import org.jmpi.MpiException;
import org.jmpi.spi.Bootstrap;
import org.jmpi.spi.FrameHandler;
import org.jmpi.spi.FrameWriter;
import org.jmpi.spi.RemoteMemory;
import org.jmpi.spi.Transport;
import org.jmpi.spi.TransportContext;
import org.jmpi.transport.verbs.ibv.CompletionQueue;
import org.jmpi.transport.verbs.ibv.Ibv;
import org.jmpi.transport.verbs.ibv.IbvLibrary;
import org.jmpi.transport.verbs.ibv.MemoryRegion;
import org.jmpi.transport.verbs.ibv.NativeBlock;
import org.jmpi.transport.verbs.ibv.PortAttributes;
import org.jmpi.transport.verbs.ibv.QueuePair;
import org.jmpi.transport.verbs.ibv.QueuePairAddress;
import org.jmpi.transport.verbs.ibv.RecvRequests;
import org.jmpi.transport.verbs.ibv.SendRequests;
import org.jmpi.transport.verbs.ibv.VerbsContext;
import org.jmpi.transport.verbs.ibv.VerbsException;
import org.jmpi.transport.verbs.ibv.WorkCompletions;

import java.security.SecureRandom;

/**
 * Frames between ranks over RDMA verbs: one reliable-connected queue pair per peer, all completing on one
 * completion queue polled in {@link #progress}.
 * <ol>
 * <li>Open: open the device, register the credit words, create the completion queue, publish a
 * {@link ConnectionRecord} on the bootstrap and read every peer's. Pairs connect later, on the {@link Connector}'s
 * helper threads: at a pair's first message (lazy) or before open returns (eager). Frames offered to a peer before
 * its pair is connected wait in order in {@link PendingFrames} and go out from {@link #progress} once it is.</li>
 * <li>{@link #offer}: if the peer has a credit (frames sent minus frames it consumed, read from this rank's
 * credit word for it, below {@code slots}) and a send slot is free, the writer writes into the slot and a
 * SEND (with immediate {@link #IMM_FRAME}) goes out; else back-pressure ({@code false}).</li>
 * <li>{@link #progress}: poll completions; a received frame goes to the handler straight from its receive
 * buffer, which is then posted again; once {@code slots / 2} frames from a peer were consumed since the
 * last update, an RDMA WRITE puts the consumed count into the peer's credit word for this rank (no receive
 * buffer used: credits need no credits).</li>
 * <li>A failed completion (transport retry exceeded: the peer's queue pair is gone) is that rank's death,
 * ERR_OTHER naming it; after a peer's BYE its errors are ignored. {@link #close}: BYE to every peer (the
 * extra receive buffer takes it), wait a bounded time for the device's acknowledgements, destroy.</li>
 * </ol>
 *
 * <p>Threading: the rank's progress owner only, as the SPI says; {@link #wakeup} is a no-op (the engine polls).
 * The transport owns all its native memory; the device reads and writes it until {@link #close}.
 */
final class VerbsTransport implements Transport
{
    /** Immediate data of a frame; of the BYE at close. */
    static final int IMM_FRAME = 0;
    static final int IMM_BYE = 1;
    /** Immediate data of the transport's own remote-memory messages ({@link StagedMessageDescriptor}). */
    static final int IMM_STAGED = 2;
    static final int MIN_FRAME_LENGTH = 36 * 1024;
    /** Inline data asked of the device per send: core's small frames (an 8-byte message's frame is under 100 bytes). */
    static final int INLINE_BYTES = 128;
    private static final int ACCESS = Ibv.ACCESS_LOCAL_WRITE | Ibv.ACCESS_REMOTE_WRITE | Ibv.ACCESS_REMOTE_READ | Ibv.ACCESS_REMOTE_ATOMIC;
    private static final long CLOSE_TIMEOUT_NS = 2_000_000_000L;
    private static final int POLL_BATCH = 32;

    private final int rank;
    private final int size;
    private final int slots;
    private final int frameLength;
    private final int creditBatch;
    private final VerbsContext device;
    private final CompletionQueue cq;
    private final Peer[] peers;
    private final NativeBlock creditBlock;
    private final NativeBlock creditOutBlock;
    private final MemoryRegion creditMr;
    private final MemoryRegion creditOutMr;
    private final UnsafeBuffer creditView;
    private final UnsafeBuffer creditOutView;
    private final SendRequests sends;
    private final RecvRequests recvs = new RecvRequests(1);
    private final WorkCompletions wcs = new WorkCompletions(POLL_BATCH);
    private final VerbsRemoteMemory remoteMemory;
    private final int rmaDepth;
    /** Scatter-gather entries per RDMA WRITE and per RDMA READ ({@code jmpi.verbs.sge}, capped by the device). */
    private final int writeSge;
    private final int readSge;
    private final int port;
    private final int timeout;
    private final int gidIndex;
    private final byte[] gid;
    private final PortAttributes portAttributes;
    private final boolean global;
    private final Connector connector;
    private ConnectionRecord[] records;
    /** Peers with frames waiting for their pair to connect. */
    private int pendingPeers;
    private boolean polling;
    private boolean closed;

    VerbsTransport(final TransportContext context)
    {
        this.rank = context.rank();
        this.size = context.size();
        if (size - 1 > WorkRequestIds.MAX_PEER)
        {
            throw new MpiException(ErrorClass.ERR_OTHER, "verbs: " + size + " ranks exceed " + WorkRequestIds.MAX_PEER);
        }
        this.slots = context.params().getInt(VerbsParams.SLOTS);
        this.frameLength = context.params().getInt(VerbsParams.FRAME);
        if (slots < 1 || frameLength < MIN_FRAME_LENGTH)
        {
            throw new MpiException(ErrorClass.ERR_ARG, "verbs: " + VerbsParams.SLOTS.name() + "=" + slots + " (at least 1), " +
                VerbsParams.FRAME.name() + "=" + frameLength + " (at least " + MIN_FRAME_LENGTH + ")");
        }
        this.creditBatch = Math.max(1, slots / 2);
        final int bounceSlots = context.params().getInt(VerbsParams.BOUNCE_SLOTS);
        final int bounceBytes = context.params().getInt(VerbsParams.BOUNCE_BYTES);
        if (bounceSlots < 1 || bounceBytes < 1 || (long)bounceSlots * bounceBytes > Integer.MAX_VALUE)
        {
            throw new MpiException(ErrorClass.ERR_ARG, "verbs: " + VerbsParams.BOUNCE_SLOTS.name() + "=" + bounceSlots + " and " +
                VerbsParams.BOUNCE_BYTES.name() + "=" + bounceBytes + ": each at least 1, together under 2 GiB");
        }
        this.timeout = context.params().getInt(VerbsParams.TIMEOUT);
        this.rmaDepth = context.params().getInt(VerbsParams.RMA_DEPTH);
        this.port = context.params().getInt(VerbsParams.PORT);
        final String connect = context.params().get(VerbsParams.CONNECT).trim();
        if (!connect.equals("lazy") && !connect.equals("eager"))
        {
            throw new MpiException(ErrorClass.ERR_ARG, "verbs: " + VerbsParams.CONNECT.name() + "=" + connect + " is neither lazy nor eager");
        }
        try
        {
            this.device = VerbsContext.open(IbvLibrary.load(context.params().get(VerbsParams.LIBRARY)), context.params().get(VerbsParams.DEVICE), port);
        }
        catch (final VerbsException | UnsatisfiedLinkError ex)
        {
            throw new MpiException(ErrorClass.ERR_OTHER, "verbs: rank " + rank + " cannot open the device: " + ex.getMessage(), ex);
        }
        try
        {
            this.portAttributes = device.portAttributes();
            this.gidIndex = GidChoice.choose(device, context.params().get(VerbsParams.GID_INDEX));
            this.gid = device.gid(gidIndex);
            this.global = portAttributes.linkLayer() == Ibv.LINK_LAYER_ETHERNET || !allZero(gid);
            final int sge = context.params().getInt(VerbsParams.SGE);
            if (sge < 1)
            {
                throw new MpiException(ErrorClass.ERR_ARG, "verbs: " + VerbsParams.SGE.name() + "=" + sge + " (at least 1)");
            }
            this.writeSge = Math.max(1, Math.min(sge, device.device().maxSge()));
            this.readSge = Math.max(1, Math.min(writeSge, device.device().maxSgeRd()));
            this.sends = new SendRequests(1, writeSge);
            final long recvPerPeer = (long)(slots + 1) * frameLength;
            if (recvPerPeer > Integer.MAX_VALUE)
            {
                throw new MpiException(ErrorClass.ERR_ARG, "verbs: " + (slots + 1) + " slots * " + frameLength +
                    " bytes exceed 2 GiB of buffers per peer; lower " + VerbsParams.SLOTS.name() + " or " + VerbsParams.FRAME.name());
            }
            creditBlock = new NativeBlock(Long.BYTES * size);
            creditOutBlock = new NativeBlock(Long.BYTES * size);
            creditBlock.clear();
            creditMr = device.register(creditBlock, Ibv.ACCESS_LOCAL_WRITE | Ibv.ACCESS_REMOTE_WRITE);
            creditOutMr = device.register(creditOutBlock, Ibv.ACCESS_LOCAL_WRITE);
            creditView = new UnsafeBuffer(creditBlock.address(), creditBlock.lengthBytes());
            creditOutView = new UnsafeBuffer(creditOutBlock.address(), creditOutBlock.lengthBytes());
            final int perPeerCqe = 2 * slots + 3 + rmaDepth;
            cq = device.createCompletionQueue(Math.min(device.device().maxCqe(), Math.max(1, size - 1) * perPeerCqe), null);
            peers = new Peer[size];
            for (int r = 0; r < size; r++)
            {
                peers[r] = r == rank ? null : new Peer(r);
            }
            final byte[] secret = new byte[ConnectDescriptor.SECRET_LENGTH];
            new SecureRandom().nextBytes(secret);
            connector = new Connector(this, rank, ConnectAddress.choose(gid), secret, context.initTimeoutNs());
            final Bootstrap bootstrap = context.bootstrap();
            bootstrap.put("verbs." + rank, new ConnectionRecord(portAttributes.lid(), gid, portAttributes.activeMtu(), creditBlock.address(),
                creditMr.rkey(), connector.address().getAddress().getHostAddress(), connector.address().getPort(), secret).encode());
            records = new ConnectionRecord[size];
            for (int r = 0; r < size; r++)
            {
                if (r != rank)
                {
                    records[r] = ConnectionRecord.decode(r, bootstrap.get("verbs." + r, context.initTimeoutNs()));
                    peers[r].remoteCreditAddress = records[r].creditAddress() + (long)Long.BYTES * rank;
                    peers[r].remoteCreditRkey = records[r].creditRkey();
                }
            }
            connector.start(records);
            remoteMemory = new VerbsRemoteMemory(this, device, rmaDepth, size, context.params().getLong(VerbsParams.RCACHE_BYTES),
                context.params().getInt(VerbsParams.RCACHE_ENTRIES), bounceSlots, bounceBytes, context.params().get(VerbsParams.ATOMICS));
        }
        catch (final VerbsException ex)
        {
            final MpiException failure = new MpiException(ErrorClass.ERR_OTHER, "verbs: rank " + rank + " cannot set up: " + ex.getMessage(), ex);
            closeQuietly(device);
            throw failure;
        }
        if (connect.equals("eager"))
        {
            connectAll(System.nanoTime() + context.initTimeoutNs());
        }
    }

    /**
     * Eager mode: asks for a connection to every higher rank (the lower ones ask this one) and waits until every pair
     * is connected. @throws MpiException ERR_OTHER naming a peer that cannot be connected, or on timeout.
     */
    private void connectAll(final long deadlineNs)
    {
        for (int r = rank + 1; r < size; r++)
        {
            peers[r].requested = true;
            connector.request(r);
        }
        for (final Peer p : peers)
        {
            while (p != null && p.state != Peer.CONNECTED)
            {
                if (p.state == Peer.FAILED || System.nanoTime() > deadlineNs)
                {
                    final MpiException failure = gone(p, p.state == Peer.FAILED ? p.failure : "not connected within the init timeout");
                    close();
                    throw failure;
                }
                Thread.onSpinWait();
                Thread.yield();
            }
        }
    }

    /** The peer record of {@code r} (the connector's threads). */
    Peer peerSlot(final int r)
    {
        return peers[r];
    }

    /**
     * The connector's threads, holding {@code p}'s lock: the pair's frame buffers (registered), its queue pair in INIT
     * with every receive buffer posted, and its first PSN. Undone on failure.
     */
    void setUp(final Peer p)
    {
        try
        {
            p.sendBlock = new NativeBlock(slots * frameLength);
            p.recvBlock = new NativeBlock((slots + 1) * frameLength);
            p.sendMr = device.register(p.sendBlock, Ibv.ACCESS_LOCAL_WRITE);
            p.recvMr = device.register(p.recvBlock, Ibv.ACCESS_LOCAL_WRITE);
            p.sendView = new UnsafeBuffer(p.sendBlock.address(), p.sendBlock.lengthBytes());
            p.recvView = new UnsafeBuffer(p.recvBlock.address(), p.recvBlock.lengthBytes());
            p.qp = createQueuePair(slots + 2 + rmaDepth, slots + 1);
            p.qp.toInit(port, ACCESS);
            final RecvRequests initial = new RecvRequests(1);
            for (int slot = 0; slot <= slots; slot++)
            {
                postRecv(p, slot, initial);
            }
            p.psn = new SecureRandom().nextInt(1 << 24);
        }
        catch (final RuntimeException ex)
        {
            releasePeer(p);
            throw ex;
        }
    }

    /** The connector's threads, holding {@code p}'s lock: RTR and RTS towards the peer's queue pair {@code qpn}, first PSN {@code psn}. */
    void connect(final Peer p, final int qpn, final int remotePsn)
    {
        final ConnectionRecord theirs = records[p.rank];
        p.qp.connect(port, global ? gidIndex : -1, Math.min(portAttributes.activeMtu(), theirs.mtu()), ACCESS,
            Math.max(1, Math.min(device.device().maxQpRdAtomic(), 16)), new QueuePairAddress(p.qp.qpNumber(), portAttributes.lid(), gid, p.psn),
            new QueuePairAddress(qpn, theirs.lid(), theirs.gid(), remotePsn), timeout);
    }

    /**
     * Whether {@code p} is connected (the rank's thread); if not, asks the connector once and answers false
     * (back-pressure until it is). @throws MpiException ERR_OTHER when its connection failed.
     */
    boolean ready(final Peer p)
    {
        if (p.connected)
        {
            return true;
        }
        final int state = p.state;
        if (state == Peer.CONNECTED)
        {
            p.connected = true;
            return true;
        }
        if (state == Peer.FAILED)
        {
            throw gone(p, p.failure);
        }
        if (!p.requested)
        {
            p.requested = true;
            connector.request(p.rank);
        }
        return false;
    }

    /**
     * A queue pair whose small frames go inline (the device copies them at post time, saving it a DMA read
     * of the slot): {@link #INLINE_BYTES} asked for, what the device grants used; without inline support, none.
     */
    private QueuePair createQueuePair(final int maxSendWr, final int maxRecvWr)
    {
        try
        {
            return device.createQueuePair(cq, cq, maxSendWr, maxRecvWr, writeSge, INLINE_BYTES);
        }
        catch (final VerbsException ex)
        {
            return device.createQueuePair(cq, cq, maxSendWr, maxRecvWr, writeSge, 0);
        }
    }

    private static boolean allZero(final byte[] gid)
    {
        for (final byte b : gid)
        {
            if (b != 0)
            {
                return false;
            }
        }
        return true;
    }

    private void postRecv(final Peer p, final int slot, final RecvRequests requests)
    {
        requests.prepare(0, WorkRequestIds.of(WorkRequestIds.RECV, p.rank, slot), p.recvMr.address() + (long)slot * frameLength, frameLength,
            p.recvMr.lkey());
        final int rc = p.qp.post(requests, 0, 1);
        if (rc != 0)
        {
            throw new MpiException(ErrorClass.ERR_INTERN, "verbs: rank " + rank + " cannot post a receive for rank " + p.rank + " (errno " + rc + ")");
        }
    }

    @Override
    public String name()
    {
        return VerbsTransportProvider.NAME;
    }

    @Override
    public int maxFrameLength()
    {
        return frameLength;
    }

    @Override
    public boolean reaches(final int r)
    {
        return r >= 0 && r < size && r != rank;
    }

    @Override
    public boolean offer(final int dstRank, final int lengthBytes, final FrameWriter writer)
    {
        return offer(dstRank, lengthBytes, writer, IMM_FRAME);
    }

    /** Offers one of the remote memory's own messages (not core's: the receiver's transport takes it); as {@link #offer}. */
    boolean offerStaged(final int dstRank, final int lengthBytes, final FrameWriter writer)
    {
        return offer(dstRank, lengthBytes, writer, IMM_STAGED);
    }

    private boolean offer(final int dstRank, final int lengthBytes, final FrameWriter writer, final int immediate)
    {
        if (closed || !reaches(dstRank) || lengthBytes < 0 || lengthBytes > frameLength)
        {
            throw new MpiException(ErrorClass.ERR_INTERN, "verbs: bad offer: rank=" + rank + ", dst=" + dstRank + ", length=" +
                lengthBytes + ", maxFrameLength=" + frameLength + (closed ? ", after close" : ""));
        }
        final Peer p = peers[dstRank];
        if (p.failed)
        {
            throw gone(p, "its queue pair failed earlier");
        }
        if (!ready(p) || p.pending != null && !flushPending(p))
        {
            // Not connected yet (or earlier frames still wait): kept in order until it is.
            if (p.pending == null)
            {
                p.pending = new PendingFrames(slots, frameLength);
                pendingPeers++;
            }
            if (p.pending.isFull())
            {
                return false;
            }
            p.pending.add(lengthBytes, writer, immediate);
            return true;
        }
        if (!canSend(p))
        {
            return false;
        }
        final int offset = (int)(p.sent % slots) * frameLength;
        writer.write(p.sendView, offset, lengthBytes);
        send(p, offset, lengthBytes, immediate);
        return true;
    }

    /** Whether {@code p} has a credit and a free send slot. */
    private boolean canSend(final Peer p)
    {
        final long peerConsumed = creditView.getLongVolatile(Long.BYTES * p.rank);
        return p.sent - peerConsumed < slots && p.sent - p.sendCompleted < slots;
    }

    /** Posts the frame written at {@code offset} of {@code p}'s send slots (the slot of {@code p.sent}). */
    private void send(final Peer p, final int offset, final int lengthBytes, final int immediate)
    {
        sends.prepareSend(0, WorkRequestIds.of(WorkRequestIds.SEND, p.rank, (int)(p.sent % slots)), p.sendMr.address() + offset, lengthBytes,
            p.sendMr.lkey(), lengthBytes <= p.qp.maxInlineBytes() ? Ibv.SEND_SIGNALED | Ibv.SEND_INLINE : Ibv.SEND_SIGNALED, true, immediate);
        post(p, "a frame");
        p.sent++;
    }

    /** Posts {@code p}'s pending frames while it has credits (connected); true when none is left (then dropped). */
    private boolean flushPending(final Peer p)
    {
        final PendingFrames pending = p.pending;
        while (!pending.isEmpty())
        {
            if (!canSend(p))
            {
                return false;
            }
            final int offset = (int)(p.sent % slots) * frameLength;
            final int lengthBytes = pending.headLength();
            final int immediate = pending.headImmediate();
            pending.moveHead(p.sendView, offset);
            send(p, offset, lengthBytes, immediate);
        }
        p.pending = null;
        pendingPeers--;
        return true;
    }

    /**
     * Progress of frames offered before their pair connected: posted once it is; a pair that failed to connect drops
     * them and reports the peer's death (once; later offers to it report it again).
     */
    private int flushPendingPeers()
    {
        int work = 0;
        for (final Peer p : peers)
        {
            if (p == null || p.pending == null)
            {
                continue;
            }
            if (p.state == Peer.FAILED)
            {
                p.pending = null;
                pendingPeers--;
                throw gone(p, p.failure);
            }
            if (ready(p))
            {
                work += flushPending(p) ? 1 : 0;
            }
        }
        return work;
    }

    /** Posts {@code sends[0]} on {@code p}'s queue pair. */
    void post(final Peer p, final String what)
    {
        final int rc = p.qp.post(sends, 0, 1);
        if (rc != 0)
        {
            throw new MpiException(ErrorClass.ERR_INTERN, "verbs: rank " + rank + " cannot post " + what + " to rank " + p.rank +
                " (errno " + rc + ")");
        }
    }

    SendRequests sends()
    {
        return sends;
    }

    Peer peer(final int r)
    {
        return reaches(r) ? peers[r] : null;
    }

    int rank()
    {
        return rank;
    }

    /** RDMA operations in flight per peer at most ({@code jmpi.verbs.rma.depth}). */
    int rmaDepth()
    {
        return rmaDepth;
    }

    /** Scatter-gather entries a work request may carry: an RDMA READ ({@code read}) or WRITE. */
    int sge(final boolean read)
    {
        return read ? readSge : writeSge;
    }

    /** The remote-memory feature (tests). */
    VerbsRemoteMemory remoteMemory()
    {
        return remoteMemory;
    }

    @Override
    public int progress(final FrameHandler handler)
    {
        if (polling || closed)
        {
            return 0;
        }
        polling = true;
        try
        {
            int work = 0;
            int polled;
            do
            {
                polled = cq.poll(wcs, POLL_BATCH);
                for (int i = 0; i < polled; i++)
                {
                    work += complete(i, handler);
                }
            }
            while (polled == POLL_BATCH);
            if (pendingPeers > 0)
            {
                work += flushPendingPeers();
            }
            return work + remoteMemory.drive();
        }
        catch (final VerbsException ex)
        {
            throw new MpiException(ErrorClass.ERR_OTHER, "verbs: rank " + rank + ": " + ex.getMessage(), ex);
        }
        finally
        {
            polling = false;
        }
    }

    /**
     * Handles completion {@code i}; returns the work it was for the caller: a frame delivered, a put or get completed, or
     * a send slot freed while every slot was taken (an offer may have been refused). The device's acknowledgements of
     * frames, credit updates and BYEs are bookkeeping: they arrive whenever the device gets to them, also long after the
     * last frame, and counting them would make an idle transport look busy.
     */
    private int complete(final int i, final FrameHandler handler)
    {
        final long wrId = wcs.wrId(i);
        final int kind = WorkRequestIds.kind(wrId);
        final Peer p = peers[WorkRequestIds.peer(wrId)];
        if (!p.connected && p.state == Peer.CONNECTED)
        {
            p.connected = true; // the volatile read publishes the connector's writes to this thread
        }
        final int status = wcs.status(i);
        if (status != Ibv.WC_SUCCESS)
        {
            failed(p, kind, WorkRequestIds.index(wrId), status);
            return kind == WorkRequestIds.RMA || kind == WorkRequestIds.BOUNCE ? 1 : 0; // a failed put or get completed its request
        }
        return switch (kind)
        {
            case WorkRequestIds.RECV ->
            {
                final int slot = WorkRequestIds.index(wrId);
                final int immediate = wcs.immediate(i);
                if (immediate == IMM_BYE)
                {
                    p.byeReceived = true;
                    yield 0;
                }
                if (immediate == IMM_STAGED)
                {
                    remoteMemory.staged().onMessage(p.rank, p.recvView, slot * frameLength, wcs.byteLength(i));
                }
                else
                {
                    handler.onFrame(p.rank, p.recvView, slot * frameLength, wcs.byteLength(i));
                }
                postRecv(p, slot, recvs);
                p.consumed++;
                returnCredits(p);
                yield 1;
            }
            case WorkRequestIds.SEND ->
            {
                final boolean slotsWereFull = p.sent - p.sendCompleted >= slots;
                p.sendCompleted++;
                yield slotsWereFull ? 1 : 0;
            }
            case WorkRequestIds.CREDIT ->
            {
                p.creditInFlight = false;
                returnCredits(p);
                yield 0;
            }
            case WorkRequestIds.BYE ->
            {
                p.byeAcked = true;
                yield 0;
            }
            case WorkRequestIds.RMA ->
            {
                p.rmaInFlight--;
                remoteMemory.staged().onDirectComplete(WorkRequestIds.index(wrId), null);
                yield 1;
            }
            case WorkRequestIds.BOUNCE ->
            {
                p.rmaInFlight--;
                remoteMemory.staged().onBounceComplete(WorkRequestIds.index(wrId), null);
                yield 1;
            }
            default -> throw new MpiException(ErrorClass.ERR_INTERN, "verbs: completion of unknown kind " + kind + " on rank " + rank);
        };
    }

    /** Writes {@code p}'s consumed count into its credit word for this rank, when a batch is due and none is in flight. */
    private void returnCredits(final Peer p)
    {
        if (p.creditInFlight || p.byeReceived || p.failed || p.consumed - p.creditWritten < creditBatch)
        {
            return;
        }
        final int at = Long.BYTES * p.rank;
        creditOutView.putLong(at, p.consumed);
        sends.prepareRdma(0, WorkRequestIds.of(WorkRequestIds.CREDIT, p.rank, 0), false, creditOutMr.address() + at, Long.BYTES,
            creditOutMr.lkey(), p.remoteCreditAddress, p.remoteCreditRkey, Ibv.SEND_SIGNALED);
        post(p, "credits");
        p.creditWritten = p.consumed;
        p.creditInFlight = true;
    }

    /**
     * A work request of {@code p} failed. After the peer's BYE (or while closing) that is its queue pair going
     * away. A failed put or get is reported to its caller (a wrong key: remote access error) and leaves the
     * queue pair in error, so later frames to the peer fail in {@link #offer}. Anything else is the peer's
     * death, thrown once (the requests flushed after it are its echo).
     */
    private void failed(final Peer p, final int kind, final int index, final int status)
    {
        final boolean rma = kind == WorkRequestIds.RMA || kind == WorkRequestIds.BOUNCE;
        if (rma)
        {
            p.rmaInFlight--;
            final MpiException failure = new MpiException(ErrorClass.ERR_OTHER,
                "verbs: put/get to rank " + p.rank + " failed: " + Ibv.wcStatus(status) + " (seen by rank " + rank + ")");
            if (kind == WorkRequestIds.RMA)
            {
                remoteMemory.staged().onDirectComplete(index, failure);
            }
            else
            {
                remoteMemory.staged().onBounceComplete(index, failure);
            }
        }
        if (p.byeReceived || closed)
        {
            return;
        }
        final boolean first = !p.failed;
        p.failed = true;
        if (rma && first)
        {
            return;
        }
        if (first || status != Ibv.WC_WR_FLUSH_ERR)
        {
            throw gone(p, Ibv.wcStatus(status) + " on a " + kindName(kind));
        }
    }

    private static String kindName(final int kind)
    {
        return switch (kind)
        {
            case WorkRequestIds.RECV -> "receive";
            case WorkRequestIds.SEND -> "frame";
            case WorkRequestIds.CREDIT -> "credit update";
            case WorkRequestIds.BYE -> "BYE";
            default -> "put/get";
        };
    }

    private MpiException gone(final Peer p, final String why)
    {
        return new MpiException(ErrorClass.ERR_OTHER, "verbs: rank " + p.rank + " is gone (" + why + ", seen by rank " + rank + ")");
    }

    @Override
    public void wakeup()
    {
        // The engine never blocks inside this transport.
    }

    @Override
    @SuppressWarnings("unchecked")
    public <T> T feature(final Class<T> type)
    {
        return type == RemoteMemory.class ? (T)remoteMemory : null;
    }

    /** Says BYE to every live peer, waits (bounded) for the device to acknowledge them, and releases everything. */
    @Override
    public void close()
    {
        if (closed)
        {
            return;
        }
        closed = true;
        final boolean helpersStopped = connector.stop();
        int pending = 0;
        for (final Peer p : peers)
        {
            if (p == null || p.failed || p.state != Peer.CONNECTED)
            {
                continue;
            }
            sends.prepareSend(0, WorkRequestIds.of(WorkRequestIds.BYE, p.rank, 0), 0, 0, 0, Ibv.SEND_SIGNALED, true, IMM_BYE);
            if (p.qp.post(sends, 0, 1) == 0 && !p.byeReceived)
            {
                pending++;
            }
        }
        final long deadline = System.nanoTime() + CLOSE_TIMEOUT_NS;
        while (pending > 0 && System.nanoTime() < deadline)
        {
            final int polled = cq.poll(wcs, POLL_BATCH);
            for (int i = 0; i < polled; i++)
            {
                final long wrId = wcs.wrId(i);
                if (WorkRequestIds.kind(wrId) == WorkRequestIds.BYE && !peers[WorkRequestIds.peer(wrId)].byeReceived)
                {
                    pending--;
                }
            }
            if (polled == 0)
            {
                Thread.yield();
            }
        }
        release(helpersStopped);
    }

    /**
     * Releases everything without a BYE, as the kernel does for a killed process: for tests of a peer's
     * death ({@code VerbsDeadPeerTest}).
     */
    void abandon()
    {
        closed = true;
        release(connector.stop());
    }

    /**
     * Destroys everything. When a helper thread did not stop in time (a connection exchange blocked in the kernel)
     * the device and the pairs' resources are left to the process's end rather than freed under it.
     */
    private void release(final boolean helpersStopped)
    {
        remoteMemory.close();
        if (!helpersStopped)
        {
            System.err.println("jmpi: verbs: rank " + rank + ": a connection helper did not stop; the device is left open");
            return;
        }
        for (final Peer p : peers)
        {
            if (p != null)
            {
                releasePeer(p);
            }
        }
        closeQuietly(cq);
        closeQuietly(creditMr);
        closeQuietly(creditOutMr);
        closeQuietly(device);
        // The device is closed: nothing touches the buffers any more; free them now rather than at some GC.
        creditBlock.free();
        creditOutBlock.free();
    }

    /** Destroys {@code p}'s queue pair and frame buffers, whatever of them exists. */
    private void releasePeer(final Peer p)
    {
        closeQuietly(p.qp);
        closeQuietly(p.sendMr);
        closeQuietly(p.recvMr);
        if (p.sendBlock != null)
        {
            p.sendBlock.free();
        }
        if (p.recvBlock != null)
        {
            p.recvBlock.free();
        }
        p.qp = null;
        p.sendMr = null;
        p.recvMr = null;
        p.sendBlock = null;
        p.recvBlock = null;
    }

    private void closeQuietly(final AutoCloseable c)
    {
        try
        {
            if (c != null)
            {
                c.close();
            }
        }
        catch (final Exception ex)
        {
            System.err.println("jmpi: verbs: rank " + rank + ": " + ex.getMessage());
        }
    }
}
