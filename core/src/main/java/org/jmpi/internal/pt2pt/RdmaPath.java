package org.jmpi.internal.pt2pt;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.collections.Long2ObjectHashMap;
import org.jmpi.ErrorClass;
import org.jmpi.MpiException;
import org.jmpi.internal.datatype.Convertor;
import org.jmpi.spi.RemoteMemory;

import java.nio.ByteBuffer;
import java.util.Locale;

import static org.jmpi.internal.pt2pt.FrameDescriptor.BYTE_ORDER;
import static org.jmpi.internal.pt2pt.RdmaFrameDescriptor.*;

/**
 * Rendezvous through the transport's remote memory (RDMA verbs; issue 19), for transports with
 * {@link RemoteMemory} and no peer memory, when both layouts are one contiguous run in native order:
 * <ol>
 * <li>Sender: registers its send buffer and names it in the RTS; keyed when the buffer is a direct
 * {@link ByteBuffer} (a device can read it in place), unkeyed otherwise (a heap array: the sender can only push it,
 * through the transport's bounce buffers).</li>
 * <li>Receiver, at the match: registers its receive buffer (a layout that is not one run, or memory the transport
 * cannot register, answers CTS: {@link FragmentPath}). Then, by the rule below, <b>read</b>: it gets the bytes from
 * the sender's registration and answers FIN (the sender deregisters and completes); or <b>write</b>: it answers
 * RDMA_CTS with its own key, the sender puts the bytes, completes, and sends RDMA_DONE, on which the receiver
 * completes.</li>
 * <li>The rule ({@code jmpi.rdma.rendezvous}): {@code read} or {@code write} forces a mode where both are possible;
 * {@code auto} reads whenever the sender's buffer is keyed and the message has at least {@code jmpi.rdma.read.min}
 * bytes or the receive buffer is heap memory (the receiver's bounce buffers read it), writes otherwise (the
 * receive buffer is direct). Unkeyed into heap: CTS. docs/verbs.md, "Rendezvous", has the measurement.</li>
 * <li>A non-contiguous side whose runs are long enough ({@link RdmaSegments}, {@code jmpi.rdma.sge.min}) moves by a
 * run list against a one-run other side: a strided send is unkeyed and written by a gather list into the receiver's
 * direct run; a strided receive reads a keyed sender's run by a scatter list. Both strided, or short runs: CTS.</li>
 * </ol>
 * Operations the transport has no room for wait in the peer's ordered queue and start when it has
 * ({@link Protocol#submit}). A failed read or write fails the receive (or the send) with the transport's error.
 *
 * <p>Threading: engine thread only.
 */
final class RdmaPath implements RendezvousPath
{
    /** How both-keyed messages move. */
    enum Mode
    {
        AUTO, READ, WRITE, OFF;

        static Mode parse(final String value)
        {
            return switch (value.trim().toLowerCase(Locale.ROOT))
            {
                case "auto" -> AUTO;
                case "read" -> READ;
                case "write" -> WRITE;
                case "off" -> OFF;
                default -> throw new MpiException(ErrorClass.ERR_ARG, "jmpi.rdma.rendezvous must be auto, read, write or off, not '" + value + "'");
            };
        }
    }

    /** What the receiver keeps of an RTS until it matches. */
    record Arrival(boolean keyed, long key0, long key1, long offset)
    {
    }

    /** A send on this path: its registration and where its bytes start in it. */
    private record Send(SendRequestImpl request, long registration, long offset, boolean gather)
    {
    }

    /** A receive on this path: waiting for its read, or for the sender's RDMA_DONE. */
    private record Recv(RecvRequestImpl request, PeerChannel channel, long senderRequest, long registration)
    {
    }

    private final Protocol protocol;
    private final FragmentPath fragments;
    private final RdmaSegments segments = new RdmaSegments();
    private final Long2ObjectHashMap<Send> sends = new Long2ObjectHashMap<>();
    /** Reads in flight and writes awaited (receiver), by token or receiver request id. */
    private final Long2ObjectHashMap<Recv> receives = new Long2ObjectHashMap<>();
    /** Writes in flight (sender), by token. */
    private final Long2ObjectHashMap<SendRequestImpl> writes = new Long2ObjectHashMap<>();
    private Mode mode = Mode.AUTO;
    private long readMin;
    private long nextToken = 1;
    private long reads;
    private long pushes;

