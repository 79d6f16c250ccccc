package org.jmpi.internal.pt2pt;

import java.nio.ByteOrder;

/**
 * Layout of the point-to-point protocol's frames, as the transports carry them. Little-endian; every
 * header is a multiple of 8 bytes so payloads start 8-byte aligned. Frames carry no version: the
 * ranks agree on {@link #VERSION} at init, through the bootstrap.
 *
 * <pre>
 * Common header, every frame:
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +---------------+---------------+-------------------------------+
 *  |     type      |     flags     |           reserved            |  0
 *  +---------------+---------------+-------------------------------+
 *     flags: EAGER FLAG_SYNC; RTS FLAG_PACKED (the offer is a staging buffer packed at send); CTS and FIN
 *     FLAG_PACK_OFF / FLAG_PACK_ON (the receiver's wish for the sender's next message of this layout).
 *     FLAG_STAGE (CTS, FIN): send this layout staged at once until the sender's re-check.
 *     reserved: CTS and FIN, the fragment payload the receiver asks for in FRAGMENT_UNIT units (0: the sender chooses).
 *     Both are the on-line check of the path choice (PathSelector, PathTrials); 0 elsewhere.
 *  |      credits: eager-window bytes returned to this frame's      |  4
 *  |      receiver (piggy-backed flow control)                      |
 *  +---------------------------------------------------------------+
 * EAGER (payload follows) and RTS (rendezvous request, no payload):
 *  |                          contextId                            |  8
 *  |                             tag                               | 12
 *  |              source (sender's rank in the communicator)       | 16
 *  |   sigCode     |     path      |          padding              | 20
 *  |                length: message bytes (64 bits)                | 24
 *  |                senderRequest (64 bits)                        | 32
 *  |   payload (EAGER), or the rendezvous path's extension (RTS)   | 40
 * RTS extension of the peer-copy path (path 1); the fragment path (0) has none:
 *  |                handle: the send buffer's exposure (64 bits)   | 40
 *  |                elementOffset in the send buffer (64 bits)     | 48
 *  |                count of send-type items (64 bits)             | 56
 *  |      typeId: the send type in the sender-to-receiver table    | 64
 *  |      wireLength: bytes of the type's wire form that follow    | 68
 *  |      (0 when the receiver has typeId already; -1: published)  |
 *  |                wire form (TypeWireForm)...                    | 72
 * or, with wireLength -1 (WIRE_PUBLISHED), a reference to the wire form the sender published in the node's
 * arena (PublishedTypes), offsets from the start of the reference (here 72; in a SPLIT, SPLIT_LENGTH):
 *  |                handle: the pool block's exposure (64 bits)    | +0
 *  |                offset of the wire form in the block (64 bits) | +8
 *  |                          length                               | +16
 *  |                          padding                              | +20
 * CTS (clear to send):
 *  |                senderRequest (64 bits)                        |  8
 *  |                receiverRequest (64 bits)                      | 16
 *  |                acceptLength: bytes the receiver takes (64)    | 24
 * DATA (one rendezvous fragment):
 *  |                receiverRequest (64 bits)                      |  8
 *  |                offset in the packed stream (64 bits)          | 16
 *  |                          length                               | 24
 *  |                          padding                              | 28
 *  |                payload...                                     | 32
 * ACK (a synchronous eager send matched) and FIN (a direct copy finished):
 *  |                senderRequest (64 bits)                        |  8
 * CREDIT: the common header alone.
 * BYE (the sender finalized: every envelope it sent is ahead of this frame on the pair's ordered channel, and
 * it sends no more, but for its finalize barrier):
 *  |      contextId of the finalize barrier (still in use)         |  8
 *  |                          padding                              | 12
 * Types from {@link #FIRST_EXTENSION_TYPE} up belong to other layers (collectives, one-sided), which
 * register a handler with the protocol and lay out what follows the common header themselves.
 * </pre>
 */
public final class FrameDescriptor
{
    public static final ByteOrder BYTE_ORDER = ByteOrder.LITTLE_ENDIAN;

    /** Version of this layout; every rank publishes it at init and all must agree (RankRuntime). */
    public static final int VERSION = 5;

    public static final byte TYPE_EAGER = 1;
    public static final byte TYPE_RTS = 2;
    public static final byte TYPE_CTS = 3;
    public static final byte TYPE_DATA = 4;
    public static final byte TYPE_ACK = 5;
    public static final byte TYPE_FIN = 6;
    public static final byte TYPE_CREDIT = 7;
    /** Split copy: the receiver's half of the handshake (its buffer, type and the shared progress words). */
    public static final byte TYPE_SPLIT = 8;
    /** The sender finalized: a receive that waits for it alone, and matches nothing it sent, can never complete. */
    public static final byte TYPE_BYE = 9;
    /** Frame types from here to 127 are dispatched to handlers other layers register. */
    public static final byte FIRST_EXTENSION_TYPE = 32;

    /** RTS path: CTS, then DATA fragments packed and unpacked at their stream position. */
    public static final byte PATH_FRAGMENTS = 0;
    /** RTS path: the receiver copies straight from the sender's exposed buffer, then answers FIN. */
    public static final byte PATH_PEER_COPY = 1;
    /** RTS path: as peer copy; the receiver answers SPLIT and both sides copy parts of the stream (PVAS split copy). */
    public static final byte PATH_SPLIT_COPY = 2;

