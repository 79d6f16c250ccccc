package org.jmpi.transport.verbs;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class PendingFramesTest
{
    @Test
    void shouldKeepFramesInOrderAcrossTheRingsEndAndDropAFrameWhoseWriterThrew()
    {
        final PendingFrames pending = new PendingFrames(3, 16);
        final UnsafeBuffer slot = new UnsafeBuffer(new byte[16]);
        int next = 0;
        int expected = 0;
        for (int round = 0; round < 4; round++)
        {
            while (!pending.isFull())
            {
                final int value = next++;
                pending.add(4 + value % 5, (buffer, index, length) -> buffer.putInt(index, value), value % 3);
            }
            assertThrows(IllegalStateException.class, () -> pending.add(8, (buffer, index, length) ->
            {
                throw new IllegalStateException("writer failed on purpose");
            }, 0));
            // Take two (the ring's start moves), so the next round's adds wrap.
            for (int i = 0; i < 2; i++)
            {
                assertEquals(4 + expected % 5, pending.headLength());
                assertEquals(expected % 3, pending.headImmediate());
                pending.moveHead(slot, 0);
                assertEquals(expected++, slot.getInt(0));
            }
        }
        while (!pending.isEmpty())
        {
            pending.moveHead(slot, 0);
            assertEquals(expected++, slot.getInt(0));
        }
        assertEquals(next, expected);
        assertTrue(pending.isEmpty());
        assertFalse(pending.isFull());
    }
}
