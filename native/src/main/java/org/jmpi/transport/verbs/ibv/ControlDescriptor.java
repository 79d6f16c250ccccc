package org.jmpi.transport.verbs.ibv;

/**
 * Offsets in the control-path structures of libibverbs (LP64, rdma-core 44 {@code verbs.h}), read and written
 * in scratch native memory at set-up: the context's ops table (where the inline {@code ibv_post_send},
 * {@code ibv_post_recv} and {@code ibv_poll_cq} find their functions), device and port attributes, memory
 * regions, queue-pair creation and modification. Printed by a C program against the header (docs/verbs.md).
 *
 * <pre>
 * struct ibv_context                     struct ibv_mr (48)         struct ibv_qp (160)
 *    0  device *                            0 context *                0 context *
 *    8  ops (struct ibv_context_ops)        8 pd *                    52 qp_num (u32)
 *   96    ops.poll_cq                      16 addr *                  56 state (u32)
 *  104    ops.req_notify_cq                24 length (size_t)
 *  208    ops.post_send                    32 handle  36 lkey  40 rkey
 *  216    ops.post_recv
 *
 * struct ibv_qp_init_attr (64)          struct ibv_qp_attr (144)       struct ibv_ah_attr (32, at 56)
 *    0 qp_context *                        0 qp_state                     0 grh.dgid[16]
 *    8 send_cq *  16 recv_cq *             8 path_mtu                    16 grh.flow_label
 *   24 srq *                              20 rq_psn  24 sq_psn           20 grh.sgid_index (u8)
 *   32 cap.max_send_wr                    28 dest_qp_num                 21 grh.hop_limit (u8)
 *   36 cap.max_recv_wr                    32 qp_access_flags             22 grh.traffic_class (u8)
 *   40 cap.max_send_sge                   56 ah_attr (32 bytes)          24 dlid (u16)  26 sl (u8)
 *   44 cap.max_recv_sge                  120 pkey_index (u16)            29 is_global (u8)
 *   48 cap.max_inline_data               126 max_rd_atomic (u8)          30 port_num (u8)
 *   52 qp_type                           127 max_dest_rd_atomic (u8)
 *   56 sq_sig_all                        128 min_rnr_timer 129 port_num
 *                                        130 timeout 131 retry_cnt 132 rnr_retry (u8 each)
 *
 * struct ibv_device_attr (232)          struct ibv_port_attr (52)
 *   80 max_mr_size (u64)                   0 state   4 max_mtu   8 active_mtu
 *  108 max_qp  112 max_qp_wr               12 gid_tbl_len (i32)
 *  120 max_sge 124 max_sge_rd            34 lid (u16)
 *  128 max_cq  132 max_cqe
 *  136 max_mr  144 max_qp_rd_atom          46 link_layer (u8)
 *  156 max_qp_init_rd_atom
 *  164 atomic_cap  227 phys_port_cnt (u8)
 * </pre>
 *
 * <p>Constants only; any thread.
 */
public final class ControlDescriptor
{
    public static final int CONTEXT_OPS_OFFSET = 8;
    public static final int CONTEXT_POLL_CQ_OFFSET = CONTEXT_OPS_OFFSET + 11 * 8;
    public static final int CONTEXT_REQ_NOTIFY_CQ_OFFSET = CONTEXT_POLL_CQ_OFFSET + 8;
    public static final int CONTEXT_POST_SEND_OFFSET = CONTEXT_OPS_OFFSET + 25 * 8;
    public static final int CONTEXT_POST_RECV_OFFSET = CONTEXT_POST_SEND_OFFSET + 8;

    public static final int MR_ADDR_OFFSET = 16;
    public static final int MR_LENGTH_OFFSET = MR_ADDR_OFFSET + 8;
    public static final int MR_HANDLE_OFFSET = MR_LENGTH_OFFSET + 8;
    public static final int MR_LKEY_OFFSET = MR_HANDLE_OFFSET + 4;
    public static final int MR_RKEY_OFFSET = MR_LKEY_OFFSET + 4;

    public static final int QP_NUM_OFFSET = 52;
    public static final int QP_STATE_OFFSET = QP_NUM_OFFSET + 4;

