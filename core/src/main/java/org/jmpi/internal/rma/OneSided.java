package org.jmpi.internal.rma;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayDeque;

import org.agrona.BufferUtil;
import org.agrona.DirectBuffer;
import org.agrona.UnsafeApi;
import org.agrona.collections.Int2ObjectHashMap;
import org.agrona.collections.Long2ObjectHashMap;
import org.jmpi.ErrorClass;
import org.jmpi.MpiException;
import org.jmpi.internal.datatype.BufferView;
import org.jmpi.internal.datatype.Convertor;
import org.jmpi.internal.pt2pt.ExtensionFrame;
import org.jmpi.internal.pt2pt.Protocol;
import org.jmpi.spi.ArenaMemory;
import org.jmpi.spi.PeerMemory;
import org.jmpi.spi.RemoteMemory;

import static org.jmpi.internal.rma.RmaFrameDescriptor.*;
import static org.jmpi.internal.rma.RmaFrames.*;

/**
 * One rank's one-sided layer: regions of memory registered for remote access, and put, get and atomic
 * fetch-and-add against a peer's region, on the path the transport to that peer allows:
 * <ol>
 * <li><b>peer memory</b> (threads of one JVM; the PVAS arena): the origin maps the target's region and
 * copies or adds directly; the operation is complete when the call returns. An add wakes the target's
 * engine, so a target waiting on a counter sees it at once.</li>
 * <li><b>remote memory</b> (RDMA; a transport that copies on the target's behalf): where the transport to
 * the target offers {@link RemoteMemory} and both sides registered with it, puts and gets from and to registered
 * regions go through it and complete when the transport reports them; frames to that target wait for its puts
 * in flight, so an add still publishes the puts before it.</li>
 * <li><b>active messages</b> otherwise: PUT, GET and ADD frames (laid out by {@link RmaFrameDescriptor}) in
 * fragments that fit the transport's frames; the target's engine applies each and answers; the operation
 * is complete when every fragment is answered. The target needs no call of its own: its engine applies
 * the frames whenever it polls.</li>
 * </ol>
 * The origin checks every access against the key's length before anything moves. Counters are longs in a
 * region; an add after a put to the same target publishes the put (both paths keep per-target order).
 *
 * <p>Threading: engine thread only (callers go through the engine's {@code execute}); the peer-memory path
 * touches the target's memory from the origin's engine thread.
 */
public final class OneSided
{
    /** Largest payload of one PUT or GET_DATA fragment. */
    static final int MAX_FRAGMENT = 32 * 1024;

    private final Protocol protocol;
    private final int rank;
    private final Int2ObjectHashMap<Region> regions = new Int2ObjectHashMap<>();
    private final Long2ObjectHashMap<Pending> pending = new Long2ObjectHashMap<>();
    private final PeerMemory exposing;
    /** The remote memory regions are registered with (the first transport's that has one), or null. */
    private final RemoteMemory remote;
    /** Per world rank: remote-memory puts in flight, which frames to that rank must not overtake. */
    private final int[] remotePuts;
    /** Per world rank: request frames held back until its remote-memory puts complete (in order). */
    private final ArrayDeque<ExtensionFrame>[] heldBack;
    /** The node's arena (shared windows across JVMs), or null. */
    private final ArenaMemory arena;
    /** The typed operations windows use, on the same paths and frame order. */
    private final WinOps winOps;
    private int nextRegionId = 1;
    private long nextOp = 1;

    /**
     * An operation waiting for its answers: a get through frames also knows where the bytes go; a remote-memory
     * put knows its target, whose held-back frames it releases.
     */
    private record Pending(Completion completion, BufferView originView, long originBase, int remotePutTarget)
    {
    }

    /** Registers the layer's frame handlers with {@code protocol}. Engine thread, before any traffic. */
    public OneSided(final Protocol protocol, final int rank)
    {
        this(protocol, rank, null);
    }

