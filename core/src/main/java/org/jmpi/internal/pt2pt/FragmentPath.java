package org.jmpi.internal.pt2pt;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.collections.Long2ObjectHashMap;
import org.jmpi.ErrorClass;
import org.jmpi.MpiException;

import static org.jmpi.internal.pt2pt.FrameDescriptor.*;

/**
 * The pipelined rendezvous through frames, for every transport: the receiver answers the RTS with CTS
 * and the bytes it takes; the sender streams DATA fragments, each packed from the send buffer at its
 * stream position and unpacked by the receiver straight into the receive buffer at that position, so
 * copy-in and copy-out overlap. Nothing but the fragment in flight is ever buffered.
 *
 * <p>Threading: engine thread only.
 */
final class FragmentPath implements RendezvousPath
{
    private final Protocol protocol;
    private final PathSelector selector;
    private final Long2ObjectHashMap<RecvRequestImpl> receiving = new Long2ObjectHashMap<>();
    private long nextId = 1;
    /** DATA fragments this rank offered successfully, ever: the sender's progress while it streams ({@link #streamed()}). */
    private long streamed;

    FragmentPath(final Protocol protocol, final PathSelector selector)
    {
        this.protocol = protocol;
        this.selector = selector;
    }

    @Override
    public byte id()
    {
        return PATH_FRAGMENTS;
    }

    @Override
    public int rtsExtensionLength(final SendRequestImpl s)
    {
        return 0;
    }

    @Override
    public void writeRtsExtension(final SendRequestImpl s, final PeerChannel ch, final MutableDirectBuffer buffer, final int index)
    {
    }

    @Override
    public Object onArrival(final PeerChannel ch, final DirectBuffer buffer, final int extensionIndex, final int extensionLength)
    {
        selector.stagedBySender();
        return null;
    }

    @Override
    public void onMatched(final RecvRequestImpl r, final PeerChannel ch, final long senderRequest, final long acceptBytes,
        final Object arrival)
    {
        if (acceptBytes == 0)
        {
            protocol.submit(ch, ControlFrame.cts(senderRequest, 0, 0));
            r.completeReceive();
            return;
        }
        stage(r, ch, senderRequest, acceptBytes, 0, (byte)0);
    }

    /**
     * Receiver: takes {@code acceptBytes} (more than 0) of a matched rendezvous by fragments: CTS asking for fragments
     * of {@code fragmentBytes} (0: the sender's choice) and carrying the packing wish {@code flags}
     * ({@link PathSelector#packWish}).
     */
    void stage(final RecvRequestImpl r, final PeerChannel ch, final long senderRequest, final long acceptBytes, final int fragmentBytes,
        final byte flags)
    {
        r.id = nextId++;
        r.expectedBytes = acceptBytes;
        r.receivedBytes = 0;
        receiving.put(r.id, r);
        protocol.submit(ch, ControlFrame.cts(senderRequest, r.id, acceptBytes, fragmentBytes, flags));
    }

    @Override
    public void decline(final PeerChannel ch, final long senderRequest)
    {
        protocol.submit(ch, ControlFrame.cts(senderRequest, 0, 0));
    }

    @Override
    public void onFinished(final SendRequestImpl s, final PeerChannel ch)
    {
        throw new MpiException(ErrorClass.ERR_INTERN, "FIN for fragment-path send " + s.id + " from rank " + ch.worldRank);
    }

    /** Sender: the receiver's CTS. */
    void onCts(final SendRequestImpl s, final PeerChannel ch, final long receiverRequest, final long acceptBytes, final int askedFragment)
    {
        s.receiverRequest = receiverRequest;
        s.acceptBytes = acceptBytes;
        if (s.exposedHandle != 0)
        {
            // A direct offer the receiver turned into the staged pipeline: nothing maps the send buffer now.
            ch.peerMemory.withdraw(s.exposedHandle);
            s.exposedHandle = 0;
            selector.stagingDone(s, ch);
        }
        if (acceptBytes == 0)
        {
            s.completeSend();
            return;
        }
        s.state = SendRequestImpl.State.STREAMING;
        s.sentBytes = 0;
        s.fragmentBytes = selector.fragmentBytes(s, ch, acceptBytes, askedFragment);
        s.convertor.seek(0);
        protocol.submit(ch, s);
    }

    /** Sender: offers fragments while the transport takes them; true once the last one went out. */
    boolean stream(final SendRequestImpl s, final PeerChannel ch, final FrameEncoder encoder)
    {
        final int maxPayload = s.fragmentBytes;
        while (s.sentBytes < s.acceptBytes)
        {
            final int length = (int)Math.min(maxPayload, s.acceptBytes - s.sentBytes);
            encoder.data(s, ch, length);
            if (!ch.transport.offer(ch.worldRank, DATA_HEADER_LENGTH + length, encoder))
            {
                return false;
            }
            streamed++;
            s.sentBytes += length;
        }
        s.completeSend();
        return true;
    }

    /**
     * DATA fragments offered so far. The engine counts a fragment that went out as work even when the message is not
     * finished (the transport's ring was full before its last one): otherwise a sender streaming a message longer than
     * the ring, whose polls all end on a full ring, looked idle to the engine, went from spinning to yields and parks
     * (up to {@code jmpi.idle.park.max}) in the middle of the message, and the receiver, having drained the ring, waited
     * for it: FFT's 4.7 MB between threads (576 fragments of 8,160 B through a 64 KiB ring) took 4x the hand-packed
     * exchange (quiet run of session 11; docs/pvas.md, "Session 12: copies").
     */
    long streamed()
    {
        return streamed;
    }

    /** Receiver: one DATA fragment. */
    void onData(final int srcRank, final DirectBuffer buffer, final int index)
    {
        final long receiverRequest = buffer.getLong(index + DATA_RECEIVER_REQUEST_OFFSET, BYTE_ORDER);
        final long offset = buffer.getLong(index + DATA_STREAM_OFFSET, BYTE_ORDER);
        final int length = buffer.getInt(index + DATA_LENGTH_OFFSET, BYTE_ORDER);
        final RecvRequestImpl r = receiving.get(receiverRequest);
        if (r == null)
        {
            throw new MpiException(ErrorClass.ERR_INTERN, "DATA for unknown receive request " + receiverRequest + " from rank " + srcRank);
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
            selector.timed(r);
            r.completeReceive();
        }
    }
}
