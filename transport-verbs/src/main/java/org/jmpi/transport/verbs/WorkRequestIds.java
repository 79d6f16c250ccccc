package org.jmpi.transport.verbs;

/**
 * The 64-bit {@code wr_id} the transport gives each work request, so a completion says what it finished
 * without a lookup:
 *
 * <pre>
 *  63      56 55                    32 31                             0
 * +----------+------------------------+-------------------------------+
 * |   kind   |       peer rank        |  index (buffer slot or token) |
 * +----------+------------------------+-------------------------------+
 * </pre>
 *
 * <p>Stateless; any thread.
 */
final class WorkRequestIds
{
    /** A pre-posted receive buffer; index = its slot. */
    static final int RECV = 1;
    /** A frame sent; index = its send slot. */
    static final int SEND = 2;
    /** An RDMA write of this rank's consumed count into the peer's credit word. */
    static final int CREDIT = 3;
    /** The BYE at close. */
    static final int BYE = 4;
    /** A remote-memory put or get; index = its token slot. */
    static final int RMA = 5;
    /** A chunk of a staged put or get through a bounce buffer; index = the bounce buffer. */
    static final int BOUNCE = 6;

    static final int PEER_BITS = 24;
    static final int MAX_PEER = (1 << PEER_BITS) - 1;

    private WorkRequestIds()
    {
    }

    static long of(final int kind, final int peer, final int index)
    {
        assert kind > 0 && kind < 256 && peer >= 0 && peer <= MAX_PEER : "kind=" + kind + ", peer=" + peer;
        return ((long)kind << 56) | ((long)peer << 32) | (index & 0xFFFF_FFFFL);
    }

    static int kind(final long wrId)
    {
        return (int)(wrId >>> 56);
    }

    static int peer(final long wrId)
    {
        return (int)(wrId >>> 32) & MAX_PEER;
    }

    static int index(final long wrId)
    {
        return (int)wrId;
    }
}
