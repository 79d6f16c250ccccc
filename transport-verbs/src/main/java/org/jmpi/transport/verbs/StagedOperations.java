package org.jmpi.transport.verbs;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.jmpi.ErrorClass;
import org.jmpi.MpiException;
import org.jmpi.spi.FrameWriter;
import org.jmpi.spi.RemoteMemory;
import org.jmpi.transport.verbs.ibv.Ibv;
import org.jmpi.transport.verbs.ibv.MemoryRegion;
import org.jmpi.transport.verbs.ibv.NativeBlock;
import org.jmpi.transport.verbs.ibv.VerbsContext;

import java.util.ArrayDeque;

import static org.jmpi.transport.verbs.StagedMessageDescriptor.*;

/**
 * The remote-memory operations of {@link VerbsRemoteMemory} (every one has a slot here, its token, and reports once),
 * and the two staged ways for memory the device cannot address in place:
 * <ol>
 * <li><b>Bounced</b> (this side heap, the target's memory a direct region): the operation is cut into chunks of a
 * bounce buffer ({@code jmpi.verbs.bounce.bytes}, {@code jmpi.verbs.bounce.slots} of them, registered once at open);
 * a put copies a chunk in and RDMA-writes it, a get RDMA-reads a chunk and copies it out at its completion. As many
 * chunks are in flight as there are free bounce buffers and room in the peer's RDMA depth, so copies overlap the
 * device's transfers (pipelined).</li>
 * <li><b>Through messages</b> (the target's memory is heap): chunks travel in the pair's frames as
 * {@link StagedMessageDescriptor} messages (the frame slots and receive buffers are registered: they are the bounce
 * buffers); the target's progress copies a PUT's chunk into its memory and answers ACK, answers a GET with
 * GET_DATA, and answers NAK (with the MPI error class) for a registration that is gone or a range outside it. The
 * target needs no call of its own.</li>
 * </ol>
 * An operation is reported when its last chunk is done; after a failed chunk no more start, and the failure is
 * reported once those in flight drain. An operation that is one work request with a scatter-gather list of several
 * runs ({@link VerbsRemoteMemory#putGather}) is reported once per run, as the SPI counts them. Answers the target cannot send for want of credits wait in order and go out
 * from {@link #drive}.
 *
 * <p>Threading: the rank's progress owner. Owns the bounce buffers (native memory, freed at {@link #close}).
 */
final class StagedOperations
{
    /** One operation, reused through its slot. */
    static final class Op
    {
        final int slot;
        long token;
        boolean read;
        int peer;
        LocalRegistration local;
        long localOffset;
        long length;
        /** Through messages: the target's registration id and offset; bounced: the remote address and rkey. */
        boolean messages;
        long remoteId;
        long remoteOffset;
        long remoteAddress;
        int rkey;
        /** Bytes started, bytes whose chunk finished, and where starting stops (the length, or less after a failure). */
        long started;
        long finished;
        long end;
        MpiException failure;
        boolean active;
        boolean queued;
        /** An atomic: its old value lands in the slot's 8 bytes of the atomic block. */
        boolean atomic;
        /** Runs of a scatter-gather list this operation's one work request carries: reported once each. */
        int runs;

        Op(final int slot)
        {
            this.slot = slot;
        }
    }

    /** An answer waiting for a frame slot to the origin. */
    private record Reply(int peer, int kind, int slot, long chunkOffset, int length, int status, LocalRegistration source, long sourceAt)
    {
    }

    private final VerbsTransport transport;
    private final VerbsRemoteMemory memory;
    private final Op[] ops;
    private final int[] freeOps;
    private int freeOpCount;
    private final ArrayDeque<Op> starting = new ArrayDeque<>();
    private final ArrayDeque<Reply> replies = new ArrayDeque<>();
    private final NativeBlock bounce;
    private final MemoryRegion bounceMr;
    private final int bounceBytes;
    private final int[] freeBounce;
    private int freeBounceCount;
    private final int[] bounceOp;
    private final long[] bounceAt;
    private final int[] bounceLength;
    private final MessageWriter writer = new MessageWriter();
    /** 8 bytes per operation slot, where an atomic's old value lands. */
    private final NativeBlock atomicResults;
    private final MemoryRegion atomicMr;
    private RemoteMemory.Completions completions;