    /**
     * As {@link #OneSided(Protocol, int)}; {@code arena} is the node's shared arena this rank allocates from
     * ({@code Mpi.allocMem}), or null: shared windows across JVMs place their parts there.
     */
    public OneSided(final Protocol protocol, final int rank, final ArenaMemory arena)
    {
        this.protocol = protocol;
        this.arena = arena;
        this.rank = rank;
        // A handle means something only to the peer memory that made it: where peers are reached through two
        // (threads of this JVM through jvm, other JVMs through the arena), regions are not exposed and go by frames.
        PeerMemory found = null;
        boolean mixed = false;
        for (int r = 0; r < protocol.worldSize(); r++)
        {
            final PeerMemory pm = r == rank ? null : protocol.peerMemory(r);
            mixed |= pm != null && found != null && pm != found;
            found = found == null ? pm : found;
        }
        this.exposing = mixed ? null : found;
        RemoteMemory remoteFound = null;
        for (int r = 0; r < protocol.worldSize() && remoteFound == null; r++)
        {
            remoteFound = r == rank ? null : protocol.remoteMemory(r);
        }
        this.remote = remoteFound;
        this.remotePuts = new int[protocol.worldSize()];
        @SuppressWarnings("unchecked")
        final ArrayDeque<ExtensionFrame>[] queues = new ArrayDeque[protocol.worldSize()];
        this.heldBack = queues;
        protocol.register(TYPE_PUT, this::onPut);
        protocol.register(TYPE_GET, this::onGet);
        protocol.register(TYPE_ADD, this::onAdd);
        protocol.register(TYPE_ACK, this::onAck);
        protocol.register(TYPE_GET_DATA, this::onGetData);
        if (remote != null)
        {
            remote.completions(new RemoteMemory.Completions()
            {
                @Override
                public void onComplete(final long token, final MpiException failure)
                {
                    onRemoteComplete(token, failure);
                }

                @Override
                public void onAtomic(final long token, final MpiException failure, final long oldValue)
                {
                    onRemoteAtomic(token, failure, oldValue);
                }
            });
        }
        this.winOps = new WinOps(protocol, this, rank);
    }

    /** The node's shared arena this rank allocates from, or null where no transport offers one. */
    public ArenaMemory arena()
    {
        return arena;
    }

    /** {@code lengthBytes} of zeroed memory in {@code arena} (aligned to 64 bytes), or null: no arena, or no room in it. */
    public static ByteBuffer arenaPart(final ArenaMemory arena, final long lengthBytes)
    {
        if (arena == null)
        {
            return null;
        }
        try
        {
            final ByteBuffer part = arena.allocate(lengthBytes, 64).order(ByteOrder.nativeOrder());
            // a block freed earlier holds what its last owner left
            UnsafeApi.setMemory(BufferUtil.address(part), lengthBytes, (byte)0);
            return part;
        }
        catch (final MpiException ex)
        {
            return null;
        }
    }

    /** The typed operations (windows) on this layer. */
    public WinOps winOps()
    {
        return winOps;
    }

    /** This rank's region {@code id}, or null when it is not registered (any more). */
    Region regionOrNull(final int id)
    {
        return regions.get(id);
    }

    /**
     * Registers {@code memory} (a primitive array or a ByteBuffer) for one-sided access, exposed through
     * the peer memory of this rank's transports where there is one.
     */
    public Region register(final Object memory)
    {
        final BufferView view = Region.addressable(memory, "register");
        final long handle = exposing == null ? 0 : exposing.expose(memory);
        final long registration = remote == null ? 0 : remote.register(memory);
        final long[] remoteKey = new long[RemoteMemory.KEY_LONGS];
        if (registration != 0)
        {
            remote.remoteKey(registration, remoteKey, 0);
        }
        final Region region = new Region(nextRegionId++, view, handle, registration, remoteKey);
        regions.put(region.id(), region);
        return region;
    }

    /** Ends a registration; peers must not access the region any more. */
    public void deregister(final Region region)
    {
        if (regions.remove(region.id()) == null)
        {
            throw new MpiException(ErrorClass.ERR_ARG, "deregister: region " + region.id() + " is not registered");
        }
        if (region.handle() != 0)
        {
            exposing.withdraw(region.handle());
        }
        if (region.registration() != 0)
        {
            remote.deregister(region.registration());
        }
    }

    /** Writes {@code length} bytes of {@code src} from byte {@code srcOffset} into the target's region at {@code targetOffset}. */
    public Completion put(final int target, final RegionKey key, final long targetOffset, final Object src, final long srcOffset,
        final long length)
    {
        return put(resolve(target, key), targetOffset, Region.addressable(src, "put"), srcOffset, length);
    }