    RdmaPath(final Protocol protocol, final FragmentPath fragments)
    {
        this.protocol = protocol;
        this.fragments = fragments;
    }

    /** The rule ({@code jmpi.rdma.rendezvous}, {@code jmpi.rdma.read.min}, {@code jmpi.rdma.sge.min}). Before traffic. */
    void configure(final String modeValue, final long readMinBytes, final long sgeMinBytes)
    {
        this.mode = Mode.parse(modeValue);
        this.readMin = readMinBytes;
        segments.configure(sgeMinBytes);
    }

    /** Messages sent by a gather list, and received by a scatter list. */
    long[] segmented()
    {
        return new long[] {segments.gathered(), segments.scattered()};
    }

    @Override
    public byte id()
    {
        return PATH_RDMA;
    }

    /** Rendezvous messages received by read, and by the sender's write. */
    long reads()
    {
        return reads;
    }

    long pushes()
    {
        return pushes;
    }

    /**
     * Sender: takes {@code s} onto this path if the peer's transport offers remote memory and no peer memory, the
     * send layout is one native-order run, and the transport registers the buffer.
     */
    boolean prepare(final SendRequestImpl s, final PeerChannel ch)
    {
        final boolean gather = !oneRun(s.convertor);
        if (mode == Mode.OFF || ch.remoteMemory == null || ch.peerMemory != null || s.totalBytes == 0 || gather && !segments.eligible(s.convertor))
        {
            return false;
        }
        final long registration = ch.remoteMemory.register(s.view.buffer());
        if (registration == 0)
        {
            return false;
        }
        s.convertor.seek(0);
        sends.put(s.id, new Send(s, registration, gather ? 0 : s.convertor.runAddress() - s.view.address(), gather));
        return true;
    }

    /** One run of memory whose bytes are the stream's (native order, or byte-sized elements, which never swap). */
    private static boolean oneRun(final Convertor c)
    {
        return RdmaSegments.streamIsMemory(c) && c.stats().blockCount() == 1;
    }

    private static boolean direct(final Object memory)
    {
        return memory instanceof ByteBuffer b && b.isDirect();
    }

    @Override
    public int rtsExtensionLength(final SendRequestImpl s)
    {
        return RTS_LENGTH - FrameDescriptor.ENVELOPE_LENGTH;
    }

    @Override
    public void writeRtsExtension(final SendRequestImpl s, final PeerChannel ch, final MutableDirectBuffer buffer, final int index)
    {
        final int base = index - FrameDescriptor.ENVELOPE_LENGTH;
        final Send send = sends.get(s.id);
        final boolean keyed = direct(s.view.buffer()) && !send.gather();
        final long[] key = new long[RemoteMemory.KEY_LONGS];
        if (keyed)
        {
            ch.remoteMemory.remoteKey(send.registration(), key, 0);
        }
        buffer.putLong(base + RTS_KEY0_OFFSET, key[0], BYTE_ORDER);
        buffer.putLong(base + RTS_KEY1_OFFSET, key[1], BYTE_ORDER);
        buffer.putLong(base + RTS_OFFSET_OFFSET, send.offset(), BYTE_ORDER);
        buffer.putInt(base + RTS_FLAGS_OFFSET, keyed ? FLAG_KEYED : 0, BYTE_ORDER);
        buffer.putInt(base + RTS_FLAGS_OFFSET + 4, 0, BYTE_ORDER);
    }

    @Override
    public Object onArrival(final PeerChannel ch, final DirectBuffer buffer, final int extensionIndex, final int extensionLength)
    {
        if (extensionLength < RTS_LENGTH - FrameDescriptor.ENVELOPE_LENGTH)
        {
            throw new MpiException(ErrorClass.ERR_INTERN, "RDMA RTS from rank " + ch.worldRank + " too short: " + extensionLength + " bytes");
        }
        final int base = extensionIndex - FrameDescriptor.ENVELOPE_LENGTH;
        return new Arrival((buffer.getInt(base + RTS_FLAGS_OFFSET, BYTE_ORDER) & FLAG_KEYED) != 0, buffer.getLong(base + RTS_KEY0_OFFSET,
            BYTE_ORDER), buffer.getLong(base + RTS_KEY1_OFFSET, BYTE_ORDER), buffer.getLong(base + RTS_OFFSET_OFFSET, BYTE_ORDER));
    }

