package org.jmpi.transport.verbs;

import java.nio.ByteOrder;

/**
 * The transport's own messages for remote memory that the device cannot address (a peer's heap array, staged
 * through the target's registered receive buffers): a SEND with immediate {@link VerbsTransport#IMM_STAGED}, in the
 * pair's frame slots and credits beside core's frames, never handed to core. Little-endian.
 *
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +---------------------------------------------------------------+
 *  |  kind: 1 PUT, 2 GET, 3 GET_DATA, 4 ACK, 5 NAK                 |  0
 *  +---------------------------------------------------------------+
 *  |  slot: the origin's operation slot, echoed in the answer      |  4
 *  +---------------------------------------------------------------+
 *  |  registration: the target's registration id (PUT, GET)        |  8
 *  |  (64 bits)                                                    |
 *  +---------------------------------------------------------------+
 *  |  target offset in that registration (PUT, GET; 64 bits)       | 16
 *  |                                                               |
 *  +---------------------------------------------------------------+
 *  |  chunk offset within the operation (every kind; 64 bits)      | 24
 *  |                                                               |
 *  +---------------------------------------------------------------+
 *  |  length: bytes of this chunk                                  | 32
 *  +---------------------------------------------------------------+
 *  |  status: 0, or the MPI error class of a NAK                   | 36
 *  +---------------------------------------------------------------+
 *  |  data (PUT, GET_DATA): length bytes                           | 40
 * </pre>
 * PUT carries a chunk for the target to copy in (answered ACK or NAK); GET asks for a chunk (answered GET_DATA or
 * NAK). A chunk is at most a frame less this header.
 *
 * <p>Constants only.
 */
final class StagedMessageDescriptor
{
    static final ByteOrder BYTE_ORDER = ByteOrder.LITTLE_ENDIAN;

    static final int KIND_PUT = 1;
    static final int KIND_GET = 2;
    static final int KIND_GET_DATA = 3;
    static final int KIND_ACK = 4;
    static final int KIND_NAK = 5;

    static final int KIND_OFFSET = 0;
    static final int SLOT_OFFSET = KIND_OFFSET + 4;
    static final int REGISTRATION_OFFSET = SLOT_OFFSET + 4;
    static final int TARGET_OFFSET_OFFSET = REGISTRATION_OFFSET + 8;
    static final int CHUNK_OFFSET_OFFSET = TARGET_OFFSET_OFFSET + 8;
    static final int LENGTH_OFFSET = CHUNK_OFFSET_OFFSET + 8;
    static final int STATUS_OFFSET = LENGTH_OFFSET + 4;
    static final int HEADER_LENGTH = STATUS_OFFSET + 4;

    private StagedMessageDescriptor()
    {
    }
}
