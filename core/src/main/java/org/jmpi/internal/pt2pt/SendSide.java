package org.jmpi.internal.pt2pt;

import org.agrona.DirectBuffer;
import org.agrona.collections.Long2ObjectHashMap;
import org.jmpi.ErrorClass;
import org.jmpi.MpiException;

import static org.jmpi.internal.pt2pt.FrameDescriptor.*;

/**
 * The send side of the protocol. Per message:
 * <ol>
 * <li>Eager, when the payload is at most the eager limit and the peer's eager window has room: one EAGER
 * frame carries envelope and payload, packed by the send convertor straight into the transport's memory.
 * A standard send is complete when the frame is written; a synchronous one waits for ACK.</li>
 * <li>Rendezvous otherwise: an RTS carries the envelope and names the path that moves the data, chosen
 * here from the peer transport's features, {@code jmpi.pvas.mode} and the size ({@link PathSelector}): where the
 * send buffer can be exposed as peer memory, {@link SplitCopyPath} from {@code jmpi.pvas.split.min} bytes and
 * {@link PeerCopyPath} below; where the transport has peer memory but cannot expose the send buffer (a heap buffer,
 * across JVMs), {@link SplitCopyPath} with no send handle (the sender writes into the receiver's buffer if that one
 * is exposable, else fragments); else {@link FragmentPath}. The receiver may still turn a direct offer into the
 * staged pipeline when the cost model over both layouts says so.</li>
 * </ol>
 *
 * <p>Threading: engine thread only.
 */
final class SendSide
{
    private final Protocol protocol;
    private final FragmentPath fragments;
    private final PeerCopyPath peerCopy;
    private final SplitCopyPath splitCopy;
    private final PathSelector selector;
    private final FrameEncoder encoder;
    private final long eagerLimit;
    private final long eagerWindow;
    private final Long2ObjectHashMap<SendRequestImpl> awaitingReply = new Long2ObjectHashMap<>();
    /** Rendezvous messages sent, by path id. */
    private final long[] rendezvousByPath = new long[RdmaFrameDescriptor.PATH_RDMA + 1];
    /** Rendezvous through remote memory, tried first where the transport offers it (issue 19). */
    private RdmaPath rdma;
    private long nextId = 1;
    private long splitMin = Long.MAX_VALUE;

    SendSide(final Protocol protocol, final FragmentPath fragments, final PeerCopyPath peerCopy, final SplitCopyPath splitCopy,
        final PathSelector selector, final FrameEncoder encoder, final long eagerLimit, final long eagerWindow)
    {
        this.selector = selector;
        this.protocol = protocol;
        this.fragments = fragments;
        this.peerCopy = peerCopy;
        this.splitCopy = splitCopy;
        this.encoder = encoder;
        this.eagerLimit = eagerLimit;
        this.eagerWindow = eagerWindow;
    }

    void postSend(final SendRequestImpl s, final PeerChannel ch)
    {
        s.id = nextId++;
        final long cost = ENVELOPE_LENGTH + s.totalBytes;
        final long limit = Math.min(eagerLimit, ch.maxFrameLength - ENVELOPE_LENGTH);
        if (s.totalBytes <= limit && ch.eagerOutstanding + cost <= eagerWindow)
        {
            ch.eagerOutstanding += cost;
            s.state = SendRequestImpl.State.EAGER_PENDING;
            selector.sentEager();
        }
        else
        {
            s.ensureConvertor();
            // A send buffer the peer memory cannot expose (heap, across JVMs) still offers the split copy with no
            // handle: if the receiver's buffer is exposable the sender copies everything into it, else it answers CTS.
            s.path = rdma != null && rdma.prepare(s, ch) ? rdma : !selector.offerDirect(s, ch) ? fragments : !peerCopy.prepare(s, ch, splitMin <= 0 || s.totalBytes < splitMin) ? typeNotSendable()
                : s.exposedHandle == 0 || splitMin > 0 && s.totalBytes >= splitMin ? splitCopy : peerCopy;
            if (s.path != fragments && s.path != rdma)
            {
                selector.offered();
            }
            rendezvousByPath[s.path.id()]++;
            s.state = SendRequestImpl.State.RTS_PENDING;
        }
        protocol.submit(ch, s);
    }