    /** As {@link #put(int, RegionKey, long, Object, long, long)} from a region this rank registered (nothing allocated on the direct path). */
    public Completion put(final RemoteRegion to, final long targetOffset, final Region src, final long srcOffset, final long length)
    {
        if (to.remote() && src.registration() != 0)
        {
            checkRange("put", to.key(), targetOffset, length);
            checkOrigin("put", src.view(), srcOffset, length);
            final Completion completion = new Completion(1);
            final long op = nextOp++;
            pending.put(op, new Pending(completion, null, 0, to.rank()));
            if (remote.put(to.rank(), to.remoteKey(), 0, targetOffset, src.registration(), srcOffset, length, op))
            {
                remotePuts[to.rank()]++;
                return completion;
            }
            pending.remove(op);
        }
        return put(to, targetOffset, src.view(), srcOffset, length);
    }

    Completion put(final RemoteRegion to, final long targetOffset, final BufferView origin, final long srcOffset, final long length)
    {
        final RegionKey key = to.key();
        checkRange("put", key, targetOffset, length);
        checkOrigin("put", origin, srcOffset, length);
        if (to.direct() != null)
        {
            Region.copy(origin, srcOffset, to.direct(), targetOffset, length);
            return Completion.DONE;
        }
        final int target = to.rank();
        final int fragment = fragmentBytes(target);
        final Completion completion = new Completion(fragments(length, fragment));
        final long op = track(completion, null, 0);
        for (long done = 0; done == 0 || done < length; done += fragment)
        {
            final int chunk = (int)Math.min(fragment, length - done);
            sendInOrder(target, new PutFrame(key.id(), targetOffset + done, op, origin, srcOffset + done, chunk));
        }
        return completion;
    }

    /** Reads {@code length} bytes of the target's region at {@code targetOffset} into {@code dst} from byte {@code dstOffset}. */
    public Completion get(final int target, final RegionKey key, final long targetOffset, final Object dst, final long dstOffset,
        final long length)
    {
        return get(resolve(target, key), targetOffset, Region.addressable(dst, "get"), dstOffset, length);
    }

    /** As {@link #get(int, RegionKey, long, Object, long, long)} into a region this rank registered. */
    public Completion get(final RemoteRegion from, final long targetOffset, final Region dst, final long dstOffset, final long length)
    {
        if (from.remote() && dst.registration() != 0 && !dst.view().readOnly())
        {
            checkRange("get", from.key(), targetOffset, length);
            checkOrigin("get", dst.view(), dstOffset, length);
            final Completion completion = new Completion(1);
            final long op = track(completion, null, 0);
            if (remote.get(from.rank(), from.remoteKey(), 0, targetOffset, dst.registration(), dstOffset, length, op))
            {
                return completion;
            }
            pending.remove(op);
        }
        return get(from, targetOffset, dst.view(), dstOffset, length);
    }

    Completion get(final RemoteRegion from, final long targetOffset, final BufferView origin, final long dstOffset, final long length)
    {
        final RegionKey key = from.key();
        checkRange("get", key, targetOffset, length);
        checkOrigin("get", origin, dstOffset, length);
        if (origin.readOnly())
        {
            throw new MpiException(ErrorClass.ERR_BUFFER, "get: the origin buffer is read-only");
        }
        if (from.direct() != null)
        {
            Region.copy(from.direct(), targetOffset, origin, dstOffset, length);
            return Completion.DONE;
        }
        final int target = from.rank();
        final int fragment = fragmentBytes(target);
        final Completion completion = new Completion(fragments(length, fragment));
        final long op = track(completion, origin, dstOffset);
        for (long done = 0; done == 0 || done < length; done += fragment)
        {
            final int chunk = (int)Math.min(fragment, length - done);
            sendInOrder(target, new GetFrame(key.id(), targetOffset + done, op, done, chunk));
        }
        return completion;
    }

    /** Atomically adds {@code delta} to the long at {@code targetOffset} of the target's region; the completion holds the old value. */
    public Completion fetchAndAdd(final int target, final RegionKey key, final long targetOffset, final long delta)
    {
        return fetchAndAdd(resolve(target, key), targetOffset, delta);
    }

