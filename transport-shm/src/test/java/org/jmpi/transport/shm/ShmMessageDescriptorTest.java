package org.jmpi.transport.shm;

import org.agrona.concurrent.ringbuffer.RecordDescriptor;
import org.junit.jupiter.api.Test;

import java.nio.ByteOrder;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ShmMessageDescriptorTest
{
    @Test
    void shouldPlaceThePooledDescriptorFields()
    {
        assertEquals(0, ShmMessageDescriptor.SLOT_SEQUENCE_OFFSET);
        assertEquals(8, ShmMessageDescriptor.FRAME_LENGTH_OFFSET);
        assertEquals(12, ShmMessageDescriptor.RESERVED_OFFSET);
        assertEquals(16, ShmMessageDescriptor.POOLED_DESCRIPTOR_LENGTH);
        assertEquals(ByteOrder.nativeOrder(), ShmMessageDescriptor.BYTE_ORDER);
    }

    @Test
    void shouldPlaceTheChecksumHeaderFieldsAndKeepBodiesAligned()
    {
        assertEquals(0, ShmMessageDescriptor.CHECKSUM_OFFSET);
        assertEquals(4, ShmMessageDescriptor.CHECKSUM_RESERVED_OFFSET);
        assertEquals(8, ShmMessageDescriptor.MESSAGE_SEQUENCE_OFFSET);
        assertEquals(16, ShmMessageDescriptor.CHECKSUM_HEADER_LENGTH);
        assertEquals(0, ShmMessageDescriptor.CHECKSUM_HEADER_LENGTH % RecordDescriptor.ALIGNMENT);
    }

    @Test
    void shouldStartBodiesOnEightBytesAfterAgronasRecordHeader()
    {
        assertEquals(8, RecordDescriptor.HEADER_LENGTH);
        assertEquals(8, RecordDescriptor.ALIGNMENT);
        assertEquals(0, ShmMessageDescriptor.POOLED_DESCRIPTOR_LENGTH % RecordDescriptor.ALIGNMENT);
    }

    @Test
    void shouldEncodeKindAndSenderInAPositiveRecordType()
    {
        assertEquals(2, ShmMessageDescriptor.KIND_BITS);
        assertEquals(3, ShmMessageDescriptor.KIND_MASK);
        assertEquals(1 << 29, ShmMessageDescriptor.MAX_LOCAL_RANKS);
        for (final int sender : new int[]{0, 1, 7, 1000, ShmMessageDescriptor.MAX_LOCAL_RANKS - 1})
        {
            for (final int kind : new int[]{ShmMessageDescriptor.KIND_INLINE, ShmMessageDescriptor.KIND_POOLED})
            {
                final int type = ShmMessageDescriptor.recordType(sender, kind);
                assertTrue(type > 0, "Agrona needs positive types: " + type);
                assertEquals(sender, ShmMessageDescriptor.senderLocal(type));
                assertEquals(kind, ShmMessageDescriptor.kind(type));
            }
        }
        assertEquals(0b1101, ShmMessageDescriptor.recordType(3, ShmMessageDescriptor.KIND_INLINE));
        assertEquals(0b1110, ShmMessageDescriptor.recordType(3, ShmMessageDescriptor.KIND_POOLED));
    }
}
