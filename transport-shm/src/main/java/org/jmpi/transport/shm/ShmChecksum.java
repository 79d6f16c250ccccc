package org.jmpi.transport.shm;

import org.agrona.concurrent.UnsafeBuffer;

import java.nio.ByteBuffer;
import java.util.zip.CRC32C;

import static org.jmpi.transport.shm.ShmMessageDescriptor.CHECKSUM_HEADER_LENGTH;
import static org.jmpi.transport.shm.ShmMessageDescriptor.CHECKSUM_RESERVED_OFFSET;
import static org.jmpi.transport.shm.ShmMessageDescriptor.POOLED_DESCRIPTOR_LENGTH;

/**
 * The CRC-32C of a ring record under {@code jmpi.shm.checksum} ({@link ShmMessageDescriptor}): the record
 * type (the 4 bytes before the body), the body from its reserved field to its end and, for a pooled
 * frame, the frame's bytes in its slot. Computed in place over the mappings, through views made once.
 *
 * <p>Threading: one thread (the rank's progress owner). Allocates nothing per record.
 */
final class ShmChecksum
{
    private final CRC32C crc = new CRC32C();

    /** A view of {@code buffer}'s memory for {@link #inline}/{@link #pooled}; made once per mapping. */
    static ByteBuffer view(final UnsafeBuffer buffer)
    {
        final ByteBuffer memory = buffer.byteBuffer();
        if (memory == null || buffer.wrapAdjustment() != 0)
        {
            throw new IllegalArgumentException("checksums need a buffer that wraps a whole ByteBuffer");
        }
        return memory.duplicate();
    }

    /** The checksum of the inline record whose body starts at {@code bodyIndex} with a frame of {@code frameLength}. */
    int inline(final ByteBuffer ring, final int bodyIndex, final int frameLength)
    {
        crc.reset();
        update(ring, bodyIndex - Integer.BYTES, bodyIndex);
        update(ring, bodyIndex + CHECKSUM_RESERVED_OFFSET, bodyIndex + CHECKSUM_HEADER_LENGTH + frameLength);
        return (int)crc.getValue();
    }

    /** The checksum of the pooled record at {@code bodyIndex} and of its frame at {@code slotOffset} of {@code pool}. */
    int pooled(final ByteBuffer ring, final int bodyIndex, final ByteBuffer pool, final int slotOffset, final int frameLength)
    {
        crc.reset();
        update(ring, bodyIndex - Integer.BYTES, bodyIndex);
        update(ring, bodyIndex + CHECKSUM_RESERVED_OFFSET, bodyIndex + CHECKSUM_HEADER_LENGTH + POOLED_DESCRIPTOR_LENGTH);
        update(pool, slotOffset, slotOffset + frameLength);
        return (int)crc.getValue();
    }

    private void update(final ByteBuffer view, final int from, final int to)
    {
        view.limit(to).position(from);
        crc.update(view);
    }
}
