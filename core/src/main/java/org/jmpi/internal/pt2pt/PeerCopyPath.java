package org.jmpi.internal.pt2pt;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.jmpi.Datatype;
import org.jmpi.ErrorClass;
import org.jmpi.MpiException;
import org.jmpi.internal.datatype.BufferView;
import org.jmpi.internal.datatype.Convertor;
import org.jmpi.internal.datatype.TypeWireForm;

import static org.jmpi.internal.pt2pt.FrameDescriptor.*;

/**
 * Single copy through peer memory: the sender exposes its buffer and names it in the RTS with the
 * element offset, count and send type (by id in the pair's type table, with the type's wire form the
 * first time); the receiver maps the buffer and copies straight from the send layout into the receive
 * layout (type-to-type copy), then answers FIN, on which the sender withdraws the exposure and completes. A
 * receiver whose cost model ({@link PathSelector}) finds the staged pipeline cheaper for the two layouts answers
 * CTS instead, as {@link FragmentPath} does.
 *
 * <p>Threading: engine thread only.
 */
final class PeerCopyPath implements RendezvousPath
{
    /** What the receiver keeps of an RTS until it matches. */
    record Arrival(long handle, long elementOffset, long count, Datatype type)
    {
    }

    private final Protocol protocol;
    private final PathSelector selector;
    private final FragmentPath fragments;
    /** How types travel in RTS and SPLIT frames (by id, inline, or published in the arena); shared with the split copy. */
    private final PublishedTypes types = new PublishedTypes();

    PeerCopyPath(final Protocol protocol, final PathSelector selector, final FragmentPath fragments)
    {
        this.protocol = protocol;
        this.selector = selector;
        this.fragments = fragments;
        selector.publishedTypes(types);
    }

    PublishedTypes types()
    {
        return types;
    }

    @Override
    public byte id()
    {
        return PATH_PEER_COPY;
    }

    /**
     * Sender: prepares the RTS of {@code s} if the peer's transport has peer memory and the RTS (with the type's
     * wire form if the peer lacks it, or a reference to it published in the arena, and a form the peer decodes) fits
     * one frame, exposing the send buffer where
     * the peer memory can ({@code s.exposedHandle}, 0 when it cannot: a heap buffer across JVMs; then only the
     * split copy, with the receiver's buffer exposed, may carry it). With {@code mayPack} (the peer copy, not the split
     * copy, will carry it) the selector may pack the message at send ({@link SendPacking}): the RTS then offers the
     * staging buffer as {@code totalBytes} of {@link Datatype#BYTE}.
     */
    boolean prepare(final SendRequestImpl s, final PeerChannel ch, final boolean mayPack)
    {
        if (ch.peerMemory == null)
        {
            return false;
        }
        final boolean packed = mayPack && selector.packAtSend(s, ch);
        final Datatype type = rtsType(s);
        int typeId = ch.types.sentId(type);
        int wireLength = 0;
        PublishedTypes.Ref ref = null;
        if (typeId == 0)
        {
            // A packed message's BYTE always fits: only the unpacked offer can fail here.
            if (!TypeWireForm.decodable(type))
            {
                return false;
            }
            ref = types.publish(ch, type);
            wireLength = ref != null ? WIRE_PUBLISHED : TypeWireForm.encodedLength(type);
            if (PEER_RTS_LENGTH + (long)PublishedTypes.payloadLength(wireLength) > ch.maxFrameLength)
            {
                return false;
            }
        }
        final long handle = packed ? s.exposedHandle : ch.peerMemory.expose(s.view.buffer());
        if (typeId == 0)
        {
            typeId = ch.types.assignSentId(type);
        }
        s.exposedHandle = handle;
        s.typeId = typeId;
        s.wireLength = wireLength;
        s.typeRef = ref;
        return true;
    }

    /** The type the RTS describes: the send type, or BYTE for a message packed at send. */
    private static Datatype rtsType(final SendRequestImpl s)
    {
        return s.staging != null ? Datatype.BYTE : s.type;
    }

    @Override
    public int rtsExtensionLength(final SendRequestImpl s)
    {
        return PEER_RTS_LENGTH - ENVELOPE_LENGTH + PublishedTypes.payloadLength(s.wireLength);
    }