    public static final int INIT_SEND_CQ_OFFSET = 8;
    public static final int INIT_RECV_CQ_OFFSET = INIT_SEND_CQ_OFFSET + 8;
    public static final int INIT_SRQ_OFFSET = INIT_RECV_CQ_OFFSET + 8;
    public static final int INIT_MAX_SEND_WR_OFFSET = INIT_SRQ_OFFSET + 8;
    public static final int INIT_MAX_RECV_WR_OFFSET = INIT_MAX_SEND_WR_OFFSET + 4;
    public static final int INIT_MAX_SEND_SGE_OFFSET = INIT_MAX_RECV_WR_OFFSET + 4;
    public static final int INIT_MAX_RECV_SGE_OFFSET = INIT_MAX_SEND_SGE_OFFSET + 4;
    public static final int INIT_MAX_INLINE_DATA_OFFSET = INIT_MAX_RECV_SGE_OFFSET + 4;
    public static final int INIT_QP_TYPE_OFFSET = INIT_MAX_INLINE_DATA_OFFSET + 4;
    public static final int INIT_SQ_SIG_ALL_OFFSET = INIT_QP_TYPE_OFFSET + 4;
    public static final int INIT_ATTR_LENGTH = 64;

    public static final int ATTR_QP_STATE_OFFSET = 0;
    public static final int ATTR_PATH_MTU_OFFSET = 8;
    public static final int ATTR_RQ_PSN_OFFSET = 20;
    public static final int ATTR_SQ_PSN_OFFSET = ATTR_RQ_PSN_OFFSET + 4;
    public static final int ATTR_DEST_QP_NUM_OFFSET = ATTR_SQ_PSN_OFFSET + 4;
    public static final int ATTR_ACCESS_FLAGS_OFFSET = ATTR_DEST_QP_NUM_OFFSET + 4;
    public static final int ATTR_AH_OFFSET = 56;
    public static final int AH_DGID_OFFSET = ATTR_AH_OFFSET;
    public static final int AH_SGID_INDEX_OFFSET = ATTR_AH_OFFSET + 20;
    public static final int AH_HOP_LIMIT_OFFSET = AH_SGID_INDEX_OFFSET + 1;
    public static final int AH_DLID_OFFSET = ATTR_AH_OFFSET + 24;
    public static final int AH_SL_OFFSET = AH_DLID_OFFSET + 2;
    public static final int AH_IS_GLOBAL_OFFSET = ATTR_AH_OFFSET + 29;
    public static final int AH_PORT_NUM_OFFSET = AH_IS_GLOBAL_OFFSET + 1;
    public static final int ATTR_PKEY_INDEX_OFFSET = 120;
    public static final int ATTR_MAX_RD_ATOMIC_OFFSET = 126;
    public static final int ATTR_MAX_DEST_RD_ATOMIC_OFFSET = ATTR_MAX_RD_ATOMIC_OFFSET + 1;
    public static final int ATTR_MIN_RNR_TIMER_OFFSET = ATTR_MAX_DEST_RD_ATOMIC_OFFSET + 1;
    public static final int ATTR_PORT_NUM_OFFSET = ATTR_MIN_RNR_TIMER_OFFSET + 1;
    public static final int ATTR_TIMEOUT_OFFSET = ATTR_PORT_NUM_OFFSET + 1;
    public static final int ATTR_RETRY_CNT_OFFSET = ATTR_TIMEOUT_OFFSET + 1;
    public static final int ATTR_RNR_RETRY_OFFSET = ATTR_RETRY_CNT_OFFSET + 1;
    public static final int QP_ATTR_LENGTH = 144;

    public static final int DEVICE_MAX_MR_SIZE_OFFSET = 80;
    public static final int DEVICE_MAX_QP_OFFSET = 108;
    public static final int DEVICE_MAX_QP_WR_OFFSET = DEVICE_MAX_QP_OFFSET + 4;
    public static final int DEVICE_MAX_SGE_OFFSET = 120;
    public static final int DEVICE_MAX_SGE_RD_OFFSET = DEVICE_MAX_SGE_OFFSET + 4;
    public static final int DEVICE_MAX_CQ_OFFSET = 128;
    public static final int DEVICE_MAX_CQE_OFFSET = DEVICE_MAX_CQ_OFFSET + 4;
    public static final int DEVICE_MAX_MR_OFFSET = DEVICE_MAX_CQE_OFFSET + 4;
    public static final int DEVICE_MAX_QP_RD_ATOM_OFFSET = 144;
    public static final int DEVICE_MAX_QP_INIT_RD_ATOM_OFFSET = 156;
    public static final int DEVICE_ATOMIC_CAP_OFFSET = 164;
    public static final int DEVICE_PHYS_PORT_CNT_OFFSET = 227;
    public static final int DEVICE_ATTR_LENGTH = 232;

    public static final int PORT_STATE_OFFSET = 0;
    public static final int PORT_MAX_MTU_OFFSET = 4;
    public static final int PORT_ACTIVE_MTU_OFFSET = 8;
    public static final int PORT_GID_TBL_LEN_OFFSET = 12;
    public static final int PORT_LID_OFFSET = 34;
    public static final int PORT_LINK_LAYER_OFFSET = 46;
    public static final int PORT_ATTR_LENGTH = 52;

    public static final int GID_LENGTH = 16;

    private ControlDescriptor()
    {
    }
}
