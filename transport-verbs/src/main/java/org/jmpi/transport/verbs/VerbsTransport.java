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
 * <li>Open: open the device, register the send, receive and credit memory, create a queue pair per peer and
 * move it to INIT, pre-post {@code slots + 1} receive buffers on it, publish a {@link ConnectionRecord} on
 * the bootstrap, read every peer's and connect (RTR, RTS).</li>
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

    /** One connected peer. */
    static final class Peer
    {
        final int rank;
        final QueuePair qp;
        long remoteCreditAddress;
        int remoteCreditRkey;
        long sent;
        long sendCompleted;
        long consumed;
        long creditWritten;
        boolean creditInFlight;
        boolean byeReceived;
        boolean byeAcked;
        boolean failed;
        int rmaInFlight;

        Peer(final int rank, final QueuePair qp)
        {
            this.rank = rank;
            this.qp = qp;
        }
    }

    private final int rank;
    private final int size;
    private final int slots;
    private final int frameLength;
    private final int creditBatch;
    private final VerbsContext device;
    private final CompletionQueue cq;
    private final Peer[] peers;
    private final NativeBlock sendBlock;
    private final NativeBlock recvBlock;
    private final NativeBlock creditBlock;
    private final NativeBlock creditOutBlock;
    private final MemoryRegion sendMr;
    private final MemoryRegion recvMr;
    private final MemoryRegion creditMr;
    private final MemoryRegion creditOutMr;
    private final UnsafeBuffer sendView;
    private final UnsafeBuffer recvView;
    private final UnsafeBuffer creditView;
    private final UnsafeBuffer creditOutView;
    private final SendRequests sends = new SendRequests(1, 1);
    private final RecvRequests recvs = new RecvRequests(1);
    private final WorkCompletions wcs = new WorkCompletions(POLL_BATCH);
    private final VerbsRemoteMemory remoteMemory;
    private final int rmaDepth;
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
        final int timeout = context.params().getInt(VerbsParams.TIMEOUT);
        this.rmaDepth = context.params().getInt(VerbsParams.RMA_DEPTH);
        final int port = context.params().getInt(VerbsParams.PORT);
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
            final long peerSlots = (long)slots * frameLength;
            final long recvPerPeer = (long)(slots + 1) * frameLength;
            if (peerSlots * size > Integer.MAX_VALUE || recvPerPeer * size > Integer.MAX_VALUE)
            {
                throw new MpiException(ErrorClass.ERR_ARG, "verbs: " + size + " ranks * " + (slots + 1) + " slots * " + frameLength +
                    " bytes exceed 2 GiB of buffers; lower " + VerbsParams.SLOTS.name() + " or " + VerbsParams.FRAME.name());
            }
            sendBlock = new NativeBlock((int)(peerSlots * size));
            recvBlock = new NativeBlock((int)(recvPerPeer * size));
            creditBlock = new NativeBlock(Long.BYTES * size);
            creditOutBlock = new NativeBlock(Long.BYTES * size);
            creditBlock.clear();
            sendMr = device.register(sendBlock, Ibv.ACCESS_LOCAL_WRITE);
            recvMr = device.register(recvBlock, Ibv.ACCESS_LOCAL_WRITE);
            creditMr = device.register(creditBlock, Ibv.ACCESS_LOCAL_WRITE | Ibv.ACCESS_REMOTE_WRITE);
            creditOutMr = device.register(creditOutBlock, Ibv.ACCESS_LOCAL_WRITE);
            sendView = new UnsafeBuffer(sendBlock.address(), sendBlock.lengthBytes());
            recvView = new UnsafeBuffer(recvBlock.address(), recvBlock.lengthBytes());
            creditView = new UnsafeBuffer(creditBlock.address(), creditBlock.lengthBytes());
            creditOutView = new UnsafeBuffer(creditOutBlock.address(), creditOutBlock.lengthBytes());
            final int perPeerCqe = 2 * slots + 3 + rmaDepth;
            cq = device.createCompletionQueue(Math.min(device.device().maxCqe(), Math.max(1, size - 1) * perPeerCqe), null);
            peers = new Peer[size];
            final SecureRandom random = new SecureRandom();
            final int[] qpns = new int[size];
            final int[] psns = new int[size];
            for (int r = 0; r < size; r++)
            {
                if (r == rank)
                {
                    continue;
                }
                final QueuePair qp = createQueuePair(slots + 2 + rmaDepth, slots + 1);
                peers[r] = new Peer(r, qp);
                qp.toInit(port, ACCESS);
                for (int slot = 0; slot <= slots; slot++)
                {
                    postRecv(peers[r], slot);
                }
                qpns[r] = qp.qpNumber();
                psns[r] = random.nextInt(1 << 24);
            }
            final Bootstrap bootstrap = context.bootstrap();
            bootstrap.put("verbs." + rank, new ConnectionRecord(portAttributes.lid(), gid, portAttributes.activeMtu(), creditBlock.address(),
                creditMr.rkey(), qpns, psns).encode());
            final boolean global = portAttributes.linkLayer() == Ibv.LINK_LAYER_ETHERNET || !allZero(gid);
            for (int r = 0; r < size; r++)
            {
                if (r == rank)
                {
                    continue;
                }
                final ConnectionRecord theirs = ConnectionRecord.decode(r, size, bootstrap.get("verbs." + r, context.initTimeoutNs()));
                final Peer p = peers[r];
                p.remoteCreditAddress = theirs.creditAddress() + (long)Long.BYTES * rank;
                p.remoteCreditRkey = theirs.creditRkey();
                p.qp.connect(port, global ? gidIndex : -1, Math.min(portAttributes.activeMtu(), theirs.mtu()), ACCESS,
                    Math.max(1, Math.min(device.device().maxQpRdAtomic(), 16)), new QueuePairAddress(qpns[r], portAttributes.lid(), gid, psns[r]),
                    new QueuePairAddress(theirs.qpNumbers()[rank], theirs.lid(), theirs.gid(), theirs.psns()[rank]), timeout);
            }
            remoteMemory = new VerbsRemoteMemory(this, device, rmaDepth, size, context.params().getLong(VerbsParams.RCACHE_BYTES),
                context.params().getInt(VerbsParams.RCACHE_ENTRIES), bounceSlots, bounceBytes, context.params().get(VerbsParams.ATOMICS));
        }
        catch (final VerbsException ex)
        {
            final MpiException failure = new MpiException(ErrorClass.ERR_OTHER, "verbs: rank " + rank + " cannot set up: " + ex.getMessage(), ex);
            closeQuietly(device);
            throw failure;
        }
    }

    /**
     * A queue pair whose small frames go inline (the device copies them at post time, saving it a DMA read
     * of the slot): {@link #INLINE_BYTES} asked for, what the device grants used; without inline support, none.
     */
    private QueuePair createQueuePair(final int maxSendWr, final int maxRecvWr)
    {
        try
        {
            return device.createQueuePair(cq, cq, maxSendWr, maxRecvWr, 1, INLINE_BYTES);
        }
        catch (final VerbsException ex)
        {
            return device.createQueuePair(cq, cq, maxSendWr, maxRecvWr, 1, 0);
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

    private int sendOffset(final int peer, final int slot)
    {
        return (peer * slots + slot) * frameLength;
    }

    private int recvOffset(final int peer, final int slot)
    {
        return (peer * (slots + 1) + slot) * frameLength;
    }

    private void postRecv(final Peer p, final int slot)
    {
        recvs.prepare(0, WorkRequestIds.of(WorkRequestIds.RECV, p.rank, slot), recvMr.address() + recvOffset(p.rank, slot), frameLength,
            recvMr.lkey());
        final int rc = p.qp.post(recvs, 0, 1);
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
        final long peerConsumed = creditView.getLongVolatile(Long.BYTES * dstRank);
        if (p.sent - peerConsumed >= slots || p.sent - p.sendCompleted >= slots)
        {
            return false;
        }
        final int slot = (int)(p.sent % slots);
        final int offset = sendOffset(dstRank, slot);
        writer.write(sendView, offset, lengthBytes);
        sends.prepareSend(0, WorkRequestIds.of(WorkRequestIds.SEND, dstRank, slot), sendMr.address() + offset, lengthBytes, sendMr.lkey(),
            lengthBytes <= p.qp.maxInlineBytes() ? Ibv.SEND_SIGNALED | Ibv.SEND_INLINE : Ibv.SEND_SIGNALED, true, immediate);
        post(p, "a frame");
        p.sent++;
        return true;
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
                    complete(i, handler);
                }
                work += polled;
            }
            while (polled == POLL_BATCH);
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

    private void complete(final int i, final FrameHandler handler)
    {
        final long wrId = wcs.wrId(i);
        final int kind = WorkRequestIds.kind(wrId);
        final Peer p = peers[WorkRequestIds.peer(wrId)];
        final int status = wcs.status(i);
        if (status != Ibv.WC_SUCCESS)
        {
            failed(p, kind, WorkRequestIds.index(wrId), status);
            return;
        }
        switch (kind)
        {
            case WorkRequestIds.RECV ->
            {
                final int slot = WorkRequestIds.index(wrId);
                final int immediate = wcs.immediate(i);
                if (immediate == IMM_BYE)
                {
                    p.byeReceived = true;
                    return;
                }
                if (immediate == IMM_STAGED)
                {
                    remoteMemory.staged().onMessage(p.rank, recvView, recvOffset(p.rank, slot), wcs.byteLength(i));
                }
                else
                {
                    handler.onFrame(p.rank, recvView, recvOffset(p.rank, slot), wcs.byteLength(i));
                }
                postRecv(p, slot);
                p.consumed++;
                returnCredits(p);
            }
            case WorkRequestIds.SEND -> p.sendCompleted++;
            case WorkRequestIds.CREDIT ->
            {
                p.creditInFlight = false;
                returnCredits(p);
            }
            case WorkRequestIds.BYE -> p.byeAcked = true;
            case WorkRequestIds.RMA ->
            {
                p.rmaInFlight--;
                remoteMemory.staged().onDirectComplete(WorkRequestIds.index(wrId), null);
            }
            case WorkRequestIds.BOUNCE ->
            {
                p.rmaInFlight--;
                remoteMemory.staged().onBounceComplete(WorkRequestIds.index(wrId), null);
            }
            default -> throw new MpiException(ErrorClass.ERR_INTERN, "verbs: completion of unknown kind " + kind + " on rank " + rank);
        }
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
        int pending = 0;
        for (final Peer p : peers)
        {
            if (p == null || p.failed)
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
        release();
    }

    /**
     * Releases everything without a BYE, as the kernel does for a killed process: for tests of a peer's
     * death ({@code VerbsDeadPeerTest}).
     */
    void abandon()
    {
        closed = true;
        release();
    }

    private void release()
    {
        remoteMemory.close();
        for (final Peer p : peers)
        {
            if (p != null)
            {
                closeQuietly(p.qp);
            }
        }
        closeQuietly(cq);
        closeQuietly(sendMr);
        closeQuietly(recvMr);
        closeQuietly(creditMr);
        closeQuietly(creditOutMr);
        closeQuietly(device);
        // The device is closed: nothing touches the buffers any more; free them now rather than at some GC.
        sendBlock.free();
        recvBlock.free();
        creditBlock.free();
        creditOutBlock.free();
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
