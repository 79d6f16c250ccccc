package org.jmpi.transport.verbs.ibv;

import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;

import static org.jmpi.transport.verbs.ibv.WorkRequestDescriptor.*;
import static org.junit.jupiter.api.Assertions.assertEquals;

/** The offsets printed by a C program compiled against rdma-core 44's verbs.h (docs/verbs.md, "Checking the layouts"). */
class WorkRequestDescriptorTest
{
    @Test
    void shouldMatchStructIbvSendWr()
    {
        assertEquals(0, SEND_WR_ID_OFFSET);
        assertEquals(8, SEND_NEXT_OFFSET);
        assertEquals(16, SEND_SG_LIST_OFFSET);
        assertEquals(24, SEND_NUM_SGE_OFFSET);
        assertEquals(28, SEND_OPCODE_OFFSET);
        assertEquals(32, SEND_FLAGS_OFFSET);
        assertEquals(36, SEND_IMM_DATA_OFFSET);
        assertEquals(40, SEND_REMOTE_ADDR_OFFSET);
        assertEquals(48, SEND_RDMA_RKEY_OFFSET);
        assertEquals(48, SEND_ATOMIC_COMPARE_ADD_OFFSET);
        assertEquals(56, SEND_ATOMIC_SWAP_OFFSET);
        assertEquals(64, SEND_ATOMIC_RKEY_OFFSET);
        assertEquals(128, SEND_WR_LENGTH);
        assertEquals(0, SEND_WR_LENGTH % Long.BYTES, "8-byte alignment of consecutive requests");
    }

    @Test
    void shouldMatchStructIbvRecvWrAndSge()
    {
        assertEquals(0, RECV_WR_ID_OFFSET);
        assertEquals(8, RECV_NEXT_OFFSET);
        assertEquals(16, RECV_SG_LIST_OFFSET);
        assertEquals(24, RECV_NUM_SGE_OFFSET);
        assertEquals(32, RECV_WR_LENGTH);
        assertEquals(0, SGE_ADDR_OFFSET);
        assertEquals(8, SGE_LENGTH_OFFSET);
        assertEquals(12, SGE_LKEY_OFFSET);
        assertEquals(16, SGE_LENGTH);
    }

    @Test
    void shouldMatchStructIbvWc()
    {
        assertEquals(0, WC_WR_ID_OFFSET);
        assertEquals(8, WC_STATUS_OFFSET);
        assertEquals(12, WC_OPCODE_OFFSET);
        assertEquals(16, WC_VENDOR_ERR_OFFSET);
        assertEquals(20, WC_BYTE_LEN_OFFSET);
        assertEquals(24, WC_IMM_DATA_OFFSET);
        assertEquals(28, WC_QP_NUM_OFFSET);
        assertEquals(32, WC_SRC_QP_OFFSET);
        assertEquals(36, WC_FLAGS_OFFSET);
        assertEquals(48, WC_LENGTH);
    }

    @Test
    void shouldMatchTheControlStructures()
    {
        assertEquals(96, ControlDescriptor.CONTEXT_POLL_CQ_OFFSET);
        assertEquals(104, ControlDescriptor.CONTEXT_REQ_NOTIFY_CQ_OFFSET);
        assertEquals(208, ControlDescriptor.CONTEXT_POST_SEND_OFFSET);
        assertEquals(216, ControlDescriptor.CONTEXT_POST_RECV_OFFSET);
        assertEquals(36, ControlDescriptor.MR_LKEY_OFFSET);
        assertEquals(40, ControlDescriptor.MR_RKEY_OFFSET);
        assertEquals(52, ControlDescriptor.INIT_QP_TYPE_OFFSET);
        assertEquals(56, ControlDescriptor.INIT_SQ_SIG_ALL_OFFSET);
        assertEquals(28, ControlDescriptor.ATTR_DEST_QP_NUM_OFFSET);
        assertEquals(32, ControlDescriptor.ATTR_ACCESS_FLAGS_OFFSET);
        assertEquals(76, ControlDescriptor.AH_SGID_INDEX_OFFSET);
        assertEquals(80, ControlDescriptor.AH_DLID_OFFSET);
        assertEquals(85, ControlDescriptor.AH_IS_GLOBAL_OFFSET);
        assertEquals(86, ControlDescriptor.AH_PORT_NUM_OFFSET);
        assertEquals(132, ControlDescriptor.ATTR_RNR_RETRY_OFFSET);
        assertEquals(112, ControlDescriptor.DEVICE_MAX_QP_WR_OFFSET);
        assertEquals(132, ControlDescriptor.DEVICE_MAX_CQE_OFFSET);
        assertEquals(136, ControlDescriptor.DEVICE_MAX_MR_OFFSET);
    }

    @Test
    void shouldWriteASendRequestWhereTheDeviceReadsIt()
    {
        final SendRequests requests = new SendRequests(4, 2);
        requests.prepareRdma(2, 0x1122_3344_5566_7788L, false, 0x1000, 512, 0xAB, 0x2000, 0xCD, Ibv.SEND_SIGNALED);
        requests.prepareSend(1, 9, 0x3000, 64, 0xEF, 0, true, 0x0102_0304);
        final com.sun.jna.Pointer head = requests.link(1, 2);
        final ByteBuffer wr = head.getByteBuffer(0, 2L * SEND_WR_LENGTH).order(java.nio.ByteOrder.nativeOrder());
        assertEquals(9, wr.getLong(SEND_WR_ID_OFFSET));
        assertEquals(Ibv.WR_SEND_WITH_IMM, wr.getInt(SEND_OPCODE_OFFSET));
        assertEquals(0x0403_0201, wr.getInt(SEND_IMM_DATA_OFFSET), "immediate data big-endian in memory");
        assertEquals(com.sun.jna.Pointer.nativeValue(head) + SEND_WR_LENGTH, wr.getLong(SEND_NEXT_OFFSET), "linked to the next");
        assertEquals(0x1122_3344_5566_7788L, wr.getLong(SEND_WR_LENGTH + SEND_WR_ID_OFFSET));
        assertEquals(0L, wr.getLong(SEND_WR_LENGTH + SEND_NEXT_OFFSET), "last of the list");
        assertEquals(Ibv.WR_RDMA_WRITE, wr.getInt(SEND_WR_LENGTH + SEND_OPCODE_OFFSET));
        assertEquals(0x2000, wr.getLong(SEND_WR_LENGTH + SEND_REMOTE_ADDR_OFFSET));
        assertEquals(0xCD, wr.getInt(SEND_WR_LENGTH + SEND_RDMA_RKEY_OFFSET));
        assertEquals(1, wr.getInt(SEND_WR_LENGTH + SEND_NUM_SGE_OFFSET));
        final long sgList = wr.getLong(SEND_WR_LENGTH + SEND_SG_LIST_OFFSET);
        final ByteBuffer sge = new com.sun.jna.Pointer(sgList).getByteBuffer(0, SGE_LENGTH).order(java.nio.ByteOrder.nativeOrder());
        assertEquals(0x1000, sge.getLong(SGE_ADDR_OFFSET));
        assertEquals(512, sge.getInt(SGE_LENGTH_OFFSET));
        assertEquals(0xAB, sge.getInt(SGE_LKEY_OFFSET));
    }

    @Test
    void shouldFormatAndParseAQueuePairAddress()
    {
        final byte[] gid = new byte[16];
        gid[10] = (byte)0xFF;
        gid[15] = 7;
        final QueuePairAddress address = new QueuePairAddress(0x80000011, 3, gid, 0xABCDEF);
        assertEquals(address, QueuePairAddress.parse(address.format()));
    }
}
