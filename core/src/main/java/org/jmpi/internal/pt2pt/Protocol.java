package org.jmpi.internal.pt2pt;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.collections.Int2ObjectHashMap;
import org.agrona.collections.Long2ObjectHashMap;
import org.agrona.concurrent.UnsafeBuffer;
import org.jmpi.ErrorClass;
import org.jmpi.MpiException;
import org.jmpi.internal.datatype.Convertor;
import org.jmpi.internal.datatype.Signatures;
import org.jmpi.internal.engine.ProgressEngine;
import org.jmpi.spi.FrameHandler;
import org.jmpi.spi.FrameWriter;
import org.jmpi.spi.Transport;

import java.util.ArrayList;

import static org.jmpi.internal.pt2pt.FrameDescriptor.*;

/**
 * The point-to-point protocol of one rank: matching, eager and pipelined rendezvous, direct copy
 * between ranks of one JVM, and eager flow control. Frames are laid out by {@link FrameDescriptor}.
 *
 * <p>Sending a message:
 * <ol>
 * <li>Eager, when the payload is at most the eager limit and the peer's eager window has room: one
 * EAGER frame carries envelope and payload, packed by the send convertor straight into the transport's
 * memory. A standard send is complete when the frame is written; a synchronous one waits for ACK.</li>
 * <li>Rendezvous otherwise: an RTS frame carries the envelope. When it matches, the receiver answers
 * CTS with the bytes it takes (less than the message on truncation), and the sender streams DATA
 * fragments, each packed from the send buffer at its stream position and unpacked by the receiver
 * straight into the receive buffer at that position, so copy-in and copy-out overlap.</li>
 * <li>On transports whose frames carry object references (ranks that are threads of one JVM), the RTS
 * carries the send request itself; the receiver copies directly from the send buffer into the receive
 * buffer (type-to-type copy) and answers FIN.</li>
 * </ol>
 * Flow control: every eager frame costs its length against a per-peer window; the receiver returns
 * credits when it consumes the message (piggy-backed on any frame back, or a CREDIT frame once half a
 * window is owed). A sender out of window sends by rendezvous, whose envelope holds no payload, so
 * unexpected messages never hold more than one window of a receiver's memory per peer.
 *
 * <p>Threading: engine thread only (see {@link ProgressEngine}).
 */
public final class Protocol implements FrameHandler, ProgressEngine.Pollable
{
    private final Transport[] transports;
    private final PeerChannel[] peers;
    private final long eagerLimit;
    private final int fragmentSize;
    private final long eagerWindow;
    private final Long2ObjectHashMap<SendRequestImpl> awaitingReply = new Long2ObjectHashMap<>();
    private final Long2ObjectHashMap<RecvRequestImpl> receiving = new Long2ObjectHashMap<>();
    private final Int2ObjectHashMap<MatchList> posted = new Int2ObjectHashMap<>();
    private final Int2ObjectHashMap<MatchList> unexpected = new Int2ObjectHashMap<>();
    private final ArrayList<PeerChannel> pendingChannels = new ArrayList<>();
    private final ArrayList<ProbeRequestImpl> probes = new ArrayList<>();
    private final ArrayList<Activity> activities = new ArrayList<>();
    private final Encoder encoder = new Encoder();
    private final UnsafeBuffer scratch = new UnsafeBuffer(new byte[0]);
    private ProgressEngine engine;
    private long nextId = 1;
    private long bufferedBytes;

    /**
     * @param routes the transport carrying each world rank's traffic (index = world rank).
     */
    public Protocol(final Transport[] routes, final long eagerLimit, final int fragmentSize, final long eagerWindow)
    {
        this.peers = new PeerChannel[routes.length];
        final ArrayList<Transport> distinct = new ArrayList<>();
        for (int r = 0; r < routes.length; r++)
        {
            peers[r] = new PeerChannel(r, routes[r]);
            if (!distinct.contains(routes[r]))
            {
                distinct.add(routes[r]);
            }
        }
        this.transports = distinct.toArray(new Transport[0]);
        this.eagerLimit = eagerLimit;
        this.fragmentSize = fragmentSize;
        this.eagerWindow = eagerWindow;
    }

