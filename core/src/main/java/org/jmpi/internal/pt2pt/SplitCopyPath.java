package org.jmpi.internal.pt2pt;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.UnsafeApi;
import org.jmpi.Datatype;
import org.jmpi.ErrorClass;
import org.jmpi.MpiException;
import org.jmpi.internal.datatype.BufferView;
import org.jmpi.internal.datatype.Convertor;
import org.jmpi.internal.datatype.TypeWireForm;

import static org.jmpi.internal.pt2pt.FrameDescriptor.*;

/**
 * The PVAS split copy (issue 11): sender and receiver both copy parts of the packed stream straight from
 * the send buffer into the receive buffer, at once.
 * <ol>
 * <li>The sender exposes its buffer and sends the RTS as {@link PeerCopyPath} does.</li>
 * <li>The receiver, on the match, exposes its receive buffer and a progress record of five words, each on a
 * cache line of its own (the next byte to claim in part A = [0, split), the next in part B = [split, N), the bytes
 * the receiver copied, the bytes the sender copied, the sender's done mark), answers
 * SPLIT with both handles, its element offset, count and type (by id in the pair's type table, with the wire
 * form the first time) and the split, then copies.</li>
 * <li>Each side claims chunks with a compare-and-set on a part's cursor: the receiver from part A and, once
 * A is claimed, from B; the sender from B, then A. A side that is not inside jmpi claims nothing, so the
 * other copies everything: a sender computing after {@code isend} never delays a waiting receiver. After
 * each chunk a side adds its bytes to its own count; each request completes once the two counts reach N,
 * waiting, if it must, as an engine activity. The sender then marks the record done and withdraws its
 * buffer; the receiver withdraws its exposures only after that mark, since a sender that comes late still
 * maps them (and finds nothing left to claim).</li>
 * </ol>
 * Chosen by the sender for messages of at least {@code jmpi.pvas.split.min} bytes to a peer with peer
 * memory; {@code jmpi.pvas.split} is the fraction of the stream in part A (1 gives the receiver-only copy of
 * {@link PeerCopyPath}, as a baseline, with the same claiming). Also chosen, at any size, when the peer memory
 * cannot expose the send buffer (a heap buffer across JVMs: the RTS carries handle 0): a receiver whose buffer it
 * can expose (one in the node's arena) answers SPLIT with part A empty and the sender copies everything straight
 * into it; a receiver that cannot either answers CTS and the message goes through fragments ({@link FragmentPath}).
 * Under {@code jmpi.pvas.mode=auto} the receiver also answers CTS when the cost model ({@link PathSelector}) finds
 * the staged pipeline cheaper than the direct copy for the two layouts.
 *
 * <p>Threading: engine threads of the two ranks; the progress record is the only memory both write, by
 * atomic operations.
 */
final class SplitCopyPath implements RendezvousPath
{
    /**
     * Most bytes claimed at a time: large enough to amortise a compare-and-set, small enough to share work. A message
     * is claimed in at least {@link #MIN_CHUNKS} chunks of at least {@link #MIN_CHUNK} bytes ({@link #chunk}): at 1 MiB
     * 64 KiB chunks left 8 to each side, and a sender that arrived a few µs late found the receiver on its last ones
     * (split / receiver-only 1.00 at 1 MiB against 0.56 and 0.27 at 2 and 4 MiB, quiet, session 8).
     */
    static final long CHUNK = 64 * 1024;
    /** Fewest bytes claimed at a time (a compare-and-set per 16 KiB is under 1% of copying them). */
    static final long MIN_CHUNK = 16 * 1024;
    /** Chunks a message is cut into at least, while they stay above {@link #MIN_CHUNK}. */
    static final long MIN_CHUNKS = 64;
    /**
     * How long a side that found nothing left to claim spins for the other side's last chunk: a few chunks' copy time
     * (64 KiB at 5-30 GB/s is 2-13 µs).
     */
    static final long TAIL_SPIN_NS = 50_000;
    /*
     * The record's words, each on a cache line of its own (8 longs apart) so that the two sides' compare-and-sets
     * and counts do not bounce one line between the cores: the receiver's cursor (part A) and count, the sender's
     * cursor (part B) and count, and the sender's done mark. Each side writes its own count only; the copy is
     * complete when the two add up to the total.
     */
    private static final int LINE_LONGS = 8;
    private static final int CURSOR_A = 0;
    private static final int CURSOR_B = LINE_LONGS;
    private static final int COPIED_BY_RECEIVER = 2 * LINE_LONGS;
    private static final int COPIED_BY_SENDER = 3 * LINE_LONGS;
    /** Set by the sender once it will not touch the receiver's exposures again; the receiver withdraws them then. */
    private static final int SENDER_DONE = 4 * LINE_LONGS;
    private static final int RECORD_LONGS = 5 * LINE_LONGS;

