package org.jmpi.transport.verbs.ibv;

import com.sun.jna.Function;
import com.sun.jna.Memory;
import com.sun.jna.Native;
import com.sun.jna.Pointer;

import static org.jmpi.transport.verbs.ibv.ControlDescriptor.*;

/**
 * A reliable-connected queue pair. Connect it with {@link #connect} (RESET to INIT to RTR to RTS with the
 * peer's {@link QueuePairAddress}); post preallocated requests with {@link #post(SendRequests, int, int)} and
 * {@link #post(RecvRequests, int, int)}, which call the provider's {@code post_send} and {@code post_recv}
 * through the context's ops table as verbs.h's inline functions do.
 *
 * <p>Not thread-safe: one owner posts (a queue pair is thread-safe in libibverbs, jmpi does not rely on it).
 */
public final class QueuePair implements AutoCloseable
{
    /** Local ACK timeout exponent (4.096 µs * 2^14 = 67 ms). */
    public static final int DEFAULT_TIMEOUT = 14;
    /**
     * Retries after an ACK timeout before the request fails with "transport retry counter exceeded". 6, not
     * the maximum 7: rxe (Linux 6.1 rxe_comp.c) treats 7 as "retry forever", and a dead peer was then never
     * reported (VerbsDeadPeerTest waited 75 s).
     */
    public static final int DEFAULT_RETRY_COUNT = 6;
    /** 7 = retry without limit on receiver-not-ready (jmpi's credits keep receives posted). */
    public static final int DEFAULT_RNR_RETRY = 7;

    private final IbvLibrary lib;
    private Pointer qp;
    private final int qpNumber;
    private final Function postSend;
    private final Function postRecv;
    private final Memory badWr = new Memory(Native.POINTER_SIZE);
    private final Object[] sendArgs = new Object[3];
    private final Object[] recvArgs = new Object[3];
    private final int maxSendWr;
    private final int maxRecvWr;
    private final int maxInlineBytes;

    QueuePair(final IbvLibrary lib, final Pointer qp, final Function postSend, final Function postRecv, final int maxSendWr,
        final int maxRecvWr, final int maxInlineBytes)
    {
        this.lib = lib;
        this.qp = qp;
        this.qpNumber = qp.getInt(QP_NUM_OFFSET);
        this.postSend = postSend;
        this.postRecv = postRecv;
        this.maxSendWr = maxSendWr;
        this.maxRecvWr = maxRecvWr;
        this.maxInlineBytes = maxInlineBytes;
        sendArgs[0] = qp;
        sendArgs[2] = badWr;
        recvArgs[0] = qp;
        recvArgs[2] = badWr;
    }

    public int qpNumber()
    {
        return qpNumber;
    }

    public int maxSendWr()
    {
        return maxSendWr;
    }

    public int maxRecvWr()
    {
        return maxRecvWr;
    }

    /** Bytes a send may carry inline (the device copies them at post time), as the device granted. */
    public int maxInlineBytes()
    {
        return maxInlineBytes;
    }

    /** The state the queue pair is in ({@code struct ibv_qp.state}, as libibverbs last saw it). */
    public int state()
    {
        return qp.getInt(QP_STATE_OFFSET);
    }

