package org.jmpi.transport.verbs.ibv;

import java.nio.ByteBuffer;

import static org.jmpi.transport.verbs.ibv.WorkRequestDescriptor.*;

/**
 * A preallocated array of {@code struct ibv_wc} in native memory that {@link CompletionQueue#poll} fills;
 * read entry {@code i} with the accessors (no allocation).
 *
 * <p>Not thread-safe: one owner, the thread that polls.
 */
public final class WorkCompletions
{
    private final NativeBlock block;
    private final ByteBuffer wc;
    private final int capacity;

    public WorkCompletions(final int capacity)
    {
        if (capacity < 1)
        {
            throw new IllegalArgumentException("capacity=" + capacity);
        }
        this.capacity = capacity;
        this.block = new NativeBlock(capacity * WC_LENGTH);
        this.wc = block.buffer();
    }

    public int capacity()
    {
        return capacity;
    }

    NativeBlock block()
    {
        return block;
    }

    public long wrId(final int i)
    {
        return wc.getLong(i * WC_LENGTH + WC_WR_ID_OFFSET);
    }

    public int status(final int i)
    {
        return wc.getInt(i * WC_LENGTH + WC_STATUS_OFFSET);
    }

    public int opcode(final int i)
    {
        return wc.getInt(i * WC_LENGTH + WC_OPCODE_OFFSET);
    }

    public int vendorError(final int i)
    {
        return wc.getInt(i * WC_LENGTH + WC_VENDOR_ERR_OFFSET);
    }

    public int byteLength(final int i)
    {
        return wc.getInt(i * WC_LENGTH + WC_BYTE_LEN_OFFSET);
    }

    /** The immediate data in host order (the wire carries it big-endian). */
    public int immediate(final int i)
    {
        return SendRequests.networkOrder(wc.getInt(i * WC_LENGTH + WC_IMM_DATA_OFFSET));
    }

    public int qpNumber(final int i)
    {
        return wc.getInt(i * WC_LENGTH + WC_QP_NUM_OFFSET);
    }

    public int flags(final int i)
    {
        return wc.getInt(i * WC_LENGTH + WC_FLAGS_OFFSET);
    }

    public boolean hasImmediate(final int i)
    {
        return (flags(i) & Ibv.WC_WITH_IMM) != 0;
    }
}