    private final Protocol protocol;
    private final PeerCopyPath rts;
    private final FragmentPath fragments;
    private final PathSelector selector;
    private double split = 0.5;

    SplitCopyPath(final Protocol protocol, final PeerCopyPath rts, final FragmentPath fragments, final PathSelector selector)
    {
        this.protocol = protocol;
        this.selector = selector;
        this.rts = rts;
        this.fragments = fragments;
    }

    /** The fraction of each message's stream the receiver starts on (part A); engine thread, before traffic. */
    void split(final double fraction)
    {
        if (!(fraction >= 0 && fraction <= 1))
        {
            throw new MpiException(ErrorClass.ERR_ARG, "jmpi.pvas.split must be between 0 and 1, not " + fraction);
        }
        this.split = fraction;
    }

    @Override
    public byte id()
    {
        return PATH_SPLIT_COPY;
    }

    @Override
    public int rtsExtensionLength(final SendRequestImpl s)
    {
        return rts.rtsExtensionLength(s);
    }

    @Override
    public void writeRtsExtension(final SendRequestImpl s, final PeerChannel ch, final MutableDirectBuffer buffer, final int index)
    {
        rts.writeRtsExtension(s, ch, buffer, index);
    }

    @Override
    public Object onArrival(final PeerChannel ch, final DirectBuffer buffer, final int extensionIndex, final int extensionLength)
    {
        return rts.onArrival(ch, buffer, extensionIndex, extensionLength);
    }

    /** The claim size for a message of {@code total} bytes: {@code total / MIN_CHUNKS} within [MIN_CHUNK, CHUNK]. */
    static long chunk(final long total)
    {
        return Math.max(MIN_CHUNK, Math.min(CHUNK, total / MIN_CHUNKS));
    }

    /** One message being copied by both sides: the two layouts over the two buffers, and the shared record. */
    private static final class Job
    {
        final Convertor src;
        final Convertor dst;
        final BufferView record;
        final long total;
        final long splitAt;
        final long chunk;
        /** Wakes the other side's engine: it may be parked waiting for the count this side completes. */
        final Runnable wakePeer;
        /** This side's count and the other's ({@code COPIED_BY_*}). */
        final int ownCount;
        final int otherCount;

        Job(final Convertor src, final Convertor dst, final BufferView record, final long total, final long splitAt,
            final Runnable wakePeer, final boolean receiver)
        {
            this.src = src;
            this.dst = dst;
            this.record = record;
            this.total = total;
            this.splitAt = splitAt;
            this.chunk = chunk(total);
            this.wakePeer = wakePeer;
            this.ownCount = receiver ? COPIED_BY_RECEIVER : COPIED_BY_SENDER;
            this.otherCount = receiver ? COPIED_BY_SENDER : COPIED_BY_RECEIVER;
        }

        /** Claims and copies chunks, from part {@code first} and then the other, until none is left. */
        void copy(final int first)
        {
            final boolean copied = drain(first) | drain(first == CURSOR_A ? CURSOR_B : CURSOR_A);
            // After this side's last count (a full fence): of two sides finishing at once, at least one sees the
            // other's count here and wakes it. Checked once, not after every chunk: the other side's count lies on a
            // line that side writes after each of its chunks, and reading it each time cost a transfer between the
            // cores per chunk (64 of them per message from 1 MiB on).
            if (copied && finished())
            {
                wakePeer.run();
            }
            // Nothing left to claim: the other side has at most one chunk in flight. Wait for it here, spinning, and
            // not through the engine's idler, whose yields and parks (and then the other side's wake-up) cost more
            // than a chunk's copy on a busy machine; past the bound the other side was descheduled, and the engine waits.
            final long deadline = System.nanoTime() + TAIL_SPIN_NS;
            while (!finished() && System.nanoTime() - deadline < 0)
            {
                Thread.onSpinWait();
            }
        }

