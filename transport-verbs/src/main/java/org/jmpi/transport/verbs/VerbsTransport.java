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
 * <p>The queue pairs' set-up, connection and release are {@link VerbsPairs}'; what each polled completion means is
 * {@link VerbsCompletions}'; this class opens the device, offers frames, drives progress and closes.
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
    private static final long CLOSE_TIMEOUT_NS = 2_000_000_000L;
    private static final int POLL_BATCH = 32;

    private final int rank;
    private final int size;
    private final int slots;
    private final int frameLength;
    private final VerbsContext device;
    private final CompletionQueue cq;
    private final Peer[] peers;
    private final NativeBlock creditBlock;
    private final NativeBlock creditOutBlock;
    private final MemoryRegion creditMr;
    private final MemoryRegion creditOutMr;
    private final UnsafeBuffer creditView;
    private final SendRequests sends;
    private final WorkCompletions wcs = new WorkCompletions(POLL_BATCH);
    private final VerbsRemoteMemory remoteMemory;
    private final int rmaDepth;
    /** Scatter-gather entries per RDMA WRITE and per RDMA READ ({@code jmpi.verbs.sge}, capped by the device). */
    private final int writeSge;
    private final int readSge;
    private final Connector connector;
    /** The queue pairs: set up, connected and released. */
    private final VerbsPairs pairs;
    /** What each polled completion means. */
    private final VerbsCompletions completions;
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
        final int bounceSlots = context.params().getInt(VerbsParams.BOUNCE_SLOTS);
        final int bounceBytes = context.params().getInt(VerbsParams.BOUNCE_BYTES);
        if (bounceSlots < 1 || bounceBytes < 1 || (long)bounceSlots * bounceBytes > Integer.MAX_VALUE)
        {
            throw new MpiException(ErrorClass.ERR_ARG, "verbs: " + VerbsParams.BOUNCE_SLOTS.name() + "=" + bounceSlots + " and " +
                VerbsParams.BOUNCE_BYTES.name() + "=" + bounceBytes + ": each at least 1, together under 2 GiB");
        }
        final int timeout = context.params().getInt(VerbsParams.TIMEOUT);
        this.rmaDepth = context.params().getInt(VerbsParams.RMA_DEPTH);
        final int port = context.params().getInt(VerbsParams.PORT);
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
            final PortAttributes portAttributes = device.portAttributes();
            final int gidIndex = GidChoice.choose(device, context.params().get(VerbsParams.GID_INDEX));
            final byte[] gid = device.gid(gidIndex);
            final boolean global = portAttributes.linkLayer() == Ibv.LINK_LAYER_ETHERNET || !allZero(gid);
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
            final UnsafeBuffer creditOutView = new UnsafeBuffer(creditOutBlock.address(), creditOutBlock.lengthBytes());
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
            final ConnectionRecord[] records = new ConnectionRecord[size];
            for (int r = 0; r < size; r++)
            {
                if (r != rank)
                {
                    records[r] = ConnectionRecord.decode(r, bootstrap.get("verbs." + r, context.initTimeoutNs()));
                    peers[r].remoteCreditAddress = records[r].creditAddress() + (long)Long.BYTES * rank;
                    peers[r].remoteCreditRkey = records[r].creditRkey();
                }
            }
            pairs = new VerbsPairs(rank, device, cq, records, slots, frameLength, rmaDepth, writeSge, port, timeout, portAttributes, gidIndex, gid,
                global);
            connector.start(records);
            remoteMemory = new VerbsRemoteMemory(this, device, rmaDepth, size, context.params().getLong(VerbsParams.RCACHE_BYTES),
                context.params().getInt(VerbsParams.RCACHE_ENTRIES), bounceSlots, bounceBytes, context.params().get(VerbsParams.ATOMICS));
            completions = new VerbsCompletions(this, pairs, peers, wcs, sends, remoteMemory, creditOutView, creditOutMr, slots, frameLength);
        }
        catch (final VerbsException ex)
        {
            final MpiException failure = new MpiException(ErrorClass.ERR_OTHER, "verbs: rank " + rank + " cannot set up: " + ex.getMessage(), ex);
            VerbsPairs.closeQuietly(device, rank);
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
     * with every receive buffer posted, and its first PSN. Undone on failure. See {@link VerbsPairs#setUp}.
     */
    void setUp(final Peer p)
    {
        pairs.setUp(p);
    }

    /** The connector's threads, holding {@code p}'s lock: RTR and RTS towards the peer's queue pair {@code qpn}, first PSN {@code psn}. */
    void connect(final Peer p, final int qpn, final int remotePsn)
    {
        pairs.connect(p, qpn, remotePsn);
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
                    work += completions.complete(i, handler);
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

    /** Whether {@link #close} (or {@link #abandon}) began: failed requests are then the pairs going away. */
    boolean closed()
    {
        return closed;
    }

    /** The death of {@code p}'s rank, ERR_OTHER naming it and why. */
    MpiException gone(final Peer p, final String why)
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
                pairs.releasePeer(p);
            }
        }
        VerbsPairs.closeQuietly(cq, rank);
        VerbsPairs.closeQuietly(creditMr, rank);
        VerbsPairs.closeQuietly(creditOutMr, rank);
        VerbsPairs.closeQuietly(device, rank);
        // The device is closed: nothing touches the buffers any more; free them now rather than at some GC.
        creditBlock.free();
        creditOutBlock.free();
    }

}