    /**
     * As {@link #fetchAndAdd(int, RegionKey, long, long)} on a resolved region. A notification: the target's
     * engine is woken, and an add after a put to the same target publishes the put.
     */
    public Completion fetchAndAdd(final RemoteRegion to, final long targetOffset, final long delta)
    {
        return add(to, targetOffset, delta, true);
    }

    /**
     * As {@link #fetchAndAdd(RemoteRegion, long, long)} for a notification whose old value nobody reads: on the
     * direct path it allocates nothing (the completion is the shared done one, holding 0).
     */
    public Completion add(final RemoteRegion to, final long targetOffset, final long delta)
    {
        return add(to, targetOffset, delta, false);
    }

    private Completion add(final RemoteRegion to, final long targetOffset, final long delta, final boolean fetch)
    {
        final RegionKey key = to.key();
        checkRange("fetchAndAdd", key, targetOffset, 8);
        if ((targetOffset & 7) != 0 || !key.longAligned())
        {
            throw new MpiException(ErrorClass.ERR_RMA_RANGE, "fetchAndAdd: byte " + targetOffset + " of the target region is not " +
                "an 8-byte aligned long" + (key.longAligned() ? "" : " (the region itself is not 8-byte aligned)"));
        }
        final int target = to.rank();
        if (to.direct() != null)
        {
            final long before = Region.getAndAdd(to.direct(), targetOffset, delta);
            if (target != rank)
            {
                protocol.peerMemory(target).wake(target);
            }
            return before == 0 || !fetch ? Completion.DONE : Completion.done(before);
        }
        final Completion atomic = remoteAdd(to, targetOffset, delta);
        if (atomic != null)
        {
            return atomic;
        }
        final Completion completion = new Completion(1);
        sendInOrder(target, new AddFrame(key.id(), targetOffset, track(completion, null, 0), delta));
        return completion;
    }

    private Completion remoteAdd(final RemoteRegion to, final long targetOffset, final long delta)
    {
        return remoteAtomic(to, targetOffset, false, delta, 0, null);
    }

    /**
     * Issue 19: one 8-byte integer atomic, fetch-and-add of {@code operand} or (with {@code compareSwap}) compare with
     * {@code operand} and swap in {@code swap}, through the transport's remote-memory atomics where it offers them for
     * the target's region ({@link RemoteMemory#atomics}: atomic with the target's own CPU atomics, so they mix with
     * frames) and no put to the target is in flight (an atomic must publish it: then frames, held back behind it). The
     * completion holds the old value, also written to {@code result} (a native-order cursor over one 8-byte element)
     * when not null. Null where not offered: the caller uses frames.
     */
    Completion remoteAtomic(final RemoteRegion to, final long targetOffset, final boolean compareSwap, final long operand, final long swap,
        final Convertor result)
    {
        final int target = to.rank();
        if (!to.remote() || (targetOffset & 7) != 0 || !to.key().longAligned() || remotePuts[target] != 0 ||
            heldBack[target] != null && !heldBack[target].isEmpty() || result != null && !result.isNativeOrder() ||
            !remote.atomics(to.remoteKey(), 0))
        {
            return null;
        }
        BufferView resultView = null;
        long resultAt = 0;
        if (result != null)
        {
            result.seek(0);
            resultView = result.view();
            resultAt = result.runAddress() - resultView.address();
        }
        final Completion completion = new Completion(1);
        final long op = track(completion, resultView, resultAt);
        final boolean started = compareSwap ? remote.compareAndSwap(target, to.remoteKey(), 0, targetOffset, operand, swap, op)
            : remote.fetchAndAdd(target, to.remoteKey(), 0, targetOffset, operand, op);
        if (started)
        {
            return completion;
        }
        pending.remove(op);
        return null;
    }

    /** A remote-memory atomic finished with the target's old value. */
    private void onRemoteAtomic(final long op, final MpiException failure, final long oldValue)
    {
        final Pending p = take(op, rank);
        if (failure != null)
        {
            pending.remove(op);
            p.completion().fail(failure);
            return;
        }
        if (p.originView() != null)
        {
            UnsafeApi.putLong(p.originView().base(), p.originView().address() + p.originBase(), oldValue);
        }
        finished(op, p, oldValue);
    }