    StagedOperations(final VerbsTransport transport, final VerbsContext device, final VerbsRemoteMemory memory, final int capacity,
        final int bounceSlots, final int bounceBytes)
    {
        this.transport = transport;
        this.memory = memory;
        this.ops = new Op[capacity];
        this.freeOps = new int[capacity];
        for (int i = capacity - 1; i >= 0; i--)
        {
            ops[i] = new Op(i);
            freeOps[freeOpCount++] = i;
        }
        this.atomicResults = new NativeBlock(8 * capacity);
        this.atomicMr = device.register(atomicResults, Ibv.ACCESS_LOCAL_WRITE);
        this.bounceBytes = bounceBytes;
        this.bounce = new NativeBlock(Math.multiplyExact(bounceSlots, bounceBytes));
        this.bounceMr = device.register(bounce, Ibv.ACCESS_LOCAL_WRITE);
        this.freeBounce = new int[bounceSlots];
        this.bounceOp = new int[bounceSlots];
        this.bounceAt = new long[bounceSlots];
        this.bounceLength = new int[bounceSlots];
        for (int i = bounceSlots - 1; i >= 0; i--)
        {
            freeBounce[freeBounceCount++] = i;
        }
    }

    void completions(final RemoteMemory.Completions handler)
    {
        this.completions = handler;
    }

    /** A free slot for an operation, filled; null when every slot is in use. */
    Op take(final long token, final boolean read, final int peer, final LocalRegistration local, final long localOffset, final long length)
    {
        if (freeOpCount == 0)
        {
            return null;
        }
        final Op op = ops[freeOps[--freeOpCount]];
        op.token = token;
        op.read = read;
        op.peer = peer;
        op.local = local;
        op.localOffset = localOffset;
        op.length = length;
        op.end = length;
        op.started = 0;
        op.finished = 0;
        op.failure = null;
        op.messages = false;
        op.atomic = false;
        op.runs = 1;
        op.active = true;
        return op;
    }

    /** The slot of an operation that never started (its post failed). */
    void abandon(final Op op)
    {
        op.active = false;
        op.local = null;
        freeOps[freeOpCount++] = op.slot;
    }

    /** Where the old value of the atomic in {@code op}'s slot lands, and the key to name it by. */
    long atomicAddress(final Op op)
    {
        return atomicMr.address() + 8L * op.slot;
    }

    int atomicLkey()
    {
        return atomicMr.lkey();
    }

    /** Starts {@code op} through messages to the target's heap registration {@code remoteId}. */
    void startMessages(final Op op, final long remoteId, final long remoteOffset)
    {
        op.messages = true;
        op.remoteId = remoteId;
        op.remoteOffset = remoteOffset;
        queue(op);
    }

    /** Starts {@code op} through bounce buffers against the remote region at {@code remoteAddress}. */
    void startBounced(final Op op, final long remoteAddress, final int rkey)
    {
        op.remoteAddress = remoteAddress;
        op.rkey = rkey;
        queue(op);
    }

    private void queue(final Op op)
    {
        advance(op);
        if (op.started < op.end)
        {
            if (!op.queued)
            {
                op.queued = true;
                starting.add(op);
            }
        }
        else if (op.length == 0)
        {
            // Nothing to move: reported from the next drive, never from inside put or get.
            if (!op.queued)
            {
                op.queued = true;
                starting.add(op);
            }
        }
    }

    /** Starts what waits (chunks, answers); how much it started. */
    int drive()
    {
        int work = flushReplies();
        for (int i = starting.size(); i > 0; i--)
        {
            final Op op = starting.poll();
            if (!op.active)
            {
                op.queued = false;
                continue;
            }
            work += advance(op);
            if (op.started < op.end)
            {
                starting.add(op);
                continue;
            }
            op.queued = false;
            if (op.finished == op.end)
            {
                finish(op);
                work++;
            }
        }
        return work;
    }

    /** Starts chunks of {@code op} while resources allow; how many. */
    private int advance(final Op op)
    {
        int chunks = 0;
        if (op.messages)
        {
            final int room = transport.maxFrameLength() - HEADER_LENGTH;
            while (op.started < op.end)
            {
                final int n = (int)Math.min(room, op.end - op.started);
                if (!send(op.peer, op.read ? KIND_GET : KIND_PUT, op.slot, op.remoteId, op.remoteOffset + op.started, op.started, n, 0,
                    op.read ? null : op.local, op.localOffset + op.started))
                {
                    break;
                }
                op.started += n;
                chunks++;
            }
            return chunks;
        }
        final Peer p = transport.peer(op.peer);
        if (p.failed && op.failure == null)
        {
            op.failure = new MpiException(ErrorClass.ERR_OTHER, "verbs: rank " + op.peer + " is gone (seen by rank " + transport.rank() + ")");
            op.end = op.started;
        }
        while (op.started < op.end && freeBounceCount > 0 && p.rmaInFlight < transport.rmaDepth() && !p.failed)
        {
            final int n = (int)Math.min(bounceBytes, op.end - op.started);
            final int b = freeBounce[--freeBounceCount];
            final long address = bounceMr.address() + (long)b * bounceBytes;
            bounceOp[b] = op.slot;
            bounceAt[b] = op.started;
            bounceLength[b] = n;
            if (!op.read)
            {
                op.local.copyOut(op.localOffset + op.started, null, address, n);
            }
            transport.sends().prepareRdma(0, WorkRequestIds.of(WorkRequestIds.BOUNCE, op.peer, b), op.read, address, n, bounceMr.lkey(),
                op.remoteAddress + op.started, op.rkey, Ibv.SEND_SIGNALED);
            try
            {
                transport.post(p, op.read ? "a bounced get" : "a bounced put");
            }
            catch (final MpiException ex)
            {
                freeBounce[freeBounceCount++] = b;
                throw ex;
            }
            p.rmaInFlight++;
            op.started += n;
            chunks++;
        }
        return chunks;
    }