    public void engine(final ProgressEngine engine)
    {
        this.engine = engine;
    }

    public ProgressEngine engine()
    {
        return engine;
    }

    /**
     * Long-running work the engine advances on every poll, such as a nonblocking collective's schedule.
     * Engine thread only; must never block.
     */
    public interface Activity
    {
        /** Advances; returns true once finished (it is then dropped). */
        boolean progress();
    }

    /** Registers an activity; it is advanced on every poll until it reports finished. Engine thread. */
    public void addActivity(final Activity activity)
    {
        activities.add(activity);
    }

    @Override
    public int poll()
    {
        int work = 0;
        for (final Transport t : transports)
        {
            work += t.progress(this);
        }
        if (!activities.isEmpty())
        {
            work += progressActivities();
        }
        if (!pendingChannels.isEmpty())
        {
            work += flushChannels();
        }
        return work;
    }

    private int progressActivities()
    {
        int finished = 0;
        for (int i = 0; i < activities.size(); i++)
        {
            if (activities.get(i).progress())
            {
                activities.remove(i--);
                finished++;
            }
        }
        return finished;
    }

    /** Payload bytes of eager messages held as unexpected (bounded by the eager window per peer). Engine thread. */
    public long bufferedUnexpectedBytes()
    {
        return bufferedBytes;
    }

    /** Whether frames still wait for room in a transport (finalize drains them). */
    public boolean hasPendingOutput()
    {
        return !pendingChannels.isEmpty();
    }

    // ---------------------------------------------------------------- posting (engine thread)

    void postSend(final SendRequestImpl s)
    {
        final PeerChannel ch = peers[s.destWorld];
        s.id = nextId++;
        final long cost = ENVELOPE_LENGTH + s.totalBytes;
        final long limit = Math.min(eagerLimit, ch.maxFrameLength - ENVELOPE_LENGTH);
        if (s.totalBytes <= limit && ch.eagerOutstanding + cost <= eagerWindow)
        {
            ch.eagerOutstanding += cost;
            s.state = SendRequestImpl.State.EAGER_PENDING;
        }
        else
        {
            s.state = SendRequestImpl.State.RTS_PENDING;
        }
        submit(ch, s);
    }

    void postRecv(final RecvRequestImpl r)
    {
        final MatchList list = unexpected.get(r.entry.contextId);
        final MatchEntry e = list == null ? null : list.firstMatching(r.entry.source, r.entry.tag);
        if (e != null)
        {
            list.remove(e);
            consume((Unexpected)e, r);
        }
        else
        {
            postedList(r.entry.contextId).add(r.entry);
        }
    }

    /** Receives a message taken by mprobe. */
    void postMatchedRecv(final RecvRequestImpl r, final Unexpected u)
    {
        consume(u, r);
    }

    void postProbe(final ProbeRequestImpl p)
    {
        final Unexpected u = findUnexpected(p.contextId, p.source, p.tag);
        if (u != null)
        {
            if (p.remove)
            {
                u.list.remove(u);
            }
            p.completeWith(u);
        }
        else
        {
            probes.add(p);
        }
    }

    /** The first unexpected message matching, left in place; null when none. */
    Unexpected findUnexpected(final int contextId, final int source, final int tag)
    {
        final MatchList list = unexpected.get(contextId);
        return list == null ? null : (Unexpected)list.firstMatching(source, tag);
    }

    void removeUnexpected(final Unexpected u)
    {
        u.list.remove(u);
    }

    void cancel(final RecvRequestImpl r)
    {
        engine.execute(() ->
        {
            if (r.entry.list != null && !r.isDone())
            {
                r.entry.list.remove(r.entry);
                r.completeCancelled();
            }
        });
    }

    // ---------------------------------------------------------------- inbound frames

