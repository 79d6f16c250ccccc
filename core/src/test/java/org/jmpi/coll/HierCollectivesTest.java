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
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;

import org.jmpi.Comm;
import org.jmpi.CommInternals;
import org.jmpi.Datatype;
import org.jmpi.Intracomm;
import org.jmpi.Op;
import org.jmpi.Ranks;
import org.jmpi.Request;
import org.jmpi.ThreadLevel;
import org.jmpi.internal.coll.hier.HierComm;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The two-level collectives (org.jmpi.internal.coll.hier) against the flat point-to-point algorithms: one body
 * runs in a job whose ranks (threads) count as on the nodes a layout names ({@link FakeNodes}), where barrier,
 * bcast, reduce, allreduce and allgather choose two levels, and in a job of as many ranks on one node with the
 * point-to-point algorithms forced; every rank's results, error classes included, must be equal. Layouts of 2 to 8
 * ranks with uneven nodes, consecutive or interleaved; the body covers every predefined op on every predefined type
 * (combinations that do not apply must fail alike), MINLOC/MAXLOC, a non-commutative user op (two levels with
 * consecutive nodes, flat otherwise), a commutative user op on a derived type, reductions on a strided type,
 * roots everywhere, IN_PLACE, derived send and receive types, dup, split and create (ranks reversed)
 * communicators, nonblocking calls in flight together and persistent calls restarted.
 */
class HierCollectivesTest
{
    private static final String[] OPS = {"barrier", "bcast", "reduce", "allreduce", "allgather"};
    private static final String[] P2P = {"dissemination", "binomial", "binomial", "recursive_doubling", "ring"};

    private static String[] layout(final int size)
    {
        return switch (size)
        {
            case 2 -> new String[] {"a", "b"};
            case 3 -> new String[] {"a", "a", "b"};
            case 4 -> new String[] {"a", "b", "a", "b"};
            case 5 -> new String[] {"a", "a", "a", "b", "b"};
            case 6 -> new String[] {"a", "b", "b", "a", "c", "c"};
            case 7 -> new String[] {"a", "b", "b", "b", "b", "c", "c"};
            case 8 -> new String[] {"x", "y", "y", "y", "x", "z", "y", "z"};
            default -> throw new IllegalArgumentException("no layout of " + size);
        };
    }

    private static Map<String, String> flat()
    {
        final Map<String, String> p = new HashMap<>();
        for (int i = 0; i < OPS.length; i++)
        {
            p.put("jmpi.coll." + OPS[i] + ".algorithm", P2P[i]);
        }
        return p;
    }

    private static Map<String, String> hier()
    {
        final Map<String, String> p = new HashMap<>();
        for (final String op : OPS)
        {
            p.put("jmpi.coll." + op + ".algorithm", "hier");
        }
        return p;
    }

    @ParameterizedTest
    @ValueSource(ints = {2, 3, 4, 5, 6, 7, 8})
    @Timeout(900)
    void shouldMatchTheFlatAlgorithms(final int size)
    {
        final String[] nodes = layout(size);
        final boolean twoLevel = Arrays.stream(nodes).distinct().count() < size;
        final Map<Integer, List<Object>> expected = new ConcurrentHashMap<>();
        Ranks.run(size, ThreadLevel.SINGLE, flat(), (mpi, world) ->
        {
            final List<Object> out = new ArrayList<>();
            body(world, out);
            assertEquals(0, HierComm.of(CommInternals.state(world)).callsStarted(), "flat job took two levels");
            expected.put(world.rank(), out);
        });
        final Map<Integer, List<Object>> actual = new ConcurrentHashMap<>();
        FakeNodes.run(nodes, ThreadLevel.SINGLE, size % 2 == 0 ? Map.of() : hier(), (mpi, world) ->
        {
            final List<Object> out = new ArrayList<>();
            body(world, out);
            final long calls = HierComm.of(CommInternals.state(world)).callsStarted();
            assertEquals(twoLevel, calls > 0, "two-level calls on world of " + Arrays.toString(nodes) + ": " + calls);
            actual.put(world.rank(), out);
        });
        for (int r = 0; r < size; r++)
        {
            final List<Object> e = expected.get(r);
            final List<Object> a = actual.get(r);
            assertEquals(e.size(), a.size(), "rank " + r + " recorded a different number of results");
            for (int i = 0; i < e.size(); i++)
            {
                if (!java.util.Objects.deepEquals(e.get(i), a.get(i)))
                {
                    fail(Arrays.toString(nodes) + ": rank " + r + ", result " + i + " differs: flat " + show(e.get(i)) + ", two-level " +
                        show(a.get(i)));
                }
            }
        }
    }

