package org.jmpi.transport.shm;

import org.agrona.concurrent.AtomicBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.ringbuffer.OneToOneRingBuffer;
import org.agrona.concurrent.ringbuffer.RecordDescriptor;
import org.agrona.concurrent.ringbuffer.RingBuffer;
import org.agrona.concurrent.ringbuffer.RingBufferDescriptor;
import org.jmpi.spi.FrameWriter;

import java.nio.ByteBuffer;

import static org.jmpi.transport.shm.ShmMessageDescriptor.BYTE_ORDER;
import static org.jmpi.transport.shm.ShmMessageDescriptor.CHECKSUM_HEADER_LENGTH;
import static org.jmpi.transport.shm.ShmMessageDescriptor.CHECKSUM_OFFSET;
import static org.jmpi.transport.shm.ShmMessageDescriptor.CHECKSUM_RESERVED_OFFSET;
import static org.jmpi.transport.shm.ShmMessageDescriptor.FRAME_LENGTH_OFFSET;
import static org.jmpi.transport.shm.ShmMessageDescriptor.KIND_INLINE;
import static org.jmpi.transport.shm.ShmMessageDescriptor.KIND_POOLED;
import static org.jmpi.transport.shm.ShmMessageDescriptor.MESSAGE_SEQUENCE_OFFSET;
import static org.jmpi.transport.shm.ShmMessageDescriptor.POOLED_DESCRIPTOR_LENGTH;
import static org.jmpi.transport.shm.ShmMessageDescriptor.RESERVED_OFFSET;
import static org.jmpi.transport.shm.ShmMessageDescriptor.SLOT_SEQUENCE_OFFSET;

/**
 * One sender's side of one receiver: records into the pair's ring (claimed and committed with Agrona's
 * {@link OneToOneRingBuffer}: this writer is its only producer, so a claim is plain loads and ordered stores, no
 * CAS; the record's header and a small frame share the claimed bytes, and the ring pre-zeroes only the next
 * record's 8-byte header) and large frames into the sender-to-receiver fragment pool
 * ({@link FragmentPoolDescriptor}). Values it reads that others write are checked before use: the
 * ring's tail and head cache before claiming and its head when the ring is full (a tail corrupted far
 * ahead would otherwise look full forever), the pool's shared producer position (only this writer
 * advances it) and consumer position (between what it was and the producer position). An inconsistent
 * value is an ERR_INTERN ({@link ShmRingReader#corrupt}).
 *
 * <p>Threading: the sending rank's progress owner only. Allocates nothing.
 */
final class ShmRingWriter
{
    private final int rank;
    private final int senderLocal;
    private final int receiverRank;
    private final OneToOneRingBuffer ring;
    private final AtomicBuffer ringBuffer;
    private final int capacity;
    private final UnsafeBuffer pool;
    private final int slotCount;
    private final int slotLength;
    private final int recordHeaderLength;
    private final ShmChecksum checksum;
    private final ByteBuffer ringView;
    private final ByteBuffer poolView;

    private long producerPosition;
    private long cachedConsumerPosition;
    private long messageSequence;

    /**
     * @param rank         the sending rank (world), for messages.
     * @param senderLocal  its node-local index, in every record's type.
     * @param receiverRank the receiving rank (world), for messages.
     * @param checksums    whether records carry the checksum header (then both buffers must wrap a whole
     *                     {@code ByteBuffer}).
     */
    ShmRingWriter(
        final int rank,
        final int senderLocal,
        final int receiverRank,
        final OneToOneRingBuffer ring,
        final UnsafeBuffer pool,
        final int slotCount,
        final int slotLength,
        final boolean checksums)
    {
        this.rank = rank;
        this.senderLocal = senderLocal;
        this.receiverRank = receiverRank;
        this.ring = ring;
        this.ringBuffer = ring.buffer();
        this.capacity = ring.capacity();
        this.pool = pool;
        this.slotCount = slotCount;
        this.slotLength = slotLength;
        this.recordHeaderLength = checksums ? CHECKSUM_HEADER_LENGTH : 0;
        this.checksum = checksums ? new ShmChecksum() : null;
        this.ringView = checksums ? ShmChecksum.view((UnsafeBuffer)ringBuffer) : null;
        this.poolView = checksums ? ShmChecksum.view(pool) : null;
    }

    /** Copies a frame through the ring; {@code false} when the ring is full. */
    boolean offerInline(final int lengthBytes, final FrameWriter writer)
    {
        final int index = claim(KIND_INLINE, recordHeaderLength + lengthBytes);
        if (index < 0)
        {
            return false;
        }
        try
        {
            writer.write(ringBuffer, index + recordHeaderLength, lengthBytes);
        }
        catch (final RuntimeException | Error ex)
        {
            ring.abort(index);
            throw ex;
        }
        if (checksum != null)
        {
            writeChecksumHeader(index);
            ringBuffer.putInt(index + CHECKSUM_OFFSET, checksum.inline(ringView, index, lengthBytes), BYTE_ORDER);
        }
        ring.commit(index);
        return true;
    }