    @Override
    public void onFrame(final int srcRank, final DirectBuffer buffer, final int index, final int lengthBytes, final Object attachment)
    {
        final PeerChannel ch = peers[srcRank];
        final int credits = buffer.getInt(index + CREDITS_OFFSET, BYTE_ORDER);
        if (credits != 0)
        {
            ch.eagerOutstanding -= credits;
        }
        final byte type = buffer.getByte(index + TYPE_OFFSET);
        switch (type)
        {
            case TYPE_EAGER, TYPE_RTS -> onEnvelope(ch, buffer, index, type == TYPE_RTS, attachment);
            case TYPE_CTS -> onCts(ch, buffer, index);
            case TYPE_DATA -> onData(buffer, index);
            case TYPE_ACK, TYPE_FIN -> onReply(buffer.getLong(index + REPLY_SENDER_REQUEST_OFFSET, BYTE_ORDER));
            case TYPE_CREDIT ->
            {
            }
            default -> throw new MpiException(ErrorClass.ERR_INTERN,
                "unknown protocol frame type " + type + " from rank " + srcRank + ", length=" + lengthBytes);
        }
    }

    private void onEnvelope(final PeerChannel ch, final DirectBuffer buffer, final int index, final boolean rendezvous, final Object attachment)
    {
        final int contextId = buffer.getInt(index + CONTEXT_OFFSET, BYTE_ORDER);
        final int tag = buffer.getInt(index + TAG_OFFSET, BYTE_ORDER);
        final int source = buffer.getInt(index + SOURCE_OFFSET, BYTE_ORDER);
        final int sigCode = buffer.getByte(index + SIG_OFFSET) & 0xFF;
        final long length = buffer.getLong(index + LENGTH_OFFSET, BYTE_ORDER);
        final long senderRequest = buffer.getLong(index + ENVELOPE_SENDER_REQUEST_OFFSET, BYTE_ORDER);
        final boolean sync = (buffer.getByte(index + FLAGS_OFFSET) & FLAG_SYNC) != 0;
        final int cost = rendezvous ? 0 : ENVELOPE_LENGTH + (int)length;

        final MatchList list = posted.get(contextId);
        final MatchEntry e = list == null ? null : list.firstAccepting(source, tag);
        if (e != null)
        {
            list.remove(e);
            final RecvRequestImpl r = ((RecvRequestImpl.Posted)e).request;
            if (rendezvous)
            {
                matchRendezvous(r, ch, source, tag, sigCode, length, senderRequest, attachment);
            }
            else
            {
                deliverEager(r, ch, buffer, index + ENVELOPE_LENGTH, source, tag, sigCode, length, sync, senderRequest, cost);
            }
            return;
        }

        final Unexpected u = new Unexpected();
        u.contextId = contextId;
        u.source = source;
        u.tag = tag;
        u.rendezvous = rendezvous;
        u.sync = sync;
        u.sourceWorld = ch.worldRank;
        u.sigCode = sigCode;
        u.length = length;
        u.senderRequest = senderRequest;
        u.attachment = attachment;
        u.creditCost = cost;
        if (!rendezvous)
        {
            u.payload = new byte[(int)length];
            buffer.getBytes(index + ENVELOPE_LENGTH, u.payload);
            bufferedBytes += length;
        }
        unexpectedList(contextId).add(u);
        if (!probes.isEmpty())
        {
            wakeProbes(u);
        }
    }

    private void wakeProbes(final Unexpected u)
    {
        for (int i = 0; i < probes.size(); i++)
        {
            final ProbeRequestImpl p = probes.get(i);
            if (p.accepts(u))
            {
                probes.remove(i--);
                p.completeWith(u);
                if (p.remove)
                {
                    u.list.remove(u);
                    return;
                }
            }
        }
    }

    private void consume(final Unexpected u, final RecvRequestImpl r)
    {
        final PeerChannel ch = peers[u.sourceWorld];
        if (u.rendezvous)
        {
            matchRendezvous(r, ch, u.source, u.tag, u.sigCode, u.length, u.senderRequest, u.attachment);
        }
        else
        {
            bufferedBytes -= u.length;
            scratch.wrap(u.payload);
            deliverEager(r, ch, scratch, 0, u.source, u.tag, u.sigCode, u.length, u.sync, u.senderRequest, u.creditCost);
            scratch.wrap(EMPTY);
        }
    }

    private static final byte[] EMPTY = new byte[0];