    @Override
    public void writeRtsExtension(final SendRequestImpl s, final PeerChannel ch, final MutableDirectBuffer buffer, final int index)
    {
        final int base = index - ENVELOPE_LENGTH;
        buffer.putLong(base + PEER_HANDLE_OFFSET, s.exposedHandle, BYTE_ORDER);
        final boolean packed = s.staging != null;
        buffer.putLong(base + PEER_ELEMENT_OFFSET_OFFSET, packed ? 0 : s.elementOffset, BYTE_ORDER);
        buffer.putLong(base + PEER_COUNT_OFFSET, packed ? s.totalBytes : s.count, BYTE_ORDER);
        buffer.putInt(base + PEER_TYPE_ID_OFFSET, s.typeId, BYTE_ORDER);
        buffer.putInt(base + PEER_WIRE_LENGTH_OFFSET, s.wireLength, BYTE_ORDER);
        if (s.wireLength > 0)
        {
            TypeWireForm.encode(rtsType(s), buffer, base + PEER_RTS_LENGTH);
        }
        else if (s.wireLength == WIRE_PUBLISHED)
        {
            PublishedTypes.writeRef(s.typeRef, buffer, base + PEER_RTS_LENGTH);
        }
    }

    @Override
    public Object onArrival(final PeerChannel ch, final DirectBuffer buffer, final int extensionIndex, final int extensionLength)
    {
        final int base = extensionIndex - ENVELOPE_LENGTH;
        if (extensionLength < PEER_RTS_LENGTH - ENVELOPE_LENGTH)
        {
            throw new MpiException(ErrorClass.ERR_INTERN, "peer-copy RTS from rank " + ch.worldRank + " too short: " + extensionLength + " bytes");
        }
        final int typeId = buffer.getInt(base + PEER_TYPE_ID_OFFSET, BYTE_ORDER);
        final int wireLength = buffer.getInt(base + PEER_WIRE_LENGTH_OFFSET, BYTE_ORDER);
        final Datatype type = types.read(ch, typeId, wireLength, buffer, base + PEER_RTS_LENGTH,
            extensionLength - (PEER_RTS_LENGTH - ENVELOPE_LENGTH), "peer-copy RTS");
        return new Arrival(buffer.getLong(base + PEER_HANDLE_OFFSET, BYTE_ORDER),
            buffer.getLong(base + PEER_ELEMENT_OFFSET_OFFSET, BYTE_ORDER),
            buffer.getLong(base + PEER_COUNT_OFFSET, BYTE_ORDER), type);
    }

    @Override
    public void onMatched(final RecvRequestImpl r, final PeerChannel ch, final long senderRequest, final long acceptBytes,
        final Object arrival)
    {
        if (acceptBytes > 0)
        {
            final Arrival a = (Arrival)arrival;
            // A send side of one run (a message packed at send, or contiguous data) is always copied directly: the
            // staged pipeline would copy the same bytes into fragments and write the same receive runs from them, and a
            // message packed at send would be packed a second time (SPECFEM3D_oc middle and NAS_LU_y largest between
            // threads were: packed at send, then staged by the model for their short receive runs; docs/pvas.md,
            // "Session 12: copies").
            if (!a.type().isContiguous() &&
                !selector.takeDirect(r.entry.contextId, a.type(), a.count(), r.convertor.stats(), acceptBytes, 1, ch.fastFrameLength))
            {
                // The cost model finds the staged pipeline cheaper for these two layouts: CTS, and the sender streams.
                fragments.onMatched(r, ch, senderRequest, acceptBytes, null);
                return;
            }
            selector.directTaken(true, false);
            final Object memory = ch.peerMemory.map(ch.worldRank, a.handle());
            final Convertor source = Convertor.create(BufferView.of(memory, "peer send buffer"), a.elementOffset(), a.count(), a.type());
            DirectCopy.copy(source, r.convertor, 0, acceptBytes);
        }
        protocol.submit(ch, ControlFrame.fin(senderRequest));
        r.completeReceive();
    }

    @Override
    public void decline(final PeerChannel ch, final long senderRequest)
    {
        protocol.submit(ch, ControlFrame.fin(senderRequest));
    }

    @Override
    public void onFinished(final SendRequestImpl s, final PeerChannel ch)
    {
        if (s.exposedHandle != 0)
        {
            ch.peerMemory.withdraw(s.exposedHandle);
            s.exposedHandle = 0;
        }
        selector.stagingDone(s, ch);
    }
}
