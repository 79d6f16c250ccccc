package org.jmpi.coll;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.stream.Stream;

import org.jmpi.Datatype;
import org.jmpi.Op;
import org.jmpi.Ranks;
import org.jmpi.Request;
import org.jmpi.ThreadLevel;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The node collectives' flag protocol where ranks run apart (issue 16): a barrier is one flag handoff with no
 * guard on the peers' previous calls, and every other call takes the next half of the slots, so a bcast root or
 * a gather/reduce non-root posts its next call while its peers still read the previous one. Ranks arrive in
 * random order with random delays; on the heap and through a region file (1 KiB slots there: calls of several
 * rounds alternate halves with one-round calls).
 */
class NodeRunAheadTest
{
    private static final String[] OPS = {"barrier", "bcast", "reduce", "allreduce", "gather", "scatter", "allgather", "alltoall"};

    @TempDir
    static Path shmDir;

    private static Map<String, String> params(final boolean file, final String slot)
    {
        final Map<String, String> p = new HashMap<>();
        for (final String op : OPS)
        {
            p.put("jmpi.coll." + op + ".algorithm", "node");
        }
        p.put("jmpi.coll.node.slot", slot);
        if (file)
        {
            p.put("jmpi.coll.node.region", "file");
            p.put("jmpi.shm.dir", shmDir.toString());
        }
        return p;
    }

    private static void delay(final SplittableRandom random)
    {
        if (random.nextInt(3) == 0)
        {
            final long until = System.nanoTime() + random.nextInt(30_000);
            while (System.nanoTime() < until)
            {
                Thread.onSpinWait();
            }
        }
    }

    /** No rank leaves barrier k before every rank has arrived at it, whatever the order they arrive in. */
    @ParameterizedTest
    @ValueSource(ints = {2, 3, 5})
    @Timeout(300)
    void shouldHoldEveryRankInABarrierUntilAllArrive(final int size) throws Exception
    {
        for (final boolean file : new boolean[] {false, true})
        {
            final AtomicLongArray arrived = new AtomicLongArray(size);
            Ranks.run(size, ThreadLevel.SINGLE, params(file, "16k"), (mpi, world) ->
            {
                final SplittableRandom random = new SplittableRandom(world.rank() * 31L + (file ? 7 : 0));
                for (int k = 1; k <= 300; k++)
                {
                    delay(random);
                    arrived.set(world.rank(), k);
                    world.barrier();
                    for (int r = 0; r < size; r++)
                    {
                        final long at = arrived.get(r);
                        assertTrue(at >= k && at <= k + 1, "rank " + world.rank() + " left barrier " + k + " while rank " + r + " was at " + at);
                    }
                }
            });
        }
        assertNoRegionFiles();
    }

    /**
     * A root that bcasts call after call, and non-roots that gather and reduce call after call, run ahead of their
     * slow peers without overwriting what those still read; mixed with barriers, allreduces and calls of several
     * rounds, and with nonblocking rooted calls in flight together.
     */
    @ParameterizedTest
    @ValueSource(ints = {2, 3, 5})
    @Timeout(300)
    void shouldLetRanksRunAheadWithoutOverwritingWhatPeersStillRead(final int size) throws Exception
    {
        for (final Map<String, String> params : List.of(params(false, "16k"), params(false, "256"), params(true, "16k"),
            params(true, "1k")))
        {
            Ranks.run(size, ThreadLevel.SINGLE, params, (mpi, world) ->
            {
                final int me = world.rank();
                final SplittableRandom random = new SplittableRandom(me * 1009L + params.size());
                for (int i = 0; i < 200; i++)
                {
                    final int root = (i / 7) % size;
                    final int count = i % 11 == 0 ? 700 : 1 + i % 5;
                    if (me != root)
                    {
                        delay(random);
                    }
                    final int[] data = new int[count];
                    if (me == root)
                    {
                        java.util.Arrays.fill(data, 1000 * i + 1);
                    }
                    world.bcast(data, 0, count, Datatype.INT, root);
                    assertEquals(1000 * i + 1, data[count - 1], "bcast " + i + " from " + root);
                    final int[] all = new int[count * size];
                    final int[] mine = new int[count];
                    java.util.Arrays.fill(mine, 10 * i + me);
                    world.gather(mine, 0, count, Datatype.INT, all, 0, count, Datatype.INT, root);
                    final int[] sum = new int[count];
                    world.reduce(mine, 0, sum, 0, count, Datatype.INT, Op.SUM, root);
                    if (me == root)
                    {
                        for (int r = 0; r < size; r++)
                        {
                            assertEquals(10 * i + r, all[r * count + count - 1], "gather " + i + " block " + r);
                        }
                        assertEquals(10 * i * size + size * (size - 1) / 2, sum[0], "reduce " + i);
                    }
                    if (i % 13 == 0)
                    {
                        world.barrier();
                    }
                    if (i % 17 == 0)
                    {
                        final long[] total = new long[1];
                        world.allreduce(new long[] {me + i}, 0, total, 0, 1, Datatype.LONG, Op.SUM);
                        assertEquals((long)size * i + size * (size - 1) / 2, total[0], "allreduce " + i);
                    }
                }
                // Nonblocking rooted calls in flight together, completed in reverse order.
                final int[][] values = new int[6][3];
                final Request[] requests = new Request[6];
                for (int k = 0; k < 6; k++)
                {
                    if (me == k % size)
                    {
                        java.util.Arrays.fill(values[k], 77 + k);
                    }
                    requests[k] = world.ibcast(values[k], 0, 3, Datatype.INT, k % size);
                }
                for (int k = 5; k >= 0; k--)
                {
                    requests[k].await();
                    assertArrayEquals(new int[] {77 + k, 77 + k, 77 + k}, values[k], "ibcast " + k);
                }
            });
        }
        assertNoRegionFiles();
    }

    private static void assertNoRegionFiles() throws java.io.IOException
    {
        try (Stream<Path> files = Files.list(shmDir))
        {
            final List<String> left = files.map(f -> f.getFileName().toString()).filter(n -> n.contains("-coll-")).toList();
            assertTrue(left.isEmpty(), "region files left behind: " + left);
        }
    }
}