    private boolean checkSignature(final RecvRequestImpl r, final int sigCode, final long length)
    {
        if (length > 0 && !Signatures.compatible(sigCode, r.sigCode))
        {
            r.error = ErrorClass.ERR_TYPE;
            r.errorDetail = "recv type mismatch: the message's basic type (code " + sigCode +
                ") does not match the receive type (code " + r.sigCode + ")";
            return false;
        }
        return true;
    }

    private void deliverEager(
        final RecvRequestImpl r,
        final PeerChannel ch,
        final DirectBuffer buffer,
        final int payloadIndex,
        final int source,
        final int tag,
        final int sigCode,
        final long length,
        final boolean sync,
        final long senderRequest,
        final int cost)
    {
        r.messageSource = source;
        r.messageTag = tag;
        r.messageBytes = length;
        if (checkSignature(r, sigCode, length))
        {
            final long take = Math.min(length, r.capacityBytes);
            if (take > 0)
            {
                r.convertor.unpack(buffer, payloadIndex, (int)take);
            }
            if (length > r.capacityBytes)
            {
                r.error = ErrorClass.ERR_TRUNCATE;
            }
        }
        returnCredits(ch, cost);
        if (sync)
        {
            submit(ch, ControlFrame.ack(senderRequest));
        }
        r.completeReceive();
    }

    private void matchRendezvous(
        final RecvRequestImpl r,
        final PeerChannel ch,
        final int source,
        final int tag,
        final int sigCode,
        final long length,
        final long senderRequest,
        final Object attachment)
    {
        r.messageSource = source;
        r.messageTag = tag;
        r.messageBytes = length;
        long accept = 0;
        if (checkSignature(r, sigCode, length))
        {
            accept = Math.min(length, r.capacityBytes);
            if (length > r.capacityBytes)
            {
                r.error = ErrorClass.ERR_TRUNCATE;
            }
        }
        if (attachment instanceof SendRequestImpl s)
        {
            if (accept > 0)
            {
                Convertor.copy(s.newReader(), r.convertor, 0, accept);
            }
            submit(ch, ControlFrame.fin(senderRequest));
            r.completeReceive();
        }
        else if (accept == 0)
        {
            submit(ch, ControlFrame.cts(senderRequest, 0, 0));
            r.completeReceive();
        }
        else
        {
            r.id = nextId++;
            r.expectedBytes = accept;
            r.receivedBytes = 0;
            receiving.put(r.id, r);
            submit(ch, ControlFrame.cts(senderRequest, r.id, accept));
        }
    }

    private void onCts(final PeerChannel ch, final DirectBuffer buffer, final int index)
    {
        final long senderRequest = buffer.getLong(index + CTS_SENDER_REQUEST_OFFSET, BYTE_ORDER);
        final SendRequestImpl s = awaitingReply.remove(senderRequest);
        if (s == null)
        {
            throw new MpiException(ErrorClass.ERR_INTERN, "CTS for unknown send request " + senderRequest + " from rank " + ch.worldRank);
        }
        s.receiverRequest = buffer.getLong(index + CTS_RECEIVER_REQUEST_OFFSET, BYTE_ORDER);
        s.acceptBytes = buffer.getLong(index + CTS_ACCEPT_OFFSET, BYTE_ORDER);
        if (s.acceptBytes == 0)
        {
            s.completeSend();
            return;
        }
        s.state = SendRequestImpl.State.STREAMING;
        s.sentBytes = 0;
        s.convertor.seek(0);
        submit(ch, s);
    }

    private void onData(final DirectBuffer buffer, final int index)
    {
        final long receiverRequest = buffer.getLong(index + DATA_RECEIVER_REQUEST_OFFSET, BYTE_ORDER);
        final long offset = buffer.getLong(index + DATA_STREAM_OFFSET, BYTE_ORDER);
        final int length = buffer.getInt(index + DATA_LENGTH_OFFSET, BYTE_ORDER);
        final RecvRequestImpl r = receiving.get(receiverRequest);
        if (r == null)
        {
            throw new MpiException(ErrorClass.ERR_INTERN, "DATA for unknown receive request " + receiverRequest);
        }
        if (r.convertor.position() != offset)
        {
            r.convertor.seek(offset);
        }
        r.convertor.unpack(buffer, index + DATA_HEADER_LENGTH, length);
        r.receivedBytes += length;
        if (r.receivedBytes == r.expectedBytes)
        {
            receiving.remove(receiverRequest);
            r.completeReceive();
        }
    }