    /** EAGER flag: the sender waits for an ACK when the message matches (synchronous mode). */
    public static final byte FLAG_SYNC = 1;
    /** RTS flag: the offered buffer is a staging buffer the sender packed the message into (pack at send). */
    public static final byte FLAG_PACKED = 2;
    /** CTS/FIN flag: the receiver asks the sender not to pack its next message of this layout at send. */
    public static final byte FLAG_PACK_OFF = 4;
    /** CTS/FIN flag: the receiver leaves packing the next message of this layout to the sender's model again. */
    public static final byte FLAG_PACK_ON = 8;
    /**
     * CTS/FIN flag: the receiver chose the staged pipeline for this layout: send the next messages of it staged at once
     * (no direct offer) in fragments of the reserved field's size, until the sender's re-check.
     */
    public static final byte FLAG_STAGE = 16;
    /** Unit of a CTS's or FIN's fragment payload in the reserved field (bytes). */
    public static final int FRAGMENT_UNIT = 32;

    public static final int TYPE_OFFSET = 0;
    public static final int FLAGS_OFFSET = TYPE_OFFSET + 1;
    public static final int RESERVED_OFFSET = FLAGS_OFFSET + 1;
    public static final int CREDITS_OFFSET = RESERVED_OFFSET + 2;
    public static final int COMMON_LENGTH = CREDITS_OFFSET + 4;

    public static final int CONTEXT_OFFSET = COMMON_LENGTH;
    public static final int TAG_OFFSET = CONTEXT_OFFSET + 4;
    public static final int SOURCE_OFFSET = TAG_OFFSET + 4;
    public static final int SIG_OFFSET = SOURCE_OFFSET + 4;
    public static final int PATH_OFFSET = SIG_OFFSET + 1;
    public static final int LENGTH_OFFSET = SIG_OFFSET + 4;
    public static final int ENVELOPE_SENDER_REQUEST_OFFSET = LENGTH_OFFSET + 8;
    public static final int ENVELOPE_LENGTH = ENVELOPE_SENDER_REQUEST_OFFSET + 8;

    public static final int PEER_HANDLE_OFFSET = ENVELOPE_LENGTH;
    public static final int PEER_ELEMENT_OFFSET_OFFSET = PEER_HANDLE_OFFSET + 8;
    public static final int PEER_COUNT_OFFSET = PEER_ELEMENT_OFFSET_OFFSET + 8;
    public static final int PEER_TYPE_ID_OFFSET = PEER_COUNT_OFFSET + 8;
    public static final int PEER_WIRE_LENGTH_OFFSET = PEER_TYPE_ID_OFFSET + 4;
    public static final int PEER_RTS_LENGTH = PEER_WIRE_LENGTH_OFFSET + 4;

    public static final int CTS_SENDER_REQUEST_OFFSET = COMMON_LENGTH;
    public static final int CTS_RECEIVER_REQUEST_OFFSET = CTS_SENDER_REQUEST_OFFSET + 8;
    public static final int CTS_ACCEPT_OFFSET = CTS_RECEIVER_REQUEST_OFFSET + 8;
    public static final int CTS_LENGTH = CTS_ACCEPT_OFFSET + 8;

    public static final int DATA_RECEIVER_REQUEST_OFFSET = COMMON_LENGTH;
    public static final int DATA_STREAM_OFFSET = DATA_RECEIVER_REQUEST_OFFSET + 8;
    public static final int DATA_LENGTH_OFFSET = DATA_STREAM_OFFSET + 8;
    public static final int DATA_HEADER_LENGTH = DATA_LENGTH_OFFSET + 8;

    public static final int REPLY_SENDER_REQUEST_OFFSET = COMMON_LENGTH;
    public static final int REPLY_LENGTH = REPLY_SENDER_REQUEST_OFFSET + 8;

    public static final int CREDIT_LENGTH = COMMON_LENGTH;
    public static final int BYE_CONTEXT_OFFSET = COMMON_LENGTH;
    public static final int BYE_LENGTH = BYE_CONTEXT_OFFSET + 8;

    public static final int SPLIT_SENDER_REQUEST_OFFSET = COMMON_LENGTH;
    public static final int SPLIT_RECV_HANDLE_OFFSET = SPLIT_SENDER_REQUEST_OFFSET + 8;
    public static final int SPLIT_STATE_HANDLE_OFFSET = SPLIT_RECV_HANDLE_OFFSET + 8;
    public static final int SPLIT_RECV_ELEMENT_OFFSET_OFFSET = SPLIT_STATE_HANDLE_OFFSET + 8;
    public static final int SPLIT_RECV_COUNT_OFFSET = SPLIT_RECV_ELEMENT_OFFSET_OFFSET + 8;
    public static final int SPLIT_ACCEPT_OFFSET = SPLIT_RECV_COUNT_OFFSET + 8;
    public static final int SPLIT_AT_OFFSET = SPLIT_ACCEPT_OFFSET + 8;
    public static final int SPLIT_TYPE_ID_OFFSET = SPLIT_AT_OFFSET + 8;
    public static final int SPLIT_WIRE_LENGTH_OFFSET = SPLIT_TYPE_ID_OFFSET + 4;
    /**
     * Then the receive type's wire form, {@code SPLIT_WIRE_LENGTH} bytes (0 when the sender has the type), or with
     * {@link #WIRE_PUBLISHED} a reference to it in the arena.
     */
    public static final int SPLIT_LENGTH = SPLIT_WIRE_LENGTH_OFFSET + 4;

    /** A wireLength (RTS, SPLIT): the type's wire form is published in the sender's arena; a reference follows. */
    public static final int WIRE_PUBLISHED = -1;
    public static final int PUBLISHED_HANDLE_OFFSET = 0;
    public static final int PUBLISHED_OFFSET_OFFSET = PUBLISHED_HANDLE_OFFSET + 8;
    public static final int PUBLISHED_LENGTH_OFFSET = PUBLISHED_OFFSET_OFFSET + 8;
    public static final int PUBLISHED_REF_LENGTH = PUBLISHED_LENGTH_OFFSET + 8;

    private FrameDescriptor()
    {
    }
}
