package org.jmpi.transport.shm;

import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.ringbuffer.RecordDescriptor;
import org.agrona.concurrent.ringbuffer.RingBuffer;
import org.agrona.concurrent.ringbuffer.RingBufferDescriptor;
import org.jmpi.ErrorClass;
import org.jmpi.MpiException;
import org.jmpi.spi.FrameHandler;

import java.nio.ByteBuffer;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

import static org.agrona.BitUtil.align;
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
 * The consumer of the ring from one sender to this rank (Agrona's ring layout: records of {@code length:int,
 * type:int} and a body, 8-byte aligned; a trailer of tail, head cache and head positions), reading it
 * as an untrusted peer's work: every value the sender wrote is checked before it is used, and an
 * inconsistent one is an {@link MpiException} ERR_INTERN naming the structure and the peer
 * ({@link #corrupt}). The sender claims and commits with Agrona's {@code OneToOneRingBuffer}, which zeroes
 * the header after each record it claims, so this reader zeroes nothing: it reads committed records and
 * moves the head.
 *
 * <p>What is checked, and when:
 * <ol>
 *   <li>Every read: the head position in the trailer equals the one this reader keeps (only it writes
 *       the head).</li>
 *   <li>Every record: its length (committed: header to the end of the ring; claimed, negative: the
 *       same range), its type (padding, or inline/pooled from a node-local rank that sends to this one),
 *       an inline frame at most {@code inlineMax}, a pooled descriptor of exactly its length naming the
 *       next slot of its pool ({@code sequence}), a frame length above {@code inlineMax} and at most
 *       the slot, reserved zero, and the pool's positions ({@code consumer} as this reader left it,
 *       {@code producer} past the slot and at most K ahead). With checksums: the message sequence and
 *       the CRC-32C ({@link ShmChecksum}).</li>
 *   <li>Every {@link #CHECK_INTERVAL} idle reads: the tail and head cache against the head (aligned,
 *       {@code headCache <= head <= tail <= head + capacity}); a claimed record at the head that stays
 *       uncommitted for {@link #STALL_LIMIT_NS} while the tail is ahead is corruption too (a sender
 *       commits within microseconds of claiming), so a zeroed or negated length cannot hang the job.</li>
 * </ol>
 *
 * <p>Threading: the owning rank's progress owner only. Allocates nothing.
 */
final class ShmRingReader
{
    /** Idle reads between two checks of the tail and head cache (a power of two). */
    static final int CHECK_INTERVAL = 64;
    /** How long a claimed record may stay uncommitted at the head while the tail is ahead. */
    static final long STALL_LIMIT_NS = TimeUnit.SECONDS.toNanos(2);

    private static final int HEADER_LENGTH = RecordDescriptor.HEADER_LENGTH;

    private final int rank;
    private final int[] worldRankByLocal;
    private final int sender;
    private final int senderRank;
    private final UnsafeBuffer ring;
    private final int capacity;
    private final int tailIndex;
    private final int headCacheIndex;
    private final int headIndex;
    private final UnsafeBuffer pool;
    private final int slotCount;
    private final int slotLength;
    private final int inlineMax;
    private final LongSupplier nanoClock;

    private final ShmChecksum checksum;
    private final ByteBuffer ringView;
    private final ByteBuffer poolView;

    /** Slots of the sender's pool this reader has released (the pool's consumer position). */
    private long releasedSlots;
    /** With checksums: the message sequence the sender's next record must carry. */
    private long expectedSequence;

    private long head;
    private int idleReads;
    private long stalledHead = -1;
    private long stalledSinceNs;

    /**
     * @param rank             this rank (world), for messages.
     * @param worldRankByLocal node-local index to world rank.
     * @param sender           the node-local index of the ring's only sender.
     * @param ring             the ring sender -> this rank: capacity (a power of two) plus Agrona's trailer.
     * @param pool             the pool sender -> this rank.
     * @param checksums        whether records carry the checksum header (then every buffer must wrap a
     *                         whole {@code ByteBuffer}).
     * @param nanoClock        the clock of the stall check ({@code System::nanoTime}).
     */
    ShmRingReader(
        final int rank,
        final int[] worldRankByLocal,
        final int sender,
        final UnsafeBuffer ring,
        final UnsafeBuffer pool,
        final int slotCount,
        final int slotLength,
        final int inlineMax,
        final boolean checksums,
        final LongSupplier nanoClock)
    {
        this.rank = rank;
        this.worldRankByLocal = worldRankByLocal;
        this.sender = sender;
        this.senderRank = worldRankByLocal[sender];
        this.ring = ring;
        this.capacity = ring.capacity() - RingBufferDescriptor.TRAILER_LENGTH;
        this.tailIndex = capacity + RingBufferDescriptor.TAIL_POSITION_OFFSET;
        this.headCacheIndex = capacity + RingBufferDescriptor.HEAD_CACHE_POSITION_OFFSET;
        this.headIndex = capacity + RingBufferDescriptor.HEAD_POSITION_OFFSET;
        this.pool = pool;
        this.slotCount = slotCount;
        this.slotLength = slotLength;
        this.inlineMax = inlineMax;
        this.nanoClock = nanoClock;
        this.head = 0; // the ring is fresh: only this reader ever advances the head
        this.checksum = checksums ? new ShmChecksum() : null;
        this.ringView = checksums ? ShmChecksum.view(ring) : null;
        this.poolView = checksums ? ShmChecksum.view(pool) : null;
    }

    /**
     * Delivers the committed records from the head to the first uncommitted one or the ring's end.
     *
     * @return frames delivered.
     * @throws MpiException ERR_INTERN naming the structure and the peer when a value is inconsistent.
     */
    int read(final FrameHandler handler)
    {
        final long head = this.head;
        final long sharedHead = ring.getLong(headIndex);
        if (sharedHead != head)
        {
            throw corrupt(ringName() + ": head position", "found " + sharedHead + ", this rank left it at " + head);
        }
        final int headOffset = (int)head & (capacity - 1);
        final int maxBlockLength = capacity - headOffset;
        int bytesRead = 0;
        int frames = 0;
        try
        {
            while (bytesRead < maxBlockLength)
            {
                final int recordIndex = headOffset + bytesRead;
                final int recordLength = ring.getIntVolatile(recordIndex);
                if (recordLength <= 0)
                {
                    if (recordLength != 0 && (-recordLength < HEADER_LENGTH || -recordLength > maxBlockLength - bytesRead))
                    {
                        throw corrupt(ringName() + ": claimed record length",
                            recordLength + " at offset " + recordIndex + " (between -" + HEADER_LENGTH + " and -" +
                            (maxBlockLength - bytesRead) + ")");
                    }
                    break;
                }
                if (recordLength < HEADER_LENGTH || recordLength > maxBlockLength - bytesRead)
                {
                    throw corrupt(ringName() + ": record length", recordLength + " at offset " + recordIndex +
                        " (between " + HEADER_LENGTH + " and " + (maxBlockLength - bytesRead) + ")");
                }
                bytesRead += align(recordLength, RecordDescriptor.ALIGNMENT);
                final int type = ring.getInt(RecordDescriptor.typeOffset(recordIndex));
                if (type != RingBuffer.PADDING_MSG_TYPE_ID)
                {
                    deliver(handler, type, recordIndex, recordLength - HEADER_LENGTH);
                    frames++;
                }
            }
        }
        finally
        {
            if (bytesRead > 0)
            {
                this.head = head + bytesRead;
                ring.putLongRelease(headIndex, head + bytesRead);
            }
        }
        if (bytesRead == 0 && (++idleReads & (CHECK_INTERVAL - 1)) == 0)
        {
            checkPositions();
        }
        return frames;
    }

    private void deliver(final FrameHandler handler, final int type, final int recordIndex, final int bodyLength)
    {
        final int kind = ShmMessageDescriptor.kind(type);
        if (type < 0 || ShmMessageDescriptor.senderLocal(type) != sender || (kind != KIND_INLINE && kind != KIND_POOLED))
        {
            throw corrupt(ringName() + ": record type", type + " at offset " + recordIndex + " (sender local index " +
                ShmMessageDescriptor.senderLocal(type) + ", kind " + kind + "; expected sender " + sender + ", kinds 1 and 2)");
        }
        final int bodyIndex = recordIndex + HEADER_LENGTH;
        final int frameIndex;
        final int frameLength;
        final long messageSequence;
        if (checksum != null)
        {
            if (bodyLength < CHECKSUM_HEADER_LENGTH)
            {
                throw corrupt(recordName(sender), "body of " + bodyLength + " bytes at offset " + recordIndex +
                    " has no room for its checksum header (" + CHECKSUM_HEADER_LENGTH + " bytes)");
            }
            messageSequence = ring.getLong(bodyIndex + MESSAGE_SEQUENCE_OFFSET, BYTE_ORDER);
            if (messageSequence != expectedSequence || ring.getInt(bodyIndex + CHECKSUM_RESERVED_OFFSET, BYTE_ORDER) != 0)
            {
                throw corrupt(recordName(sender), "message sequence " + messageSequence + " at offset " + recordIndex +
                    ", expected " + expectedSequence);
            }
            frameIndex = bodyIndex + CHECKSUM_HEADER_LENGTH;
            frameLength = bodyLength - CHECKSUM_HEADER_LENGTH;
        }
        else
        {
            messageSequence = -1;
            frameIndex = bodyIndex;
            frameLength = bodyLength;
        }

        if (kind == KIND_INLINE)
        {
            if (frameLength > inlineMax)
            {
                throw corrupt(recordName(sender), "inline frame of " + frameLength + " bytes at offset " + recordIndex +
                    " (at most " + inlineMax + ")");
            }
            if (checksum != null)
            {
                verify(sender, messageSequence, checksum.inline(ringView, bodyIndex, frameLength),
                    "inline frame at offset " + frameIndex + " of the ring, " + frameLength + " bytes", bodyIndex);
                expectedSequence = messageSequence + 1;
            }
            handler.onFrame(senderRank, ring, frameIndex, frameLength);
            return;
        }
        deliverPooled(handler, sender, recordIndex, frameIndex, frameLength, messageSequence);
    }

    private void deliverPooled(
        final FrameHandler handler,
        final int sender,
        final int recordIndex,
        final int descriptorIndex,
        final int descriptorLength,
        final long messageSequence)
    {
        if (descriptorLength != POOLED_DESCRIPTOR_LENGTH)
        {
            throw corrupt(recordName(sender), "pooled frame descriptor of " + descriptorLength + " bytes at offset " +
                recordIndex + " (expected " + POOLED_DESCRIPTOR_LENGTH + ")");
        }
        final long expected = releasedSlots;
        final long sequence = ring.getLong(descriptorIndex + SLOT_SEQUENCE_OFFSET, BYTE_ORDER);
        final int frameLength = ring.getInt(descriptorIndex + FRAME_LENGTH_OFFSET, BYTE_ORDER);
        final int reserved = ring.getInt(descriptorIndex + RESERVED_OFFSET, BYTE_ORDER);
        if (sequence != expected || frameLength <= inlineMax || frameLength > slotLength || reserved != 0)
        {
            throw corrupt(recordName(sender), "pooled frame descriptor at offset " + recordIndex + ": slot sequence " +
                sequence + " (expected " + expected + "), frame length " + frameLength + " (above " + inlineMax +
                ", at most " + slotLength + "), reserved " + reserved + " (expected 0)");
        }
        final long producerPosition = pool.getLongVolatile(FragmentPoolDescriptor.PRODUCER_POSITION_OFFSET);
        final long consumerPosition = pool.getLong(FragmentPoolDescriptor.CONSUMER_POSITION_OFFSET);
        if (producerPosition <= sequence || producerPosition - sequence > slotCount || consumerPosition != expected)
        {
            throw corrupt(poolName(sender), "producer position " + producerPosition + " (expected " + (sequence + 1) +
                " to " + (sequence + slotCount) + "), consumer position " + consumerPosition + " (this rank left it at " +
                expected + ")");
        }
        final int slotOffset = FragmentPoolDescriptor.slotOffset(slotLength, (int)(sequence % slotCount));
        if (checksum != null)
        {
            verify(sender, messageSequence, checksum.pooled(ringView, recordIndex + HEADER_LENGTH, poolView, slotOffset,
                frameLength), "pooled frame in slot " + (sequence % slotCount) + " at offset " + slotOffset + " of the pool, " +
                frameLength + " bytes", recordIndex + HEADER_LENGTH);
            expectedSequence = messageSequence + 1;
        }
        try
        {
            handler.onFrame(senderRank, pool, slotOffset, frameLength);
        }
        finally
        {
            releasedSlots = sequence + 1;
            pool.putLongRelease(FragmentPoolDescriptor.CONSUMER_POSITION_OFFSET, sequence + 1);
        }
    }

    private void verify(final int sender, final long messageSequence, final int computed, final String where, final int bodyIndex)
    {
        final int stored = ring.getInt(bodyIndex + CHECKSUM_OFFSET, BYTE_ORDER);
        if (stored != computed)
        {
            throw corrupt(recordName(sender), "checksum mismatch in message " + messageSequence + " from rank " +
                worldRankByLocal[sender] + ": " + where + ", CRC-32C stored " + Integer.toHexString(stored) + ", computed " +
                Integer.toHexString(computed));
        }
    }

    /** The idle check of step 3 (class comment). */
    private void checkPositions()
    {
        final long headCache = ring.getLongVolatile(headCacheIndex);
        final long tail = ring.getLongVolatile(tailIndex);
        if (((tail | headCache) & (RecordDescriptor.ALIGNMENT - 1)) != 0 || headCache < 0 || headCache > head || tail < head ||
            tail - head > capacity)
        {
            throw corrupt(ringName() + ": positions", "tail " + tail + ", head cache " + headCache + ", head " + head +
                " (expected 8-aligned, head cache <= head <= tail <= head + " + capacity + ")");
        }
        if (tail == head)
        {
            stalledHead = -1;
            return;
        }
        final long now = nanoClock.getAsLong();
        if (stalledHead != head)
        {
            stalledHead = head;
            stalledSinceNs = now;
        }
        else if (now - stalledSinceNs > STALL_LIMIT_NS)
        {
            final int headOffset = (int)head & (capacity - 1);
            throw corrupt(ringName() + ": record at the head", "length " + ring.getIntVolatile(headOffset) + " at offset " +
                headOffset + " not committed for " + TimeUnit.NANOSECONDS.toMillis(now - stalledSinceNs) + " ms while the tail is " +
                (tail - head) + " bytes ahead");
        }
    }

    private String ringName()
    {
        return "the inbound ring of rank " + rank + " from rank " + senderRank;
    }

    private String recordName(final int sender)
    {
        return "a record from rank " + worldRankByLocal[sender] + " in the inbound ring of rank " + rank;
    }

    private String poolName(final int sender)
    {
        return "the fragment pool rank " + worldRankByLocal[sender] + " -> rank " + rank;
    }

    /** The error for an inconsistent value read from shared memory. */
    static MpiException corrupt(final String structure, final String detail)
    {
        return new MpiException(ErrorClass.ERR_INTERN, "shm: corrupted shared memory: " + structure + ": " + detail);
    }
}
