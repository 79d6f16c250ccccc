package org.jmpi.transport.tcp;

import java.nio.ByteOrder;

/**
 * The tcp transport's connection handshake and stream framing. Little-endian.
 *
 * <pre>
 * The connector writes HELLO first thing and may stream frames right after it, without waiting:
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +---------------------------------------------------------------+
 *  |                         magic 'JMPT'                          |  0
 *  |                           version                             |  4
 *  |                        connector rank                         |  8
 *  |                      padding (must be 0)                      | 12
 *  |                  nonce (16 random bytes)                      | 16
 *  |   mac: HMAC-SHA256 with the acceptor's token as key, over     | 32
 *  |   nonce, connector rank, acceptor rank (4 bytes each, LE)     |
 *  |   and the job id (UTF-8)                                      |
 *  +---------------------------------------------------------------+ 64
 * The acceptor, once the HELLO checks, writes WELCOME first thing back:
 *  +---------------------------------------------------------------+
 *  |   mac: HMAC-SHA256 with the connector's token as key, over    |  0
 *  |   "WELCOME", the nonce, acceptor rank, connector rank (4      |
 *  |   bytes each, LE) and the job id (UTF-8)                      |
 *  +---------------------------------------------------------------+ 32
 * Then the connection carries frames both ways (each side sends to the other over one connection for
 * good, the first one it has), each as
 *  |                      length (bytes that follow)               |  0
 *  |                      frame...                                 |  4
 * and a length of 0 says the sender closes in order (BYE); each side sends BYE on every connection it
 * has to the peer before closing.
 * </pre>
 * Each rank's token is 32 random bytes published through the job's bootstrap (authenticated by the job
 * secret), so only members of the job can write a HELLO the acceptor takes. The acceptor takes one
 * connection per peer and refuses a nonce it has seen, so a recorded HELLO cannot open a second one.
 * The WELCOME proves the acceptor to the connector the same way (it holds the connector's token), so
 * frames the connector reads back come from the job's rank. The connector never waits for the acceptor:
 * a rank that is busy computing (not polling) still lets its peers connect and stream into the socket
 * buffers. Version 2 added WELCOME and the frames back.
 */
final class HandshakeDescriptor
{
    static final ByteOrder BYTE_ORDER = ByteOrder.LITTLE_ENDIAN;
    static final int MAGIC = 0x54504d4a; // "JMPT" little-endian
    static final int VERSION = 2;

    static final int MAGIC_OFFSET = 0;
    static final int VERSION_OFFSET = MAGIC_OFFSET + 4;
    static final int RANK_OFFSET = VERSION_OFFSET + 4;
    static final int PADDING_OFFSET = RANK_OFFSET + 4;
    static final int NONCE_OFFSET = PADDING_OFFSET + 4;
    static final int NONCE_LENGTH = 16;
    static final int MAC_OFFSET = NONCE_OFFSET + NONCE_LENGTH;
    static final int MAC_LENGTH = 32;
    static final int HELLO_LENGTH = MAC_OFFSET + MAC_LENGTH;

    static final int WELCOME_MAC_OFFSET = 0;
    static final int WELCOME_LENGTH = WELCOME_MAC_OFFSET + MAC_LENGTH;

    static final int FRAME_LENGTH_OFFSET = 0;
    static final int FRAME_HEADER_LENGTH = 4;
    static final int TOKEN_LENGTH = 32;

    private HandshakeDescriptor()
    {
    }
}
