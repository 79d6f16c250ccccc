package org.jmpi.transport.shm;

import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.ringbuffer.OneToOneRingBuffer;
import org.jmpi.ErrorClass;
import org.jmpi.MpiException;
import org.jmpi.spi.Bootstrap;
import org.jmpi.spi.Doorbell;
import org.jmpi.spi.FrameHandler;
import org.jmpi.spi.FrameWriter;
import org.jmpi.spi.PeerWaker;
import org.jmpi.spi.Transport;
import org.jmpi.spi.TransportContext;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.HexFormat;

/**
 * Frames between ranks in different JVMs on one node, through the node's shared-memory file
 * ({@link ShmFileDescriptor}): each ordered pair of local ranks has its own Agrona {@link OneToOneRingBuffer}
 * (one producer, one consumer: no CAS per frame); frames up to {@code inlineMax} are copied through it, larger
 * ones are written in place into a slot of the pair's fragment pool ({@link FragmentPoolDescriptor}) and
 * announced by a pooled frame descriptor in the ring ({@link ShmMessageDescriptor}), so one sender's frames
 * reach a receiver in offer order whichever path they take. The receiver polls its peers' rings in the order
 * of their last activity: a ring that delivered moves to the front, so the peers a rank talks to are looked at
 * first and idle ones after (every ring is still read on every {@link #progress}).
 *
 * <p>Opening (collective over the node's ranks, per-node bootstrap keys only):
 * <ol>
 *   <li>The lowest node-local rank creates the file exclusively with permissions 0600, sizes it,
 *       writes the header (magic last) and publishes {@code "<rank>.shm.file"} = path and instance id.</li>
 *   <li>Every other node-local rank gets that key, maps the file, checks the header against its own
 *       parameters and publishes {@code "<rank>.shm.attached"}.</li>
 *   <li>The creator waits for every attached key, then deletes the file: the mappings stay valid and
 *       nothing is left in the directory even if ranks are later killed.</li>
 * </ol>
 *
 * <p>Threading: {@link #offer}, {@link #progress} and {@link #close} on the rank's progress owner, one
 * thread at a time; a handler may call {@link #offer} but not {@link #progress}. {@link #wakeup} from
 * any thread. Memory: owns its mappings (unmapped by {@link #close}); the rings and pools are shared
 * with the node's other ranks. Neither {@code offer} nor {@code progress} allocates.
 *
 * <p>Trust: the shared structures can be scribbled over by any local rank, so every value read from
 * them is checked before use: inbound by {@link ShmRingReader}, outbound by {@link ShmRingWriter}. An inconsistent value is an
 * {@link MpiException} ERR_INTERN naming the structure and the peer. docs/security.md, "Shared memory".
 */
public final class ShmTransport implements Transport
{
    /** Bootstrap key suffixes; keys are prefixed with the publishing rank. */
    static final String FILE_KEY_SUFFIX = ".shm.file";
    static final String ATTACHED_KEY_SUFFIX = ".shm.attached";

    private final int rank;
    private final int localIndex;
    private final int[] worldRankByLocal;
    private final int[] localIndexByWorld;
    private final boolean[] reachable;
    private final int inlineMax;
    private final int slotLength;
    private final ShmSegment segment;

    /** One reader per local peer that sends to this rank, polled in {@link #pollOrder}. */
    private final ShmRingReader[] inbound;
    /** Indices into {@link #inbound}, the most recently active first. */
    private final int[] pollOrder;
    private final ShmRingWriter[] outboundByLocal;
    /** This rank's doorbell (null without futexes) and each local peer's, rung after every frame to it. */
    private final ShmDoorbell doorbell;
    private final ShmDoorbell[] doorbellByLocal;

    private boolean closed;

