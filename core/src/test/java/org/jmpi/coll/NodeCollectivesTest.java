package org.jmpi.coll;

import static org.jmpi.coll.CollTestValues.INT_PAIR;
import static org.jmpi.coll.CollTestValues.INT_SUM;
import static org.jmpi.coll.CollTestValues.PREDEFINED;
import static org.jmpi.coll.CollTestValues.TYPES;
import static org.jmpi.coll.CollTestValues.ints;
import static org.jmpi.coll.CollTestValues.outcome;
import static org.jmpi.coll.CollTestValues.show;
import static org.jmpi.coll.CollTestValues.values;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

import org.jmpi.Comm;
import org.jmpi.CommInternals;
import org.jmpi.Datatype;
import org.jmpi.Intracomm;
import org.jmpi.MpiException;
import org.jmpi.Op;
import org.jmpi.Ranks;
import org.jmpi.Request;
import org.jmpi.ThreadLevel;
import org.jmpi.coll.CollTestValues.Call;
import org.jmpi.internal.coll.node.NodeCollectives;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The node collectives (ranks as threads: the communicator's region, slots for small calls, single copies and
 * sliced reductions straight between the ranks' buffers for large ones) against the point-to-point
 * algorithms: one body runs in a job with every collective forced to "node" (default slots, and 128-byte
 * slots so that nearly every call takes the direct path) and in a job with the point-to-point algorithms
 * forced, and every rank's results, error classes included, must be equal; and again with the region in a
 * file ({@code jmpi.coll.node.region=file}: the layout across JVMs, where no buffer is reachable and large calls
 * go through the slots in rounds; 16 KiB and 1 KiB slots), after which no region file may be left. The body covers every predefined
 * op on every predefined type (combinations that do not apply must fail alike), user ops commutative and
 * not on derived types, IN_PLACE, derived types on either side, counts on both sides of the slot size, dup,
 * split, create (ranks reversed) and create_group (a subset) communicators, nonblocking calls in flight together,
 * and ranks arriving with random delays.
 */
class NodeCollectivesTest
{
    private static final String[] OPS = {"barrier", "bcast", "reduce", "allreduce", "gather", "scatter", "allgather", "alltoall"};
    private static final String[] P2P = {"dissemination", "binomial", "binomial", "recursive_doubling", "linear", "linear", "ring", "linear"};

    private static Map<String, String> params(final String... algorithms)
    {
        final Map<String, String> p = new HashMap<>();
        for (int i = 0; i < OPS.length; i++)
        {
            p.put("jmpi.coll." + OPS[i] + ".algorithm", algorithms[i]);
        }
        return p;
    }

    private static Map<String, String> node(final String slot)
    {
        final String[] all = new String[OPS.length];
        java.util.Arrays.fill(all, "node");
        final Map<String, String> p = params(all);
        p.put("jmpi.coll.node.slot", slot);
        return p;
    }

    /** As {@link #node}, with the region in a file (as across JVMs: no buffer reachable, large calls in rounds through the slots). */
    private static Map<String, String> file(final String slot)
    {
        final Map<String, String> p = node(slot);
        p.put("jmpi.coll.node.region", "file");
        p.put("jmpi.shm.dir", shmDir.toString());
        return p;
    }

    /** Every region file was deleted (once all ranks mapped it). */
    private static void assertNoRegionFiles() throws java.io.IOException
    {
        try (java.util.stream.Stream<java.nio.file.Path> files = java.nio.file.Files.list(shmDir))
        {
            final List<String> left = files.map(f -> f.getFileName().toString()).filter(n -> n.contains("-coll-")).toList();
            assertTrue(left.isEmpty(), "region files left behind: " + left);
        }
    }

    @org.junit.jupiter.api.io.TempDir
    static java.nio.file.Path shmDir;

    /** Runs the body in one job with {@code params}; returns each rank's results. */
    private static List<List<Object>> run(final int size, final Map<String, String> params, final boolean expectNode)
    {
        final Map<Integer, List<Object>> results = new ConcurrentHashMap<>();
        Ranks.run(size, ThreadLevel.SINGLE, params, (mpi, world) ->
        {
            final List<Object> out = new ArrayList<>();
            body(world, out);
            final long nodeCalls = NodeCollectives.callsStarted(CommInternals.state(world));
            assertEquals(expectNode, nodeCalls > 0, "node collective calls on world: " + nodeCalls);
            results.put(world.rank(), out);
        });
        final List<List<Object>> all = new ArrayList<>();
        for (int r = 0; r < size; r++)
        {
            all.add(results.get(r));
        }
        return all;
    }

    private static void assertSameResults(final List<List<Object>> expected, final List<List<Object>> actual, final String what)
    {
        for (int r = 0; r < expected.size(); r++)
        {
            final List<Object> e = expected.get(r);
            final List<Object> a = actual.get(r);
            assertEquals(e.size(), a.size(), what + ": rank " + r + " recorded a different number of results");
            for (int i = 0; i < e.size(); i++)
            {
                if (!java.util.Objects.deepEquals(e.get(i), a.get(i)))
                {
                    fail(what + ": rank " + r + ", result " + i + " differs: point-to-point " + show(e.get(i)) + ", node " + show(a.get(i)));
                }
            }
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 5})
    @Timeout(600)
    void shouldMatchThePointToPointAlgorithms(final int size) throws Exception
    {
        final List<List<Object>> p2p = run(size, params(P2P), false);
        assertSameResults(p2p, run(size, node("16k"), true), "node, 16 KiB slots");
        assertSameResults(p2p, run(size, node("128"), true), "node, 128-byte slots");
        assertSameResults(p2p, run(size, file("16k"), true), "node in a file, 16 KiB slots");
        assertSameResults(p2p, run(size, file("1k"), true), "node in a file, 1 KiB slots");
        assertNoRegionFiles();
    }

    // ------------------------------------------------------------------------------------------ the body

    private static void body(final Intracomm world, final List<Object> out)
    {
        final SplittableRandom random = new SplittableRandom(1234 + world.rank());
        final Intracomm dup = world.dup();
        final Intracomm split = world.split(world.rank() % 2, -world.rank());
        final int[] reversed = new int[world.size()];
        for (int r = 0; r < reversed.length; r++)
        {
            reversed[r] = world.size() - 1 - r;
        }
        final Intracomm created = world.create(world.group().incl(reversed));
        for (final Intracomm c : new Intracomm[] {world, dup, split, created})
        {
            out.add(c.size());
            everyCall(c, random, out);
        }
        nonblocking(world, out);
        if (world.rank() > 0)
        {
            // create_group over a subset of the node: the ranks but 0.
            final int[] others = new int[world.size() - 1];
            for (int r = 0; r < others.length; r++)
            {
                others[r] = r + 1;
            }
            final Intracomm subset = world.createGroup(world.group().incl(others), 7);
            out.add(subset.size());
            blocks(subset, random, out);
            subset.free();
        }
        created.free();
        split.free();
        dup.free();
    }

    /** Spins for a random time below 50 us now and then, so that ranks arrive in varying order. */
    private static void delay(final SplittableRandom random)
    {
        if (random.nextInt(4) == 0)
        {
            final long until = System.nanoTime() + random.nextInt(50_000);
            while (System.nanoTime() < until)
            {
                Thread.onSpinWait();
            }
        }
    }

    private static void everyCall(final Intracomm c, final SplittableRandom random, final List<Object> out)
    {
        final int rank = c.rank();
        final int size = c.size();
        for (int i = 0; i < 3; i++)
        {
            delay(random);
            c.barrier();
        }
        for (final int count : new int[] {0, 1, 7, 3000, 9000})
        {
            for (int root = 0; root < size; root++)
            {
                delay(random);
                final int[] data = ints(count, rank == root ? 100 + root : -1);
                c.bcast(data, 0, count, Datatype.INT, root);
                out.add(data);
            }
        }
        // bcast from a strided root buffer into contiguous receivers.
        final Datatype every2 = Datatype.vector(500, 1, 2, Datatype.INT).commit();
        final int[] strided = ints(1000, rank == 0 ? 7 : -1);
        if (rank == 0)
        {
            c.bcast(strided, 0, 1, every2, 0);
        }
        else
        {
            c.bcast(strided, 0, 500, Datatype.INT, 0);
        }
        out.add(strided);
        reductions(c, random, out);
        blocks(c, random, out);
    }

    private static void reductions(final Intracomm c, final SplittableRandom random, final List<Object> out)
    {
        final int rank = c.rank();
        final int size = c.size();
        for (final Datatype type : TYPES)
        {
            for (final Op op : PREDEFINED)
            {
                for (final int count : new int[] {1, 5, 3000, 6000})
                {
                    delay(random);
                    final Object in = values(type, count, rank);
                    final Object result = values(type, count, -1);
                    out.add(outcome(() -> c.allreduce(in, 0, result, 0, count, type, op), result));
                    final int root = count % size;
                    final Object atRoot = values(type, count, -1);
                    out.add(outcome(() -> c.reduce(in, 0, atRoot, 0, count, type, op, root), atRoot));
                }
                final Object inPlace = values(type, 700, rank);
                out.add(outcome(() -> c.allreduce(Comm.IN_PLACE, 0, inPlace, 0, 700, type, op), inPlace));
            }
        }
        // MINLOC / MAXLOC on pairs.
        for (final Op op : new Op[] {Op.MINLOC, Op.MAXLOC})
        {
            for (final int count : new int[] {1, 3000})
            {
                final int[] pairs = new int[2 * count];
                for (int i = 0; i < count; i++)
                {
                    pairs[2 * i] = (i * 7 + rank * 3) % 5;
                    pairs[2 * i + 1] = rank;
                }
                final int[] result = new int[2 * count];
                c.allreduce(pairs, 0, result, 0, count, Datatype.INT2, op);
                out.add(result);
            }
        }
        // User ops: the non-commutative affine composition on pairs of longs, and a commutative int sum on a
        // derived type, to every root, IN_PLACE, small and large.
        for (final int count : new int[] {3, 2000})
        {
            final long[] maps = new long[2 * count];
            for (int i = 0; i < count; i++)
            {
                maps[2 * i] = 2 + (rank + i) % 3;
                maps[2 * i + 1] = rank * 10 + i;
            }
            for (int root = 0; root < size; root++)
            {
                delay(random);
                final long[] composed = new long[2 * count];
                c.reduce(maps, 0, composed, 0, count, AffineOp.PAIR, AffineOp.AFFINE, root);
                out.add(composed);
            }
            final long[] all = maps.clone();
            c.allreduce(Comm.IN_PLACE, 0, all, 0, count, AffineOp.PAIR, AffineOp.AFFINE);
            out.add(all);
            final int[] summed = ints(2 * count, rank);
            final int[] total = new int[2 * count];
            c.allreduce(summed, 0, total, 0, count, INT_PAIR, INT_SUM);
            out.add(total);
            final int[] atRoot = ints(2 * count, rank);
            if (rank == size - 1)
            {
                c.reduce(Comm.IN_PLACE, 0, atRoot, 0, count, INT_PAIR, INT_SUM, size - 1);
            }
            else
            {
                c.reduce(atRoot, 0, null, 0, count, INT_PAIR, INT_SUM, size - 1);
            }
            out.add(atRoot);
        }
    }

    private static void blocks(final Intracomm c, final SplittableRandom random, final List<Object> out)
    {
        final int rank = c.rank();
        final int size = c.size();
        for (final int block : new int[] {0, 1, 7, 700, 5000})
        {
            for (int root = 0; root < size; root++)
            {
                delay(random);
                final int[] mine = ints(block, rank);
                final int[] gathered = ints(block * size, -1);
                c.gather(mine, 0, block, Datatype.INT, gathered, 0, block, Datatype.INT, root);
                out.add(gathered);
                final int[] inPlace = ints(block * size, rank);
                if (rank == root)
                {
                    c.gather(Comm.IN_PLACE, 0, block, Datatype.INT, inPlace, 0, block, Datatype.INT, root);
                }
                else
                {
                    c.gather(inPlace, 0, block, Datatype.INT, null, 0, block, Datatype.INT, root);
                }
                out.add(inPlace);
                final int[] all = ints(block * size, 50 + rank);
                final int[] part = ints(block, -1);
                c.scatter(all, 0, block, Datatype.INT, part, 0, block, Datatype.INT, root);
                out.add(part);
                final int[] again = ints(block, -2);
                if (rank == root)
                {
                    c.scatter(all, 0, block, Datatype.INT, Comm.IN_PLACE, 0, block, Datatype.INT, root);
                }
                else
                {
                    c.scatter(null, 0, block, Datatype.INT, again, 0, block, Datatype.INT, root);
                }
                out.add(all);
                out.add(again);
            }
            delay(random);
            final int[] everyone = ints(block * size, -1);
            c.allgather(ints(block, rank), 0, block, Datatype.INT, everyone, 0, block, Datatype.INT);
            out.add(everyone);
            final int[] inPlace = ints(block * size, rank);
            c.allgather(Comm.IN_PLACE, 0, block, Datatype.INT, inPlace, 0, block, Datatype.INT);
            out.add(inPlace);
            if (block > 0)
            {
                // Into a strided receive type: every other int of each block's span.
                final Datatype every2 = Datatype.vector(block, 1, 2, Datatype.INT).commit();
                final int[] spread = ints((int)(every2.extent() / 4) * size, -1);
                c.allgather(ints(block, rank), 0, block, Datatype.INT, spread, 0, 1, every2);
                out.add(spread);
            }
            final int[] send = ints(block * size, rank * 1000);
            final int[] received = ints(block * size, -1);
            c.alltoall(send, 0, block, Datatype.INT, received, 0, block, Datatype.INT);
            out.add(received);
            c.alltoall(Comm.IN_PLACE, 0, block, Datatype.INT, send, 0, block, Datatype.INT);
            out.add(send);
        }
    }

    /** Several nonblocking collectives in flight at once, completed in reverse order. */
    private static void nonblocking(final Intracomm c, final List<Object> out)
    {
        final int rank = c.rank();
        final List<Request> requests = new ArrayList<>();
        final List<Object> buffers = new ArrayList<>();
        for (int i = 0; i < 6; i++)
        {
            final int count = i % 2 == 0 ? 5 : 6000;
            final int[] data = ints(count, rank == i % c.size() ? 900 + i : -1);
            requests.add(c.ibcast(data, 0, count, Datatype.INT, i % c.size()));
            buffers.add(data);
            final int[] sum = new int[count];
            requests.add(c.iallreduce(ints(count, rank), 0, sum, 0, count, Datatype.INT, Op.SUM));
            buffers.add(sum);
            requests.add(c.ibarrier());
        }
        for (int i = requests.size() - 1; i >= 0; i--)
        {
            requests.get(i).await();
        }
        out.addAll(buffers);
    }

    // ------------------------------------------------------------------------------------------ helpers

    // ------------------------------------------------------------------------------------------ MULTIPLE

    @ParameterizedTest
    @ValueSource(ints = {2, 3, 5})
    @Timeout(600)
    void shouldRunOnSeveralCommunicatorsFromSeveralThreadsAtOnce(final int size)
    {
        severalCommunicatorsAtOnce(size, node("16k"));
    }

    @ParameterizedTest
    @ValueSource(ints = {2, 3})
    @Timeout(600)
    void shouldRunOnSeveralCommunicatorsFromSeveralThreadsAtOnceThroughFiles(final int size) throws Exception
    {
        severalCommunicatorsAtOnce(size, file("16k"));
        assertNoRegionFiles();
    }

    private static void severalCommunicatorsAtOnce(final int size, final Map<String, String> params)
    {
        final AtomicLong checked = new AtomicLong();
        Ranks.run(size, ThreadLevel.MULTIPLE, params, (mpi, world) ->
        {
            final Intracomm[] comms = {world.dup(), world.dup(), world.split(0, world.size() - world.rank())};
            final Thread[] threads = new Thread[comms.length];
            final Throwable[] failures = new Throwable[comms.length];
            for (int t = 0; t < comms.length; t++)
            {
                final Intracomm c = comms[t];
                final int id = t;
                threads[t] = Thread.ofPlatform().start(() ->
                {
                    try
                    {
                        final SplittableRandom random = new SplittableRandom(id * 100 + c.rank());
                        for (int i = 0; i < 150; i++)
                        {
                            final int count = i % 3 == 0 ? 5000 : 3;
                            delay(random);
                            final long[] sum = new long[count];
                            c.allreduce(longs(count, c.rank() + i), 0, sum, 0, count, Datatype.LONG, Op.SUM);
                            final long base = (long)c.size() * (c.size() - 1) / 2 + (long)c.size() * i;
                            for (int k = 0; k < count; k++)
                            {
                                assertEquals(base + (long)c.size() * k, sum[k], "allreduce on comm " + id + ", call " + i + ", element " + k);
                            }
                            final int root = i % c.size();
                            final long[] data = longs(count, c.rank() == root ? 7 * i : -1);
                            c.bcast(data, 0, count, Datatype.LONG, root);
                            assertEquals(7L * i + count - 1, data[count - 1]);
                            // Rooted calls back to back: non-roots of gather and reduce run a call ahead.
                            final long[] gathered = new long[2 * c.size()];
                            c.gather(new long[] {c.rank(), i}, 0, 2, Datatype.LONG, gathered, 0, 2, Datatype.LONG, root);
                            final long[] reduced = new long[1];
                            c.reduce(new long[] {c.rank() + i}, 0, reduced, 0, 1, Datatype.LONG, Op.SUM, root);
                            if (c.rank() == root)
                            {
                                assertEquals(c.size() - 1, gathered[2 * (c.size() - 1)], "gather on comm " + id + ", call " + i);
                                assertEquals(i, gathered[2 * c.size() - 1], "gather on comm " + id + ", call " + i);
                                assertEquals((long)c.size() * (c.size() - 1) / 2 + (long)c.size() * i, reduced[0], "reduce on comm " + id);
                            }
                            c.barrier();
                            checked.incrementAndGet();
                        }
                    }
                    catch (final Throwable ex)
                    {
                        failures[id] = ex;
                    }
                });
            }
            for (int t = 0; t < comms.length; t++)
            {
                threads[t].join();
                if (failures[t] != null)
                {
                    throw failures[t];
                }
            }
            for (final Intracomm c : comms)
            {
                c.free();
            }
        });
        assertTrue(checked.get() == 3L * 150 * size, "iterations checked: " + checked.get());
    }

    /** A rank whose own block does not match its receive blocks fails, and so do the ranks that would read it. */
    @ParameterizedTest
    @ValueSource(ints = {2, 3})
    @Timeout(120)
    void shouldFailEveryReaderWhenOneRankCannotPostItsBlock(final int size)
    {
        for (final Map<String, String> params : List.of(node("16k"), file("16k")))
        {
            failEveryReader(size, params);
        }
    }

    private static void failEveryReader(final int size, final Map<String, String> params)
    {
        Ranks.run(size, ThreadLevel.SINGLE, params, (mpi, world) ->
        {
            final int sendCount = world.rank() == 0 ? 3 : 2;
            final int[] all = ints(2 * size, -1);
            final MpiException e = org.junit.jupiter.api.Assertions.assertThrows(MpiException.class,
                () -> world.allgather(ints(sendCount, 1), 0, sendCount, Datatype.INT, all, 0, 2, Datatype.INT));
            assertEquals(world.rank() == 0 ? org.jmpi.ErrorClass.ERR_TRUNCATE : org.jmpi.ErrorClass.ERR_OTHER, e.errorClass(), e.getMessage());
            final int[] again = ints(2 * size, -1);
            world.allgather(ints(2, world.rank()), 0, 2, Datatype.INT, again, 0, 2, Datatype.INT);
            assertEquals(31 * (size - 1), again[2 * (size - 1)], "the communicator works afterwards");
        });
    }

    /**
     * Through files, a gather or reduce sender whose part fits one round runs ahead without learning the root's
     * total: where the root's total takes several rounds (or the other way round), the root fails with ERR_TRUNCATE
     * and waits for no round that a sender will never post; the communicator works afterwards.
     */
    @ParameterizedTest
    @ValueSource(ints = {2, 3})
    @Timeout(120)
    void shouldNotWaitForRoundsARunningAheadSenderNeverPosts(final int size)
    {
        Ranks.run(size, ThreadLevel.SINGLE, file("1k"), (mpi, world) ->
        {
            final int root = size - 1;
            for (final boolean rootLarge : new boolean[] {true, false})
            {
                final boolean large = (world.rank() == root) == rootLarge;
                final int count = large ? 300 : 2;
                final int[] all = ints(300 * size, -1);
                final int[] sum = ints(300, -1);
                for (final boolean reduce : new boolean[] {false, true})
                {
                    final org.jmpi.ErrorClass got = errorOf(() ->
                    {
                        if (reduce)
                        {
                            world.reduce(ints(count, 1), 0, sum, 0, count, Datatype.INT, Op.SUM, root);
                        }
                        else
                        {
                            world.gather(ints(count, 1), 0, count, Datatype.INT, all, 0, count, Datatype.INT, root);
                        }
                    });
                    final String what = (reduce ? "reduce" : "gather") + ", root " + (rootLarge ? "large" : "small") + ", rank " +
                        world.rank();
                    if (world.rank() == root)
                    {
                        assertEquals(org.jmpi.ErrorClass.ERR_TRUNCATE, got, what);
                    }
                    else if (large)
                    {
                        assertEquals(org.jmpi.ErrorClass.ERR_TRUNCATE, got, what + " (learns the root's total)");
                    }
                    else
                    {
                        assertEquals(org.jmpi.ErrorClass.SUCCESS, got, what + " (ran ahead)");
                    }
                }
            }
            final int[] gathered = ints(300 * size, -1);
            world.gather(ints(300, world.rank()), 0, 300, Datatype.INT, gathered, 0, 300, Datatype.INT, root);
            if (world.rank() == root)
            {
                assertEquals(31 * (size - 1), gathered[300 * (size - 1)], "the communicator works afterwards");
            }
        });
    }

    private static org.jmpi.ErrorClass errorOf(final Runnable call)
    {
        try
        {
            call.run();
            return org.jmpi.ErrorClass.SUCCESS;
        }
        catch (final MpiException e)
        {
            return e.errorClass();
        }
    }

    /** Many more ranks than cores (16 threads on the 2-vCPU machine): every wait must yield or park, never only spin. */
    @ParameterizedTest
    @ValueSource(ints = {4, 16})
    @Timeout(600)
    void shouldProgressWithManyMoreRanksThanCores(final int size)
    {
        manyRanks(size, node("16k"));
    }

    /** As above, through a region file: peers are woken through the transport, not the shared engine. */
    @ParameterizedTest
    @ValueSource(ints = {4, 8})
    @Timeout(600)
    void shouldProgressThroughFilesWithManyMoreRanksThanCores(final int size)
    {
        manyRanks(size, file("16k"));
    }

    private static void manyRanks(final int size, final Map<String, String> params)
    {
        Ranks.run(size, ThreadLevel.SINGLE, params, (mpi, world) ->
        {
            for (int i = 0; i < 100; i++)
            {
                final int count = i % 10 == 0 ? 6000 : 2;
                final long[] sum = new long[count];
                world.allreduce(longs(count, world.rank()), 0, sum, 0, count, Datatype.LONG, Op.SUM);
                assertEquals((long)size * (size - 1) / 2 + (long)size * (count - 1), sum[count - 1]);
                final long[] data = longs(count, world.rank() == i % size ? i : -1);
                world.bcast(data, 0, count, Datatype.LONG, i % size);
                assertEquals(i, data[0]);
                world.barrier();
            }
            assertTrue(NodeCollectives.callsStarted(CommInternals.state(world)) >= 300);
        });
    }

    private static long[] longs(final int count, final long seed)
    {
        final long[] a = new long[count];
        for (int i = 0; i < count; i++)
        {
            a[i] = seed < 0 ? seed : seed + i;
        }
        return a;
    }
}
