package org.jmpi.transport.pvas;

import org.agrona.BufferUtil;
import org.agrona.UnsafeApi;
import org.jmpi.ErrorClass;
import org.jmpi.MpiException;
import org.jmpi.spi.PeerMemory;
import org.jmpi.spi.PeerWaker;

import java.nio.Buffer;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.CharBuffer;
import java.nio.DoubleBuffer;
import java.nio.FloatBuffer;
import java.nio.IntBuffer;
import java.nio.LongBuffer;
import java.nio.ShortBuffer;

import static org.jmpi.transport.pvas.ArenaExposureDescriptor.*;

/**
 * Peer memory across JVMs through the node's arena: a rank exposes a buffer that lies in its own partition
 * (from {@code mpi.allocMem}, or any view of one) by writing an exposure slot ({@link ArenaExposureDescriptor});
 * the handle travels in a frame, and the peer maps it to a view of the same bytes in its own mapping of the
 * owner's partition, of the same element kind and byte order, so convertors walk it as they walk the original.
 * Memory outside the arena (heap arrays, other direct buffers) is not exposed (handle 0): the protocol then
 * uses fragments, or the one copy through the side that is in the arena.
 *
 * <p>Trust: a peer's exposure table may be scribbled on by a buggy rank, so {@link #map} checks every field
 * (handle, kind, byte order, offset and length inside the owner's data area and one segment) before building a
 * view, and names the peer and the slot in an ERR_INTERN otherwise (docs/security.md).
 *
 * <p>Threading: {@link #expose}, {@link #withdraw}, {@link #record} on the owner's engine thread; {@link #map}
 * on the peer's. A slot's fields are written before its handle is released, and read between two acquiring
 * reads of the handle.
 */
final class ArenaPeerMemory implements PeerMemory
{
    private final Arena arena;
    private final ArenaStats stats;
    private final int slotCount;
    private final ByteBuffer ownTable;
    private final long ownTableAddress;
    private final int[] freeSlots;
    private int freeCount;
    private long generation;
    /** Rings a peer's doorbell (the frame transport's), or null when it has none. */
    private final PeerWaker waker;

    ArenaPeerMemory(final Arena arena, final PeerWaker waker)
    {
        this.arena = arena;
        this.waker = waker;
        this.stats = arena.stats();
        this.slotCount = arena.config().slotCount();
        this.ownTable = arena.table(arena.localIndex());
        this.ownTableAddress = BufferUtil.address(ownTable);
        this.freeSlots = new int[slotCount];
        for (int i = 0; i < slotCount; i++)
        {
            freeSlots[i] = slotCount - 1 - i;
        }
        this.freeCount = slotCount;
    }

    /** The element kind of a nio buffer, or 0 for anything else. */
    static int kindOf(final Object memory)
    {
        return switch (memory)
        {
            case ByteBuffer b -> KIND_BYTE;
            case ShortBuffer b -> KIND_SHORT;
            case CharBuffer b -> KIND_CHAR;
            case IntBuffer b -> KIND_INT;
            case LongBuffer b -> KIND_LONG;
            case FloatBuffer b -> KIND_FLOAT;
            case DoubleBuffer b -> KIND_DOUBLE;
            case null, default -> 0;
        };
    }

    private static ByteOrder orderOf(final Buffer buffer)
    {
        return switch (buffer)
        {
            case ByteBuffer b -> b.order();
            case ShortBuffer b -> b.order();
            case CharBuffer b -> b.order();
            case IntBuffer b -> b.order();
            case LongBuffer b -> b.order();
            case FloatBuffer b -> b.order();
            case DoubleBuffer b -> b.order();
            default -> ByteOrder.nativeOrder();
        };
    }

    @Override
    public long expose(final Object memory)
    {
        final int kind = kindOf(memory);
        final Buffer buffer = kind == 0 ? null : (Buffer)memory;
        final long length = buffer == null || !buffer.isDirect() ? 0 : Arena.byteCapacity(buffer);
        final long offset = buffer == null || !buffer.isDirect() ? -1 : arena.ownDataOffset(Arena.address(buffer), length);
        if (offset < 0 || freeCount == 0)
        {
            if (offset < 0)
            {
                stats.refusedNotInArena++;
            }
            else
            {
                stats.refusedTableFull++;
            }
            return 0;
        }
        stats.exposed++;
        final int slot = freeSlots[--freeCount];
        final long handle = ++generation * slotCount + slot;
        final int at = slot * LENGTH;
        ownTable.putLong(at + DATA_OFFSET_OFFSET, offset);
        ownTable.putLong(at + LENGTH_OFFSET, length);
        ownTable.putInt(at + KIND_OFFSET, kind);
        ownTable.putInt(at + ORDER_OFFSET, orderOf(buffer) == ByteOrder.BIG_ENDIAN ? ORDER_BIG_ENDIAN : ORDER_LITTLE_ENDIAN);
        UnsafeApi.putLongRelease(null, ownTableAddress + at + HANDLE_OFFSET, handle);
        return handle;
    }