    /**
     * {@code target}'s region named by {@code key}, resolved once: where this rank reaches it directly (itself, or
     * through peer memory) the view of its memory, so that later operations on it map nothing.
     */
    public RemoteRegion resolve(final int target, final RegionKey key)
    {
        final BufferView direct = directView(target, key);
        final boolean viaRemote = direct == null && key.hasRemoteKey() && remote != null && protocol.remoteMemory(target) == remote;
        return new RemoteRegion(target, key, direct, viaRemote);
    }

    /**
     * Sends a request frame to {@code target} after the remote-memory puts in flight to it, so that a frame
     * (an add that notifies) never overtakes a put it should publish.
     */
    void sendInOrder(final int target, final ExtensionFrame frame)
    {
        if (remotePuts[target] == 0 && (heldBack[target] == null || heldBack[target].isEmpty()))
        {
            protocol.send(target, frame);
            return;
        }
        if (heldBack[target] == null)
        {
            heldBack[target] = new ArrayDeque<>();
        }
        heldBack[target].add(frame);
    }

    /** A remote-memory operation finished (the transport reports it from its progress). */
    private void onRemoteComplete(final long op, final MpiException failure)
    {
        final Pending p = take(op, rank);
        if (p.remotePutTarget() >= 0)
        {
            final int target = p.remotePutTarget();
            if (--remotePuts[target] == 0 && heldBack[target] != null)
            {
                ExtensionFrame f;
                while ((f = heldBack[target].poll()) != null)
                {
                    protocol.send(target, f);
                }
            }
        }
        if (failure != null)
        {
            pending.remove(op);
            p.completion().fail(failure);
            return;
        }
        finished(op, p, 0);
    }

    /** The target region's memory when this rank can reach it directly (itself, or through peer memory); else null. */
    private BufferView directView(final int target, final RegionKey key)
    {
        if (target == rank)
        {
            return region(key.id(), rank).view();
        }
        final PeerMemory pm = protocol.peerMemory(target);
        if (pm == null || key.handle() == 0)
        {
            return null;
        }
        return Region.addressable(pm.map(target, key.handle()), "peer region");
    }

    private long track(final Completion completion, final BufferView originView, final long originBase)
    {
        final long op = nextOp++;
        pending.put(op, new Pending(completion, originView, originBase, -1));
        return op;
    }

    /** Payload bytes per PUT or GET_DATA frame to {@code target}. */
    private int fragmentBytes(final int target)
    {
        return Math.min(MAX_FRAGMENT, protocol.maxFrameLength(target) - Math.max(PUT_DATA_OFFSET, DATA_PAYLOAD_OFFSET));
    }

    /** Frames an operation of {@code length} bytes takes (a zero-length one still takes one, for its answer). */
    private static int fragments(final long length, final int fragment)
    {
        return (int)Math.max(1, (length + fragment - 1) / fragment);
    }

    private static void checkRange(final String call, final RegionKey key, final long targetOffset, final long length)
    {
        if (targetOffset < 0 || length < 0 || targetOffset + length > key.lengthBytes())
        {
            throw new MpiException(ErrorClass.ERR_RMA_RANGE, call + ": bytes [" + targetOffset + ", " + (targetOffset + length) +
                ") outside the target region of " + key.lengthBytes() + " bytes");
        }
    }

    private static void checkOrigin(final String call, final BufferView origin, final long offset, final long length)
    {
        if (offset < 0 || offset + length > origin.capacityBytes())
        {
            throw new MpiException(ErrorClass.ERR_BUFFER, call + ": origin bytes [" + offset + ", " + (offset + length) +
                ") outside a buffer of " + origin.capacityBytes() + " bytes");
        }
    }

    private Region region(final int id, final int from)
    {
        final Region region = regions.get(id);
        if (region == null)
        {
            throw new MpiException(ErrorClass.ERR_INTERN, "one-sided: rank " + from + " names region " + id +
                ", which rank " + rank + " has not registered");
        }
        return region;
    }