    /** The RDMA operation of slot {@code slot} (one request between direct regions) finished. */
    void onDirectComplete(final int slot, final MpiException failure)
    {
        chunkDone(ops[slot], ops[slot].length, failure);
    }

    /** A bounced chunk's RDMA finished: a get's bytes are copied out of its bounce buffer. */
    void onBounceComplete(final int b, final MpiException failure)
    {
        final Op op = ops[bounceOp[b]];
        final int n = bounceLength[b];
        if (failure == null && op.read && op.failure == null)
        {
            op.local.copyIn(null, bounceMr.address() + (long)b * bounceBytes, op.localOffset + bounceAt[b], n);
        }
        freeBounce[freeBounceCount++] = b;
        chunkDone(op, n, failure);
    }

    private void chunkDone(final Op op, final long n, final MpiException failure)
    {
        if (!op.active)
        {
            throw new MpiException(ErrorClass.ERR_INTERN, "verbs: a chunk finished for operation slot " + op.slot + ", which is not active");
        }
        op.finished += n;
        if (failure != null && op.failure == null)
        {
            op.failure = failure;
            op.end = op.started;
        }
        if (op.started == op.end && op.finished >= op.end && !op.queued)
        {
            finish(op);
        }
    }

    private void finish(final Op op)
    {
        final long token = op.token;
        final MpiException failure = op.failure;
        final boolean atomic = op.atomic;
        final int runs = op.runs;
        final long old = atomic && failure == null ? atomicResults.buffer().getLong(8 * op.slot) : 0;
        op.active = false;
        op.local = null;
        op.failure = null;
        freeOps[freeOpCount++] = op.slot;
        if (completions == null)
        {
            throw new MpiException(ErrorClass.ERR_INTERN, "verbs: a put/get completed with no completion handler set");
        }
        if (atomic)
        {
            completions.onAtomic(token, failure, old);
        }
        else
        {
            for (int i = 0; i < runs; i++)
            {
                completions.onComplete(token, failure);
            }
        }
    }

    // ------------------------------------------------------------------------------------- messages

    /** A staged message from {@code src} (a SEND with immediate {@link VerbsTransport#IMM_STAGED}). */
    void onMessage(final int src, final DirectBuffer buffer, final int index, final int lengthBytes)
    {
        final int kind = buffer.getInt(index + KIND_OFFSET, BYTE_ORDER);
        final int slot = buffer.getInt(index + SLOT_OFFSET, BYTE_ORDER);
        final long chunkOffset = buffer.getLong(index + CHUNK_OFFSET_OFFSET, BYTE_ORDER);
        final int length = buffer.getInt(index + LENGTH_OFFSET, BYTE_ORDER);
        if (length < 0 || (kind == KIND_PUT || kind == KIND_GET_DATA) && HEADER_LENGTH + length > lengthBytes)
        {
            throw new MpiException(ErrorClass.ERR_INTERN, "verbs: staged message of kind " + kind + " from rank " + src + " names " + length +
                " bytes in a frame of " + lengthBytes);
        }
        switch (kind)
        {
            case KIND_PUT, KIND_GET ->
            {
                final long id = buffer.getLong(index + REGISTRATION_OFFSET, BYTE_ORDER);
                final long at = buffer.getLong(index + TARGET_OFFSET_OFFSET, BYTE_ORDER);
                final LocalRegistration target = memory.registrationOrNull(id);
                final boolean put = kind == KIND_PUT;
                final int status = target == null ? ErrorClass.ERR_ARG.code()
                    : at < 0 || at + length > target.lengthBytes ? ErrorClass.ERR_RMA_RANGE.code()
                    : put && target.readOnly ? ErrorClass.ERR_BUFFER.code() : 0;
                if (status == 0 && put)
                {
                    target.copyIn(buffer.byteArray(), buffer.addressOffset() + index + HEADER_LENGTH, at, length);
                }
                reply(new Reply(src, status != 0 ? KIND_NAK : put ? KIND_ACK : KIND_GET_DATA, slot, chunkOffset, length, status,
                    status == 0 && !put ? target : null, at));
            }
            case KIND_GET_DATA ->
            {
                final Op op = answered(src, slot);
                if (op.failure == null)
                {
                    op.local.copyIn(buffer.byteArray(), buffer.addressOffset() + index + HEADER_LENGTH, op.localOffset + chunkOffset, length);
                }
                chunkDone(op, length, null);
            }
            case KIND_ACK -> chunkDone(answered(src, slot), length, null);
            case KIND_NAK ->
            {
                final Op op = answered(src, slot);
                chunkDone(op, length, new MpiException(ErrorClass.of(buffer.getInt(index + STATUS_OFFSET, BYTE_ORDER)), "verbs: rank " + src +
                    " refused a staged " + (op.read ? "get from" : "put into") + " its heap memory (registration " + op.remoteId +
                    ", bytes [" + (op.remoteOffset + chunkOffset) + ", " + (op.remoteOffset + chunkOffset + length) +
                    ")): the registration is gone, the range lies outside it, or it is read-only"));
            }
            default -> throw new MpiException(ErrorClass.ERR_INTERN, "verbs: unknown staged message kind " + kind + " from rank " + src);
        }
    }

