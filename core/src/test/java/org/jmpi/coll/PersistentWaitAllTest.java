package org.jmpi.coll;

import org.jmpi.Datatype;
import org.jmpi.Op;
import org.jmpi.Ranks;
import org.jmpi.Request;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.Arrays;

import static org.junit.jupiter.api.Assertions.*;

/** Persistent collectives and point-to-point requests completed together by the wait/test helpers. */
@Timeout(60)
class PersistentWaitAllTest
{
    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 5})
    void shouldCompletePersistentCollectivesThroughWaitAllAndTestAll(final int size)
    {
        Ranks.run(size, (mpi, world) ->
        {
            final int rank = world.rank();
            final long[] bcastBuf = new long[100];
            final long[] in = new long[3];
            final long[] sum = new long[3];
            final Request bcast = world.bcastInit(bcastBuf, 0, bcastBuf.length, Datatype.LONG, 0);
            final Request allreduce = world.allreduceInit(in, 0, sum, 0, 3, Datatype.LONG, Op.SUM);
            final Request barrier = world.barrierInit();
            for (int iteration = 0; iteration < 20; iteration++)
            {
                if (rank == 0)
                {
                    Arrays.fill(bcastBuf, iteration);
                }
                Arrays.fill(in, rank + iteration);
                final int[] token = new int[1];
                final Request ring = world.irecv(token, 0, 1, Datatype.INT, (rank - 1 + size) % size, 7);
                final Request send = world.isend(new int[] {iteration}, 0, 1, Datatype.INT, (rank + 1) % size, 7);
                Request.startAll(bcast, allreduce, barrier);
                if (iteration % 2 == 0)
                {
                    Request.waitAll(bcast, allreduce, barrier, ring, send);
                }
                else
                {
                    while (!Request.testAll(bcast, allreduce, barrier, ring, send))
                    {
                        Thread.onSpinWait();
                    }
                }
                assertEquals(iteration, bcastBuf[99]);
                assertEquals((long)size * (size - 1) / 2 + (long)size * iteration, sum[2]);
                assertEquals(iteration, token[0]);
            }
            assertEquals(org.jmpi.Datatype.UNDEFINED, Request.waitAny(bcast, allreduce, barrier), "all inactive after completion");
        });
    }
}