    /**
     * 1. Check a slot is free (this rank is the pool's only producer, so the check holds until it
     *    writes; the consumer position is re-read only when the cached one says the pool is full).
     * 2. Claim the descriptor in the receiver's ring; if full, return false: nothing was taken.
     * 3. Let the writer fill the slot in place, fill the descriptor, advance the producer position,
     *    commit the descriptor (its ordered store publishes the slot's bytes too).
     */
    boolean offerPooled(final int lengthBytes, final FrameWriter writer)
    {
        final long sequence = producerPosition;
        final long sharedProducer = pool.getLong(FragmentPoolDescriptor.PRODUCER_POSITION_OFFSET);
        if (sharedProducer != sequence)
        {
            throw ShmRingReader.corrupt(poolName() + ": producer position", "found " + sharedProducer +
                ", this rank left it at " + sequence);
        }
        if (sequence - cachedConsumerPosition >= slotCount)
        {
            final long consumer = pool.getLongVolatile(FragmentPoolDescriptor.CONSUMER_POSITION_OFFSET);
            if (consumer < cachedConsumerPosition || consumer > sequence)
            {
                throw ShmRingReader.corrupt(poolName() + ": consumer position", "found " + consumer + " (expected " +
                    cachedConsumerPosition + " to " + sequence + ", the slots released so far)");
            }
            cachedConsumerPosition = consumer;
            if (sequence - consumer >= slotCount)
            {
                return false;
            }
        }

        final int index = claim(KIND_POOLED, recordHeaderLength + POOLED_DESCRIPTOR_LENGTH);
        if (index < 0)
        {
            return false;
        }
        final int slotOffset = FragmentPoolDescriptor.slotOffset(slotLength, (int)(sequence % slotCount));
        try
        {
            writer.write(pool, slotOffset, lengthBytes);
        }
        catch (final RuntimeException | Error ex)
        {
            ring.abort(index);
            throw ex;
        }
        final int descriptor = index + recordHeaderLength;
        ringBuffer.putLong(descriptor + SLOT_SEQUENCE_OFFSET, sequence, BYTE_ORDER);
        ringBuffer.putInt(descriptor + FRAME_LENGTH_OFFSET, lengthBytes, BYTE_ORDER);
        ringBuffer.putInt(descriptor + RESERVED_OFFSET, 0, BYTE_ORDER);
        if (checksum != null)
        {
            writeChecksumHeader(index);
            ringBuffer.putInt(index + CHECKSUM_OFFSET, checksum.pooled(ringView, index, poolView, slotOffset, lengthBytes), BYTE_ORDER);
        }
        producerPosition = sequence + 1;
        pool.putLongRelease(FragmentPoolDescriptor.PRODUCER_POSITION_OFFSET, sequence + 1);
        ring.commit(index);
        return true;
    }

    /**
     * Claims a record after checking the positions Agrona will trust: the head cache, read before the
     * tail, is at most the tail, both 8-aligned; when the tail is more than the capacity past the head
     * cache (a stale cache, rarely), the head, read after the tail, is at most the capacity behind it
     * (Agrona subtracts the positions as ints, so a tail 2^32 ahead would otherwise look like free
     * space). When the ring is full, checks the head too (read before and after the tail:
     * {@code head <= tail <= head + capacity}).
     */
    private int claim(final int kind, final int bodyLength)
    {
        final long headCache = ringBuffer.getLongVolatile(capacity + RingBufferDescriptor.HEAD_CACHE_POSITION_OFFSET);
        final long tail = ringBuffer.getLongVolatile(capacity + RingBufferDescriptor.TAIL_POSITION_OFFSET);
        boolean consistent = ((tail | headCache) & (RecordDescriptor.ALIGNMENT - 1)) == 0 && headCache >= 0 && headCache <= tail;
        long head = headCache;
        if (consistent && tail - headCache > capacity)
        {
            head = ringBuffer.getLongVolatile(capacity + RingBufferDescriptor.HEAD_POSITION_OFFSET);
            consistent = (head & (RecordDescriptor.ALIGNMENT - 1)) == 0 && tail - head <= capacity;
        }
        if (!consistent)
        {
            throw ShmRingReader.corrupt(ringName() + ": positions", "tail " + tail + ", head cache " + headCache +
                ", head " + head + " (expected 8-aligned, 0 <= head cache <= tail <= head + " + capacity + ")");
        }
        final int index = ring.tryClaim(ShmMessageDescriptor.recordType(senderLocal, kind), bodyLength);
        if (index == RingBuffer.INSUFFICIENT_CAPACITY)
        {
            final long headBefore = ringBuffer.getLongVolatile(capacity + RingBufferDescriptor.HEAD_POSITION_OFFSET);
            final long tailNow = ringBuffer.getLongVolatile(capacity + RingBufferDescriptor.TAIL_POSITION_OFFSET);
            final long headAfter = ringBuffer.getLongVolatile(capacity + RingBufferDescriptor.HEAD_POSITION_OFFSET);
            if (((headBefore | tailNow | headAfter) & (RecordDescriptor.ALIGNMENT - 1)) != 0 || headBefore > tailNow ||
                tailNow - headAfter > capacity)
            {
                throw ShmRingReader.corrupt(ringName() + ": positions", "head " + headBefore + " then tail " + tailNow +
                    " then head " + headAfter + " (expected 8-aligned, head <= tail <= head + " + capacity + ")");
            }
        }
        return index;
    }

    private void writeChecksumHeader(final int index)
    {
        ringBuffer.putInt(index + CHECKSUM_RESERVED_OFFSET, 0, BYTE_ORDER);
        ringBuffer.putLong(index + MESSAGE_SEQUENCE_OFFSET, messageSequence++, BYTE_ORDER);
    }

    private String ringName()
    {
        return "the inbound ring of rank " + receiverRank + " from rank " + rank;
    }

    private String poolName()
    {
        return "the fragment pool rank " + rank + " -> rank " + receiverRank;
    }

    /** The pair's ring: for the corruption tests. */
    OneToOneRingBuffer ring()
    {
        return ring;
    }

    /** The pool to the receiver: for the corruption tests. */
    UnsafeBuffer pool()
    {
        return pool;
    }
}
