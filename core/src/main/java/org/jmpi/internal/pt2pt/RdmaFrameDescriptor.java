package org.jmpi.internal.pt2pt;

import static org.jmpi.internal.pt2pt.FrameDescriptor.COMMON_LENGTH;

/**
 * Layout of the RDMA rendezvous ({@link RdmaPath}): its RTS extension and its two frames, after
 * {@link FrameDescriptor}'s common header. Little-endian ({@link FrameDescriptor#BYTE_ORDER}).
 *
 * <pre>
 * RTS extension of the RDMA path (path 3), after the 40-byte envelope (offsets from the frame's start):
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +---------------------------------------------------------------+
 *  |  key0: the send buffer's remote key, first long (0: no key)   | 40
 *  +---------------------------------------------------------------+
 *  |  key1: second long                                            | 48
 *  +---------------------------------------------------------------+
 *  |  offset: the message's first byte in the registration (64)    | 56
 *  +---------------------------------------------------------------+
 *  |  flags: 1 = keyed (the receiver may read)                     | 64
 *  +---------------------------------------------------------------+
 *  |  padding                                                      | 68
 * RDMA_CTS (the receiver asks the sender to write):
 *  |  senderRequest (64)                                           |  8
 *  |  receiverRequest (64)                                         | 16
 *  |  key0, key1: the receive buffer's remote key                  | 24, 32
 *  |  offset: where the message goes in that registration (64)     | 40
 *  |  acceptLength: bytes the receiver takes (64)                  | 48
 * RDMA_DONE (the sender's write completed at the receiver):
 *  |  receiverRequest (64)                                         |  8
 * </pre>
 *
 * <p>Constants only.
 */
final class RdmaFrameDescriptor
{
    /** RTS path: the receiver reads from the sender's registered buffer, or asks the sender to write into its own. */
    static final byte PATH_RDMA = 3;
    /** The receiver's registered buffer for the sender to write into. */
    static final byte TYPE_RDMA_CTS = 24;
    /** The sender's write is in the receiver's memory. */
    static final byte TYPE_RDMA_DONE = 25;

    static final int FLAG_KEYED = 1;

    static final int RTS_KEY0_OFFSET = FrameDescriptor.ENVELOPE_LENGTH;
    static final int RTS_KEY1_OFFSET = RTS_KEY0_OFFSET + 8;
    static final int RTS_OFFSET_OFFSET = RTS_KEY1_OFFSET + 8;
    static final int RTS_FLAGS_OFFSET = RTS_OFFSET_OFFSET + 8;
    static final int RTS_LENGTH = RTS_FLAGS_OFFSET + 8;

    static final int CTS_SENDER_REQUEST_OFFSET = COMMON_LENGTH;
    static final int CTS_RECEIVER_REQUEST_OFFSET = CTS_SENDER_REQUEST_OFFSET + 8;
    static final int CTS_KEY0_OFFSET = CTS_RECEIVER_REQUEST_OFFSET + 8;
    static final int CTS_KEY1_OFFSET = CTS_KEY0_OFFSET + 8;
    static final int CTS_OFFSET_OFFSET = CTS_KEY1_OFFSET + 8;
    static final int CTS_ACCEPT_OFFSET = CTS_OFFSET_OFFSET + 8;
    static final int CTS_LENGTH = CTS_ACCEPT_OFFSET + 8;

    static final int DONE_RECEIVER_REQUEST_OFFSET = COMMON_LENGTH;
    static final int DONE_LENGTH = DONE_RECEIVER_REQUEST_OFFSET + 8;

    private RdmaFrameDescriptor()
    {
    }
}
