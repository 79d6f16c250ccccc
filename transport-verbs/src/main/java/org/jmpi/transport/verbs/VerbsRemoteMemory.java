package org.jmpi.transport.verbs;

import org.agrona.collections.Int2ObjectHashMap;
import org.jmpi.ErrorClass;
import org.jmpi.MpiException;
import org.jmpi.spi.RemoteMemory;
import org.jmpi.transport.verbs.ibv.Ibv;
import org.jmpi.transport.verbs.ibv.MemoryRegion;
import org.jmpi.transport.verbs.ibv.VerbsContext;
import org.jmpi.transport.verbs.ibv.VerbsException;

import java.nio.ByteBuffer;

/**
 * The verbs transport's {@link RemoteMemory}: a registration is a memory region of a direct
 * {@link ByteBuffer} (heap arrays and heap buffers are not registered: {@link #register} returns 0 and the
 * one-sided layer uses frames for them); a remote key is the region's address and rkey; {@link #put} and
 * {@link #get} are one RDMA WRITE or READ on the peer's queue pair, signaled, whose completion (polled by the
 * transport's {@code progress}) reports the token. An RC write's completion means the target's device
 * acknowledged the bytes; verbs gives no stronger remote completion without a read-after-write, and on the
 * devices jmpi targets (rxe, mlx5) the bytes are then in memory.
 *
 * <p>Threading: the rank's progress owner, as the SPI says. Owns its memory regions until deregistered or closed.
 */
final class VerbsRemoteMemory implements RemoteMemory
{
    private static final int ACCESS = Ibv.ACCESS_LOCAL_WRITE | Ibv.ACCESS_REMOTE_WRITE | Ibv.ACCESS_REMOTE_READ | Ibv.ACCESS_REMOTE_ATOMIC;
    /** One work request moves at most this much (below every device's max_msg_sz of 2^31). */
    static final long MAX_OPERATION_BYTES = 1L << 30;

    private final VerbsTransport transport;
    private final VerbsContext device;
    private final int depth;
    private final Int2ObjectHashMap<MemoryRegion> regions = new Int2ObjectHashMap<>();
    private final long[] tokens;
    private final int[] freeTokens;
    private int freeCount;
    private int nextRegistration = 1;
    private Completions completions;

    VerbsRemoteMemory(final VerbsTransport transport, final VerbsContext device, final int depth, final int size)
    {
        this.transport = transport;
        this.device = device;
        this.depth = depth;
        final int capacity = depth * Math.max(1, size - 1);
        this.tokens = new long[capacity];
        this.freeTokens = new int[capacity];
        for (int i = capacity - 1; i >= 0; i--)
        {
            freeTokens[freeCount++] = i;
        }
    }

    @Override
    public void completions(final Completions handler)
    {
        this.completions = handler;
    }

    @Override
    public long register(final Object memory)
    {
        if (!(memory instanceof ByteBuffer buffer) || !buffer.isDirect() || buffer.capacity() == 0)
        {
            return 0;
        }
        final MemoryRegion region;
        try
        {
            region = device.register(buffer, ACCESS);
        }
        catch (final VerbsException ex)
        {
            throw new MpiException(ErrorClass.ERR_OTHER, "verbs: rank " + transport.rank() + " cannot register " + buffer.capacity() +
                " bytes: " + ex.getMessage(), ex);
        }
        final int registration = nextRegistration++;
        regions.put(registration, region);
        return registration;
    }

    @Override
    public void deregister(final long registration)
    {
        final MemoryRegion region = regions.remove((int)registration);
        if (region == null)
        {
            throw new MpiException(ErrorClass.ERR_ARG, "verbs: deregister: no registration " + registration + " on rank " + transport.rank());
        }
        region.deregister();
    }

    @Override
    public void remoteKey(final long registration, final long[] out, final int at)
    {
        final MemoryRegion region = region(registration, "remoteKey");
        out[at] = region.address();
        out[at + 1] = ((long)region.rkey() << 32) | Math.min(region.lengthBytes(), 0xFFFF_FFFFL);
    }

