package org.jmpi.internal.coll.node;

import static org.jmpi.internal.coll.node.NodeRegionDescriptor.ARRIVE_OFFSET;
import static org.jmpi.internal.coll.node.NodeRegionDescriptor.DONE_OFFSET;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.function.IntConsumer;

import org.agrona.concurrent.UnsafeBuffer;
import org.jmpi.ErrorClass;
import org.jmpi.MpiException;
import org.jmpi.internal.engine.ProgressEngine;

/**
 * One communicator's node collective region: the {@link NodeRegionDescriptor} layout either in a heap array
 * (ranks that are threads of one JVM), with what only a shared heap can hold: each rank's posted buffers (for
 * single copies straight between the ranks' arrays) and its progress engine (to wake it after a flag it may
 * wait for changed); or in a mapped file ({@link NodeRegionFile}: ranks in separate JVMs of one node), where
 * nothing but the layout is shared, peers are woken through the transports' waker, and large calls go
 * through the slots in rounds ({@link #heap()} false).
 *
 * <p>Threading: every rank writes only its own control block, slot and posted entry, and reads the others';
 * flags are written with volatile stores (so that a store is ordered before the read of the peer's parked
 * flag in {@link ProgressEngine#wakeup()} or its doorbell) and read volatile. A heap region is owned by the
 * ranks that attached it (the job's shared map holds it only until all have); each rank owns its own mapping
 * of a file region (unmapped when its communicator state is collected).
 */
public final class NodeRegion
{
    private final int ranks;
    private final int slotBytes;
    private final byte[] memory;
    private final UnsafeBuffer buffer;
    private final AtomicReferenceArray<Object> posted;
    private final AtomicReferenceArray<ProgressEngine> engines;
    private final AtomicInteger attached = new AtomicInteger();
    /** Mapped regions: wakes a peer (by communicator rank). */
    private final IntConsumer waker;
    /** Mapped regions: the file, which its creator deletes once every rank attached. */
    private final NodeRegionFile file;

    NodeRegion(final int ranks, final int slotBytes)
    {
        checkFits(ranks, slotBytes);
        this.ranks = ranks;
        this.slotBytes = slotBytes;
        this.memory = new byte[(int)NodeRegionDescriptor.regionLength(ranks, slotBytes)];
        this.buffer = new UnsafeBuffer(memory);
        this.posted = new AtomicReferenceArray<>(2 * ranks);
        this.engines = new AtomicReferenceArray<>(ranks);
        this.waker = null;
        this.file = null;
        writeHeader(buffer, ranks, slotBytes);
    }

    /** A region in {@code file}'s mapping; {@code waker} wakes a peer by communicator rank. */
    NodeRegion(final int ranks, final int slotBytes, final NodeRegionFile file, final IntConsumer waker)
    {
        this.ranks = ranks;
        this.slotBytes = slotBytes;
        this.memory = null;
        this.buffer = file.buffer();
        this.posted = null;
        this.engines = null;
        this.waker = waker;
        this.file = file;
    }

    /** @throws MpiException ERR_ARG when {@code ranks} slots of {@code slotBytes} do not fit one region. */
    static void checkFits(final int ranks, final int slotBytes)
    {
        final long length = NodeRegionDescriptor.regionLength(ranks, slotBytes);
        if (ranks < 1 || slotBytes % NodeRegionDescriptor.SLOT_ALIGNMENT != 0 || length > Integer.MAX_VALUE - 64)
        {
            throw new MpiException(ErrorClass.ERR_ARG, "node collective region: " + ranks + " ranks of " + slotBytes +
                "-byte slots do not fit a region (jmpi.coll.node.slot)");
        }
    }

    /** Writes a new region's header into {@code buffer}, the magic last (with a volatile store). */
    static void writeHeader(final UnsafeBuffer buffer, final int ranks, final int slotBytes)
    {
        buffer.putInt(NodeRegionDescriptor.VERSION_OFFSET, NodeRegionDescriptor.VERSION, NodeRegionDescriptor.BYTE_ORDER);
        buffer.putInt(NodeRegionDescriptor.RANKS_OFFSET, ranks, NodeRegionDescriptor.BYTE_ORDER);
        buffer.putInt(NodeRegionDescriptor.SLOT_BYTES_OFFSET, slotBytes, NodeRegionDescriptor.BYTE_ORDER);
        buffer.putIntVolatile(NodeRegionDescriptor.MAGIC_OFFSET, NodeRegionDescriptor.MAGIC);
    }

    /** Whether the region is a heap array shared by threads (else a mapped file, reached across JVMs). */
    boolean heap()
    {
        return memory != null;
    }

    /** The region's file (mapped regions), or null. */
    NodeRegionFile file()
    {
        return file;
    }

