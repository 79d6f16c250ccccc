package org.jmpi.transport.verbs.ibv;

import java.nio.ByteBuffer;

import static org.jmpi.transport.verbs.ibv.WorkRequestDescriptor.*;

/**
 * Preallocated receive work requests ({@code struct ibv_recv_wr}) with one scatter-gather entry each, in
 * native memory; {@link QueuePair#post(RecvRequests, int, int)} posts a run of them.
 *
 * <p>Not thread-safe: one owner, the thread that posts.
 */
public final class RecvRequests
{
    private final NativeBlock wrs;
    private final NativeBlock sges;
    private final ByteBuffer wr;
    private final ByteBuffer sge;
    private final int capacity;
    private final com.sun.jna.Pointer[] heads;

    public RecvRequests(final int capacity)
    {
        if (capacity < 1)
        {
            throw new IllegalArgumentException("capacity=" + capacity);
        }
        this.capacity = capacity;
        this.wrs = new NativeBlock(capacity * RECV_WR_LENGTH);
        this.sges = new NativeBlock(capacity * SGE_LENGTH);
        this.wr = wrs.buffer();
        this.sge = sges.buffer();
        this.heads = new com.sun.jna.Pointer[capacity];
        for (int i = 0; i < capacity; i++)
        {
            heads[i] = new com.sun.jna.Pointer(wrs.address() + (long)i * RECV_WR_LENGTH);
            wr.putLong(i * RECV_WR_LENGTH + RECV_SG_LIST_OFFSET, sges.address() + (long)i * SGE_LENGTH);
        }
    }

    public int capacity()
    {
        return capacity;
    }

    /** Request {@code i} receives into {@code [address, address + lengthBytes)} (0 bytes: no entry). */
    public RecvRequests prepare(final int i, final long wrId, final long address, final int lengthBytes, final int lkey)
    {
        final int at = i * RECV_WR_LENGTH;
        wr.putLong(at + RECV_WR_ID_OFFSET, wrId);
        wr.putInt(at + RECV_NUM_SGE_OFFSET, lengthBytes == 0 ? 0 : 1);
        sge.putLong(i * SGE_LENGTH + SGE_ADDR_OFFSET, address);
        sge.putInt(i * SGE_LENGTH + SGE_LENGTH_OFFSET, lengthBytes);
        sge.putInt(i * SGE_LENGTH + SGE_LKEY_OFFSET, lkey);
        return this;
    }

    com.sun.jna.Pointer link(final int first, final int count)
    {
        return SendRequests.link(wrs, heads, RECV_WR_LENGTH, RECV_NEXT_OFFSET, first, count);
    }
}
