package org.jmpi.spi;

import org.jmpi.ErrorClass;
import org.jmpi.MpiException;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** The default {@link RemoteMemory#putGather} and {@link RemoteMemory#getScatter}: one operation per run, in order, a prefix under back-pressure. */
class RemoteMemoryListsTest
{
    /** Records each put and get as {read, remoteOffset, localOffset, length}; takes {@code room} of them. */
    private static final class Recording implements RemoteMemory
    {
        final List<long[]> operations = new ArrayList<>();
        int room;

        Recording(final int room)
        {
            this.room = room;
        }

        @Override
        public void completions(final Completions handler)
        {
        }

        @Override
        public long register(final Object memory)
        {
            return 1;
        }

        @Override
        public void deregister(final long registration)
        {
        }

        @Override
        public void remoteKey(final long registration, final long[] out, final int at)
        {
        }

        @Override
        public boolean put(final int peerRank, final long[] key, final int keyAt, final long remoteOffset, final long registration,
            final long localOffset, final long length, final long token)
        {
            return take(0, remoteOffset, localOffset, length);
        }

        @Override
        public boolean get(final int peerRank, final long[] key, final int keyAt, final long remoteOffset, final long registration,
            final long localOffset, final long length, final long token)
        {
            return take(1, remoteOffset, localOffset, length);
        }

        private boolean take(final long read, final long remoteOffset, final long localOffset, final long length)
        {
            if (room == 0)
            {
                return false;
            }
            room--;
            operations.add(new long[] {read, remoteOffset, localOffset, length});
            return true;
        }
    }

    private static final long[] RUNS = {0, 100, 400, 50, 1000, 7, 2000, 300};

    @Test
    void shouldPutEachRunInOrderIntoConsecutiveRemoteBytes()
    {
        final Recording memory = new Recording(10);
        assertEquals(3, memory.putGather(1, new long[2], 0, 64, 1, RUNS, 1, 3, 9));
        assertEquals(List.of("0 64 400 50", "0 114 1000 7", "0 121 2000 300"), memory.operations.stream().map(RemoteMemoryListsTest::text).toList());
    }

    @Test
    void shouldStartOnlyAPrefixWhenTheTransportRunsOutOfRoom()
    {
        final Recording memory = new Recording(2);
        assertEquals(2, memory.getScatter(1, new long[2], 0, 0, 1, RUNS, 0, 4, 9));
        memory.room = 0;
        assertEquals(0, memory.getScatter(1, new long[2], 0, 150, 1, RUNS, 2, 2, 9));
        memory.room = 5;
        assertEquals(2, memory.getScatter(1, new long[2], 0, 150, 1, RUNS, 2, 2, 9));
        assertEquals(List.of("1 0 0 100", "1 100 400 50", "1 150 1000 7", "1 157 2000 300"),
            memory.operations.stream().map(RemoteMemoryListsTest::text).toList());
    }

    @Test
    void shouldRefuseRunsOutsideTheList()
    {
        final MpiException ex = assertThrows(MpiException.class, () -> new Recording(9).putGather(3, new long[2], 0, 0, 1, RUNS, 2, 3, 9));
        assertEquals(ErrorClass.ERR_ARG, ex.errorClass());
        assertEquals("putGather: runs [2, 5) outside a list of 4, peer=3", ex.getMessage().replaceFirst("^.*?putGather", "putGather"));
    }

    private static String text(final long[] operation)
    {
        return operation[0] + " " + operation[1] + " " + operation[2] + " " + operation[3];
    }
}