    private void onReply(final long senderRequest)
    {
        final SendRequestImpl s = awaitingReply.remove(senderRequest);
        if (s == null)
        {
            throw new MpiException(ErrorClass.ERR_INTERN, "reply for unknown send request " + senderRequest);
        }
        s.completeSend();
    }

    private void returnCredits(final PeerChannel ch, final int cost)
    {
        if (cost == 0)
        {
            return;
        }
        ch.creditsToReturn += cost;
        if (!ch.creditFrameQueued && ch.creditsToReturn >= eagerWindow / 2)
        {
            ch.creditFrameQueued = true;
            submit(ch, ControlFrame.credit());
        }
    }

    // ---------------------------------------------------------------- outbound frames

    private void submit(final PeerChannel ch, final Outbound item)
    {
        if (ch.queue.isEmpty() && item.emit(this, ch))
        {
            return;
        }
        ch.queue.addLast(item);
        if (!ch.pending)
        {
            ch.pending = true;
            pendingChannels.add(ch);
        }
    }

    private int flushChannels()
    {
        int work = 0;
        for (int i = pendingChannels.size() - 1; i >= 0; i--)
        {
            final PeerChannel ch = pendingChannels.get(i);
            Outbound head;
            while ((head = ch.queue.peekFirst()) != null && head.emit(this, ch))
            {
                ch.queue.pollFirst();
                work++;
            }
            if (ch.queue.isEmpty())
            {
                ch.pending = false;
                final int last = pendingChannels.size() - 1;
                pendingChannels.set(i, pendingChannels.get(last));
                pendingChannels.remove(last);
            }
        }
        return work;
    }

    boolean emitSend(final SendRequestImpl s, final PeerChannel ch)
    {
        switch (s.state)
        {
            case EAGER_PENDING ->
            {
                encoder.envelope(TYPE_EAGER, s, ch);
                if (!ch.transport.offer(ch.worldRank, ENVELOPE_LENGTH + (int)s.totalBytes, encoder))
                {
                    return false;
                }
                if (s.mode == SendMode.SYNC)
                {
                    s.state = SendRequestImpl.State.WAIT_ACK;
                    awaitingReply.put(s.id, s);
                }
                else
                {
                    s.completeSend();
                }
                return true;
            }
            case RTS_PENDING ->
            {
                encoder.envelope(TYPE_RTS, s, ch);
                if (!ch.transport.offer(ch.worldRank, ENVELOPE_LENGTH, encoder, ch.directCopy ? s : null))
                {
                    return false;
                }
                s.state = SendRequestImpl.State.WAIT_CTS;
                awaitingReply.put(s.id, s);
                return true;
            }
            case STREAMING ->
            {
                final int maxPayload = Math.min(fragmentSize, ch.maxFrameLength - DATA_HEADER_LENGTH);
                while (s.sentBytes < s.acceptBytes)
                {
                    final int length = (int)Math.min(maxPayload, s.acceptBytes - s.sentBytes);
                    encoder.data(s, ch, length);
                    if (!ch.transport.offer(ch.worldRank, DATA_HEADER_LENGTH + length, encoder))
                    {
                        return false;
                    }
                    s.sentBytes += length;
                }
                s.completeSend();
                return true;
            }
            default -> throw new MpiException(ErrorClass.ERR_INTERN, "send request " + s.id + " queued in state " + s.state);
        }
    }

    boolean emitControl(final ControlFrame frame, final PeerChannel ch)
    {
        encoder.control(frame, ch);
        if (!ch.transport.offer(ch.worldRank, frame.length(), encoder))
        {
            return false;
        }
        if (frame.type == TYPE_CREDIT)
        {
            ch.creditFrameQueued = false;
        }
        return true;
    }

    private MatchList postedList(final int contextId)
    {
        MatchList list = posted.get(contextId);
        if (list == null)
        {
            list = new MatchList();
            posted.put(contextId, list);
        }
        return list;
    }