    private RendezvousPath typeNotSendable()
    {
        selector.typeTooLarge();
        return fragments;
    }

    /** Rendezvous messages this rank sent by {@code path} ({@link FrameDescriptor#PATH_FRAGMENTS}...). */
    long rendezvousSent(final byte path)
    {
        return rendezvousByPath[path];
    }

    /** Emits the frames of {@code s}'s current state; true when the transport took them all. */
    boolean emit(final SendRequestImpl s, final PeerChannel ch)
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
                if (!ch.transport.offer(ch.worldRank, ENVELOPE_LENGTH + s.path.rtsExtensionLength(s), encoder))
                {
                    return false;
                }
                s.state = SendRequestImpl.State.WAIT_CTS;
                awaitingReply.put(s.id, s);
                return true;
            }
            case STREAMING ->
            {
                return fragments.stream(s, ch, encoder);
            }
            default -> throw new MpiException(ErrorClass.ERR_INTERN, "send request " + s.id + " queued in state " + s.state);
        }
    }

    /**
     * The receiver's CTS: {@code askedFragment} is the fragment payload it asks for (0: this side's choice), {@code flags}
     * its wish about packing this layout at send next time (the on-line path check, {@link PathSelector#packWished}).
     */
    void onCts(final PeerChannel ch, final long senderRequest, final long receiverRequest, final long acceptBytes, final int askedFragment,
        final byte flags)
    {
        final SendRequestImpl s = take(ch, senderRequest, "CTS");
        if (s.path == rdma)
        {
            rdma.release(s, ch);
        }
        selector.packWished(s, ch, flags, askedFragment);
        fragments.onCts(s, ch, receiverRequest, acceptBytes, askedFragment);
    }

    /** The RDMA path's hook: tried before the others for every rendezvous send. Before traffic. */
    void rdma(final RdmaPath path)
    {
        this.rdma = path;
    }

    /** The receiver's RDMA_CTS: the sender writes the message into the receiver's registered buffer. */
    void onRdmaCts(final PeerChannel ch, final DirectBuffer buffer, final int index)
    {
        final SendRequestImpl s = take(ch, buffer.getLong(index + RdmaFrameDescriptor.CTS_SENDER_REQUEST_OFFSET, BYTE_ORDER), "RDMA_CTS");
        rdma.onCts(s, ch, buffer, index);
    }

    /** The receiver's SPLIT: the split copy of {@code s} starts on this side too. */
    void onSplit(final PeerChannel ch, final DirectBuffer buffer, final int index, final int lengthBytes)
    {
        final SendRequestImpl s = take(ch, buffer.getLong(index + SPLIT_SENDER_REQUEST_OFFSET, BYTE_ORDER), "SPLIT");
        splitCopy.onSplit(s, ch, buffer, index, lengthBytes);
    }

    /** Rendezvous messages of at least {@code bytes} (0: none) to a peer with peer memory take the split copy. */
    void splitMin(final long bytes)
    {
        this.splitMin = bytes;
    }

    /** ACK of a synchronous eager send, or FIN of a path whose receiver is done (with its wish {@code flags} and {@code fragment}). */
    void onReply(final PeerChannel ch, final long senderRequest, final boolean fin, final byte flags, final int fragment)
    {
        final SendRequestImpl s = take(ch, senderRequest, fin ? "FIN" : "ACK");
        if (fin)
        {
            selector.packWished(s, ch, flags, fragment);
            s.path.onFinished(s, ch);
        }
        s.completeSend();
    }

    private SendRequestImpl take(final PeerChannel ch, final long senderRequest, final String what)
    {
        final SendRequestImpl s = awaitingReply.remove(senderRequest);
        if (s == null)
        {
            throw new MpiException(ErrorClass.ERR_INTERN, what + " for unknown send request " + senderRequest + " from rank " + ch.worldRank);
        }
        return s;
    }
}