    @Override
    public void onMatched(final RecvRequestImpl r, final PeerChannel ch, final long senderRequest, final long acceptBytes,
        final Object arrival)
    {
        if (acceptBytes == 0)
        {
            protocol.submit(ch, ControlFrame.fin(senderRequest));
            r.completeReceive();
            return;
        }
        final Arrival a = (Arrival)arrival;
        final Object memory = r.convertor.view().buffer();
        final boolean recvDirect = direct(memory);
        final boolean scatter = a.keyed() && !oneRun(r.convertor) && segments.eligible(r.convertor) && mode != Mode.WRITE;
        final long registration = ch.remoteMemory != null && (scatter || oneRun(r.convertor)) && !r.convertor.view().readOnly() &&
            (a.keyed() || recvDirect) ? ch.remoteMemory.register(memory) : 0;
        if (registration == 0)
        {
            fragments.onMatched(r, ch, senderRequest, acceptBytes, null);
            return;
        }
        final long token = SharedRemoteMemory.PATH_TOKEN | nextToken++;
        final Recv recv = new Recv(r, ch, senderRequest, registration);
        if (scatter)
        {
            reads++;
            receives.put(token, recv);
            protocol.submit(ch, segments.start(true, r.convertor, acceptBytes, registration, new long[] {a.key0(), a.key1()}, a.offset(), token));
            return;
        }
        r.convertor.seek(0);
        final long recvOffset = r.convertor.runAddress() - r.convertor.view().address();
        final boolean read = a.keyed() && (!recvDirect || mode == Mode.READ || mode != Mode.WRITE && acceptBytes >= readMin);
        if (read)
        {
            reads++;
            receives.put(token, recv);
            final long[] key = {a.key0(), a.key1()};
            final long from = a.offset();
            protocol.submit(ch, (p, channel) -> channel.remoteMemory.get(channel.worldRank, key, 0, from, registration, recvOffset, acceptBytes,
                token));
            return;
        }
        pushes++;
        r.id = token;
        receives.put(token, recv);
        final long[] key = new long[RemoteMemory.KEY_LONGS];
        ch.remoteMemory.remoteKey(registration, key, 0);
        protocol.submit(ch, new CtsFrame(senderRequest, token, key, recvOffset, acceptBytes));
    }

    @Override
    public void decline(final PeerChannel ch, final long senderRequest)
    {
        protocol.submit(ch, ControlFrame.fin(senderRequest));
    }

    @Override
    public void onFinished(final SendRequestImpl s, final PeerChannel ch)
    {
        release(s, ch);
    }

    /** Sender: the receiver answered CTS (it streams fragments instead) or FIN: the registration goes. */
    void release(final SendRequestImpl s, final PeerChannel ch)
    {
        final Send send = sends.remove(s.id);
        if (send != null)
        {
            ch.remoteMemory.deregister(send.registration());
        }
    }

    /** Sender: the receiver's RDMA_CTS: put the message into its buffer. */
    void onCts(final SendRequestImpl s, final PeerChannel ch, final DirectBuffer buffer, final int index)
    {
        final Send send = sends.get(s.id);
        if (send == null)
        {
            throw new MpiException(ErrorClass.ERR_INTERN, "RDMA_CTS for send " + s.id + " to rank " + ch.worldRank + ", which is not on the RDMA path");
        }
        final long[] key = {buffer.getLong(index + CTS_KEY0_OFFSET, BYTE_ORDER), buffer.getLong(index + CTS_KEY1_OFFSET, BYTE_ORDER)};
        final long at = buffer.getLong(index + CTS_OFFSET_OFFSET, BYTE_ORDER);
        final long accept = buffer.getLong(index + CTS_ACCEPT_OFFSET, BYTE_ORDER);
        s.receiverRequest = buffer.getLong(index + CTS_RECEIVER_REQUEST_OFFSET, BYTE_ORDER);
        s.acceptBytes = accept;
        final long token = SharedRemoteMemory.PATH_TOKEN | nextToken++;
        writes.put(token, s);
        if (send.gather())
        {
            protocol.submit(ch, segments.start(false, s.convertor, accept, send.registration(), key, at, token));
            return;
        }
        protocol.submit(ch, (p, channel) -> channel.remoteMemory.put(channel.worldRank, key, 0, at, send.registration(), send.offset(), accept,
            token));
    }

