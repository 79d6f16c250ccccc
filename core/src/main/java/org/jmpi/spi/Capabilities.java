package org.jmpi.spi;

/**
 * What a transport can do; the protocol layer picks eager, pipelined rendezvous, direct copy or RDMA
 * from these.
 *
 * @param maxFrameLength    the largest frame, header included, one {@code offer} takes.
 * @param objectAttachments frames may carry a Java object reference to the receiver (ranks share
 *                          one heap), which enables direct buffer-to-buffer copy of heap arrays.
 * @param directPeerAccess  peers' registered memory is directly addressable (shared arena).
 * @param rdmaPut           one-sided writes into a peer's registered memory.
 * @param rdmaGet           one-sided reads from a peer's registered memory.
 */
public record Capabilities(
    int maxFrameLength,
    boolean objectAttachments,
    boolean directPeerAccess,
    boolean rdmaPut,
    boolean rdmaGet)
{
}