        /** Claims and copies chunks of {@code part} until none is left; whether it copied any. */
        private boolean drain(final int part)
        {
            final long end = part == CURSOR_A ? splitAt : total;
            final long at = record.address() + 8L * part;
            boolean copied = false;
            while (true)
            {
                final long from = UnsafeApi.getLongVolatile(record.base(), at);
                if (from >= end)
                {
                    return copied;
                }
                final long to = Math.min(end, from + chunk);
                if (UnsafeApi.compareAndSetLong(record.base(), at, from, to))
                {
                    DirectCopy.copy(src, dst, from, to);
                    // A full fence (see copy).
                    UnsafeApi.getAndAddLong(record.base(), record.address() + 8L * ownCount, to - from);
                    copied = true;
                }
            }
        }

        private long count(final int word)
        {
            return UnsafeApi.getLongVolatile(record.base(), record.address() + 8L * word);
        }

        boolean finished()
        {
            return count(COPIED_BY_RECEIVER) + count(COPIED_BY_SENDER) >= total;
        }

        /** Bytes the sender copied (final once {@link #finished}). */
        long copiedBySender()
        {
            return count(COPIED_BY_SENDER);
        }

        boolean senderDone()
        {
            return UnsafeApi.getLongVolatile(record.base(), record.address() + 8L * SENDER_DONE) != 0;
        }

        void markSenderDone()
        {
            UnsafeApi.putLongVolatile(record.base(), record.address() + 8L * SENDER_DONE, 1);
        }
    }

    // ------------------------------------------------------------------------------------------ receiver

    @Override
    public void onMatched(final RecvRequestImpl r, final PeerChannel ch, final long senderRequest, final long acceptBytes,
        final Object arrival)
    {
        final PeerCopyPath.Arrival a = (PeerCopyPath.Arrival)arrival;
        final int copiers = a.handle() == 0 || split <= 0 || split >= 1 ? 1 : 2;
        if (acceptBytes > 0 && !selector.takeDirect(r.entry.contextId, a.type(), a.count(), r.convertor.stats(), acceptBytes, copiers,
            ch.fastFrameLength))
        {
            // The cost model finds the staged pipeline cheaper for these two layouts: CTS, and the sender streams.
            fragments.onMatched(r, ch, senderRequest, acceptBytes, null);
            return;
        }
        // The sender rebuilds the receive type from its wire form (by id when it has it, else published in the arena,
        // else inline): a type no peer decodes, or whose inline form does not fit the SPLIT frame, is copied here alone.
        final Datatype recvType = r.convertor.type();
        int typeId = ch.types.sentId(recvType);
        final boolean describable = acceptBytes > 0 && (typeId != 0 || TypeWireForm.decodable(recvType));
        final long exposed = describable ? ch.peerMemory.expose(r.convertor.view().buffer()) : 0;
        final PublishedTypes.Ref ref = exposed != 0 && typeId == 0 ? rts.types().publish(ch, recvType) : null;
        final int wireLength = exposed == 0 || typeId != 0 ? 0 : ref != null ? WIRE_PUBLISHED : TypeWireForm.encodedLength(recvType);
        final boolean fits = SPLIT_LENGTH + (long)PublishedTypes.payloadLength(wireLength) <= ch.maxFrameLength;
        if (exposed != 0 && !fits)
        {
            ch.peerMemory.withdraw(exposed);
        }
        final long recvHandle = fits ? exposed : 0;
        // The record lies where the peer reaches it: a long[] between threads, the arena across JVMs.
        final Object state = recvHandle != 0 ? ch.peerMemory.record(RECORD_LONGS) : null;
        final long stateHandle = state != null ? ch.peerMemory.expose(state) : 0;
        if (stateHandle == 0)
        {
            // Nothing to split (a type mismatch, a receive buffer or record the transport cannot expose, or the
            // exposure table is full): copy alone and answer FIN, as peer copy does.
            if (state != null)
            {
                ch.peerMemory.releaseRecord(state);
            }
            if (recvHandle != 0)
            {
                ch.peerMemory.withdraw(recvHandle);
            }
            if (a.handle() == 0 && acceptBytes > 0)
            {
                // Neither buffer is exposed (heap on both sides, across JVMs): the staged pipeline. The sender
                // streams on the CTS as if it had chosen fragments.
                selector.notExposable();
                fragments.onMatched(r, ch, senderRequest, acceptBytes, null);
            }
            else
            {
                rts.onMatched(r, ch, senderRequest, acceptBytes, arrival);
            }
            return;
        }
        // A sender whose buffer is not exposed copies everything (one copy, into this buffer): part A is empty.
        final long splitAt = a.handle() == 0 ? 0 : Math.min(acceptBytes, Math.max(0, (long)(acceptBytes * split)));
        final BufferView record = BufferView.of(state, "split record");
        UnsafeApi.putLongVolatile(record.base(), record.address() + 8L * CURSOR_A, 0);
        UnsafeApi.putLongVolatile(record.base(), record.address() + 8L * CURSOR_B, splitAt);
        UnsafeApi.putLongVolatile(record.base(), record.address() + 8L * COPIED_BY_RECEIVER, 0);
        UnsafeApi.putLongVolatile(record.base(), record.address() + 8L * COPIED_BY_SENDER, 0);
        UnsafeApi.putLongVolatile(record.base(), record.address() + 8L * SENDER_DONE, 0);
        if (typeId == 0)
        {
            typeId = ch.types.assignSentId(recvType);
        }
        // Map the send buffer before SPLIT goes: from then on the sender may copy everything and withdraw it.
        final Convertor source = a.handle() == 0 ? null :
            Convertor.create(BufferView.of(ch.peerMemory.map(ch.worldRank, a.handle()), "peer send buffer"), a.elementOffset(), a.count(), a.type());
        protocol.submit(ch, new SplitFrame(senderRequest, recvHandle, stateHandle, r, acceptBytes, splitAt, typeId, wireLength, ref));
        selector.directTaken(source != null, splitAt < acceptBytes);
        final Job job = new Job(source, r.convertor, record, acceptBytes, splitAt,
            () -> ch.peerMemory.wake(ch.worldRank), true);
        if (source != null)
        {
            job.copy(CURSOR_A);
        }
        // The receive completes once every byte is in; the exposures stay until the sender has let go of them
        // (it may map them after the receiver copied everything, and finds nothing left to claim).
        final boolean[] completed = new boolean[1];
        whenTrue(() ->
        {
            if (!completed[0] && job.finished())
            {
                completed[0] = true;
                if (source != null)
                {
                    selector.splitShare(job.copiedBySender(), acceptBytes - splitAt, acceptBytes);
                }
                r.completeReceive();
            }
            return completed[0] && job.senderDone();
        }, () ->
        {
            ch.peerMemory.withdraw(stateHandle);
            ch.peerMemory.withdraw(recvHandle);
            ch.peerMemory.releaseRecord(state);
        });
    }