    /** The layout's consequences: the choice, the order kept for non-commutative ops, the parameter's values. */
    @Test
    @Timeout(120)
    void shouldChooseTwoLevelsOnlyWhereTheLayoutAllows()
    {
        FakeNodes.run(new String[] {"a", "b", "a", "b"}, ThreadLevel.SINGLE, Map.of(), (mpi, world) ->
        {
            final HierComm h = HierComm.of(CommInternals.state(world));
            assertTrue(h.twoLevel());
            assertFalse(h.contiguous());
            final long before = h.callsStarted();
            final long[] maps = {2 + world.rank(), world.rank()};
            final long[] composed = new long[2];
            world.allreduce(maps, 0, composed, 0, 1, AffineOp.PAIR, AffineOp.AFFINE);
            assertEquals(before, h.callsStarted(), "a non-commutative op on interleaved nodes stays flat");
            world.allreduce(new int[] {1}, 0, new int[1], 0, 1, Datatype.INT, Op.SUM);
            assertEquals(before + 1, h.callsStarted());
            // One node's ranks (split_type SHARED) and one rank per node: one level.
            final Intracomm shared = world.splitType(Comm.TYPE_SHARED, 0);
            assertEquals(2, shared.size());
            assertFalse(HierComm.of(CommInternals.state(shared)).twoLevel());
            final Intracomm oneEach = world.split(world.rank() / 2, 0);
            assertFalse(HierComm.of(CommInternals.state(oneEach)).twoLevel());
            shared.free();
            oneEach.free();
        });
    }