    /**
     * Connects to {@code remote}: INIT (port, access {@code accessFlags}), RTR (path MTU, the peer's QP number,
     * PSN, LID or GID), RTS (this side's PSN, timeouts). Receives may be posted after INIT; this method
     * leaves the state RTS.
     *
     * @param sgidIndex the local GID index ({@code -1}: address by LID only, InfiniBand without routing).
     * @param timeout   the local ACK timeout exponent (4.096 µs * 2^timeout), {@link #DEFAULT_TIMEOUT}.
     */
    public void connect(final int port, final int sgidIndex, final int pathMtu, final int accessFlags, final int rdAtomic,
        final QueuePairAddress local, final QueuePairAddress remote, final int timeout)
    {
        toInit(port, accessFlags);
        try (Memory attr = new Memory(QP_ATTR_LENGTH))
        {
            attr.clear();
            attr.setInt(ATTR_QP_STATE_OFFSET, Ibv.QPS_RTR);
            attr.setInt(ATTR_PATH_MTU_OFFSET, pathMtu);
            attr.setInt(ATTR_DEST_QP_NUM_OFFSET, remote.qpNumber());
            attr.setInt(ATTR_RQ_PSN_OFFSET, remote.psn());
            attr.setByte(ATTR_MAX_DEST_RD_ATOMIC_OFFSET, (byte)rdAtomic);
            attr.setByte(ATTR_MIN_RNR_TIMER_OFFSET, (byte)12);
            attr.setShort(AH_DLID_OFFSET, (short)remote.lid());
            attr.setByte(AH_SL_OFFSET, (byte)0);
            attr.setByte(AH_PORT_NUM_OFFSET, (byte)port);
            if (sgidIndex >= 0)
            {
                attr.setByte(AH_IS_GLOBAL_OFFSET, (byte)1);
                attr.write(AH_DGID_OFFSET, remote.gid(), 0, GID_LENGTH);
                attr.setByte(AH_SGID_INDEX_OFFSET, (byte)sgidIndex);
                attr.setByte(AH_HOP_LIMIT_OFFSET, (byte)1);
            }
            modify(attr, Ibv.QP_STATE | Ibv.QP_AV | Ibv.QP_PATH_MTU | Ibv.QP_DEST_QPN | Ibv.QP_RQ_PSN |
                Ibv.QP_MAX_DEST_RD_ATOMIC | Ibv.QP_MIN_RNR_TIMER, "RTR (remote " + remote + ")");
            attr.clear();
            attr.setInt(ATTR_QP_STATE_OFFSET, Ibv.QPS_RTS);
            attr.setInt(ATTR_SQ_PSN_OFFSET, local.psn());
            attr.setByte(ATTR_TIMEOUT_OFFSET, (byte)timeout);
            attr.setByte(ATTR_RETRY_CNT_OFFSET, (byte)DEFAULT_RETRY_COUNT);
            attr.setByte(ATTR_RNR_RETRY_OFFSET, (byte)DEFAULT_RNR_RETRY);
            attr.setByte(ATTR_MAX_RD_ATOMIC_OFFSET, (byte)rdAtomic);
            modify(attr, Ibv.QP_STATE | Ibv.QP_SQ_PSN | Ibv.QP_TIMEOUT | Ibv.QP_RETRY_CNT | Ibv.QP_RNR_RETRY | Ibv.QP_MAX_QP_RD_ATOMIC, "RTS");
        }
    }

    /** RESET to INIT on {@code port}, with the remote access the peer's RDMA needs. No-op when already past RESET. */
    public void toInit(final int port, final int accessFlags)
    {
        if (state() != Ibv.QPS_RESET)
        {
            return;
        }
        try (Memory attr = new Memory(QP_ATTR_LENGTH))
        {
            attr.clear();
            attr.setInt(ATTR_QP_STATE_OFFSET, Ibv.QPS_INIT);
            attr.setShort(ATTR_PKEY_INDEX_OFFSET, (short)0);
            attr.setByte(ATTR_PORT_NUM_OFFSET, (byte)port);
            attr.setInt(ATTR_ACCESS_FLAGS_OFFSET, accessFlags);
            modify(attr, Ibv.QP_STATE | Ibv.QP_PKEY_INDEX | Ibv.QP_PORT | Ibv.QP_ACCESS_FLAGS, "INIT");
        }
    }

    /** Moves the queue pair to ERR: outstanding requests complete as flushed. */
    public void toError()
    {
        try (Memory attr = new Memory(QP_ATTR_LENGTH))
        {
            attr.clear();
            attr.setInt(ATTR_QP_STATE_OFFSET, Ibv.QPS_ERR);
            modify(attr, Ibv.QP_STATE, "ERR");
        }
    }

    private void modify(final Memory attr, final int mask, final String to)
    {
        final int rc = lib.ibv_modify_qp(qp, attr, mask);
        if (rc != 0)
        {
            throw new VerbsException("ibv_modify_qp(qp " + qpNumber + " to " + to + ")", rc);
        }
    }

    /**
     * Posts send requests {@code [first, first + count)} of {@code requests} as one list.
     *
     * @return 0, or the errno the provider returned (ENOMEM: the send queue is full).
     */
    public int post(final SendRequests requests, final int first, final int count)
    {
        sendArgs[1] = requests.link(first, count);
        return postSend.invokeInt(sendArgs);
    }

    /** Posts receive requests {@code [first, first + count)}. @return 0 or the provider's errno. */
    public int post(final RecvRequests requests, final int first, final int count)
    {
        recvArgs[1] = requests.link(first, count);
        return postRecv.invokeInt(recvArgs);
    }

    /** Destroys the queue pair; idempotent. */
    @Override
    public void close()
    {
        if (qp != null)
        {
            final int rc = lib.ibv_destroy_qp(qp);
            qp = null;
            if (rc != 0)
            {
                throw new VerbsException("ibv_destroy_qp(qp " + qpNumber + ")", rc);
            }
        }
    }
}