    private MemoryRegion region(final long registration, final String what)
    {
        final MemoryRegion region = registration > 0 && registration <= Integer.MAX_VALUE ? regions.get((int)registration) : null;
        if (region == null)
        {
            throw new MpiException(ErrorClass.ERR_ARG, "verbs: " + what + ": no registration " + registration + " on rank " + transport.rank());
        }
        return region;
    }

    @Override
    public boolean put(final int peerRank, final long[] key, final int keyAt, final long remoteOffset, final long registration,
        final long localOffset, final long length, final long token)
    {
        return start(false, peerRank, key, keyAt, remoteOffset, registration, localOffset, length, token);
    }

    @Override
    public boolean get(final int peerRank, final long[] key, final int keyAt, final long remoteOffset, final long registration,
        final long localOffset, final long length, final long token)
    {
        return start(true, peerRank, key, keyAt, remoteOffset, registration, localOffset, length, token);
    }

    private boolean start(final boolean read, final int peerRank, final long[] key, final int keyAt, final long remoteOffset,
        final long registration, final long localOffset, final long length, final long token)
    {
        final String what = read ? "get" : "put";
        final MemoryRegion local = region(registration, what);
        final VerbsTransport.Peer p = transport.peer(peerRank);
        if (p == null)
        {
            throw new MpiException(ErrorClass.ERR_RANK, "verbs: " + what + ": rank " + peerRank + " is not a peer of rank " + transport.rank());
        }
        final long remoteLength = key[keyAt + 1] & 0xFFFF_FFFFL;
        if (length < 0 || localOffset < 0 || remoteOffset < 0 || localOffset + length > local.lengthBytes() ||
            (remoteLength < 0xFFFF_FFFFL && remoteOffset + length > remoteLength) || length > MAX_OPERATION_BYTES)
        {
            throw new MpiException(ErrorClass.ERR_ARG, "verbs: " + what + " out of range: length=" + length + ", localOffset=" + localOffset +
                ", local=" + local.lengthBytes() + " bytes, remoteOffset=" + remoteOffset + ", remote=" + remoteLength + " bytes, at most " +
                MAX_OPERATION_BYTES + " bytes per operation, peer=" + peerRank);
        }
        if (p.failed)
        {
            throw new MpiException(ErrorClass.ERR_OTHER, "verbs: " + what + ": rank " + peerRank + " is gone (seen by rank " + transport.rank() + ")");
        }
        if (p.rmaInFlight >= depth || freeCount == 0)
        {
            return false;
        }
        final int slot = freeTokens[--freeCount];
        tokens[slot] = token;
        transport.sends().prepareRdma(0, WorkRequestIds.of(WorkRequestIds.RMA, peerRank, slot), read, local.address() + localOffset, (int)length,
            local.lkey(), key[keyAt] + remoteOffset, (int)(key[keyAt + 1] >>> 32), Ibv.SEND_SIGNALED);
        try
        {
            transport.post(p, "a " + what);
        }
        catch (final MpiException ex)
        {
            freeTokens[freeCount++] = slot;
            throw ex;
        }
        p.rmaInFlight++;
        return true;
    }

    /** The operation in token slot {@code slot} finished (failure null on success). */
    void onComplete(final int slot, final MpiException failure)
    {
        final long token = tokens[slot];
        freeTokens[freeCount++] = slot;
        if (completions == null)
        {
            throw new MpiException(ErrorClass.ERR_INTERN, "verbs: a put/get completed with no completion handler set");
        }
        completions.onComplete(token, failure);
    }

    /** Deregisters what is still registered (at the transport's close). */
    void close()
    {
        for (final MemoryRegion region : regions.values())
        {
            try
            {
                region.deregister();
            }
            catch (final VerbsException ex)
            {
                System.err.println("jmpi: verbs: rank " + transport.rank() + ": " + ex.getMessage());
            }
        }
        regions.clear();
    }
}