    /** Runs {@code then} once {@code condition} holds: now, or from the engine's activities. */
    private void whenTrue(final java.util.function.BooleanSupplier condition, final Runnable then)
    {
        if (condition.getAsBoolean())
        {
            then.run();
            return;
        }
        protocol.engine().addActivity(() ->
        {
            if (!condition.getAsBoolean())
            {
                return false;
            }
            then.run();
            return true;
        });
    }

    @Override
    public void decline(final PeerChannel ch, final long senderRequest)
    {
        rts.decline(ch, senderRequest);
    }

    /** The receiver's answer, laid out as {@link FrameDescriptor}'s SPLIT_* offsets say. */
    private static final class SplitFrame extends ExtensionFrame
    {
        private final long senderRequest;
        private final long recvHandle;
        private final long stateHandle;
        private final RecvRequestImpl r;
        private final long acceptBytes;
        private final long splitAt;
        private final int typeId;
        private final int wireLength;
        private final PublishedTypes.Ref ref;

        SplitFrame(final long senderRequest, final long recvHandle, final long stateHandle, final RecvRequestImpl r,
            final long acceptBytes, final long splitAt, final int typeId, final int wireLength, final PublishedTypes.Ref ref)
        {
            super(TYPE_SPLIT, true);
            this.senderRequest = senderRequest;
            this.recvHandle = recvHandle;
            this.stateHandle = stateHandle;
            this.r = r;
            this.acceptBytes = acceptBytes;
            this.splitAt = splitAt;
            this.typeId = typeId;
            this.wireLength = wireLength;
            this.ref = ref;
        }

        @Override
        public int bodyLength()
        {
            return SPLIT_LENGTH - COMMON_LENGTH + PublishedTypes.payloadLength(wireLength);
        }

