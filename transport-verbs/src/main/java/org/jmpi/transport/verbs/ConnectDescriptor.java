package org.jmpi.transport.verbs;

import java.nio.ByteOrder;

/**
 * One message of the connection exchange ({@link Connector}): a queue pair's number and first PSN sent over a TCP
 * connection to the peer's connection address, which its bootstrap record names. Every message is this fixed
 * 40 bytes, little-endian:
 *
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +---------------------------------------------------------------+
 *  |  version: VERSION (a peer with another version is refused)    |  0
 *  +---------------------------------------------------------------+
 *  |  kind: 1 REQUEST, 2 ACCEPT, 3 CROSSED, 4 REFUSED, 5 READY     |  4
 *  +---------------------------------------------------------------+
 *  |  from: the sender's rank                                      |  8
 *  +---------------------------------------------------------------+
 *  |  to: the receiver's rank                                      | 12
 *  +---------------------------------------------------------------+
 *  |  qpn: the sender's queue pair to the receiver (REQUEST, ACCEPT)| 16
 *  +---------------------------------------------------------------+
 *  |  psn: that queue pair's first PSN (REQUEST, ACCEPT)           | 20
 *  +---------------------------------------------------------------+
 *  |  secret: the receiver's 16-byte secret, as its bootstrap      | 24
 *  |  record publishes it (proof that the sender is of the job)    |
 *  |                                                               |
 *  |                                                               |
 *  +---------------------------------------------------------------+
 *                                                                    40
 * </pre>
 * REQUEST opens a connection; ACCEPT answers it after the receiver's queue pair is ready to receive (RTR and RTS);
 * READY follows from the requester once its own queue pair is (until then the accepter sends nothing on the pair);
 * CROSSED answers a REQUEST from a higher rank that crossed this rank's own REQUEST to it (the lower rank's wins:
 * its peer accepts it, and both use the queue pairs of that exchange); REFUSED a bad secret, version or rank.
 *
 * <p>Constants only.
 */
final class ConnectDescriptor
{
    static final ByteOrder BYTE_ORDER = ByteOrder.LITTLE_ENDIAN;
    /** "vcm1". */
    static final int VERSION = 0x76636d31;

    static final int KIND_REQUEST = 1;
    static final int KIND_ACCEPT = 2;
    static final int KIND_CROSSED = 3;
    static final int KIND_REFUSED = 4;
    static final int KIND_READY = 5;

    static final int SECRET_LENGTH = 16;

    static final int VERSION_OFFSET = 0;
    static final int KIND_OFFSET = VERSION_OFFSET + 4;
    static final int FROM_OFFSET = KIND_OFFSET + 4;
    static final int TO_OFFSET = FROM_OFFSET + 4;
    static final int QPN_OFFSET = TO_OFFSET + 4;
    static final int PSN_OFFSET = QPN_OFFSET + 4;
    static final int SECRET_OFFSET = PSN_OFFSET + 4;
    static final int LENGTH = SECRET_OFFSET + SECRET_LENGTH;

    private ConnectDescriptor()
    {
    }
}
