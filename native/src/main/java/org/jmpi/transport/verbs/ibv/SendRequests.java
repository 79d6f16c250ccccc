package org.jmpi.transport.verbs.ibv;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

import static org.jmpi.transport.verbs.ibv.WorkRequestDescriptor.*;

/**
 * Preallocated send work requests ({@code struct ibv_send_wr}) with their scatter-gather lists, in native
 * memory: fill request {@code i} with one of the {@code prepare*} methods (and more entries with
 * {@link #sge}), then {@link QueuePair#post(SendRequests, int, int)} posts a run of them, linked at post time.
 * The device reads a request only while it is being posted, so a request is reusable once {@code post}
 * returns; the memory its entries name must stay valid until the completion.
 *
 * <p>Not thread-safe: one owner, the thread that posts.
 */
public final class SendRequests
{
    private static final boolean LITTLE_ENDIAN = ByteOrder.nativeOrder() == ByteOrder.LITTLE_ENDIAN;

    private final NativeBlock wrs;
    private final NativeBlock sges;
    private final ByteBuffer wr;
    private final ByteBuffer sge;
    private final int capacity;
    private final com.sun.jna.Pointer[] heads;
    private final int maxSge;

    public SendRequests(final int capacity, final int maxSge)
    {
        if (capacity < 1 || maxSge < 1)
        {
            throw new IllegalArgumentException("capacity=" + capacity + ", maxSge=" + maxSge);
        }
        this.capacity = capacity;
        this.maxSge = maxSge;
        this.wrs = new NativeBlock(capacity * SEND_WR_LENGTH);
        this.sges = new NativeBlock(capacity * maxSge * SGE_LENGTH);
        this.wr = wrs.buffer();
        this.sge = sges.buffer();
        this.heads = new com.sun.jna.Pointer[capacity];
        for (int i = 0; i < capacity; i++)
        {
            heads[i] = new com.sun.jna.Pointer(wrs.address() + (long)i * SEND_WR_LENGTH);
            wr.putLong(i * SEND_WR_LENGTH + SEND_SG_LIST_OFFSET, sges.address() + (long)i * maxSge * SGE_LENGTH);
        }
    }

    /** {@code value} as the wire's big-endian {@code __be32} (and back: the swap is its own inverse). */
    static int networkOrder(final int value)
    {
        return LITTLE_ENDIAN ? Integer.reverseBytes(value) : value;
    }

    public int capacity()
    {
        return capacity;
    }

    public int maxSge()
    {
        return maxSge;
    }

    /** A SEND of one entry; with {@code immediate} when {@code withImmediate}. */
    public SendRequests prepareSend(final int i, final long wrId, final long address, final int lengthBytes, final int lkey,
        final int flags, final boolean withImmediate, final int immediate)
    {
        header(i, wrId, withImmediate ? Ibv.WR_SEND_WITH_IMM : Ibv.WR_SEND, flags, immediate);
        sge(i, 0, address, lengthBytes, lkey);
        return sgeCount(i, lengthBytes == 0 ? 0 : 1);
    }

    /** An RDMA WRITE (or READ, when {@code read}) of one local entry to or from {@code remoteAddress} under {@code rkey}. */
    public SendRequests prepareRdma(final int i, final long wrId, final boolean read, final long address, final int lengthBytes,
        final int lkey, final long remoteAddress, final int rkey, final int flags)
    {
        header(i, wrId, read ? Ibv.WR_RDMA_READ : Ibv.WR_RDMA_WRITE, flags, 0);
        final int at = i * SEND_WR_LENGTH;
        wr.putLong(at + SEND_REMOTE_ADDR_OFFSET, remoteAddress);
        wr.putInt(at + SEND_RDMA_RKEY_OFFSET, rkey);
        sge(i, 0, address, lengthBytes, lkey);
        return sgeCount(i, 1);
    }

    /**
     * An atomic on the 8 bytes at {@code remoteAddress}: fetch-and-add of {@code compareAdd}, or (when
     * {@code compareSwap}) swap in {@code swap} if they equal {@code compareAdd}. The old value lands at {@code address}.
     */
    public SendRequests prepareAtomic(final int i, final long wrId, final boolean compareSwap, final long address, final int lkey,
        final long remoteAddress, final int rkey, final long compareAdd, final long swap, final int flags)
    {
        header(i, wrId, compareSwap ? Ibv.WR_ATOMIC_CMP_AND_SWP : Ibv.WR_ATOMIC_FETCH_AND_ADD, flags, 0);
        final int at = i * SEND_WR_LENGTH;
        wr.putLong(at + SEND_REMOTE_ADDR_OFFSET, remoteAddress);
        wr.putLong(at + SEND_ATOMIC_COMPARE_ADD_OFFSET, compareAdd);
        wr.putLong(at + SEND_ATOMIC_SWAP_OFFSET, swap);
        wr.putInt(at + SEND_ATOMIC_RKEY_OFFSET, rkey);
        sge(i, 0, address, Long.BYTES, lkey);
        return sgeCount(i, 1);
    }

    /** Sets entry {@code entry} of request {@code i}'s scatter-gather list. */
    public SendRequests sge(final int i, final int entry, final long address, final int lengthBytes, final int lkey)
    {
        final int at = (i * maxSge + entry) * SGE_LENGTH;
        sge.putLong(at + SGE_ADDR_OFFSET, address);
        sge.putInt(at + SGE_LENGTH_OFFSET, lengthBytes);
        sge.putInt(at + SGE_LKEY_OFFSET, lkey);
        return this;
    }

    /** How many entries of request {@code i}'s list are used. */
    public SendRequests sgeCount(final int i, final int count)
    {
        if (count < 0 || count > maxSge)
        {
            throw new IllegalArgumentException("sge count " + count + " outside [0, " + maxSge + "]");
        }
        wr.putInt(i * SEND_WR_LENGTH + SEND_NUM_SGE_OFFSET, count);
        return this;
    }

    private void header(final int i, final long wrId, final int opcode, final int flags, final int immediate)
    {
        final int at = i * SEND_WR_LENGTH;
        wr.putLong(at + SEND_WR_ID_OFFSET, wrId);
        wr.putInt(at + SEND_OPCODE_OFFSET, opcode);
        wr.putInt(at + SEND_FLAGS_OFFSET, flags);
        wr.putInt(at + SEND_IMM_DATA_OFFSET, networkOrder(immediate));
    }

    /** Links requests {@code [first, first + count)} into one list and returns the head's address. */
    com.sun.jna.Pointer link(final int first, final int count)
    {
        return link(wrs, heads, SEND_WR_LENGTH, SEND_NEXT_OFFSET, first, count);
    }

    /** Links {@code [first, first + count)} of an array of {@code stride}-byte requests through their {@code next} fields. */
    static com.sun.jna.Pointer link(final NativeBlock requests, final com.sun.jna.Pointer[] heads, final int stride, final int nextOffset,
        final int first, final int count)
    {
        if (first < 0 || count < 1 || first + count > heads.length)
        {
            throw new IllegalArgumentException("requests [" + first + ", " + (first + count) + ") outside [0, " + heads.length + ")");
        }
        final int last = first + count - 1;
        for (int i = first; i < last; i++)
        {
            requests.buffer().putLong(i * stride + nextOffset, requests.address() + (long)(i + 1) * stride);
        }
        requests.buffer().putLong(last * stride + nextOffset, 0L);
        return heads[first];
    }
}