    /** MULTIPLE (a progress thread runs the levels): two communicators used from two threads of every rank at once. */
    @Test
    @Timeout(300)
    void shouldRunOnTwoCommunicatorsFromTwoThreadsUnderMultiple()
    {
        FakeNodes.run(new String[] {"a", "a", "b", "b", "b"}, ThreadLevel.MULTIPLE, Map.of(), (mpi, world) ->
        {
            final Intracomm[] comms = {world.dup(), world.split(0, world.size() - world.rank())};
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
                        for (int i = 0; i < 60; i++)
                        {
                            final int count = i % 3 == 0 ? 3000 : 3;
                            final long[] sum = new long[count];
                            final long[] mine = new long[count];
                            Arrays.fill(mine, c.rank() + i);
                            c.allreduce(mine, 0, sum, 0, count, Datatype.LONG, Op.SUM);
                            final long expected = (long)c.size() * (c.size() - 1) / 2 + (long)c.size() * i;
                            assertEquals(expected, sum[count - 1], "allreduce on comm " + id + ", call " + i);
                            final int root = i % c.size();
                            final long[] data = new long[count];
                            Arrays.fill(data, c.rank() == root ? 7L * i : -1);
                            final Request r = c.ibcast(data, 0, count, Datatype.LONG, root);
                            c.barrier();
                            r.await();
                            assertEquals(7L * i, data[count - 1], "bcast on comm " + id + ", call " + i);
                        }
                        assertTrue(HierComm.of(CommInternals.state(c)).callsStarted() >= 180, "two-level calls on comm " + id);
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
    }

    // ------------------------------------------------------------------------------------------ the body

    private static void body(final Intracomm world, final List<Object> out)
    {
        final SplittableRandom random = new SplittableRandom(4321 + world.rank());
        out.add(world.size());
        everyCall(world, random, out, true);
        final Intracomm dup = world.dup();
        final Intracomm split = world.split(world.rank() % 2, -world.rank());
        final int[] reversed = new int[world.size()];
        for (int r = 0; r < reversed.length; r++)
        {
            reversed[r] = world.size() - 1 - r;
        }
        final Intracomm created = world.create(world.group().incl(reversed));
        for (final Intracomm c : new Intracomm[] {dup, split, created})
        {
            out.add(c.size());
            everyCall(c, random, out, false);
        }
        nonblocking(world, out);
        persistent(dup, out);
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

    private static void everyCall(final Intracomm c, final SplittableRandom random, final List<Object> out, final boolean everyType)
    {
        final int rank = c.rank();
        final int size = c.size();
        for (int i = 0; i < 3; i++)
        {
            delay(random);
            c.barrier();
        }
        for (final int count : new int[] {0, 1, 7, 3000})
        {
            for (int root = 0; root < size; root++)
            {
                delay(random);
                final int[] data = ints(count, rank == root ? 100 + root : -1);
                c.bcast(data, 0, count, Datatype.INT, root);
                out.add(data);
            }
        }
        // bcast from a strided root buffer into contiguous receivers, from every root.
        final Datatype every2 = Datatype.vector(500, 1, 2, Datatype.INT).commit();
        for (int root = 0; root < size; root++)
        {
            final int[] strided = ints(1000, rank == root ? 7 + root : -1);
            if (rank == root)
            {
                c.bcast(strided, 0, 1, every2, root);
            }
            else
            {
                c.bcast(strided, 0, 500, Datatype.INT, root);
            }
            out.add(strided);
        }
        reductions(c, random, out, everyType);
        allgathers(c, random, out);
    }

    private static void reductions(final Intracomm c, final SplittableRandom random, final List<Object> out, final boolean everyType)
    {
        final int rank = c.rank();
        final int size = c.size();
        final Datatype[] types = everyType ? TYPES : new Datatype[] {Datatype.INT, Datatype.DOUBLE};
        for (int t = 0; t < types.length; t++)
        {
            final Datatype type = types[t];
            for (int o = 0; o < PREDEFINED.length; o++)
            {
                final Op op = PREDEFINED[o];
                for (final int count : new int[] {1, 2000})
                {
                    delay(random);
                    final Object in = values(type, count, rank);
                    final Object result = values(type, count, -1);
                    out.add(outcome(() -> c.allreduce(in, 0, result, 0, count, type, op), result));
                    final int root = (t + o + count) % size;
                    final Object atRoot = values(type, count, -1);
                    out.add(outcome(() -> c.reduce(in, 0, atRoot, 0, count, type, op, root), atRoot));
                }
                final Object inPlace = values(type, 300, rank);
                out.add(outcome(() -> c.allreduce(Comm.IN_PLACE, 0, inPlace, 0, 300, type, op), inPlace));
                final int root = (t * 5 + o) % size;
                final Object rootInPlace = values(type, 300, rank);
                out.add(outcome(() -> c.reduce(rank == root ? Comm.IN_PLACE : rootInPlace, 0, rank == root ? rootInPlace : null, 0, 300, type,
                    op, root), rootInPlace));
            }
        }
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
                final int[] atRoot = new int[2 * count];
                c.reduce(pairs, 0, atRoot, 0, count, Datatype.INT2, op, count % size);
                out.add(atRoot);
            }
        }
        // A strided type (every other int, extent 2 x 500 - 1 ints) to every root: scratch buffers shaped like it.
        final Datatype every2 = Datatype.vector(500, 1, 2, Datatype.INT).commit();
        for (int root = 0; root < size; root++)
        {
            final int[] mine = ints(1000, rank + 1);
            final int[] sum = ints(1000, -1);
            c.reduce(mine, 0, sum, 0, 1, every2, Op.SUM, root);
            out.add(sum);
            final int[] all = ints(2000, -1);
            c.allreduce(mine, 0, all, 1, 1, every2, Op.MAX);
            out.add(all);
        }
        // User ops: the non-commutative affine composition on pairs of longs and a commutative int sum on a derived type.
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
            for (int root = 0; root < size; root++)
            {
                final int[] atRoot = ints(2 * count, rank);
                if (rank == root)
                {
                    c.reduce(Comm.IN_PLACE, 0, atRoot, 0, count, INT_PAIR, INT_SUM, root);
                }
                else
                {
                    c.reduce(atRoot, 0, null, 0, count, INT_PAIR, INT_SUM, root);
                }
                out.add(atRoot);
            }
        }
    }

