package org.jmpi.internal.pt2pt;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/**
 * One way to move a rendezvous message once its envelope (RTS) matched. The sender's protocol picks a
 * path per message ({@link SendSide}); the path's id travels in the RTS, and the receiver hands the
 * match to the same path. Paths: {@link FragmentPath} (CTS, then DATA fragments through frames; every
 * transport) and {@link PeerCopyPath} (the receiver copies from the sender's exposed buffer; transports
 * with peer memory). The PVAS split copy and RDMA get/put are further paths of this shape.
 *
 * <p>Threading: engine thread only.
 */
interface RendezvousPath
{
    /** The id written in the RTS ({@link FrameDescriptor#PATH_OFFSET}). */
    byte id();

    /** Sender: bytes the RTS carries after the envelope for this message. */
    int rtsExtensionLength(SendRequestImpl s);

    /** Sender: writes those bytes at {@code index}. */
    void writeRtsExtension(SendRequestImpl s, PeerChannel ch, MutableDirectBuffer buffer, int index);

    /**
     * Receiver: an RTS of this path arrived (matched or not yet). Reads the RTS extension
     * ({@code extensionLength} bytes at {@code extensionIndex}) in arrival order, which is the order the
     * sender wrote state into it, and returns what {@link #onMatched} needs later (null for nothing).
     */
    Object onArrival(PeerChannel ch, DirectBuffer buffer, int extensionIndex, int extensionLength);

    /**
     * Receiver: the RTS matched {@code r}, which takes {@code acceptBytes} of the message (fewer on
     * truncation, 0 on a type mismatch). The path moves the data and completes {@code r}, now or later.
     *
     * @param arrival what {@link #onArrival} returned for this RTS.
     */
    void onMatched(RecvRequestImpl r, PeerChannel ch, long senderRequest, long acceptBytes, Object arrival);

    /**
     * Receiver: the message will never be received (its communicator was freed here); answer so that the
     * sender completes, moving nothing.
     */
    void decline(PeerChannel ch, long senderRequest);

    /** Sender: the receiver finished with the message (FIN); release what the path holds. */
    void onFinished(SendRequestImpl s, PeerChannel ch);
}