    private MatchList unexpectedList(final int contextId)
    {
        MatchList list = unexpected.get(contextId);
        if (list == null)
        {
            list = new MatchList();
            unexpected.put(contextId, list);
        }
        return list;
    }

    /**
     * Writes the frame prepared by one of its setters; one instance, reused (engine thread only). The
     * credits owed to the peer are taken only when the transport actually calls {@link #write}.
     */
    private static final class Encoder implements FrameWriter
    {
        private byte type;
        private PeerChannel channel;
        private SendRequestImpl send;
        private ControlFrame control;
        private int dataLength;

        void envelope(final byte type, final SendRequestImpl s, final PeerChannel ch)
        {
            this.type = type;
            this.send = s;
            this.channel = ch;
        }

        void data(final SendRequestImpl s, final PeerChannel ch, final int length)
        {
            this.type = TYPE_DATA;
            this.send = s;
            this.channel = ch;
            this.dataLength = length;
        }

        void control(final ControlFrame frame, final PeerChannel ch)
        {
            this.type = frame.type;
            this.control = frame;
            this.channel = ch;
        }

        @Override
        public void write(final MutableDirectBuffer buffer, final int index, final int lengthBytes)
        {
            buffer.putByte(index + TYPE_OFFSET, type);
            buffer.putByte(index + FLAGS_OFFSET,
                type == TYPE_EAGER && send.mode == SendMode.SYNC ? FLAG_SYNC : 0);
            buffer.putShort(index + RESERVED_OFFSET, (short)0, BYTE_ORDER);
            buffer.putInt(index + CREDITS_OFFSET, channel.takeCredits(), BYTE_ORDER);
            switch (type)
            {
                case TYPE_EAGER, TYPE_RTS ->
                {
                    final SendRequestImpl s = send;
                    buffer.putInt(index + CONTEXT_OFFSET, s.contextId, BYTE_ORDER);
                    buffer.putInt(index + TAG_OFFSET, s.tag, BYTE_ORDER);
                    buffer.putInt(index + SOURCE_OFFSET, s.sourceRank, BYTE_ORDER);
                    buffer.putInt(index + SIG_OFFSET, 0, BYTE_ORDER);
                    buffer.putByte(index + SIG_OFFSET, (byte)s.sigCode);
                    buffer.putLong(index + LENGTH_OFFSET, s.totalBytes, BYTE_ORDER);
                    buffer.putLong(index + ENVELOPE_SENDER_REQUEST_OFFSET, s.id, BYTE_ORDER);
                    if (type == TYPE_EAGER && s.totalBytes > 0)
                    {
                        s.convertor.pack(buffer, index + ENVELOPE_LENGTH, (int)s.totalBytes);
                    }
                }
                case TYPE_DATA ->
                {
                    final SendRequestImpl s = send;
                    buffer.putLong(index + DATA_RECEIVER_REQUEST_OFFSET, s.receiverRequest, BYTE_ORDER);
                    buffer.putLong(index + DATA_STREAM_OFFSET, s.sentBytes, BYTE_ORDER);
                    buffer.putInt(index + DATA_LENGTH_OFFSET, dataLength, BYTE_ORDER);
                    buffer.putInt(index + DATA_LENGTH_OFFSET + 4, 0, BYTE_ORDER);
                    s.convertor.pack(buffer, index + DATA_HEADER_LENGTH, dataLength);
                }
                case TYPE_CTS ->
                {
                    buffer.putLong(index + CTS_SENDER_REQUEST_OFFSET, control.senderRequest, BYTE_ORDER);
                    buffer.putLong(index + CTS_RECEIVER_REQUEST_OFFSET, control.receiverRequest, BYTE_ORDER);
                    buffer.putLong(index + CTS_ACCEPT_OFFSET, control.acceptBytes, BYTE_ORDER);
                }
                case TYPE_ACK, TYPE_FIN -> buffer.putLong(index + REPLY_SENDER_REQUEST_OFFSET, control.senderRequest, BYTE_ORDER);
                default ->
                {
                }
            }
        }
    }
}
