package org.jmpi.internal.bootstrap;

import java.nio.ByteOrder;

/**
 * Wire format of the launcher's bootstrap service (jmpirun serves it on loopback; ranks connect with
 * {@link TcpBootstrap}). Every message, in both directions, is one frame: a fixed header followed by
 * the key bytes (UTF-8) and the value bytes. All integers are big-endian ({@link #BYTE_ORDER}).
 *
 * <pre>
 *        0               1               2               3
 *        0 1 2 3 4 5 6 7 0 1 2 3 4 5 6 7 0 1 2 3 4 5 6 7 0 1 2 3 4 5 6 7
 *       +---------------------------------------------------------------+
 *    0  |                 FRAME_LENGTH (bytes after this field)         |
 *       +-------------------------------+---------------+---------------+
 *    4  |          VERSION              |     TYPE      |    STATUS     |
 *       +-------------------------------+---------------+---------------+
 *    8  |                 RANK (sender in requests)                     |
 *       +---------------------------------------------------------------+
 *   12  |                 CODE (abort exit code)                        |
 *       +---------------------------------------------------------------+
 *   16  |                 TIMEOUT_NS (int64, get and fence)             |
 *   20  |                                                               |
 *       +---------------------------------------------------------------+
 *   24  |                 KEY_LENGTH (bytes)                            |
 *       +---------------------------------------------------------------+
 *   28  |                 VALUE_LENGTH (bytes)                          |
 *       +---------------------------------------------------------------+
 *   32  |                 KEY (UTF-8) ...  VALUE ...                    |
 *       +---------------------------------------------------------------+
 * </pre>
 *
 * <p>Conversation: on accept the server sends {@link #TYPE_CHALLENGE} (value = {@link #NONCE_LENGTH}
 * random bytes); the client answers {@link #TYPE_HELLO} (RANK, key = job id, CODE = which credential
 * proves it: {@link #CREDENTIAL_TICKET} or {@link #CREDENTIAL_RANK_KEY}, value = HMAC-SHA256 over
 * nonce, job id and rank keyed by that credential, see {@link BootstrapAuth}). The server answers
 * {@link #STATUS_OK} (for a ticket, value = the rank key wrapped by {@link BootstrapAuth#wrapRankKey})
 * or {@link #STATUS_AUTH_FAILED} with the value "refused" and nothing else, whatever was wrong, and
 * closes. Before that answer no frame in either direction may be longer than
 * {@link #MAX_HANDSHAKE_FRAME_LENGTH}: a reader refuses a longer FRAME_LENGTH before it allocates.
 * Then each request ({@link #TYPE_PUT}, {@link #TYPE_GET}, {@link #TYPE_FENCE}, {@link #TYPE_ABORT},
 * {@link #TYPE_CLOSE}, {@link #TYPE_HEARTBEAT}, {@link #TYPE_SPAWN}) gets exactly one response frame of {@link #TYPE_RESPONSE} whose STATUS says how it
 * went and whose value carries the got value or, for a non-OK status, a UTF-8 message. After the
 * handshake a frame whose VERSION differs from {@link #VERSION} is answered with {@link #STATUS_ERROR}
 * and the connection closed.
 *
 * <p>Constants only; immutable.
 */
public final class BootstrapProtocolDescriptor
{
    /** 2: credentials per rank (single-use ticket, then the rank key); 1 had one job secret. */
    public static final short VERSION = 2;
    public static final ByteOrder BYTE_ORDER = ByteOrder.BIG_ENDIAN;

    public static final int FRAME_LENGTH_OFFSET = 0;
    public static final int FRAME_LENGTH_LENGTH = Integer.BYTES;
    public static final int VERSION_OFFSET = FRAME_LENGTH_OFFSET + FRAME_LENGTH_LENGTH;
    public static final int VERSION_LENGTH = Short.BYTES;
    public static final int TYPE_OFFSET = VERSION_OFFSET + VERSION_LENGTH;
    public static final int TYPE_LENGTH = Byte.BYTES;
    public static final int STATUS_OFFSET = TYPE_OFFSET + TYPE_LENGTH;
    public static final int STATUS_LENGTH = Byte.BYTES;
    public static final int RANK_OFFSET = STATUS_OFFSET + STATUS_LENGTH;
    public static final int RANK_LENGTH = Integer.BYTES;
    public static final int CODE_OFFSET = RANK_OFFSET + RANK_LENGTH;
    public static final int CODE_LENGTH = Integer.BYTES;
    public static final int TIMEOUT_NS_OFFSET = CODE_OFFSET + CODE_LENGTH;
    public static final int TIMEOUT_NS_LENGTH = Long.BYTES;
    public static final int KEY_LENGTH_OFFSET = TIMEOUT_NS_OFFSET + TIMEOUT_NS_LENGTH;
    public static final int KEY_LENGTH_LENGTH = Integer.BYTES;
    public static final int VALUE_LENGTH_OFFSET = KEY_LENGTH_OFFSET + KEY_LENGTH_LENGTH;
    public static final int VALUE_LENGTH_LENGTH = Integer.BYTES;
    /** Where the key bytes start; the value follows the key directly. */
    public static final int HEADER_LENGTH = VALUE_LENGTH_OFFSET + VALUE_LENGTH_LENGTH;