    /** Receiver: the sender's RDMA_DONE. */
    void onDone(final PeerChannel ch, final DirectBuffer buffer, final int index)
    {
        final long token = buffer.getLong(index + DONE_RECEIVER_REQUEST_OFFSET, BYTE_ORDER);
        final Recv recv = receives.remove(token);
        if (recv == null)
        {
            throw new MpiException(ErrorClass.ERR_INTERN, "RDMA_DONE for unknown receive " + token + " from rank " + ch.worldRank);
        }
        ch.remoteMemory.deregister(recv.registration());
        recv.request().completeReceive();
    }

    /** A read (receiver) or write (sender) of this path finished (through {@link SharedRemoteMemory}). */
    void onComplete(final long token, final MpiException operationFailure)
    {
        final RdmaSegments.Transfer transfer = segments.onComplete(token, operationFailure);
        if (transfer != null && !transfer.finished())
        {
            return;
        }
        final MpiException failure = transfer != null ? transfer.failure() : operationFailure;
        final Recv recv = receives.get(token);
        if (recv != null)
        {
            receives.remove(token);
            final PeerChannel ch = recv.channel();
            ch.remoteMemory.deregister(recv.registration());
            // FIN either way: the sender releases its buffer; a failed read fails the receive.
            protocol.submit(ch, ControlFrame.fin(recv.senderRequest()));
            final RecvRequestImpl r = recv.request();
            if (failure != null)
            {
                r.error = failure.errorClass();
                r.errorDetail = "recv: RDMA read from rank " + ch.worldRank + " failed: " + failure.getMessage();
            }
            r.completeReceive();
            return;
        }
        final SendRequestImpl s = writes.remove(token);
        if (s == null)
        {
            throw new MpiException(ErrorClass.ERR_INTERN, "RDMA rendezvous: unknown operation " + token);
        }
        final PeerChannel ch = protocol.channel(s.destWorld);
        release(s, ch);
        protocol.submit(ch, new DoneFrame(s.receiverRequest));
        if (failure != null)
        {
            s.state = SendRequestImpl.State.DONE;
            if (s.onComplete != null)
            {
                s.onComplete.run();
            }
            s.complete(s.destRank, s.tag, failure.errorClass(), s.totalBytes,
                new MpiException(failure.errorClass(), "send: RDMA write to rank " + ch.worldRank + " failed: " + failure.getMessage(), failure));
            return;
        }
        s.completeSend();
    }

    /** The receiver's key for the sender to write into. */
    private static final class CtsFrame extends ExtensionFrame
    {
        private final long senderRequest;
        private final long receiverRequest;
        private final long[] key;
        private final long offset;
        private final long accept;

        CtsFrame(final long senderRequest, final long receiverRequest, final long[] key, final long offset, final long accept)
        {
            super(TYPE_RDMA_CTS, true);
            this.senderRequest = senderRequest;
            this.receiverRequest = receiverRequest;
            this.key = key;
            this.offset = offset;
            this.accept = accept;
        }

        @Override
        public int bodyLength()
        {
            return CTS_LENGTH - FrameDescriptor.COMMON_LENGTH;
        }

        @Override
        public void writeBody(final MutableDirectBuffer buffer, final int index)
        {
            final int base = index - FrameDescriptor.COMMON_LENGTH;
            buffer.putLong(base + CTS_SENDER_REQUEST_OFFSET, senderRequest, BYTE_ORDER);
            buffer.putLong(base + CTS_RECEIVER_REQUEST_OFFSET, receiverRequest, BYTE_ORDER);
            buffer.putLong(base + CTS_KEY0_OFFSET, key[0], BYTE_ORDER);
            buffer.putLong(base + CTS_KEY1_OFFSET, key[1], BYTE_ORDER);
            buffer.putLong(base + CTS_OFFSET_OFFSET, offset, BYTE_ORDER);
            buffer.putLong(base + CTS_ACCEPT_OFFSET, accept, BYTE_ORDER);
        }
    }

    /** The sender's write is done. */
    private static final class DoneFrame extends ExtensionFrame
    {
        private final long receiverRequest;

        DoneFrame(final long receiverRequest)
        {
            super(TYPE_RDMA_DONE, true);
            this.receiverRequest = receiverRequest;
        }

        @Override
        public int bodyLength()
        {
            return DONE_LENGTH - FrameDescriptor.COMMON_LENGTH;
        }

        @Override
        public void writeBody(final MutableDirectBuffer buffer, final int index)
        {
            buffer.putLong(index - FrameDescriptor.COMMON_LENGTH + DONE_RECEIVER_REQUEST_OFFSET, receiverRequest, BYTE_ORDER);
        }
    }
}