    private Pending take(final long op, final int from)
    {
        final Pending p = pending.get(op);
        if (p == null)
        {
            throw new MpiException(ErrorClass.ERR_INTERN, "one-sided: rank " + from + " answers unknown operation " + op);
        }
        return p;
    }

    private void finished(final long op, final Pending p, final long value)
    {
        p.completion().fragmentDone(value);
        if (p.completion().isDone())
        {
            pending.remove(op);
        }
    }

    // ---------------------------------------------------------------- target side: active messages

    private void onPut(final int src, final DirectBuffer buffer, final int index, final int lengthBytes)
    {
        final Region region = region(buffer.getInt(index + REGION_OFFSET, BYTE_ORDER), src);
        final int length = buffer.getInt(index + LENGTH_OFFSET, BYTE_ORDER);
        final long offset = buffer.getLong(index + TARGET_OFFSET_OFFSET, BYTE_ORDER);
        checkIncoming(src, region, offset, length, lengthBytes - PUT_DATA_OFFSET);
        final BufferView view = region.view();
        copyIn(buffer, index + PUT_DATA_OFFSET, view, offset, length);
        protocol.send(src, new AckFrame(buffer.getLong(index + OP_OFFSET, BYTE_ORDER), 0));
    }

    private void onGet(final int src, final DirectBuffer buffer, final int index, final int lengthBytes)
    {
        final Region region = region(buffer.getInt(index + REGION_OFFSET, BYTE_ORDER), src);
        final int length = buffer.getInt(index + LENGTH_OFFSET, BYTE_ORDER);
        final long offset = buffer.getLong(index + TARGET_OFFSET_OFFSET, BYTE_ORDER);
        checkIncoming(src, region, offset, length, length);
        protocol.send(src, new GetDataFrame(buffer.getLong(index + OP_OFFSET, BYTE_ORDER),
            buffer.getLong(index + GET_ORIGIN_OFFSET_OFFSET, BYTE_ORDER), region.view(), offset, length));
    }

    private void onAdd(final int src, final DirectBuffer buffer, final int index, final int lengthBytes)
    {
        final Region region = region(buffer.getInt(index + REGION_OFFSET, BYTE_ORDER), src);
        final long before = Region.getAndAdd(region.view(), buffer.getLong(index + TARGET_OFFSET_OFFSET, BYTE_ORDER),
            buffer.getLong(index + ADD_DELTA_OFFSET, BYTE_ORDER));
        protocol.send(src, new AckFrame(buffer.getLong(index + OP_OFFSET, BYTE_ORDER), before));
    }

    private static void checkIncoming(final int src, final Region region, final long offset, final int length, final int available)
    {
        if (offset < 0 || length < 0 || offset + length > region.lengthBytes() || available < length)
        {
            throw new MpiException(ErrorClass.ERR_INTERN, "one-sided: rank " + src + " accesses bytes [" + offset + ", " +
                (offset + length) + ") of a region of " + region.lengthBytes() + " bytes (" + available + " bytes in the frame)");
        }
    }

    // ---------------------------------------------------------------- origin side: answers

    private void onAck(final int src, final DirectBuffer buffer, final int index, final int lengthBytes)
    {
        final long op = buffer.getLong(index + ACK_OP_OFFSET, BYTE_ORDER);
        finished(op, take(op, src), buffer.getLong(index + ACK_VALUE_OFFSET, BYTE_ORDER));
    }

    private void onGetData(final int src, final DirectBuffer buffer, final int index, final int lengthBytes)
    {
        final long op = buffer.getLong(index + DATA_OP_OFFSET, BYTE_ORDER);
        final Pending p = take(op, src);
        final long at = buffer.getLong(index + DATA_ORIGIN_OFFSET_OFFSET, BYTE_ORDER);
        final int length = buffer.getInt(index + DATA_LENGTH_OFFSET, BYTE_ORDER);
        copyIn(buffer, index + DATA_PAYLOAD_OFFSET, p.originView(), p.originBase() + at, length);
        finished(op, p, 0);
    }

    private static void copyIn(final DirectBuffer frame, final int frameIndex, final BufferView dst, final long dstOffset, final int length)
    {
        UnsafeApi.copyMemory(frame.byteArray(), frame.addressOffset() + frameIndex, dst.base(), dst.address() + dstOffset, length);
    }
}