    /** Largest key in bytes; longer keys are rejected by both sides. */
    public static final int MAX_KEY_LENGTH = 1 << 12;
    /** Largest value in bytes. */
    public static final int MAX_VALUE_LENGTH = 1 << 24;
    /** Largest FRAME_LENGTH a reader accepts. */
    public static final int MAX_FRAME_LENGTH = HEADER_LENGTH - FRAME_LENGTH_LENGTH + MAX_KEY_LENGTH + MAX_VALUE_LENGTH;

    public static final int NONCE_LENGTH = 32;
    /** Bytes of a HELLO's proof (HMAC-SHA256). */
    public static final int PROOF_LENGTH = 32;
    /** Longest job id in bytes (see {@code BootstrapEnv.JOB_ID_PATTERN}). */
    public static final int MAX_JOB_ID_LENGTH = 64;
    /**
     * Largest FRAME_LENGTH of any frame before the handshake's answer, in either direction: the largest
     * valid HELLO (header, longest job id, proof). The CHALLENGE, the wrapped-key OK and the refusal are
     * shorter.
     */
    public static final int MAX_HANDSHAKE_FRAME_LENGTH = HEADER_LENGTH - FRAME_LENGTH_LENGTH + MAX_JOB_ID_LENGTH + PROOF_LENGTH;

    /** HELLO's CODE: the proof is keyed by the rank's single-use ticket (from its environment). */
    public static final int CREDENTIAL_TICKET = 0;
    /** HELLO's CODE: the proof is keyed by the rank key the launcher handed over after the ticket. */
    public static final int CREDENTIAL_RANK_KEY = 1;
    /** The value of every {@link #STATUS_AUTH_FAILED} answer, whatever was wrong. */
    public static final String REFUSED = "refused";

    public static final byte TYPE_CHALLENGE = 1;
    public static final byte TYPE_HELLO = 2;
    public static final byte TYPE_PUT = 3;
    public static final byte TYPE_GET = 4;
    public static final byte TYPE_FENCE = 5;
    public static final byte TYPE_ABORT = 6;
    public static final byte TYPE_CLOSE = 7;
    public static final byte TYPE_RESPONSE = 8;
    /**
     * A remote rank's liveness probe, on a connection of its own: the server notes the rank as heard
     * from, then answers {@code OK} after TIMEOUT_NS, or {@code JOB_FAILED} as soon as the job fails.
     */
    public static final byte TYPE_HEARTBEAT = 9;
    /**
     * A rank asks the launcher to start ranks of a new job whose parents are its group (MPI_Comm_spawn; additive to
     * version 2, see {@link SpawnWire}): value = the encoded request; the answer is always {@link #STATUS_OK} with
     * the encoded reply (which says whether the children started), or {@link #STATUS_ERROR} from a launcher that
     * does not know the type.
     */
    public static final byte TYPE_SPAWN = 10;

    /** Requests carry no status; a response's status is one of the others. */
    public static final byte STATUS_NONE = 0;
    public static final byte STATUS_OK = 1;
    /** Get or fence did not complete within the request's TIMEOUT_NS. */
    public static final byte STATUS_TIMEOUT = 2;
    /** The job failed (a rank died or aborted, or the launcher is stopping); value = why. */
    public static final byte STATUS_JOB_FAILED = 3;
    /** Malformed or out-of-order request, or wrong version; value = why. The server closes. */
    public static final byte STATUS_ERROR = 4;
    /** Any failed handshake (value {@link #REFUSED}, nothing more). The server closes. */
    public static final byte STATUS_AUTH_FAILED = 5;

    private BootstrapProtocolDescriptor()
    {
    }

    /** A type's name for diagnostics. */
    public static String typeName(final byte type)
    {
        return switch (type)
        {
            case TYPE_CHALLENGE -> "CHALLENGE";
            case TYPE_HELLO -> "HELLO";
            case TYPE_PUT -> "PUT";
            case TYPE_GET -> "GET";
            case TYPE_FENCE -> "FENCE";
            case TYPE_ABORT -> "ABORT";
            case TYPE_CLOSE -> "CLOSE";
            case TYPE_RESPONSE -> "RESPONSE";
            case TYPE_HEARTBEAT -> "HEARTBEAT";
            case TYPE_SPAWN -> "SPAWN";
            default -> "UNKNOWN(" + type + ")";
        };
    }

    /** A status's name for diagnostics. */
    public static String statusName(final byte status)
    {
        return switch (status)
        {
            case STATUS_NONE -> "NONE";
            case STATUS_OK -> "OK";
            case STATUS_TIMEOUT -> "TIMEOUT";
            case STATUS_JOB_FAILED -> "JOB_FAILED";
            case STATUS_ERROR -> "ERROR";
            case STATUS_AUTH_FAILED -> "AUTH_FAILED";
            default -> "UNKNOWN(" + status + ")";
        };
    }
}