    private static void allgathers(final Intracomm c, final SplittableRandom random, final List<Object> out)
    {
        final int rank = c.rank();
        final int size = c.size();
        for (final int block : new int[] {0, 1, 7, 700})
        {
            delay(random);
            final int[] everyone = ints(block * size, -1);
            c.allgather(ints(block, rank), 0, block, Datatype.INT, everyone, 0, block, Datatype.INT);
            out.add(everyone);
            final int[] inPlace = ints(block * size + 3, rank);
            c.allgather(Comm.IN_PLACE, 0, block, Datatype.INT, inPlace, 3, block, Datatype.INT);
            out.add(inPlace);
            if (block > 0)
            {
                // Into a strided receive type: every other int of each block's span.
                final Datatype every2 = Datatype.vector(block, 1, 2, Datatype.INT).commit();
                final int[] spread = ints((int)(every2.extent() / 4) * size, -1);
                c.allgather(ints(block, rank), 0, block, Datatype.INT, spread, 0, 1, every2);
                out.add(spread);
                // From a strided send type into contiguous blocks.
                final int[] gathered = ints(block * size, -1);
                c.allgather(ints(2 * block, rank + 50), 0, 1, every2, gathered, 0, block, Datatype.INT);
                out.add(gathered);
                // IN_PLACE with the strided receive type.
                final int[] spreadInPlace = ints((int)(every2.extent() / 4) * size, rank);
                c.allgather(Comm.IN_PLACE, 0, 0, null, spreadInPlace, 0, 1, every2);
                out.add(spreadInPlace);
            }
        }
        final double[] doubles = new double[3 * size];
        c.allgather(new double[] {rank, rank * 0.5, -rank}, 0, 3, Datatype.DOUBLE, doubles, 0, 3, Datatype.DOUBLE);
        out.add(doubles);
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
            final int[] atRoot = new int[count];
            requests.add(c.ireduce(ints(count, rank), 0, atRoot, 0, count, Datatype.INT, Op.MAX, (i + 1) % c.size()));
            buffers.add(atRoot);
            final int[] all = new int[count * c.size()];
            requests.add(c.iallgather(ints(count, rank), 0, count, Datatype.INT, all, 0, count, Datatype.INT));
            buffers.add(all);
            requests.add(c.ibarrier());
        }
        for (int i = requests.size() - 1; i >= 0; i--)
        {
            requests.get(i).await();
        }
        out.addAll(buffers);
    }

    /** Persistent bcast and allreduce, started again with new contents. */
    private static void persistent(final Intracomm c, final List<Object> out)
    {
        final int rank = c.rank();
        final int root = c.size() - 1;
        final long[] data = new long[100];
        final long[] in = new long[100];
        final long[] sum = new long[100];
        final Request bcast = c.bcastInit(data, 0, 100, Datatype.LONG, root);
        final Request allreduce = c.allreduceInit(in, 0, sum, 0, 100, Datatype.LONG, Op.SUM);
        for (int round = 0; round < 5; round++)
        {
            Arrays.fill(data, rank == root ? 1000L * round + rank : -1);
            Arrays.fill(in, round * 10L + rank);
            bcast.start();
            allreduce.start();
            allreduce.await();
            bcast.await();
            out.add(data.clone());
            out.add(sum.clone());
        }
        bcast.free();
        allreduce.free();
    }
}
