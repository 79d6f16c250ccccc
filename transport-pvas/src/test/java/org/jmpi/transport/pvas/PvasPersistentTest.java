package org.jmpi.transport.pvas;

import org.jmpi.Comm;
import org.jmpi.Datatype;
import org.jmpi.Op;
import org.jmpi.Ranks;
import org.jmpi.Request;
import org.jmpi.ThreadLevel;
import org.jmpi.internal.coll.PersistentCollRequest;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The put- and get-based persistent collectives between ranks that are threads presenting separate JVMs (every
 * peer reached through the arena transport): with the counters, the staging copies of heap buffers and the
 * reductions' scratch in the arena, and an allocMem buffer registered itself, every signal and copy goes through
 * the arena's peer memory (no active message: {@code directPeers} counts every peer) and the results equal the
 * sequential references over repeated starts with changing contents.
 */
@Timeout(180)
class PvasPersistentTest
{
    private static final int STARTS = 25;

    @TempDir
    Path shmDir;

    static Stream<Arguments> cases()
    {
        final List<Arguments> all = new ArrayList<>();
        for (final String schedule : new String[] {"put", "get"})
        {
            for (final int size : new int[] {2, 3, 4})
            {
                all.add(Arguments.of(schedule, size));
            }
        }
        return all.stream();
    }

    private Map<String, String> params(final String schedule)
    {
        return Map.of("jmpi.transports", "pvas,jvm", "jmpi.jvm.isolate", "true", "jmpi.shm.dir", shmDir.toString(),
            PvasParams.PARTITION_SIZE.name(), "4m", "jmpi.coll.persistent.schedule", schedule);
    }

    private static void assertDirect(final int size, final Request request, final String what)
    {
        final PersistentCollRequest r = (PersistentCollRequest)request;
        assertEquals(size - 1, r.directPeers(), what + " (" + r.schedule() + "): peers reached through the arena, not by frames");
    }

    @ParameterizedTest(name = "{0} at {1} ranks")
    @MethodSource("cases")
    void shouldRunPersistentCollectivesDirectlyThroughTheArena(final String schedule, final int size) throws IOException
    {
        Ranks.run(size, ThreadLevel.SINGLE, params(schedule), (mpi, world) ->
        {
            final int rank = world.rank();
            final int root = size - 1;
            // bcast of an allocMem buffer (registered itself) ...
            final int bytes = 4099;
            final ByteBuffer arena = mpi.allocMem(bytes);
            final Request bcast = world.bcastInit(arena, 0, bytes, Datatype.BYTE, root);
            // ... allreduce of heap arrays (the accumulators in the arena): a sum, and an in-place max ...
            final int count = 513;
            final double[] in = new double[count];
            final double[] out = new double[count];
            final Request allreduce = world.allreduceInit(in, 0, out, 0, count, Datatype.DOUBLE, Op.SUM);
            final long[] maxOut = new long[2];
            final Request allmax = world.allreduceInit(Comm.IN_PLACE, 0, maxOut, 0, 2, Datatype.LONG, Op.MAX);
            // ... gather of a strided heap layout (staged in the arena) and allgather of heap ints, and a barrier.
            final int items = 37;
            final Datatype everyOther = Datatype.vector(items, 1, 2, Datatype.INT).commit();
            final int[] gatherSend = new int[2 * items];
            final int[] gathered = new int[size * items];
            final Request gather = world.gatherInit(gatherSend, 0, 1, everyOther, gathered, 0, items, Datatype.INT, 0);
            final int[] mine = new int[3];
            final int[] all = new int[3 * size];
            final Request allgather = world.allgatherInit(mine, 0, 3, Datatype.INT, all, 0, 3, Datatype.INT);
            final Request barrier = world.barrierInit();
            final Request[] requests = {bcast, allreduce, allmax, gather, allgather, barrier};
            for (int start = 0; start < STARTS; start++)
            {
                for (int i = 0; i < bytes; i++)
                {
                    arena.put(i, rank == root ? (byte)(start * 31 + i) : (byte)-1);
                }
                for (int i = 0; i < count; i++)
                {
                    in[i] = rank * 3 + i + start;
                }
                Arrays.fill(out, -1);
                maxOut[0] = rank + start;
                maxOut[1] = -rank;
                for (int i = 0; i < items; i++)
                {
                    gatherSend[2 * i] = rank * 1000 + start * 100 + i;
                    gatherSend[2 * i + 1] = -5;
                }
                Arrays.fill(gathered, -1);
                Arrays.fill(mine, rank * 10 + start);
                Arrays.fill(all, -1);
                for (final Request r : requests)
                {
                    r.start();
                }
                for (final Request r : requests)
                {
                    r.await();
                }
                for (int i = 0; i < bytes; i++)
                {
                    assertEquals((byte)(start * 31 + i), arena.get(i), "bcast, start " + start + ", byte " + i);
                }
                for (int i = 0; i < count; i++)
                {
                    assertEquals(3.0 * size * (size - 1) / 2 + size * (double)(i + start), out[i], "allreduce, start " + start + ", item " + i);
                }
                assertEquals(size - 1 + start, maxOut[0], "max, start " + start);
                assertEquals(0, maxOut[1], "max, start " + start);
                if (rank == 0)
                {
                    for (int q = 0; q < size; q++)
                    {
                        for (int i = 0; i < items; i++)
                        {
                            assertEquals(q * 1000 + start * 100 + i, gathered[q * items + i], "gather, start " + start + ", rank " + q);
                        }
                    }
                }
                for (int q = 0; q < size; q++)
                {
                    for (int k = 0; k < 3; k++)
                    {
                        assertEquals(q * 10 + start, all[3 * q + k], "allgather, start " + start + ", rank " + q);
                    }
                }
                if (start == 0)
                {
                    final String[] names = {"bcast", "allreduce", "allreduce max", "gather", "allgather", "barrier"};
                    for (int k = 0; k < requests.length; k++)
                    {
                        assertDirect(size, requests[k], names[k]);
                    }
                }
            }
            for (final Request r : requests)
            {
                r.free();
            }
            world.barrier();
            mpi.freeMem(arena);
        });
        try (var files = Files.list(shmDir))
        {
            assertEquals(List.of(), files.toList(), "files left in the shm directory");
        }
    }
}