    private ShmTransport(
        final TransportContext context,
        final ShmConfig config,
        final int[] localRanks,
        final int localIndex,
        final ShmSegment segment)
    {
        final int localCount = localRanks.length;
        this.rank = context.rank();
        this.localIndex = localIndex;
        this.worldRankByLocal = localRanks;
        this.localIndexByWorld = new int[context.size()];
        Arrays.fill(localIndexByWorld, -1);
        this.reachable = new boolean[context.size()];
        for (int i = 0; i < localCount; i++)
        {
            localIndexByWorld[localRanks[i]] = i;
            reachable[localRanks[i]] = isPeer(context, localRanks[i]);
        }
        this.inlineMax = config.inlineMax();
        this.slotLength = config.slotLength();
        this.segment = segment;

        this.outboundByLocal = new ShmRingWriter[localCount];
        final boolean futexes = Futex.unavailable() == null;
        this.doorbellByLocal = new ShmDoorbell[localCount];
        this.doorbell = futexes ? new ShmDoorbell(segment.map(config.doorbellOffset(localCount, localIndex),
            DoorbellDescriptor.LENGTH), true) : null;
        final ShmRingReader[] readers = new ShmRingReader[localCount];
        int senders = 0;
        for (int peer = 0; peer < localCount; peer++)
        {
            if (reachable[localRanks[peer]])
            {
                outboundByLocal[peer] = new ShmRingWriter(rank, localIndex, localRanks[peer],
                    new OneToOneRingBuffer(segment.map(config.ringOffset(localCount, localIndex, peer), config.ringLength())),
                    segment.map(config.poolOffset(localCount, localIndex, peer), config.poolLength()),
                    config.slotCount(), slotLength, config.checksum());
                readers[senders++] = new ShmRingReader(rank, localRanks, peer,
                    segment.map(config.ringOffset(localCount, peer, localIndex), config.ringLength()),
                    segment.map(config.poolOffset(localCount, peer, localIndex), config.poolLength()),
                    config.slotCount(), slotLength, inlineMax, config.checksum(), System::nanoTime);
                if (futexes)
                {
                    doorbellByLocal[peer] = new ShmDoorbell(segment.map(config.doorbellOffset(localCount, peer),
                        DoorbellDescriptor.LENGTH), false);
                }
            }
        }
        this.inbound = Arrays.copyOf(readers, senders);
        this.pollOrder = new int[senders];
        for (int i = 0; i < senders; i++)
        {
            pollOrder[i] = i;
        }
    }

    /** Whether {@code other} is a rank this transport carries frames to: same node, another JVM. */
    static boolean isPeer(final TransportContext context, final int other)
    {
        final int self = context.rank();
        return other != self &&
            context.nodeId(other).equals(context.nodeId(self)) &&
            !context.jvmId(other).equals(context.jvmId(self));
    }

    /** World ranks on this rank's node, ascending. */
    static int[] localRanks(final TransportContext context)
    {
        final String node = context.nodeId(context.rank());
        int count = 0;
        final int[] ranks = new int[context.size()];
        for (int r = 0; r < context.size(); r++)
        {
            if (context.nodeId(r).equals(node))
            {
                ranks[count++] = r;
            }
        }
        return Arrays.copyOf(ranks, count);
    }

    /**
     * Creates or attaches the node's file and opens the transport (see the class comment for the steps).
     *
     * @throws MpiException when the file cannot be created, attached or verified, or a peer does not
     *                      show up within {@code jmpi.init.timeout}.
     */
    static ShmTransport open(final TransportContext context)
    {
        final ShmConfig config = ShmConfig.from(context.params());
        final int[] localRanks = localRanks(context);
        final int localIndex = Arrays.binarySearch(localRanks, context.rank());
        if (localRanks.length >= ShmMessageDescriptor.MAX_LOCAL_RANKS)
        {
            throw new MpiException(ErrorClass.ERR_OTHER, "shm: too many ranks on one node: " + localRanks.length);
        }
        final long fileLength = config.fileLength(localRanks.length);
        final Path path = config.dir().resolve(ShmSegment.fileName(context.jobId(), context.nodeId(context.rank())));
        final Bootstrap bootstrap = context.bootstrap();
        final long timeoutNs = context.initTimeoutNs();
        final int creatorRank = localRanks[0];

        final ShmSegment segment;
        ShmTransport transport = null;
        if (localIndex == 0)
        {
            checkSpace(config.dir(), fileLength);
            final long instanceId = new SecureRandom().nextLong();
            segment = ShmSegment.create(path, fileLength);
            try
            {
                final UnsafeBuffer header = segment.map(0, ShmFileDescriptor.headerLength(localRanks.length));
                ShmSegment.writeHeader(header, fileLength, instanceId, config, localRanks);
                transport = new ShmTransport(context, config, localRanks, localIndex, segment);
                segment.closeChannel();
                bootstrap.put(creatorRank + FILE_KEY_SUFFIX, encodeFileKey(path, instanceId));
                for (int i = 1; i < localRanks.length; i++)
                {
                    bootstrap.get(localRanks[i] + ATTACHED_KEY_SUFFIX, timeoutNs);
                }
                segment.deleteFile();
            }
            catch (final RuntimeException | Error ex)
            {
                closeQuietly(segment, ex);
                throw ex;
            }
        }
        else
        {
            final String[] published = new String(
                bootstrap.get(creatorRank + FILE_KEY_SUFFIX, timeoutNs), StandardCharsets.UTF_8).split("\n", 2);
            final long instanceId = HexFormat.fromHexDigitsToLong(published[1]);
            segment = ShmSegment.attach(Path.of(published[0]));
            try
            {
                final UnsafeBuffer header = segment.map(0, ShmFileDescriptor.headerLength(localRanks.length));
                segment.verifyHeader(header, fileLength, instanceId, config, localRanks);
                transport = new ShmTransport(context, config, localRanks, localIndex, segment);
                segment.closeChannel();
                bootstrap.put(context.rank() + ATTACHED_KEY_SUFFIX, new byte[]{1});
            }
            catch (final RuntimeException | Error ex)
            {
                closeQuietly(segment, ex);
                throw ex;
            }
        }
        return transport;
    }

