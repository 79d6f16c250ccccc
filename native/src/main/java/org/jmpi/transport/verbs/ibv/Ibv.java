package org.jmpi.transport.verbs.ibv;

/**
 * Constants of {@code <infiniband/verbs.h>} (rdma-core 44) that jmpi uses.
 *
 * <p>Constants only; any thread.
 */
public final class Ibv
{
    public static final int ACCESS_LOCAL_WRITE = 1;
    public static final int ACCESS_REMOTE_WRITE = 2;
    public static final int ACCESS_REMOTE_READ = 4;
    public static final int ACCESS_REMOTE_ATOMIC = 8;

    public static final int QPT_RC = 2;

    public static final int QPS_RESET = 0;
    public static final int QPS_INIT = 1;
    public static final int QPS_RTR = 2;
    public static final int QPS_RTS = 3;
    public static final int QPS_ERR = 6;

    public static final int QP_STATE = 1;
    public static final int QP_ACCESS_FLAGS = 8;
    public static final int QP_PKEY_INDEX = 16;
    public static final int QP_PORT = 32;
    public static final int QP_AV = 128;
    public static final int QP_PATH_MTU = 256;
    public static final int QP_TIMEOUT = 512;
    public static final int QP_RETRY_CNT = 1024;
    public static final int QP_RNR_RETRY = 2048;
    public static final int QP_RQ_PSN = 4096;
    public static final int QP_MAX_QP_RD_ATOMIC = 8192;
    public static final int QP_MIN_RNR_TIMER = 32768;
    public static final int QP_SQ_PSN = 65536;
    public static final int QP_MAX_DEST_RD_ATOMIC = 131072;
    public static final int QP_DEST_QPN = 1048576;

    public static final int WR_RDMA_WRITE = 0;
    public static final int WR_RDMA_WRITE_WITH_IMM = 1;
    public static final int WR_SEND = 2;
    public static final int WR_SEND_WITH_IMM = 3;
    public static final int WR_RDMA_READ = 4;
    public static final int WR_ATOMIC_CMP_AND_SWP = 5;
    public static final int WR_ATOMIC_FETCH_AND_ADD = 6;

    public static final int SEND_FENCE = 1;
    public static final int SEND_SIGNALED = 2;
    public static final int SEND_SOLICITED = 4;
    public static final int SEND_INLINE = 8;

    public static final int WC_SUCCESS = 0;
    public static final int WC_WR_FLUSH_ERR = 5;
    public static final int WC_REM_ACCESS_ERR = 10;
    public static final int WC_RETRY_EXC_ERR = 12;
    public static final int WC_RNR_RETRY_EXC_ERR = 13;
    public static final int WC_WITH_IMM = 2;

    public static final int WC_OP_SEND = 0;
    public static final int WC_OP_RDMA_WRITE = 1;
    public static final int WC_OP_RDMA_READ = 2;
    public static final int WC_OP_COMP_SWAP = 3;
    public static final int WC_OP_FETCH_ADD = 4;
    public static final int WC_OP_RECV = 128;
    public static final int WC_OP_RECV_RDMA_WITH_IMM = 129;

    public static final int PORT_ACTIVE = 4;
    public static final int LINK_LAYER_INFINIBAND = 1;
    public static final int LINK_LAYER_ETHERNET = 2;

    public static final int ATOMIC_NONE = 0;
    /** {@code IBV_ATOMIC_HCA}: atomic among the device's own atomics. */
    public static final int ATOMIC_HCA = 1;
    /** {@code IBV_ATOMIC_GLOB}: atomic with the CPU's atomics too. */
    public static final int ATOMIC_GLOB = 2;

    private static final String[] WC_STATUS = {
        "success", "local length error", "local QP operation error", "local EE context operation error",
        "local protection error", "work request flushed", "memory window bind error", "bad response",
        "local access error", "remote invalid request", "remote access error", "remote operation error",
        "transport retry counter exceeded", "RNR retry counter exceeded", "local RDD violation",
        "remote invalid RD request", "remote aborted", "invalid EE context number", "invalid EE context state",
        "fatal error", "response timeout", "general error", "tag matching error", "tag matching rendezvous not supported"};

    private Ibv()
    {
    }

    /** What a work completion's status means ({@code ibv_wc_status_str}, without a native call). */
    public static String wcStatus(final int status)
    {
        return status >= 0 && status < WC_STATUS.length ? WC_STATUS[status] + " (" + status + ")" : "status " + status;
    }

    /** The MTU in bytes of an {@code enum ibv_mtu} value (1 = 256 .. 5 = 4096). */
    public static int mtuBytes(final int mtu)
    {
        return mtu >= 1 && mtu <= 5 ? 128 << mtu : 0;
    }
}
