package org.jmpi.internal.pt2pt;

import java.util.Arrays;

import org.jmpi.Comm;
import org.jmpi.Datatype;
import org.jmpi.ErrorClass;
import org.jmpi.ErrorHandler;
import org.jmpi.MpiException;
import org.jmpi.Ranks;
import org.jmpi.Request;
import org.jmpi.Status;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * Blocking send and receive rearm one request per communicator ({@link BlockingRequests}): messages of every
 * kind in a row (eager, rendezvous, unexpected, truncated, wildcards) each arrive whole and with their own status,
 * and a status returned earlier does not change when the request serves the next message.
 */
@Timeout(120)
class BlockingRequestsTest
{
    private static final int BIG = 64 * 1024;

    private static double[] filled(final int n, final double base)
    {
        final double[] a = new double[n];
        Arrays.setAll(a, i -> base + i);
        return a;
    }

    @Test
    void shouldDeliverEveryStartOfPersistentRequestsThroughTheirRearmedRequests()
    {
        Ranks.run(2, (mpi, world) ->
        {
            final int peer = 1 - world.rank();
            final double[] small = new double[2];
            final double[] big = new double[BIG / 8];
            final double[] smallIn = new double[2];
            final double[] bigIn = new double[BIG / 8];
            final Request[] sends = {world.sendInit(small, 0, 2, Datatype.DOUBLE, peer, 1), world.sendInit(big, 0, BIG / 8, Datatype.DOUBLE, peer, 2)};
            final Request[] recvs = {world.recvInit(smallIn, 0, 2, Datatype.DOUBLE, peer, 1), world.recvInit(bigIn, 0, BIG / 8, Datatype.DOUBLE, peer, 2)};
            Status kept = null;
            for (int round = 0; round < 50; round++)
            {
                final int r = round;
                Arrays.setAll(small, i -> world.rank() * 1000 + r + i);
                Arrays.setAll(big, i -> world.rank() * 1000 + r + i);
                for (int k = 0; k < 2; k++)
                {
                    recvs[k].start();
                    sends[k].start();
                }
                for (int k = 0; k < 2; k++)
                {
                    sends[k].await();
                    final Status st = recvs[k].await();
                    assertEquals(k + 1, st.tag());
                    if (kept == null)
                    {
                        kept = st;
                    }
                }
                assertArrayEquals(filled(2, peer * 1000 + r), smallIn, "round " + r);
                assertArrayEquals(filled(BIG / 8, peer * 1000 + r), bigIn, "round " + r);
            }
            assertEquals(1, kept.tag());
            assertEquals(16, kept.countBytes());
            for (final Request q : sends)
            {
                q.free();
            }
            for (final Request q : recvs)
            {
                q.free();
            }
        });
    }

    @Test
    void shouldDeliverEveryKindOfMessageInARowThroughTheRearmedRequests()
    {
        Ranks.run(2, (mpi, world) ->
        {
            world.setErrorHandler(ErrorHandler.ERRORS_RETURN);
            if (world.rank() == 0)
            {
                for (int round = 0; round < 3; round++)
                {
                    world.send(filled(1, round), 0, 1, Datatype.DOUBLE, 1, 1);
                    world.send(filled(BIG / 8, round), 0, BIG / 8, Datatype.DOUBLE, 1, 2);
                    world.send(filled(2, round), 0, 2, Datatype.DOUBLE, 1, 3);
                    world.send(filled(1, round + 10), 0, 1, Datatype.DOUBLE, 1, 4);
                }
                // unexpected: sent before rank 1 posts its receives
                world.send(filled(3, 100), 0, 3, Datatype.DOUBLE, 1, 5);
                world.send(filled(3, 200), 0, 3, Datatype.DOUBLE, 1, 6);
                world.barrier();
                world.recv(new double[1], 0, 1, Datatype.DOUBLE, 1, 7);
            }
            else
            {
                Status first = null;
                for (int round = 0; round < 3; round++)
                {
                    final double[] one = new double[1];
                    final Status s1 = world.recv(one, 0, 1, Datatype.DOUBLE, 0, 1);
                    assertArrayEquals(filled(1, round), one);
                    assertEquals(8, s1.countBytes());
                    if (first == null)
                    {
                        first = s1;
                    }
                    final double[] big = new double[BIG / 8];
                    final Status s2 = world.recv(big, 0, BIG / 8, Datatype.DOUBLE, Comm.ANY_SOURCE, Comm.ANY_TAG);
                    assertArrayEquals(filled(BIG / 8, round), big);
                    assertEquals(2, s2.tag());
                    assertEquals(BIG, s2.countBytes());
                    // two doubles into room for one: ERR_TRUNCATE, and the next receive still works
                    final MpiException ex = assertThrows(MpiException.class, () -> world.recv(new double[1], 0, 1, Datatype.DOUBLE, 0, 3));
                    assertEquals(ErrorClass.ERR_TRUNCATE, ex.errorClass());
                    final double[] after = new double[1];
                    final Status s4 = world.recv(after, 0, 1, Datatype.DOUBLE, 0, Comm.ANY_TAG);
                    assertArrayEquals(filled(1, round + 10), after);
                    assertEquals(4, s4.tag());
                    assertEquals(0, s4.source());
                }
                world.barrier();
                final double[] three = new double[3];
                assertEquals(6, world.recv(three, 0, 3, Datatype.DOUBLE, 0, 6).tag());
                assertArrayEquals(filled(3, 200), three);
                assertEquals(5, world.recv(three, 0, 3, Datatype.DOUBLE, Comm.ANY_SOURCE, 5).tag());
                assertArrayEquals(filled(3, 100), three);
                // the first status is the first message's still
                assertEquals(1, first.tag());
                assertEquals(8, first.countBytes());
                world.send(new double[1], 0, 1, Datatype.DOUBLE, 0, 7);
            }
        });
    }
}