    private Op answered(final int src, final int slot)
    {
        final Op op = slot >= 0 && slot < ops.length ? ops[slot] : null;
        if (op == null || !op.active || !op.messages || op.peer != src)
        {
            throw new MpiException(ErrorClass.ERR_INTERN, "verbs: rank " + src + " answers operation slot " + slot + ", which does not wait for it");
        }
        return op;
    }

    private void reply(final Reply r)
    {
        replies.add(r);
        flushReplies();
    }

    private int flushReplies()
    {
        int sent = 0;
        Reply r;
        while ((r = replies.peek()) != null && send(r.peer(), r.kind(), r.slot(), 0, 0, r.chunkOffset(), r.length(), r.status(), r.source(),
            r.sourceAt()))
        {
            replies.poll();
            sent++;
        }
        return sent;
    }

    /**
     * Offers one message; false under back-pressure. Data follows the header when {@code source} is not null
     * ({@code length} bytes of it from {@code sourceAt}); otherwise {@code length} is only named.
     */
    private boolean send(final int peer, final int kind, final int slot, final long id, final long targetAt, final long chunkOffset,
        final int length, final int status, final LocalRegistration source, final long sourceAt)
    {
        writer.kind = kind;
        writer.slot = slot;
        writer.id = id;
        writer.targetAt = targetAt;
        writer.chunkOffset = chunkOffset;
        writer.length = length;
        writer.status = status;
        writer.source = source;
        writer.sourceAt = sourceAt;
        final boolean sent = transport.offerStaged(peer, HEADER_LENGTH + (source == null ? 0 : length), writer);
        writer.source = null;
        return sent;
    }

    /** Writes one message into a frame slot. */
    private static final class MessageWriter implements FrameWriter
    {
        int kind;
        int slot;
        long id;
        long targetAt;
        long chunkOffset;
        int length;
        int status;
        LocalRegistration source;
        long sourceAt;

        @Override
        public void write(final MutableDirectBuffer buffer, final int index, final int lengthBytes)
        {
            buffer.putInt(index + KIND_OFFSET, kind, BYTE_ORDER);
            buffer.putInt(index + SLOT_OFFSET, slot, BYTE_ORDER);
            buffer.putLong(index + REGISTRATION_OFFSET, id, BYTE_ORDER);
            buffer.putLong(index + TARGET_OFFSET_OFFSET, targetAt, BYTE_ORDER);
            buffer.putLong(index + CHUNK_OFFSET_OFFSET, chunkOffset, BYTE_ORDER);
            buffer.putInt(index + LENGTH_OFFSET, length, BYTE_ORDER);
            buffer.putInt(index + STATUS_OFFSET, status, BYTE_ORDER);
            if (source != null)
            {
                source.copyOut(sourceAt, buffer.byteArray(), buffer.addressOffset() + index + HEADER_LENGTH, length);
            }
        }
    }

    /** Deregisters and frees the bounce buffers (the device is about to close). */
    void close()
    {
        try
        {
            bounceMr.deregister();
            atomicMr.deregister();
        }
        catch (final RuntimeException ex)
        {
            System.err.println("jmpi: verbs: rank " + transport.rank() + ": " + ex.getMessage());
        }
        bounce.free();
        atomicResults.free();
    }
}