    /**
     * Attaches rank {@code rank} (with its engine; none for a mapped region) after checking the header against
     * {@code expectedRanks}; returns true for the last rank to attach (heap regions).
     */
    boolean attach(final int rank, final int expectedRanks, final ProgressEngine engine)
    {
        final int magic = buffer.getIntVolatile(NodeRegionDescriptor.MAGIC_OFFSET);
        final int version = buffer.getInt(NodeRegionDescriptor.VERSION_OFFSET, NodeRegionDescriptor.BYTE_ORDER);
        final int headerRanks = buffer.getInt(NodeRegionDescriptor.RANKS_OFFSET, NodeRegionDescriptor.BYTE_ORDER);
        final int headerSlot = buffer.getInt(NodeRegionDescriptor.SLOT_BYTES_OFFSET, NodeRegionDescriptor.BYTE_ORDER);
        if (magic != NodeRegionDescriptor.MAGIC || version != NodeRegionDescriptor.VERSION || headerRanks != expectedRanks ||
            headerSlot != slotBytes || headerSlot % NodeRegionDescriptor.SLOT_ALIGNMENT != 0 || rank < 0 || rank >= headerRanks)
        {
            throw new MpiException(ErrorClass.ERR_INTERN, "node collective region: header magic=0x" + Integer.toHexString(magic) +
                " version=" + version + " ranks=" + headerRanks + " slot=" + headerSlot + " does not fit rank " + rank + " of " +
                expectedRanks);
        }
        if (engines == null)
        {
            return false;
        }
        if (!engines.compareAndSet(rank, null, engine))
        {
            throw new MpiException(ErrorClass.ERR_INTERN, "node collective region: rank " + rank + " attached twice");
        }
        return attached.incrementAndGet() == ranks;
    }

    int ranks()
    {
        return ranks;
    }

    int slotBytes()
    {
        return slotBytes;
    }

    /** Bytes of half a slot: what one round of a call posts at most. */
    int halfBytes()
    {
        return NodeRegionDescriptor.halfBytes(slotBytes);
    }

    /** The region as a buffer (slots are packed into and unpacked from it). */
    UnsafeBuffer buffer()
    {
        return buffer;
    }

    /** The array holding every slot (for the reduction kernels, which take arrays and offsets); null when mapped. */
    byte[] memory()
    {
        return memory;
    }

    /** Offset in {@link #memory()} of {@code rank}'s slot (the array's base offset is 0 for a heap buffer). */
    int slotOffset(final int rank)
    {
        return NodeRegionDescriptor.slotOffset(ranks, slotBytes, rank);
    }

    /** Offset in {@link #memory()} of half {@code half} of {@code rank}'s slot. */
    int halfOffset(final int rank, final int half)
    {
        return slotOffset(rank) + NodeRegionDescriptor.halfOffset(slotBytes, half);
    }

    long arrive(final int rank)
    {
        return buffer.getLongVolatile(NodeRegionDescriptor.controlOffset(rank) + ARRIVE_OFFSET);
    }

    long done(final int rank)
    {
        return buffer.getLongVolatile(NodeRegionDescriptor.controlOffset(rank) + DONE_OFFSET);
    }

    /** The total {@code rank} posted with a call's first round, in half {@code half}. */
    long total(final int rank, final int half)
    {
        return buffer.getLongVolatile(NodeRegionDescriptor.controlOffset(rank) + NodeRegionDescriptor.totalOffset(half));
    }

    /** Plain store: published by the arrive flag's volatile store that follows. */
    void total(final int rank, final int half, final long total)
    {
        buffer.putLong(NodeRegionDescriptor.controlOffset(rank) + NodeRegionDescriptor.totalOffset(half), total);
    }

    /** Copies {@code length} bytes at {@code at} of {@code rank}'s slot to {@code dst}. */
    void readSlot(final int rank, final int at, final byte[] dst, final int dstOff, final int length)
    {
        buffer.getBytes(slotOffset(rank) + at, dst, dstOff, length);
    }

    /** The length {@code rank} posted for its round in half {@code half} of its slot. */
    long length(final int rank, final int half)
    {
        return buffer.getLongVolatile(NodeRegionDescriptor.controlOffset(rank) + NodeRegionDescriptor.lengthOffset(half));
    }

    /** Plain store: published by the arrive flag's volatile store that follows. */
    void length(final int rank, final int half, final long length)
    {
        buffer.putLong(NodeRegionDescriptor.controlOffset(rank) + NodeRegionDescriptor.lengthOffset(half), length);
    }

    void arrive(final int rank, final long call)
    {
        buffer.putLongVolatile(NodeRegionDescriptor.controlOffset(rank) + ARRIVE_OFFSET, call);
    }

    void done(final int rank, final long call)
    {
        buffer.putLongVolatile(NodeRegionDescriptor.controlOffset(rank) + DONE_OFFSET, call);
    }


    /**
     * The buffers {@code rank} posted for its round in half {@code half} (published by its arrive flag): one entry
     * per half, like the lengths, so that a rank may post its next call while its peers still copy from the last.
     */
    Object posted(final int rank, final int half)
    {
        return posted.getPlain(2 * rank + half);
    }

    void post(final int rank, final int half, final Object parts)
    {
        posted.setPlain(2 * rank + half, parts);
    }

    /** Wakes every rank but {@code rank} (a flag they may wait for changed). */
    void wakeOthers(final int rank)
    {
        if (engines == null)
        {
            for (int r = 0; r < ranks; r++)
            {
                if (r != rank)
                {
                    waker.accept(r);
                }
            }
            return;
        }
        for (int r = 0; r < ranks; r++)
        {
            if (r != rank)
            {
                final ProgressEngine e = engines.get(r);
                if (e != null)
                {
                    e.wakeup();
                }
            }
        }
    }
}
