package org.jmpi.transport.verbs;

import org.agrona.concurrent.UnsafeBuffer;
import org.jmpi.ErrorClass;
import org.jmpi.MpiException;
import org.jmpi.transport.verbs.ibv.CompletionQueue;
import org.jmpi.transport.verbs.ibv.Ibv;
import org.jmpi.transport.verbs.ibv.NativeBlock;
import org.jmpi.transport.verbs.ibv.PortAttributes;
import org.jmpi.transport.verbs.ibv.QueuePair;
import org.jmpi.transport.verbs.ibv.QueuePairAddress;
import org.jmpi.transport.verbs.ibv.RecvRequests;
import org.jmpi.transport.verbs.ibv.VerbsContext;
import org.jmpi.transport.verbs.ibv.VerbsException;

import java.security.SecureRandom;

/**
 * {@link VerbsTransport}'s queue pairs, one per peer: the pair's frame buffers (registered) and queue pair in INIT with
 * every receive buffer posted ({@link #setUp}), its move to RTR and RTS towards the peer's ({@link #connect}), receive
 * buffers posted again, and the pair's destruction ({@link #releasePeer}). The {@link Connector}'s helper threads set
 * up and connect pairs (through the transport); the rank's thread posts receives and releases.
 *
 * <p>Threading: {@code setUp} and {@code connect} on a connector thread holding the peer's lock, the rest on the
 * progress owner; the fields are final. Memory: the native blocks it makes are the peer's, freed by
 * {@code releasePeer}.
 */
final class VerbsPairs
{
    private static final int ACCESS = Ibv.ACCESS_LOCAL_WRITE | Ibv.ACCESS_REMOTE_WRITE | Ibv.ACCESS_REMOTE_READ | Ibv.ACCESS_REMOTE_ATOMIC;

    private final int rank;
    private final int slots;
    private final int frameLength;
    private final int rmaDepth;
    private final int writeSge;
    private final int port;
    private final int timeout;
    private final int gidIndex;
    private final byte[] gid;
    private final PortAttributes portAttributes;
    private final boolean global;
    private final VerbsContext device;
    private final CompletionQueue cq;
    private final ConnectionRecord[] records;

    VerbsPairs(final int rank, final VerbsContext device, final CompletionQueue cq, final ConnectionRecord[] records, final int slots,
        final int frameLength, final int rmaDepth, final int writeSge, final int port, final int timeout, final PortAttributes portAttributes,
        final int gidIndex, final byte[] gid, final boolean global)
    {
        this.rank = rank;
        this.device = device;
        this.cq = cq;
        this.records = records;
        this.slots = slots;
        this.frameLength = frameLength;
        this.rmaDepth = rmaDepth;
        this.writeSge = writeSge;
        this.port = port;
        this.timeout = timeout;
        this.portAttributes = portAttributes;
        this.gidIndex = gidIndex;
        this.gid = gid;
        this.global = global;
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
     * A queue pair whose small frames go inline (the device copies them at post time, saving it a DMA read
     * of the slot): {@link VerbsTransport#INLINE_BYTES} asked for, what the device grants used; without inline support, none.
     */
    private QueuePair createQueuePair(final int maxSendWr, final int maxRecvWr)
    {
        try
        {
            return device.createQueuePair(cq, cq, maxSendWr, maxRecvWr, writeSge, VerbsTransport.INLINE_BYTES);
        }
        catch (final VerbsException ex)
        {
            return device.createQueuePair(cq, cq, maxSendWr, maxRecvWr, writeSge, 0);
        }
    }

    /** Posts receive buffer {@code slot} of {@code p} again ({@code requests}: the caller's, made once). */
    void postRecv(final Peer p, final int slot, final RecvRequests requests)
    {
        requests.prepare(0, WorkRequestIds.of(WorkRequestIds.RECV, p.rank, slot), p.recvMr.address() + (long)slot * frameLength, frameLength,
            p.recvMr.lkey());
        final int rc = p.qp.post(requests, 0, 1);
        if (rc != 0)
        {
            throw new MpiException(ErrorClass.ERR_INTERN, "verbs: rank " + rank + " cannot post a receive for rank " + p.rank + " (errno " + rc + ")");
        }
    }

    /** Destroys {@code p}'s queue pair and frame buffers, whatever of them exists. */
    void releasePeer(final Peer p)
    {
        closeQuietly(p.qp, rank);
        closeQuietly(p.sendMr, rank);
        closeQuietly(p.recvMr, rank);
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

    /** Closes {@code c} (if any); a failure is printed, naming {@code rank}: nothing is left to do about it while releasing. */
    static void closeQuietly(final AutoCloseable c, final int rank)
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
