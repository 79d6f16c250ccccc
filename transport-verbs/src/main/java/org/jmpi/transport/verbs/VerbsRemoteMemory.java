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
 * The verbs transport's {@link RemoteMemory}.
 * <ol>
 * <li>{@link #register}: a direct {@link ByteBuffer} through the {@link RegistrationCache} (registered once, reused
 * while cached); heap memory (a primitive array, a heap ByteBuffer) as a registration of its own that the device
 * never addresses ({@link LocalRegistration}).</li>
 * <li>A remote key: a direct region's address and rkey; a heap region's registration id with {@link #HEAP_KEY} set
 * (docs/verbs.md, "Remote memory").</li>
 * <li>{@link #put}/{@link #get} between two direct regions: one signaled RDMA WRITE or READ. Anything else is staged
 * by {@link StagedOperations}: a heap side here through registered bounce buffers (pipelined RDMA), a heap side at
 * the target through the transport's frames (the target's progress copies). Every operation's token is reported
 * once, from the transport's {@code progress}.</li>
 * <li>{@link #putGather}/{@link #getScatter} between two direct regions: one signaled RDMA WRITE or READ per
 * {@code jmpi.verbs.sge} runs (capped by the device's {@code max_sge}, {@code max_sge_rd} for reads), the runs its
 * scatter-gather entries, as many requests as the peer's RDMA depth has room for; a heap side goes run by run through
 * {@link #put}/{@link #get} (the SPI's default).</li>
 * <li>{@link #memoryFreed}: the cache drops the freed memory's regions.</li>
 * </ol>
 * An RC write's completion means the target's device acknowledged the bytes; on the devices jmpi targets (rxe,
 * mlx5) they are then in memory.
 *
 * <p>Threading: the rank's progress owner, as the SPI says. Owns its registrations until deregistered or closed.
 */
final class VerbsRemoteMemory implements RemoteMemory
{
    private static final int ACCESS = Ibv.ACCESS_LOCAL_WRITE | Ibv.ACCESS_REMOTE_WRITE | Ibv.ACCESS_REMOTE_READ | Ibv.ACCESS_REMOTE_ATOMIC;
    /** One work request moves at most this much (below every device's max_msg_sz of 2^31). */
    static final long MAX_OPERATION_BYTES = 1L << 30;
    /** Bit 63 of a key's first long: the region is heap memory at the target, named by its registration id. */
    static final long HEAP_KEY = 1L << 63;

    private final VerbsTransport transport;
    private final int depth;
    private final RegistrationCache<MemoryRegion> cache;
    private final Int2ObjectHashMap<LocalRegistration> registrations = new Int2ObjectHashMap<>();
    private final StagedOperations staged;
    /** Whether atomics are offered on direct regions ({@code jmpi.verbs.atomics} and the device's capability). */
    private final boolean atomics;
    private int nextRegistration = 1;

    VerbsRemoteMemory(final VerbsTransport transport, final VerbsContext device, final int depth, final int size, final long cacheBytes,
        final int cacheEntries, final int bounceSlots, final int bounceBytes, final String atomicsMode)
    {
        this.transport = transport;
        this.depth = depth;
        this.atomics = atomicsOffered(atomicsMode, device.device().atomicCap());
        this.cache = new RegistrationCache<>(new RegistrationCache.Registrar<>()
        {
            @Override
            public MemoryRegion register(final ByteBuffer direct)
            {
                return device.register(direct, ACCESS);
            }

            @Override
            public void deregister(final MemoryRegion region)
            {
                region.deregister();
            }
        }, cacheBytes, cacheEntries);
        this.staged = new StagedOperations(transport, device, this, depth * Math.max(1, size - 1), bounceSlots, bounceBytes);
    }

    /**
     * {@code jmpi.verbs.atomics}: {@code auto} offers atomics where the device makes them atomic with the CPU's too
     * ({@code IBV_ATOMIC_GLOB}); {@code on} also where they are atomic only among the device's own ({@code IBV_ATOMIC_HCA}:
     * rxe, most mlx5), which is right when every access to a window's counters goes through remote atomics or the job
     * does not mix them with accumulates by frames; {@code off} never.
     */
    static boolean atomicsOffered(final String mode, final int atomicCap)
    {
        return switch (mode.trim().toLowerCase(java.util.Locale.ROOT))
        {
            case "auto" -> atomicCap == Ibv.ATOMIC_GLOB;
            case "on" -> atomicCap != Ibv.ATOMIC_NONE;
            case "off" -> false;
            default -> throw new MpiException(ErrorClass.ERR_ARG, "verbs: jmpi.verbs.atomics must be auto, on or off, not '" + mode + "'");
        };
    }

    @Override
    public boolean atomics(final long[] key, final int keyAt)
    {
        return atomics && (key[keyAt] & HEAP_KEY) == 0;
    }

    @Override
    public boolean fetchAndAdd(final int peerRank, final long[] key, final int keyAt, final long remoteOffset, final long delta,
        final long token)
    {
        return atomic(false, peerRank, key, keyAt, remoteOffset, delta, 0, token);
    }

    @Override
    public boolean compareAndSwap(final int peerRank, final long[] key, final int keyAt, final long remoteOffset, final long compare,
        final long swap, final long token)
    {
        return atomic(true, peerRank, key, keyAt, remoteOffset, compare, swap, token);
    }

    private boolean atomic(final boolean compareSwap, final int peerRank, final long[] key, final int keyAt, final long remoteOffset,
        final long compareAdd, final long swap, final long token)
    {
        final String what = compareSwap ? "compareAndSwap" : "fetchAndAdd";
        if (!atomics(key, keyAt))
        {
            throw new UnsupportedOperationException("verbs: " + what + " is not offered for this memory (jmpi.verbs.atomics, the device's " +
                "atomic capability, or a heap region; issue 19)");
        }
        final Peer p = transport.peer(peerRank);
        if (p == null)
        {
            throw new MpiException(ErrorClass.ERR_RANK, "verbs: " + what + ": rank " + peerRank + " is not a peer of rank " + transport.rank());
        }
        final long remoteLength = key[keyAt + 1] & 0xFFFF_FFFFL;
        if (remoteOffset < 0 || ((key[keyAt] + remoteOffset) & 7) != 0 || (remoteLength < 0xFFFF_FFFFL && remoteOffset + 8 > remoteLength))
        {
            throw new MpiException(ErrorClass.ERR_RMA_RANGE, "verbs: " + what + " at byte " + remoteOffset + " of a region of " + remoteLength +
                " bytes: not an 8-byte aligned integer inside it, peer=" + peerRank);
        }
        if (p.failed)
        {
            throw new MpiException(ErrorClass.ERR_OTHER, "verbs: " + what + ": rank " + peerRank + " is gone (seen by rank " + transport.rank() + ")");
        }
        if (p.rmaInFlight >= depth || !transport.ready(p))
        {
            return false;
        }
        final StagedOperations.Op op = staged.take(token, true, peerRank, null, 0, 8);
        if (op == null)
        {
            return false;
        }
        op.atomic = true;
        transport.sends().prepareAtomic(0, WorkRequestIds.of(WorkRequestIds.RMA, peerRank, op.slot), compareSwap, staged.atomicAddress(op),
            staged.atomicLkey(), key[keyAt] + remoteOffset, (int)(key[keyAt + 1] >>> 32), compareAdd, swap, Ibv.SEND_SIGNALED);
        posted(p, op, "an atomic", 8);
        return true;
    }

    @Override
    public void completions(final Completions handler)
    {
        staged.completions(handler);
    }

    @Override
    public long register(final Object memory)
    {
        final int id = nextRegistration;
        final LocalRegistration registration;
        if (memory instanceof ByteBuffer buffer && buffer.isDirect())
        {
            if (buffer.capacity() == 0)
            {
                return 0;
            }
            try
            {
                registration = LocalRegistration.direct(id, buffer, cache.acquire(buffer));
            }
            catch (final VerbsException ex)
            {
                throw new MpiException(ErrorClass.ERR_OTHER, "verbs: rank " + transport.rank() + " cannot register " + buffer.capacity() +
                    " bytes: " + ex.getMessage(), ex);
            }
        }
        else
        {
            registration = LocalRegistration.heap(id, memory);
            if (registration == null)
            {
                return 0;
            }
        }
        nextRegistration++;
        registrations.put(id, registration);
        return id;
    }

    @Override
    public void deregister(final long registration)
    {
        final LocalRegistration r = registration > 0 && registration <= Integer.MAX_VALUE ? registrations.remove((int)registration) : null;
        if (r == null)
        {
            throw new MpiException(ErrorClass.ERR_ARG, "verbs: deregister: no registration " + registration + " on rank " + transport.rank());
        }
        if (r.entry != null)
        {
            release(r.entry);
        }
    }

    @Override
    public void memoryFreed(final ByteBuffer memory)
    {
        if (memory.isDirect())
        {
            try
            {
                cache.invalidate(org.agrona.BufferUtil.address(memory), memory.capacity());
            }
            catch (final VerbsException ex)
            {
                throw new MpiException(ErrorClass.ERR_OTHER, "verbs: rank " + transport.rank() + ": " + ex.getMessage(), ex);
            }
        }
    }

    private void release(final RegistrationCache.Entry<MemoryRegion> entry)
    {
        try
        {
            cache.release(entry);
        }
        catch (final VerbsException ex)
        {
            throw new MpiException(ErrorClass.ERR_OTHER, "verbs: rank " + transport.rank() + ": " + ex.getMessage(), ex);
        }
    }

    @Override
    public void remoteKey(final long registration, final long[] out, final int at)
    {
        final LocalRegistration r = registration(registration, "remoteKey");
        final long length = Math.min(r.lengthBytes, 0xFFFF_FFFFL);
        if (r.direct())
        {
            out[at] = r.address(0);
            out[at + 1] = ((long)r.rkey() << 32) | length;
        }
        else
        {
            out[at] = HEAP_KEY | r.id;
            out[at + 1] = length;
        }
    }

    /** This rank's registration {@code registration}; ERR_ARG naming {@code what} when there is none. */
    LocalRegistration registration(final long registration, final String what)
    {
        final LocalRegistration r = registration > 0 && registration <= Integer.MAX_VALUE ? registrations.get((int)registration) : null;
        if (r == null)
        {
            throw new MpiException(ErrorClass.ERR_ARG, "verbs: " + what + ": no registration " + registration + " on rank " + transport.rank());
        }
        return r;
    }

    /** This rank's registration {@code id} as a peer's staged message names it, or null when there is none (any more). */
    LocalRegistration registrationOrNull(final long id)
    {
        return id > 0 && id <= Integer.MAX_VALUE ? registrations.get((int)id) : null;
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
        final LocalRegistration local = registration(registration, what);
        final Peer p = transport.peer(peerRank);
        if (p == null)
        {
            throw new MpiException(ErrorClass.ERR_RANK, "verbs: " + what + ": rank " + peerRank + " is not a peer of rank " + transport.rank());
        }
        final boolean remoteHeap = (key[keyAt] & HEAP_KEY) != 0;
        final boolean oneRequest = !remoteHeap && local.direct();
        final long remoteLength = key[keyAt + 1] & 0xFFFF_FFFFL;
        if (length < 0 || localOffset < 0 || remoteOffset < 0 || localOffset + length > local.lengthBytes ||
            (remoteLength < 0xFFFF_FFFFL && remoteOffset + length > remoteLength) || (oneRequest && length > MAX_OPERATION_BYTES))
        {
            throw new MpiException(ErrorClass.ERR_ARG, "verbs: " + what + " out of range: length=" + length + ", localOffset=" + localOffset +
                ", local=" + local.lengthBytes + " bytes, remoteOffset=" + remoteOffset + ", remote=" + remoteLength + " bytes, at most " +
                MAX_OPERATION_BYTES + " bytes per operation between direct buffers, peer=" + peerRank);
        }
        if (read && local.readOnly)
        {
            throw new MpiException(ErrorClass.ERR_BUFFER, "verbs: get into read-only memory (registration " + registration + ")");
        }
        if (p.failed)
        {
            throw new MpiException(ErrorClass.ERR_OTHER, "verbs: " + what + ": rank " + peerRank + " is gone (seen by rank " + transport.rank() + ")");
        }
        if (oneRequest && p.rmaInFlight >= depth || !transport.ready(p))
        {
            return false;
        }
        final StagedOperations.Op op = staged.take(token, read, peerRank, local, localOffset, length);
        if (op == null)
        {
            return false;
        }
        if (remoteHeap)
        {
            staged.startMessages(op, key[keyAt] & ~HEAP_KEY, remoteOffset);
        }
        else if (!oneRequest)
        {
            staged.startBounced(op, key[keyAt] + remoteOffset, (int)(key[keyAt + 1] >>> 32));
        }
        else
        {
            transport.sends().prepareRdma(0, WorkRequestIds.of(WorkRequestIds.RMA, peerRank, op.slot), read, local.address(localOffset),
                (int)length, local.lkey(), key[keyAt] + remoteOffset, (int)(key[keyAt + 1] >>> 32), Ibv.SEND_SIGNALED);
            posted(p, op, "a " + what, length);
        }
        return true;
    }

    @Override
    public int putGather(final int peerRank, final long[] key, final int keyAt, final long remoteOffset, final long registration,
        final long[] segments, final int first, final int count, final long token)
    {
        return startList(false, peerRank, key, keyAt, remoteOffset, registration, segments, first, count, token);
    }

    @Override
    public int getScatter(final int peerRank, final long[] key, final int keyAt, final long remoteOffset, final long registration,
        final long[] segments, final int first, final int count, final long token)
    {
        return startList(true, peerRank, key, keyAt, remoteOffset, registration, segments, first, count, token);
    }

    /**
     * A scatter-gather list between direct regions:
     * <ol>
     * <li>Up to {@link VerbsTransport#sge} runs (and at most {@link #MAX_OPERATION_BYTES}) become one work request
     * against the consecutive remote bytes they cover, with one operation slot reporting each of its runs.</li>
     * <li>Requests are posted while the peer's RDMA depth and the slots have room; the count of runs posted is returned
     * (the caller resubmits the rest).</li>
     * </ol>
     * A heap side (here or at the target) cannot be gathered by the device: run by run through {@link #start}.
     */
    private int startList(final boolean read, final int peerRank, final long[] key, final int keyAt, final long remoteOffset,
        final long registration, final long[] segments, final int first, final int count, final long token)
    {
        final String what = read ? "getScatter" : "putGather";
        final LocalRegistration local = registration(registration, what);
        if ((key[keyAt] & HEAP_KEY) != 0 || !local.direct())
        {
            return RemoteMemory.eachSegment(this, read, peerRank, key, keyAt, remoteOffset, registration, segments, first, count, token);
        }
        if (first < 0 || count < 0 || 2L * (first + count) > segments.length)
        {
            throw new MpiException(ErrorClass.ERR_ARG, "verbs: " + what + ": runs [" + first + ", " + (first + count) + ") outside a list of " +
                segments.length / 2 + ", peer=" + peerRank);
        }
        final Peer p = transport.peer(peerRank);
        if (p == null)
        {
            throw new MpiException(ErrorClass.ERR_RANK, "verbs: " + what + ": rank " + peerRank + " is not a peer of rank " + transport.rank());
        }
        if (read && local.readOnly)
        {
            throw new MpiException(ErrorClass.ERR_BUFFER, "verbs: getScatter into read-only memory (registration " + registration + ")");
        }
        if (p.failed)
        {
            throw new MpiException(ErrorClass.ERR_OTHER, "verbs: " + what + ": rank " + peerRank + " is gone (seen by rank " + transport.rank() + ")");
        }
        final long remoteLength = key[keyAt + 1] & 0xFFFF_FFFFL;
        final int maxRuns = transport.sge(read);
        final org.jmpi.transport.verbs.ibv.SendRequests wr = transport.sends();
        int started = 0;
        long at = remoteOffset;
        while (started < count && p.rmaInFlight < depth && transport.ready(p))
        {
            int runs = 0;
            long bytes = 0;
            while (runs < maxRuns && started + runs < count)
            {
                final int i = 2 * (first + started + runs);
                final long offset = segments[i];
                final long length = segments[i + 1];
                if (length <= 0 || offset < 0 || offset + length > local.lengthBytes || length > MAX_OPERATION_BYTES)
                {
                    throw new MpiException(ErrorClass.ERR_ARG, "verbs: " + what + ": run " + (first + started + runs) + " [" + offset + ", " +
                        (offset + length) + ") outside the local registration of " + local.lengthBytes + " bytes (runs of 1 to " +
                        MAX_OPERATION_BYTES + " bytes), peer=" + peerRank);
                }
                if (bytes + length > MAX_OPERATION_BYTES)
                {
                    break;
                }
                wr.sge(0, runs, local.address(offset), (int)length, local.lkey());
                bytes += length;
                runs++;
            }
            if (at < 0 || remoteLength < 0xFFFF_FFFFL && at + bytes > remoteLength)
            {
                throw new MpiException(ErrorClass.ERR_ARG, "verbs: " + what + " out of range: remote bytes [" + at + ", " + (at + bytes) +
                    ") of a region of " + remoteLength + " bytes, peer=" + peerRank);
            }
            final StagedOperations.Op op = staged.take(token, read, peerRank, local, 0, bytes);
            if (op == null)
            {
                break;
            }
            op.runs = runs;
            // prepareRdma writes entry 0 and a count of 1: entry 0 again, then the list's length.
            wr.prepareRdma(0, WorkRequestIds.of(WorkRequestIds.RMA, peerRank, op.slot), read, local.address(segments[2 * (first + started)]),
                (int)segments[2 * (first + started) + 1], local.lkey(), key[keyAt] + at, (int)(key[keyAt + 1] >>> 32), Ibv.SEND_SIGNALED)
                .sgeCount(0, runs);
            posted(p, op, "a " + what, bytes);
            started += runs;
            at += bytes;
        }
        return started;
    }

    /** Posts the work request prepared for {@code op} (one request of {@code bytes}); a failed post frees its slot. */
    private void posted(final Peer p, final StagedOperations.Op op, final String what, final long bytes)
    {
        try
        {
            transport.post(p, what);
        }
        catch (final MpiException ex)
        {
            staged.abandon(op);
            throw ex;
        }
        p.rmaInFlight++;
        op.started = bytes;
    }

    /** The transport's completions and messages for staged operations. */
    StagedOperations staged()
    {
        return staged;
    }

    /** Starts what staged operations wait for (bounce buffers, frame credits freed since); how much it did. */
    int drive()
    {
        return staged.drive();
    }

    /** Deregisters what is still registered (at the transport's close), and the bounce buffers. */
    void close()
    {
        for (final LocalRegistration r : registrations.values())
        {
            if (r.entry != null)
            {
                try
                {
                    cache.release(r.entry);
                }
                catch (final RuntimeException ex)
                {
                    System.err.println("jmpi: verbs: rank " + transport.rank() + ": " + ex.getMessage());
                }
            }
        }
        registrations.clear();
        try
        {
            cache.close();
        }
        catch (final VerbsException ex)
        {
            System.err.println("jmpi: verbs: rank " + transport.rank() + ": " + ex.getMessage());
        }
        staged.close();
    }

    /** The cache, for tests and the stats line. */
    RegistrationCache<MemoryRegion> cache()
    {
        return cache;
    }
}