    @Override
    public void withdraw(final long handle)
    {
        final int slot = handle > 0 ? (int)(handle % slotCount) : -1;
        if (slot < 0 || UnsafeApi.getLong(null, ownTableAddress + (long)slot * LENGTH + HANDLE_OFFSET) != handle)
        {
            throw new MpiException(ErrorClass.ERR_INTERN, "pvas: rank " + arena.rank() + " withdraws handle " + handle +
                ", which its exposure table does not hold");
        }
        UnsafeApi.putLongRelease(null, ownTableAddress + (long)slot * LENGTH + HANDLE_OFFSET, 0L);
        freeSlots[freeCount++] = slot;
    }

    @Override
    public Object map(final int peerRank, final long handle)
    {
        final int local = arena.localIndexOf(peerRank);
        if (local < 0)
        {
            throw new MpiException(ErrorClass.ERR_INTERN, "pvas: rank " + peerRank + " is not on this node (rank " + arena.rank() + ")");
        }
        if (handle <= 0)
        {
            throw new MpiException(ErrorClass.ERR_INTERN, "pvas: rank " + peerRank + " sent exposure handle " + handle);
        }
        final int slot = (int)(handle % slotCount);
        final ByteBuffer table = arena.table(local);
        final long slotAddress = BufferUtil.address(table) + (long)slot * LENGTH;
        final long before = UnsafeApi.getLongVolatile(null, slotAddress + HANDLE_OFFSET);
        final long offset = table.getLong(slot * LENGTH + DATA_OFFSET_OFFSET);
        final long length = table.getLong(slot * LENGTH + LENGTH_OFFSET);
        final int kind = table.getInt(slot * LENGTH + KIND_OFFSET);
        final int order = table.getInt(slot * LENGTH + ORDER_OFFSET);
        final long after = UnsafeApi.getLongVolatile(null, slotAddress + HANDLE_OFFSET);
        if (before != handle || after != handle)
        {
            throw corrupt(peerRank, slot, "holds handle " + after + ", not " + handle + " (withdrawn early or overwritten)");
        }
        final long partition = arena.config().alignedPartitionLength();
        final long segmentLength = arena.config().segmentLength();
        final int size = elementSize(kind);
        if (size == 0 || (order != ORDER_BIG_ENDIAN && order != ORDER_LITTLE_ENDIAN))
        {
            throw corrupt(peerRank, slot, "has element kind " + kind + " and byte order " + order);
        }
        if (offset < 0 || length < 0 || length % size != 0 || offset > partition - length ||
            (length > 0 && offset / segmentLength != (offset + length - 1) / segmentLength))
        {
            throw corrupt(peerRank, slot, "names bytes [" + offset + ", +" + length + ") of kind " + kind +
                ", outside one segment of a " + partition + "-byte data area (segments of " + segmentLength + ")");
        }
        final int segment = (int)(offset / segmentLength);
        stats.mapped++;
        final ByteBuffer bytes = arena.segment(local, segment).slice((int)(offset - segment * segmentLength), (int)length)
            .order(order == ORDER_BIG_ENDIAN ? ByteOrder.BIG_ENDIAN : ByteOrder.LITTLE_ENDIAN);
        return switch (kind)
        {
            case KIND_SHORT -> bytes.asShortBuffer();
            case KIND_CHAR -> bytes.asCharBuffer();
            case KIND_INT -> bytes.asIntBuffer();
            case KIND_LONG -> bytes.asLongBuffer();
            case KIND_FLOAT -> bytes.asFloatBuffer();
            case KIND_DOUBLE -> bytes.asDoubleBuffer();
            default -> bytes;
        };
    }

    private MpiException corrupt(final int peerRank, final int slot, final String what)
    {
        return new MpiException(ErrorClass.ERR_INTERN, "pvas: rank " + peerRank + "'s arena exposure slot " + slot + " " + what +
            " (read by rank " + arena.rank() + ")");
    }

    /** Rings the peer's doorbell through the frame transport (shm), when it has one; else the peer sees the write at its next poll. */
    @Override
    public void wake(final int peerRank)
    {
        if (waker != null)
        {
            waker.wake(peerRank);
        }
    }

    @Override
    public Object record(final int longs)
    {
        try
        {
            final ByteBuffer record = arena.allocate(8L * longs, 64);
            for (int i = 0; i < longs; i++)
            {
                record.putLong(8 * i, 0);
            }
            return record;
        }
        catch (final MpiException ex)
        {
            return null;
        }
    }

    @Override
    public void releaseRecord(final Object record)
    {
        arena.free((ByteBuffer)record);
    }
}
