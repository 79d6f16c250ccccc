package org.jmpi.transport.verbs.ibv;

/**
 * The hot-path structures of libibverbs (x86-64 and aarch64 LP64 ABI, rdma-core 44 {@code verbs.h}), written
 * and read in native memory through {@link java.nio.ByteBuffer}s in native byte order: no JNA {@code Structure}.
 * The offsets were printed by a C program compiled against {@code <infiniband/verbs.h>} (docs/verbs.md shows
 * how to re-check them); these are a stable ABI (rdma-core keeps them for binary compatibility), so there is
 * no version field to check: the probe checks the library's presence instead.
 *
 * <pre>
 * struct ibv_send_wr (128 bytes)                struct ibv_sge (16 bytes)
 *   0 +-------------------------------+           0 +-------------------------------+
 *     |           wr_id (u64)         |             |            addr (u64)         |
 *   8 +-------------------------------+           8 +---------------+---------------+
 *     |            next (ptr)         |             |  length (u32) |   lkey (u32)  |
 *  16 +-------------------------------+          16 +---------------+---------------+
 *     |          sg_list (ptr)        |
 *  24 +---------------+---------------+         struct ibv_recv_wr (32 bytes)
 *     | num_sge (i32) | opcode (u32)  |           0 +-------------------------------+
 *  32 +---------------+---------------+             |           wr_id (u64)         |
 *     |send_flags(u32)| imm_data (be) |           8 +-------------------------------+
 *  40 +-------------------------------+             |            next (ptr)         |
 *     | remote_addr (u64)             |          16 +-------------------------------+
 *  48 +-------------------------------+             |          sg_list (ptr)        |
 *     | rdma: rkey (u32) / atomic:    |          24 +---------------+---------------+
 *     |   compare_add (u64)           |             | num_sge (i32) |    (pad)      |
 *  56 +-------------------------------+          32 +---------------+---------------+
 *     | atomic: swap (u64)            |
 *  64 +---------------+---------------+         struct ibv_wc (48 bytes)
 *     | atomic: rkey  |               |           0 +-------------------------------+
 *  72 +---------------+  (other ops)  |             |           wr_id (u64)         |
 *     |                               |           8 +---------------+---------------+
 * 128 +-------------------------------+             | status (u32)  | opcode (u32)  |
 *                                                16 +---------------+---------------+
 *                                                   |vendor_err(u32)|byte_len (u32) |
 *                                                24 +---------------+---------------+
 *                                                   | imm_data (be) | qp_num (u32)  |
 *                                                32 +---------------+---------------+
 *                                                   | src_qp (u32)  |wc_flags (u32) |
 *                                                40 +---------------+---------------+
 *                                                   | pkey, slid, sl, path bits     |
 *                                                48 +-------------------------------+
 * </pre>
 *
 * <p>Constants only; any thread.
 */
public final class WorkRequestDescriptor
{
    public static final int SEND_WR_ID_OFFSET = 0;
    public static final int SEND_NEXT_OFFSET = SEND_WR_ID_OFFSET + Long.BYTES;
    public static final int SEND_SG_LIST_OFFSET = SEND_NEXT_OFFSET + Long.BYTES;
    public static final int SEND_NUM_SGE_OFFSET = SEND_SG_LIST_OFFSET + Long.BYTES;
    public static final int SEND_OPCODE_OFFSET = SEND_NUM_SGE_OFFSET + Integer.BYTES;
    public static final int SEND_FLAGS_OFFSET = SEND_OPCODE_OFFSET + Integer.BYTES;
    public static final int SEND_IMM_DATA_OFFSET = SEND_FLAGS_OFFSET + Integer.BYTES;
    public static final int SEND_REMOTE_ADDR_OFFSET = SEND_IMM_DATA_OFFSET + Integer.BYTES;
    public static final int SEND_RDMA_RKEY_OFFSET = SEND_REMOTE_ADDR_OFFSET + Long.BYTES;
    public static final int SEND_ATOMIC_COMPARE_ADD_OFFSET = SEND_REMOTE_ADDR_OFFSET + Long.BYTES;
    public static final int SEND_ATOMIC_SWAP_OFFSET = SEND_ATOMIC_COMPARE_ADD_OFFSET + Long.BYTES;
    public static final int SEND_ATOMIC_RKEY_OFFSET = SEND_ATOMIC_SWAP_OFFSET + Long.BYTES;
    public static final int SEND_WR_LENGTH = 128;

    public static final int RECV_WR_ID_OFFSET = 0;
    public static final int RECV_NEXT_OFFSET = RECV_WR_ID_OFFSET + Long.BYTES;
    public static final int RECV_SG_LIST_OFFSET = RECV_NEXT_OFFSET + Long.BYTES;
    public static final int RECV_NUM_SGE_OFFSET = RECV_SG_LIST_OFFSET + Long.BYTES;
    public static final int RECV_WR_LENGTH = RECV_NUM_SGE_OFFSET + 2 * Integer.BYTES;

    public static final int SGE_ADDR_OFFSET = 0;
    public static final int SGE_LENGTH_OFFSET = SGE_ADDR_OFFSET + Long.BYTES;
    public static final int SGE_LKEY_OFFSET = SGE_LENGTH_OFFSET + Integer.BYTES;
    public static final int SGE_LENGTH = SGE_LKEY_OFFSET + Integer.BYTES;

    public static final int WC_WR_ID_OFFSET = 0;
    public static final int WC_STATUS_OFFSET = WC_WR_ID_OFFSET + Long.BYTES;
    public static final int WC_OPCODE_OFFSET = WC_STATUS_OFFSET + Integer.BYTES;
    public static final int WC_VENDOR_ERR_OFFSET = WC_OPCODE_OFFSET + Integer.BYTES;
    public static final int WC_BYTE_LEN_OFFSET = WC_VENDOR_ERR_OFFSET + Integer.BYTES;
    public static final int WC_IMM_DATA_OFFSET = WC_BYTE_LEN_OFFSET + Integer.BYTES;
    public static final int WC_QP_NUM_OFFSET = WC_IMM_DATA_OFFSET + Integer.BYTES;
    public static final int WC_SRC_QP_OFFSET = WC_QP_NUM_OFFSET + Integer.BYTES;
    public static final int WC_FLAGS_OFFSET = WC_SRC_QP_OFFSET + Integer.BYTES;
    public static final int WC_LENGTH = 48;

    private WorkRequestDescriptor()
    {
    }
}