        @Override
        public void writeBody(final MutableDirectBuffer buffer, final int index)
        {
            final int base = index - COMMON_LENGTH;
            buffer.putLong(base + SPLIT_SENDER_REQUEST_OFFSET, senderRequest, BYTE_ORDER);
            buffer.putLong(base + SPLIT_RECV_HANDLE_OFFSET, recvHandle, BYTE_ORDER);
            buffer.putLong(base + SPLIT_STATE_HANDLE_OFFSET, stateHandle, BYTE_ORDER);
            buffer.putLong(base + SPLIT_RECV_ELEMENT_OFFSET_OFFSET, r.elementOffset, BYTE_ORDER);
            buffer.putLong(base + SPLIT_RECV_COUNT_OFFSET, r.convertor.count(), BYTE_ORDER);
            buffer.putLong(base + SPLIT_ACCEPT_OFFSET, acceptBytes, BYTE_ORDER);
            buffer.putLong(base + SPLIT_AT_OFFSET, splitAt, BYTE_ORDER);
            buffer.putInt(base + SPLIT_TYPE_ID_OFFSET, typeId, BYTE_ORDER);
            buffer.putInt(base + SPLIT_WIRE_LENGTH_OFFSET, wireLength, BYTE_ORDER);
            if (wireLength > 0)
            {
                TypeWireForm.encode(r.convertor.type(), buffer, base + SPLIT_LENGTH);
            }
            else if (wireLength == WIRE_PUBLISHED)
            {
                PublishedTypes.writeRef(ref, buffer, base + SPLIT_LENGTH);
            }
        }
    }

    // ------------------------------------------------------------------------------------------ sender

    /** Sender: the receiver's SPLIT for {@code s}: maps the receive buffer and the record, copies its share, completes once every byte is copied. */
    void onSplit(final SendRequestImpl s, final PeerChannel ch, final DirectBuffer buffer, final int index, final int lengthBytes)
    {
        if (lengthBytes < SPLIT_LENGTH)
        {
            throw new MpiException(ErrorClass.ERR_INTERN, "SPLIT from rank " + ch.worldRank + " too short: " + lengthBytes + " bytes");
        }
        final long recvHandle = buffer.getLong(index + SPLIT_RECV_HANDLE_OFFSET, BYTE_ORDER);
        final long stateHandle = buffer.getLong(index + SPLIT_STATE_HANDLE_OFFSET, BYTE_ORDER);
        final int typeId = buffer.getInt(index + SPLIT_TYPE_ID_OFFSET, BYTE_ORDER);
        final int wireLength = buffer.getInt(index + SPLIT_WIRE_LENGTH_OFFSET, BYTE_ORDER);
        final Datatype recvType = rts.types().read(ch, typeId, wireLength, buffer, index + SPLIT_LENGTH, lengthBytes - SPLIT_LENGTH, "SPLIT");
        final Object recvMemory = ch.peerMemory.map(ch.worldRank, recvHandle);
        final Object record = ch.peerMemory.map(ch.worldRank, stateHandle);
        final Convertor dst = Convertor.createForReceive(BufferView.of(recvMemory, "peer receive buffer"),
            buffer.getLong(index + SPLIT_RECV_ELEMENT_OFFSET_OFFSET, BYTE_ORDER), buffer.getLong(index + SPLIT_RECV_COUNT_OFFSET, BYTE_ORDER),
            recvType);
        final Convertor src = Convertor.create(s.view, s.elementOffset, s.count, s.type);
        final BufferView recordView = BufferView.of(record, "split record");
        if (recordView.capacityBytes() < 8L * RECORD_LONGS || (recordView.base() == null && (recordView.address() & 7) != 0))
        {
            throw new MpiException(ErrorClass.ERR_INTERN, "SPLIT from rank " + ch.worldRank + ": its progress record (handle " + stateHandle +
                ") has " + recordView.capacityBytes() + " bytes at address " + recordView.address() + ", not " + 8 * RECORD_LONGS + " aligned to 8");
        }
        final long accept = buffer.getLong(index + SPLIT_ACCEPT_OFFSET, BYTE_ORDER);
        final long splitAt = buffer.getLong(index + SPLIT_AT_OFFSET, BYTE_ORDER);
        if (accept < 0 || accept > src.totalBytes() || accept > dst.totalBytes() || splitAt < 0 || splitAt > accept)
        {
            throw new MpiException(ErrorClass.ERR_INTERN, "SPLIT from rank " + ch.worldRank + ": accepts " + accept + " bytes split at " +
                splitAt + ", of a send of " + src.totalBytes() + " bytes into a receive of " + dst.totalBytes());
        }
        final Job job = new Job(src, dst, recordView, accept, splitAt, () -> ch.peerMemory.wake(ch.worldRank), false);
        job.copy(CURSOR_B);
        whenTrue(job::finished, () ->
        {
            job.markSenderDone();
            ch.peerMemory.wake(ch.worldRank);
            onFinished(s, ch);
            s.completeSend();
        });
    }

    @Override
    public void onFinished(final SendRequestImpl s, final PeerChannel ch)
    {
        rts.onFinished(s, ch);
    }
}