    private static byte[] encodeFileKey(final Path path, final long instanceId)
    {
        return (path + "\n" + HexFormat.of().toHexDigits(instanceId)).getBytes(StandardCharsets.UTF_8);
    }

    private static void checkSpace(final Path dir, final long fileLength)
    {
        try
        {
            final long usable = java.nio.file.Files.getFileStore(dir).getUsableSpace();
            if (usable < fileLength)
            {
                throw new MpiException(ErrorClass.ERR_NO_MEM, "shm: " + dir + " has " + usable + " bytes free, the node's file needs " +
                    fileLength + " (lower " + ShmParams.RING_SIZE.name() + ", " + ShmParams.POOL_SLOTS.name() + " or " +
                    ShmParams.SLOT_SIZE.name() + ")");
            }
        }
        catch (final java.io.IOException ex)
        {
            throw new MpiException(ErrorClass.ERR_OTHER, "shm: cannot read free space of " + dir + ": " + ex, ex);
        }
    }

    private static void closeQuietly(final ShmSegment segment, final Throwable primary)
    {
        try
        {
            segment.close();
        }
        catch (final RuntimeException ex)
        {
            primary.addSuppressed(ex);
        }
    }

    @Override
    public String name()
    {
        return ShmTransportProvider.NAME;
    }

    @Override
    public int maxFrameLength()
    {
        return slotLength;
    }

    @Override
    public boolean reaches(final int rank)
    {
        return rank >= 0 && rank < reachable.length && reachable[rank];
    }

    @Override
    public boolean offer(final int dstRank, final int lengthBytes, final FrameWriter writer)
    {
        if (closed)
        {
            throw new MpiException(ErrorClass.ERR_INTERN, "shm: offer after close: rank=" + rank);
        }
        if (!reaches(dstRank) || lengthBytes < 0 || lengthBytes > slotLength)
        {
            throw new MpiException(ErrorClass.ERR_INTERN, "shm: bad offer: rank=" + rank + ", dst=" + dstRank +
                ", length=" + lengthBytes + ", maxFrameLength=" + slotLength);
        }
        final int peer = localIndexByWorld[dstRank];
        final ShmRingWriter out = outboundByLocal[peer];
        if (!(lengthBytes <= inlineMax ? out.offerInline(lengthBytes, writer) : out.offerPooled(lengthBytes, writer)))
        {
            return false;
        }
        final ShmDoorbell bell = doorbellByLocal[peer];
        if (bell != null)
        {
            bell.ring();
        }
        return true;
    }

    /**
     * This rank's doorbell, through which peers in other JVMs wake its engine, and the waker that rings a peer's
     * (both null where futexes are unavailable).
     */
    @Override
    public <T> T feature(final Class<T> type)
    {
        if (type == Doorbell.class)
        {
            return type.cast(doorbell);
        }
        return type == PeerWaker.class && doorbell != null ? type.cast((PeerWaker)this::wakePeer) : null;
    }

    private void wakePeer(final int worldRank)
    {
        final int peer = worldRank >= 0 && worldRank < localIndexByWorld.length ? localIndexByWorld[worldRank] : -1;
        final ShmDoorbell bell = peer < 0 ? null : doorbellByLocal[peer];
        if (bell != null)
        {
            bell.ring();
        }
    }

    @Override
    public int progress(final FrameHandler handler)
    {
        if (closed)
        {
            throw new MpiException(ErrorClass.ERR_INTERN, "shm: progress after close: rank=" + rank);
        }
        final int[] order = pollOrder;
        int frames = 0;
        for (int i = 0; i < order.length; i++)
        {
            final int reader = order[i];
            final int delivered = inbound[reader].read(handler);
            if (delivered > 0)
            {
                frames += delivered;
                if (i > 0)
                {
                    System.arraycopy(order, 0, order, 1, i);
                    order[0] = reader;
                }
            }
        }
        return frames;
    }

    /** A no-op: the engine parks on this transport's {@link Doorbell}, which peers ring after each frame. */
    @Override
    public void wakeup()
    {
    }

    /** Unmaps the file; the creator also deletes it if it is still there (open failed midway). */
    @Override
    public void close()
    {
        if (!closed)
        {
            closed = true;
            segment.close();
        }
    }

    /** This rank's writer to {@code worldRank}: for the corruption tests. */
    ShmRingWriter outbound(final int worldRank)
    {
        return outboundByLocal[localIndexByWorld[worldRank]];
    }

    @Override
    public String toString()
    {
        return "ShmTransport{rank=" + rank + ", localIndex=" + localIndex + ", file=" + segment.path() + "}";
    }
}
