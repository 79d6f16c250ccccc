package org.jmpi.coll;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntConsumer;
import java.util.function.IntPredicate;
import java.util.stream.IntStream;
import java.util.stream.Stream;

import org.jmpi.Comm;
import org.jmpi.Datatype;
import org.jmpi.ErrorClass;
import org.jmpi.Intercomm;
import org.jmpi.MpiException;
import org.jmpi.Op;
import org.jmpi.Ranks;
import org.jmpi.Request;
import org.jmpi.ThreadLevel;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every intercommunicator collective, blocking and nonblocking, against a sequential reference computed from
 * the world ranks: groups of uneven sizes (world rank mod 3 == 0 against the rest, which puts the group with
 * world rank 0 first in the union; and the last world rank alone against the rest, which puts it second),
 * roots at the first and last rank of either group, zero counts, v-variants with zero blocks and gaps, a
 * non-commutative op, all collectives in flight at once completed in reverse order, IN_PLACE and bad roots,
 * and the {@code jmpi.coll.check} mismatch check across the groups; and every persistent one ({@code ...Init}),
 * all initialised on one intercommunicator and started together {@value #EPOCHS} times with data that changes at
 * every start.
 */
@Timeout(120)
class IntercommCollectivesTest
{
    private static final Op AFFINE = AffineOp.AFFINE;

    private static final Datatype PAIR = AffineOp.PAIR;
    private static final long GUARD = -7;
    /** Alltoall blocks above 32 KiB go pairwise: 5000 longs are 40000 bytes. */
    private static final int LARGE = 5000;
    /** Starts of each persistent collective. */
    private static final int EPOCHS = 12;

    /** One process's view of the job: its intercommunicator and both groups' world ranks in local rank order. */
    private record Ctx(Intercomm inter, boolean inA, int world, int rank, int[] local, int[] remote)
    {
        int[] group(final boolean a)
        {
            return a == inA ? local : remote;
        }
    }

    /** Posts one collective (blocking, or nonblocking with the request added to {@code pending}) and returns its check. */
    @FunctionalInterface
    private interface Scenario
    {
        Runnable post(Ctx c, boolean nonblocking, List<Request> pending);
    }

    static Stream<Arguments> jobs()
    {
        final List<Arguments> jobs = new ArrayList<>();
        for (final int size : new int[] {2, 3, 4, 5, 8})
        {
            jobs.add(Arguments.of(size, "mod3"));
            jobs.add(Arguments.of(size, "last"));
        }
        return jobs.stream();
    }

    @ParameterizedTest(name = "{0} ranks, split {1}")
    @MethodSource("jobs")
    void shouldMatchReferenceWhenBlocking(final int size, final String split)
    {
        final AtomicInteger arrived = new AtomicInteger();
        Ranks.run(size, (mpi, world) ->
        {
            final Ctx c = setUp(world, split);
            for (final Scenario sc : scenarios(c, arrived))
            {
                sc.post(c, false, null).run();
            }
        });
    }

    @ParameterizedTest(name = "{0} ranks, split {1}")
    @MethodSource("jobs")
    void shouldMatchReferenceWhenNonblocking(final int size, final String split)
    {
        final AtomicInteger arrived = new AtomicInteger();
        Ranks.run(size, (mpi, world) ->
        {
            final Ctx c = setUp(world, split);
            for (final Scenario sc : scenarios(c, arrived))
            {
                final List<Request> pending = new ArrayList<>();
                final Runnable check = sc.post(c, true, pending);
                assertEquals(1, pending.size());
                pending.get(0).await();
                check.run();
            }
        });
    }

    @ParameterizedTest(name = "{0} ranks, split {1}")
    @MethodSource("jobs")
    void shouldCompleteAllInFlightInReverseOrder(final int size, final String split)
    {
        final AtomicInteger arrived = new AtomicInteger();
        Ranks.run(size, (mpi, world) ->
        {
            final Ctx c = setUp(world, split);
            final List<Request> pending = new ArrayList<>();
            final List<Runnable> checks = new ArrayList<>();
            for (final Scenario sc : scenarios(c, arrived))
            {
                checks.add(sc.post(c, true, pending));
            }
            for (int i = pending.size() - 1; i >= 0; i--)
            {
                pending.get(i).await();
            }
            for (final Runnable check : checks)
            {
                check.run();
            }
            // And a blocking one after them all: the tags still agree.
            Scenarios.allreduceSum(3).post(c, false, null).run();
        });
    }

    @ParameterizedTest
    @ValueSource(ints = {3, 5})
    void shouldCompleteWithoutTestCallsUnderAsyncProgress(final int size)
    {
        final AtomicInteger arrived = new AtomicInteger();
        Ranks.run(size, ThreadLevel.SINGLE, Map.of("jmpi.progress.async", "true"), (mpi, world) ->
        {
            final Ctx c = setUp(world, "last");
            final List<Request> pending = new ArrayList<>();
            final List<Runnable> checks = new ArrayList<>();
            for (final Scenario sc : scenarios(c, arrived))
            {
                checks.add(sc.post(c, true, pending));
            }
            final long deadline = System.nanoTime() + 30_000_000_000L;
            for (final Request r : pending)
            {
                while (r.status() == null && System.nanoTime() < deadline)
                {
                    Thread.onSpinWait();
                }
                assertTrue(r.status() != null, "the progress thread completes the schedules without test calls");
                r.await();
            }
            for (final Runnable check : checks)
            {
                check.run();
            }
        });
    }

    @Test
    void shouldRejectInPlaceAndBadRoots()
    {
        Ranks.run(5, (mpi, world) ->
        {
            final Ctx c = setUp(world, "mod3");
            final Intercomm inter = c.inter();
            final long[] buf = new long[64];
            final Object ip = Comm.IN_PLACE;
            final int root = c.inA() ? (c.rank() == 0 ? Intercomm.ROOT : Comm.PROC_NULL) : 0;
            final List<Runnable> calls = List.of(
                () -> inter.allreduce(ip, 0, buf, 0, 1, Datatype.LONG, Op.SUM),
                () -> inter.iallreduce(ip, 0, buf, 0, 1, Datatype.LONG, Op.SUM),
                () -> inter.reduce(ip, 0, buf, 0, 1, Datatype.LONG, Op.SUM, root),
                () -> inter.gather(ip, 0, 1, Datatype.LONG, buf, 0, 1, Datatype.LONG, root),
                () -> inter.gatherv(ip, 0, 1, Datatype.LONG, buf, 0, new int[8], new int[8], Datatype.LONG, root),
                () -> inter.scatter(buf, 0, 1, Datatype.LONG, ip, 0, 1, Datatype.LONG, root),
                () -> inter.iscatterv(buf, 0, new int[8], new int[8], Datatype.LONG, ip, 0, 1, Datatype.LONG, root),
                () -> inter.allgather(ip, 0, 1, Datatype.LONG, buf, 0, 1, Datatype.LONG),
                () -> inter.allgatherv(buf, 0, 1, Datatype.LONG, ip, 0, new int[8], new int[8], Datatype.LONG),
                () -> inter.alltoall(ip, 0, 1, Datatype.LONG, buf, 0, 1, Datatype.LONG),
                () -> inter.alltoallv(ip, 0, new int[8], new int[8], Datatype.LONG, buf, 0, new int[8], new int[8], Datatype.LONG),
                () -> inter.reduceScatterBlock(ip, 0, buf, 0, 1, Datatype.LONG, Op.SUM),
                () -> inter.reduceScatter(ip, 0, buf, 0, new int[8], Datatype.LONG, Op.SUM),
                () -> inter.bcast(ip, 0, 1, Datatype.LONG, root));
            for (final Runnable call : calls)
            {
                final MpiException ex = assertThrows(MpiException.class, call::run);
                assertEquals(ErrorClass.ERR_BUFFER, ex.errorClass(), ex.getMessage());
            }
            // A root that is neither ROOT, PROC_NULL nor a rank of the remote group.
            final MpiException bad = assertThrows(MpiException.class, () -> inter.bcast(buf, 0, 1, Datatype.LONG, c.remote().length));
            assertEquals(ErrorClass.ERR_ROOT, bad.errorClass(), bad.getMessage());
            final MpiException neg = assertThrows(MpiException.class,
                () -> inter.ireduce(buf, 0, buf, 1, 1, Datatype.LONG, Op.SUM, -17));
            assertEquals(ErrorClass.ERR_ROOT, neg.errorClass(), neg.getMessage());
            // The intercommunicator still works: nothing was posted by the rejected calls.
            Scenarios.allreduceSum(2).post(c, false, null).run();
        });
    }

    @ParameterizedTest
    @ValueSource(ints = {3, 5})
    void shouldDetectMismatchedCallsWithTheCheckOn(final int size)
    {
        final AtomicInteger arrived = new AtomicInteger();
        Ranks.run(size, ThreadLevel.SINGLE, Map.of("jmpi.coll.check", "true"), (mpi, world) ->
        {
            final Ctx c = setUp(world, "mod3");
            for (final Scenario sc : scenarios(c, arrived))
            {
                sc.post(c, false, null).run();
            }
            // Group A calls barrier while group B calls allreduce: every process fails instead of hanging.
            final long[] buf = new long[2];
            final MpiException ex = assertThrows(MpiException.class, () ->
            {
                if (c.inA())
                {
                    c.inter().barrier();
                }
                else
                {
                    c.inter().allreduce(buf, 0, buf, 1, 1, Datatype.LONG, Op.SUM);
                }
            });
            assertEquals(ErrorClass.ERR_OTHER, ex.errorClass(), ex.getMessage());
            assertTrue(ex.getMessage().contains("mismatch"), ex.getMessage());
            Scenarios.allreduceSum(2).post(c, false, null).run();
        });
    }

    static Stream<Arguments> persistentJobs()
    {
        final List<Arguments> jobs = new ArrayList<>();
        for (final int size : new int[] {2, 3, 5})
        {
            jobs.add(Arguments.of(size, "mod3"));
            jobs.add(Arguments.of(size, "last"));
        }
        return jobs.stream();
    }

    /**
     * Every persistent intercommunicator collective, all initialised in the same order on every process, then per
     * epoch: fill the send buffers with that epoch's data and the receive buffers with guards, start all in order,
     * complete them in reverse order, check each against the reference for that epoch.
     */
    @ParameterizedTest(name = "{0} ranks, split {1}")
    @MethodSource("persistentJobs")
    void shouldMatchReferenceOnEveryStartWhenPersistent(final int size, final String split)
    {
        final AtomicInteger arrived = new AtomicInteger();
        Ranks.run(size, (mpi, world) ->
        {
            final Ctx c = setUp(world, split);
            final List<Persistent> runs = new ArrayList<>();
            for (final PersistentScenario sc : persistentScenarios(c, arrived))
            {
                runs.add(sc.init(c));
            }
            final Request[] requests = runs.stream().map(Persistent::request).toArray(Request[]::new);
            for (int epoch = 0; epoch < EPOCHS; epoch++)
            {
                for (final Persistent run : runs)
                {
                    run.fill().accept(epoch);
                }
                Request.startAll(requests);
                for (int i = requests.length - 1; i >= 0; i--)
                {
                    requests[i].await();
                }
                for (final Persistent run : runs)
                {
                    run.check().accept(epoch);
                }
            }
            // A blocking collective after them all: the tags still agree.
            Scenarios.allreduceSum(3).post(c, false, null).run();
        });
    }

    // ------------------------------------------------------------------------------------------ set-up

    private static Ctx setUp(final Comm world, final String split)
    {
        final int size = world.size();
        final int rank = world.rank();
        final IntPredicate inA = split.equals("mod3") ? r -> r % 3 == 0 : r -> r == size - 1;
        final int[] a = IntStream.range(0, size).filter(inA).toArray();
        final int[] b = IntStream.range(0, size).filter(inA.negate()).toArray();
        final boolean mine = inA.test(rank);
        final Comm half = world.split(mine ? 0 : 1, rank);
        final Intercomm inter = Intercomm.create(half, 0, world, mine ? b[0] : a[0], 77);
        final int[] local = mine ? a : b;
        final int[] remote = mine ? b : a;
        assertEquals(local.length, inter.size());
        assertEquals(remote.length, inter.remoteSize());
        assertEquals(rank, local[inter.rank()]);
        return new Ctx(inter, mine, rank, inter.rank(), local, remote);
    }

    /** The same list, in the same order, on every process. */
    private static List<Scenario> scenarios(final Ctx c, final AtomicInteger arrived)
    {
        final List<Scenario> list = new ArrayList<>();
        list.add(Scenarios.barrier(arrived));
        for (final boolean rootInA : new boolean[] {true, false})
        {
            final int rootGroupSize = c.group(rootInA).length;
            for (final int rootIdx : rootGroupSize > 1 ? new int[] {0, rootGroupSize - 1} : new int[] {0})
            {
                for (final int count : new int[] {0, 3})
                {
                    list.add(Scenarios.bcast(rootInA, rootIdx, count));
                    list.add(Scenarios.gather(rootInA, rootIdx, count));
                    list.add(Scenarios.gatherv(rootInA, rootIdx, count));
                    list.add(Scenarios.scatter(rootInA, rootIdx, count));
                    list.add(Scenarios.scatterv(rootInA, rootIdx, count));
                    list.add(Scenarios.reduceSum(rootInA, rootIdx, count));
                    list.add(Scenarios.reduceAffine(rootInA, rootIdx, count));
                }
            }
            list.add(Scenarios.bcast(rootInA, 0, LARGE));
        }
        for (final int count : new int[] {0, 1, 4})
        {
            list.add(Scenarios.allgather(count));
            list.add(Scenarios.allgatherv(count));
            list.add(Scenarios.alltoall(count));
            list.add(Scenarios.alltoallv(count));
            list.add(Scenarios.alltoallw(count));
            list.add(Scenarios.allreduceSum(count));
            list.add(Scenarios.allreduceAffine(count));
            list.add(Scenarios.reduceScatterBlockSum(count));
            list.add(Scenarios.reduceScatterBlockAffine(count));
            list.add(Scenarios.reduceScatterSum(count * 5 + 3 * count % 2));
        }
        list.add(Scenarios.alltoall(LARGE));
        list.add(Scenarios.reduceScatterSum(0));
        return list;
    }

    /** The persistent scenarios, in the same order on every process. */
    private static List<PersistentScenario> persistentScenarios(final Ctx c, final AtomicInteger arrived)
    {
        final List<PersistentScenario> list = new ArrayList<>();
        list.add(PersistentScenarios.barrier(arrived));
        for (final boolean rootInA : new boolean[] {true, false})
        {
            final int rootGroupSize = c.group(rootInA).length;
            for (final int rootIdx : rootGroupSize > 1 ? new int[] {0, rootGroupSize - 1} : new int[] {0})
            {
                list.add(PersistentScenarios.bcast(rootInA, rootIdx, 3));
                list.add(PersistentScenarios.gather(rootInA, rootIdx, 3));
                list.add(PersistentScenarios.gatherv(rootInA, rootIdx, 2));
                list.add(PersistentScenarios.scatter(rootInA, rootIdx, 3));
                list.add(PersistentScenarios.scatterv(rootInA, rootIdx, 2));
                list.add(PersistentScenarios.reduce(rootInA, rootIdx, 3, false));
                list.add(PersistentScenarios.reduce(rootInA, rootIdx, 3, true));
            }
            list.add(PersistentScenarios.bcast(rootInA, 0, LARGE));
        }
        for (final int count : new int[] {1, 4})
        {
            list.add(PersistentScenarios.allgather(count));
            list.add(PersistentScenarios.allgatherv(count));
            list.add(PersistentScenarios.alltoall(count));
            list.add(PersistentScenarios.alltoallv(count, false));
            list.add(PersistentScenarios.alltoallv(count, true));
            list.add(PersistentScenarios.allreduce(count, false));
            list.add(PersistentScenarios.allreduce(count, true));
            list.add(PersistentScenarios.reduceScatterBlock(count, false));
            list.add(PersistentScenarios.reduceScatterBlock(count, true));
            list.add(PersistentScenarios.reduceScatter(count * 5 + 1));
        }
        list.add(PersistentScenarios.alltoall(LARGE));
        return list;
    }

    // ------------------------------------------------------------------------------------------ reference data

    private static long value(final int world, final int i)
    {
        return world * 1_000_003L + i * 7L + 1;
    }

    private static long pairValue(final int from, final int to, final int i)
    {
        return from * 10_000_000L + to * 100_000L + i;
    }

    private static long[] values(final int world, final int count)
    {
        final long[] v = new long[count];
        for (int i = 0; i < count; i++)
        {
            v[i] = value(world, i);
        }
        return v;
    }

    private static long[] sums(final int[] ranks, final int count)
    {
        final long[] v = new long[count];
        for (final int r : ranks)
        {
            for (int i = 0; i < count; i++)
            {
                v[i] += value(r, i);
            }
        }
        return v;
    }

    private static long[] affine(final int world, final int count)
    {
        final long[] v = new long[2 * count];
        for (int i = 0; i < count; i++)
        {
            v[2 * i] = world + 2 + i % 3;
            v[2 * i + 1] = world * 5 + 1 + i;
        }
        return v;
    }

    /** The affine maps of {@code ranks}, composed in list order. */
    private static long[] affineFold(final int[] ranks, final int count)
    {
        long[] acc = affine(ranks[0], count);
        for (int k = 1; k < ranks.length; k++)
        {
            final long[] b = affine(ranks[k], count);
            final long[] next = new long[2 * count];
            for (int i = 0; i < count; i++)
            {
                next[2 * i] = acc[2 * i] * b[2 * i];
                next[2 * i + 1] = b[2 * i] * acc[2 * i + 1] + b[2 * i + 1];
            }
            acc = next;
        }
        return acc;
    }

    /** A buffer of {@code length} guards. */
    private static long[] guarded(final int length)
    {
        final long[] b = new long[length];
        java.util.Arrays.fill(b, GUARD);
        return b;
    }

    /** Displacements placing blocks of {@code counts} in reverse order with one guard element between them (from 1). */
    private static int[] reversedDispls(final int[] counts)
    {
        final int[] displs = new int[counts.length];
        int pos = 1;
        for (int j = counts.length - 1; j >= 0; j--)
        {
            displs[j] = pos;
            pos += counts[j] + 1;
        }
        return displs;
    }

    private static int span(final int[] counts)
    {
        int n = 2;
        for (final int k : counts)
        {
            n += k + 1;
        }
        return n;
    }

    /** Checks that {@code buf} holds {@code expected} at {@code displs[j]} for each block and guards everywhere else. */
    private static void assertBlocks(final String what, final long[] buf, final int[] displs, final long[][] expected)
    {
        final long[] want = guarded(buf.length);
        for (int j = 0; j < expected.length; j++)
        {
            System.arraycopy(expected[j], 0, want, displs[j], expected[j].length);
        }
        assertArrayEquals(want, buf, what);
    }

    private static void assertGuarded(final String what, final long[] buf)
    {
        assertArrayEquals(guarded(buf.length), buf, what + ": buffer must be untouched");
    }

    private static Request post(final boolean nonblocking, final List<Request> pending, final Runnable blocking,
        final java.util.function.Supplier<Request> nb)
    {
        if (nonblocking)
        {
            final Request r = nb.get();
            pending.add(r);
            return r;
        }
        blocking.run();
        return null;
    }

    // ------------------------------------------------------------------------------------------ scenarios

    /** The collectives and their checks. */
    private static final class Scenarios
    {
        private Scenarios()
        {
        }

        /** The root argument of this process: ROOT / PROC_NULL in the root's group, the root's rank in the other. */
        static int rootArg(final Ctx c, final boolean rootInA, final int rootIdx)
        {
            if (c.inA() == rootInA)
            {
                return c.rank() == rootIdx ? Intercomm.ROOT : Comm.PROC_NULL;
            }
            return rootIdx;
        }

        static Scenario barrier(final AtomicInteger arrived)
        {
            return (c, nb, p) ->
            {
                arrived.incrementAndGet();
                post(nb, p, () -> c.inter().barrier(), () -> c.inter().ibarrier());
                final int total = c.local().length + c.remote().length;
                return () -> assertEquals(total, arrived.get(), "barrier: a process left before every process had arrived");
            };
        }

        static Scenario bcast(final boolean rootInA, final int rootIdx, final int count)
        {
            return (c, nb, p) ->
            {
                final int rootWorld = c.group(rootInA)[rootIdx];
                final int root = rootArg(c, rootInA, rootIdx);
                final long[] buf = guarded(count + 2);
                if (root == Intercomm.ROOT)
                {
                    System.arraycopy(values(rootWorld, count), 0, buf, 1, count);
                }
                post(nb, p, () -> c.inter().bcast(buf, 1, count, Datatype.LONG, root),
                    () -> c.inter().ibcast(buf, 1, count, Datatype.LONG, root));
                return () ->
                {
                    final String what = "bcast from " + rootWorld + " count " + count;
                    if (root == Comm.PROC_NULL)
                    {
                        assertGuarded(what, buf);
                    }
                    else
                    {
                        assertBlocks(what, buf, new int[] {1}, new long[][] {values(rootWorld, count)});
                    }
                };
            };
        }

        static Scenario gather(final boolean rootInA, final int rootIdx, final int count)
        {
            return (c, nb, p) ->
            {
                final int root = rootArg(c, rootInA, rootIdx);
                final int r = c.remote().length;
                final long[] send = root >= 0 ? values(c.world(), count) : null;
                final long[] recv = root == Intercomm.ROOT ? guarded(r * count + 2) : null;
                post(nb, p, () -> c.inter().gather(send, 0, count, Datatype.LONG, recv, 1, count, Datatype.LONG, root),
                    () -> c.inter().igather(send, 0, count, Datatype.LONG, recv, 1, count, Datatype.LONG, root));
                return () ->
                {
                    if (root == Intercomm.ROOT)
                    {
                        final long[][] want = new long[r][];
                        final int[] displs = new int[r];
                        for (int j = 0; j < r; j++)
                        {
                            want[j] = values(c.remote()[j], count);
                            displs[j] = 1 + j * count;
                        }
                        assertBlocks("gather at " + c.world() + " count " + count, recv, displs, want);
                    }
                };
            };
        }

        /** Rank k of a group contributes ((k + 1) % 3) * unit items: zero blocks included. */
        static int vcount(final int k, final int unit)
        {
            return (k + 1) % 3 * unit;
        }

        static int[] vcounts(final int blocks, final int unit)
        {
            return IntStream.range(0, blocks).map(k -> vcount(k, unit)).toArray();
        }

        static Scenario gatherv(final boolean rootInA, final int rootIdx, final int unit)
        {
            return (c, nb, p) ->
            {
                final int root = rootArg(c, rootInA, rootIdx);
                final int r = c.remote().length;
                final int[] counts = vcounts(r, unit);
                final int[] displs = reversedDispls(counts);
                final int mine = vcount(c.rank(), unit);
                final long[] send = root >= 0 ? values(c.world(), mine) : null;
                final long[] recv = root == Intercomm.ROOT ? guarded(span(counts)) : null;
                post(nb, p, () -> c.inter().gatherv(send, 0, mine, Datatype.LONG, recv, 0, counts, displs, Datatype.LONG, root),
                    () -> c.inter().igatherv(send, 0, mine, Datatype.LONG, recv, 0, counts, displs, Datatype.LONG, root));
                return () ->
                {
                    if (root == Intercomm.ROOT)
                    {
                        final long[][] want = new long[r][];
                        for (int j = 0; j < r; j++)
                        {
                            want[j] = values(c.remote()[j], counts[j]);
                        }
                        assertBlocks("gatherv at " + c.world() + " unit " + unit, recv, displs, want);
                    }
                };
            };
        }

        static Scenario scatter(final boolean rootInA, final int rootIdx, final int count)
        {
            return (c, nb, p) ->
            {
                final int root = rootArg(c, rootInA, rootIdx);
                final int r = c.remote().length;
                long[] send = null;
                if (root == Intercomm.ROOT)
                {
                    send = new long[r * count];
                    for (int j = 0; j < r; j++)
                    {
                        System.arraycopy(values(c.remote()[j], count), 0, send, j * count, count);
                    }
                }
                final long[] s = send;
                final long[] recv = root >= 0 ? guarded(count + 2) : null;
                post(nb, p, () -> c.inter().scatter(s, 0, count, Datatype.LONG, recv, 1, count, Datatype.LONG, root),
                    () -> c.inter().iscatter(s, 0, count, Datatype.LONG, recv, 1, count, Datatype.LONG, root));
                return () ->
                {
                    if (root >= 0)
                    {
                        assertBlocks("scatter to " + c.world() + " count " + count, recv, new int[] {1},
                            new long[][] {values(c.world(), count)});
                    }
                };
            };
        }

        static Scenario scatterv(final boolean rootInA, final int rootIdx, final int unit)
        {
            return (c, nb, p) ->
            {
                final int root = rootArg(c, rootInA, rootIdx);
                final int r = c.remote().length;
                final int[] counts = vcounts(r, unit);
                final int[] displs = reversedDispls(counts);
                final long[] send = root == Intercomm.ROOT ? guarded(span(counts)) : null;
                if (send != null)
                {
                    for (int j = 0; j < r; j++)
                    {
                        System.arraycopy(values(c.remote()[j], counts[j]), 0, send, displs[j], counts[j]);
                    }
                }
                final int mine = vcount(c.rank(), unit);
                final long[] recv = root >= 0 ? guarded(mine + 2) : null;
                post(nb, p, () -> c.inter().scatterv(send, 0, counts, displs, Datatype.LONG, recv, 1, mine, Datatype.LONG, root),
                    () -> c.inter().iscatterv(send, 0, counts, displs, Datatype.LONG, recv, 1, mine, Datatype.LONG, root));
                return () ->
                {
                    if (root >= 0)
                    {
                        assertBlocks("scatterv to " + c.world() + " unit " + unit, recv, new int[] {1},
                            new long[][] {values(c.world(), mine)});
                    }
                };
            };
        }

        static Scenario reduceSum(final boolean rootInA, final int rootIdx, final int count)
        {
            return (c, nb, p) ->
            {
                final int root = rootArg(c, rootInA, rootIdx);
                final long[] send = root >= 0 ? values(c.world(), count) : null;
                final long[] recv = root == Intercomm.ROOT ? guarded(count + 2) : null;
                post(nb, p, () -> c.inter().reduce(send, 0, recv, 1, count, Datatype.LONG, Op.SUM, root),
                    () -> c.inter().ireduce(send, 0, recv, 1, count, Datatype.LONG, Op.SUM, root));
                return () ->
                {
                    if (root == Intercomm.ROOT)
                    {
                        assertBlocks("reduce(SUM) at " + c.world() + " count " + count, recv, new int[] {1},
                            new long[][] {sums(c.remote(), count)});
                    }
                };
            };
        }

        static Scenario reduceAffine(final boolean rootInA, final int rootIdx, final int count)
        {
            return (c, nb, p) ->
            {
                final int root = rootArg(c, rootInA, rootIdx);
                final long[] send = root >= 0 ? affine(c.world(), count) : null;
                final long[] recv = root == Intercomm.ROOT ? guarded(2 * count + 2) : null;
                post(nb, p, () -> c.inter().reduce(send, 0, recv, 2, count, PAIR, AFFINE, root),
                    () -> c.inter().ireduce(send, 0, recv, 2, count, PAIR, AFFINE, root));
                return () ->
                {
                    if (root == Intercomm.ROOT)
                    {
                        assertBlocks("reduce(non-commutative) at " + c.world() + " count " + count, recv, new int[] {2},
                            new long[][] {affineFold(c.remote(), count)});
                    }
                };
            };
        }

        static Scenario allgather(final int count)
        {
            return (c, nb, p) ->
            {
                final int r = c.remote().length;
                final long[] send = values(c.world(), count);
                final long[] recv = guarded(r * count + 2);
                post(nb, p, () -> c.inter().allgather(send, 0, count, Datatype.LONG, recv, 1, count, Datatype.LONG),
                    () -> c.inter().iallgather(send, 0, count, Datatype.LONG, recv, 1, count, Datatype.LONG));
                return () ->
                {
                    final long[][] want = new long[r][];
                    final int[] displs = new int[r];
                    for (int j = 0; j < r; j++)
                    {
                        want[j] = values(c.remote()[j], count);
                        displs[j] = 1 + j * count;
                    }
                    assertBlocks("allgather at " + c.world() + " count " + count, recv, displs, want);
                };
            };
        }

        static Scenario allgatherv(final int unit)
        {
            return (c, nb, p) ->
            {
                final int r = c.remote().length;
                final int[] counts = vcounts(r, unit);
                final int[] displs = reversedDispls(counts);
                final int mine = vcount(c.rank(), unit);
                final long[] send = values(c.world(), mine);
                final long[] recv = guarded(span(counts));
                post(nb, p, () -> c.inter().allgatherv(send, 0, mine, Datatype.LONG, recv, 0, counts, displs, Datatype.LONG),
                    () -> c.inter().iallgatherv(send, 0, mine, Datatype.LONG, recv, 0, counts, displs, Datatype.LONG));
                return () ->
                {
                    final long[][] want = new long[r][];
                    for (int j = 0; j < r; j++)
                    {
                        want[j] = values(c.remote()[j], counts[j]);
                    }
                    assertBlocks("allgatherv at " + c.world() + " unit " + unit, recv, displs, want);
                };
            };
        }

        static Scenario alltoall(final int count)
        {
            return (c, nb, p) ->
            {
                final int r = c.remote().length;
                final long[] send = new long[r * count];
                for (int j = 0; j < r; j++)
                {
                    for (int i = 0; i < count; i++)
                    {
                        send[j * count + i] = pairValue(c.world(), c.remote()[j], i);
                    }
                }
                final long[] recv = guarded(r * count + 2);
                post(nb, p, () -> c.inter().alltoall(send, 0, count, Datatype.LONG, recv, 1, count, Datatype.LONG),
                    () -> c.inter().ialltoall(send, 0, count, Datatype.LONG, recv, 1, count, Datatype.LONG));
                return () ->
                {
                    final long[][] want = new long[r][count];
                    final int[] displs = new int[r];
                    for (int j = 0; j < r; j++)
                    {
                        for (int i = 0; i < count; i++)
                        {
                            want[j][i] = pairValue(c.remote()[j], c.world(), i);
                        }
                        displs[j] = 1 + j * count;
                    }
                    assertBlocks("alltoall at " + c.world() + " count " + count, recv, displs, want);
                };
            };
        }

        /** The pair (local rank k of one group, local rank j of the other) exchanges ((k + j) % 3) * unit items each way. */
        static int[] pairCounts(final Ctx c, final int unit)
        {
            return IntStream.range(0, c.remote().length).map(j -> (c.rank() + j) % 3 * unit).toArray();
        }

        static Scenario alltoallv(final int unit)
        {
            return (c, nb, p) ->
            {
                final int r = c.remote().length;
                final int[] counts = pairCounts(c, unit);
                final int[] displs = reversedDispls(counts);
                final long[] send = guarded(span(counts));
                for (int j = 0; j < r; j++)
                {
                    for (int i = 0; i < counts[j]; i++)
                    {
                        send[displs[j] + i] = pairValue(c.world(), c.remote()[j], i);
                    }
                }
                final int[] rdispls = new int[r];
                for (int j = 0; j < r; j++)
                {
                    rdispls[j] = 1 + IntStream.of(counts).limit(j).sum();
                }
                final long[] recv = guarded(IntStream.of(counts).sum() + 2);
                post(nb, p, () -> c.inter().alltoallv(send, 0, counts, displs, Datatype.LONG, recv, 0, counts, rdispls, Datatype.LONG),
                    () -> c.inter().ialltoallv(send, 0, counts, displs, Datatype.LONG, recv, 0, counts, rdispls, Datatype.LONG));
                return () -> assertBlocks("alltoallv at " + c.world() + " unit " + unit, recv, rdispls, expectedPairs(c, counts));
            };
        }

        static Scenario alltoallw(final int unit)
        {
            return (c, nb, p) ->
            {
                final int r = c.remote().length;
                final int[] counts = pairCounts(c, unit);
                final int[] displs = reversedDispls(counts);
                final long[] send = guarded(span(counts));
                final long[] sbytes = new long[r];
                final long[] rbytes = new long[r];
                final int[] rdispls = new int[r];
                final Datatype[] types = new Datatype[r];
                for (int j = 0; j < r; j++)
                {
                    for (int i = 0; i < counts[j]; i++)
                    {
                        send[displs[j] + i] = pairValue(c.world(), c.remote()[j], i);
                    }
                    sbytes[j] = displs[j] * 8L;
                    rdispls[j] = 1 + IntStream.of(counts).limit(j).sum();
                    rbytes[j] = rdispls[j] * 8L;
                    types[j] = Datatype.LONG;
                }
                final long[] recv = guarded(IntStream.of(counts).sum() + 2);
                post(nb, p, () -> c.inter().alltoallw(send, 0, counts, sbytes, types, recv, 0, counts, rbytes, types),
                    () -> c.inter().ialltoallw(send, 0, counts, sbytes, types, recv, 0, counts, rbytes, types));
                return () -> assertBlocks("alltoallw at " + c.world() + " unit " + unit, recv, rdispls, expectedPairs(c, counts));
            };
        }

        static long[][] expectedPairs(final Ctx c, final int[] counts)
        {
            final long[][] want = new long[counts.length][];
            for (int j = 0; j < counts.length; j++)
            {
                want[j] = new long[counts[j]];
                for (int i = 0; i < counts[j]; i++)
                {
                    want[j][i] = pairValue(c.remote()[j], c.world(), i);
                }
            }
            return want;
        }

        static Scenario allreduceSum(final int count)
        {
            return (c, nb, p) ->
            {
                final long[] send = values(c.world(), count);
                final long[] recv = guarded(count + 2);
                post(nb, p, () -> c.inter().allreduce(send, 0, recv, 1, count, Datatype.LONG, Op.SUM),
                    () -> c.inter().iallreduce(send, 0, recv, 1, count, Datatype.LONG, Op.SUM));
                return () -> assertBlocks("allreduce(SUM) at " + c.world() + " count " + count, recv, new int[] {1},
                    new long[][] {sums(c.remote(), count)});
            };
        }

        static Scenario allreduceAffine(final int count)
        {
            return (c, nb, p) ->
            {
                final long[] send = affine(c.world(), count);
                final long[] recv = guarded(2 * count + 2);
                post(nb, p, () -> c.inter().allreduce(send, 0, recv, 1, count, PAIR, AFFINE),
                    () -> c.inter().iallreduce(send, 0, recv, 1, count, PAIR, AFFINE));
                return () -> assertBlocks("allreduce(non-commutative) at " + c.world() + " count " + count, recv, new int[] {1},
                    new long[][] {affineFold(c.remote(), count)});
            };
        }

        /** Vectors of L_A * L_B * k items in both groups: blocks of R * k items here (L * (R * k) = the same total). */
        static Scenario reduceScatterBlockSum(final int k)
        {
            return (c, nb, p) ->
            {
                final int l = c.local().length;
                final int r = c.remote().length;
                final int block = r * k;
                final long[] send = values(c.world(), l * block);
                final long[] recv = guarded(block + 2);
                post(nb, p, () -> c.inter().reduceScatterBlock(send, 0, recv, 1, block, Datatype.LONG, Op.SUM),
                    () -> c.inter().ireduceScatterBlock(send, 0, recv, 1, block, Datatype.LONG, Op.SUM));
                return () ->
                {
                    final long[] all = sums(c.remote(), l * block);
                    assertBlocks("reduceScatterBlock(SUM) at " + c.world() + " k " + k, recv, new int[] {1},
                        new long[][] {java.util.Arrays.copyOfRange(all, c.rank() * block, (c.rank() + 1) * block)});
                };
            };
        }

        static Scenario reduceScatterBlockAffine(final int k)
        {
            return (c, nb, p) ->
            {
                final int l = c.local().length;
                final int r = c.remote().length;
                final int block = r * k;
                final long[] send = affine(c.world(), l * block);
                final long[] recv = guarded(2 * block + 2);
                post(nb, p, () -> c.inter().reduceScatterBlock(send, 0, recv, 1, block, PAIR, AFFINE),
                    () -> c.inter().ireduceScatterBlock(send, 0, recv, 1, block, PAIR, AFFINE));
                return () ->
                {
                    final long[] all = affineFold(c.remote(), l * block);
                    assertBlocks("reduceScatterBlock(non-commutative) at " + c.world() + " k " + k, recv, new int[] {1},
                        new long[][] {java.util.Arrays.copyOfRange(all, 2 * c.rank() * block, 2 * (c.rank() + 1) * block)});
                };
            };
        }

        /** Counts of a group of {@code size} summing to {@code total}: rank 0 gets none, the last one the remainder. */
        static int[] unevenCounts(final int size, final int total)
        {
            final int[] counts = new int[size];
            if (size == 1)
            {
                counts[0] = total;
                return counts;
            }
            final int base = total / size;
            int given = 0;
            for (int i = 1; i < size - 1; i++)
            {
                counts[i] = base + (i % 2);
                given += counts[i];
            }
            counts[size - 1] = Math.max(0, total - given);
            if (given > total)
            {
                java.util.Arrays.fill(counts, 0);
                counts[size - 1] = total;
            }
            return counts;
        }

        static Scenario reduceScatterSum(final int total)
        {
            return (c, nb, p) ->
            {
                final int[] counts = unevenCounts(c.local().length, total);
                assertEquals(total, IntStream.of(counts).sum());
                final int mine = counts[c.rank()];
                final int start = IntStream.of(counts).limit(c.rank()).sum();
                final long[] send = values(c.world(), total);
                final long[] recv = guarded(mine + 2);
                post(nb, p, () -> c.inter().reduceScatter(send, 0, recv, 1, counts, Datatype.LONG, Op.SUM),
                    () -> c.inter().ireduceScatter(send, 0, recv, 1, counts, Datatype.LONG, Op.SUM));
                return () ->
                {
                    final long[] all = sums(c.remote(), total);
                    assertBlocks("reduceScatter(SUM) at " + c.world() + " total " + total, recv, new int[] {1},
                        new long[][] {java.util.Arrays.copyOfRange(all, start, start + mine)});
                };
            };
        }
    }

    // ------------------------------------------------------------------------------------------ persistent scenarios

    /** One process's persistent request, how to fill its buffers for an epoch, and how to check them after it. */
    private record Persistent(Request request, IntConsumer fill, IntConsumer check)
    {
    }

    /** Initialises one persistent collective on this process. */
    @FunctionalInterface
    private interface PersistentScenario
    {
        Persistent init(Ctx c);
    }

    /**
     * The persistent collectives. Epoch e's data is the blocking tests' data of "world rank" {@code key(w, e)}, so
     * every start moves other values, and the references are the same functions over the keys.
     */
    private static final class PersistentScenarios
    {
        private PersistentScenarios()
        {
        }

        static int key(final int world, final int epoch)
        {
            return world + 1000 * epoch;
        }

        static int[] keys(final int[] worlds, final int epoch)
        {
            return IntStream.of(worlds).map(w -> key(w, epoch)).toArray();
        }

        static void put(final long[] dst, final int at, final long[] src)
        {
            System.arraycopy(src, 0, dst, at, src.length);
        }

        static void reset(final long[] buf)
        {
            if (buf != null)
            {
                java.util.Arrays.fill(buf, GUARD);
            }
        }

        static PersistentScenario barrier(final AtomicInteger arrived)
        {
            return c ->
            {
                final int total = c.local().length + c.remote().length;
                return new Persistent(c.inter().barrierInit(), e -> arrived.incrementAndGet(),
                    e -> assertTrue(arrived.get() >= total * (e + 1), "barrier " + e + ": a process left before every process had arrived"));
            };
        }

        static PersistentScenario bcast(final boolean rootInA, final int rootIdx, final int count)
        {
            return c ->
            {
                final int rootWorld = c.group(rootInA)[rootIdx];
                final int root = Scenarios.rootArg(c, rootInA, rootIdx);
                final long[] buf = guarded(count + 2);
                return new Persistent(c.inter().bcastInit(buf, 1, count, Datatype.LONG, root), e ->
                {
                    reset(buf);
                    if (root == Intercomm.ROOT)
                    {
                        put(buf, 1, values(key(rootWorld, e), count));
                    }
                }, e ->
                {
                    final String what = "bcastInit from " + rootWorld + " count " + count + " start " + e;
                    if (root == Comm.PROC_NULL)
                    {
                        assertGuarded(what, buf);
                    }
                    else
                    {
                        assertBlocks(what, buf, new int[] {1}, new long[][] {values(key(rootWorld, e), count)});
                    }
                });
            };
        }

        static PersistentScenario gather(final boolean rootInA, final int rootIdx, final int count)
        {
            return c ->
            {
                final int root = Scenarios.rootArg(c, rootInA, rootIdx);
                final int r = c.remote().length;
                final long[] send = root >= 0 ? new long[count] : null;
                final long[] recv = root == Intercomm.ROOT ? guarded(r * count + 2) : null;
                return new Persistent(c.inter().gatherInit(send, 0, count, Datatype.LONG, recv, 1, count, Datatype.LONG, root), e ->
                {
                    reset(recv);
                    if (send != null)
                    {
                        put(send, 0, values(key(c.world(), e), count));
                    }
                }, e ->
                {
                    if (recv != null)
                    {
                        final long[][] want = new long[r][];
                        final int[] displs = new int[r];
                        for (int j = 0; j < r; j++)
                        {
                            want[j] = values(key(c.remote()[j], e), count);
                            displs[j] = 1 + j * count;
                        }
                        assertBlocks("gatherInit at " + c.world() + " start " + e, recv, displs, want);
                    }
                });
            };
        }

        static PersistentScenario gatherv(final boolean rootInA, final int rootIdx, final int unit)
        {
            return c ->
            {
                final int root = Scenarios.rootArg(c, rootInA, rootIdx);
                final int r = c.remote().length;
                final int[] counts = Scenarios.vcounts(r, unit);
                final int[] displs = reversedDispls(counts);
                final int mine = Scenarios.vcount(c.rank(), unit);
                final long[] send = root >= 0 ? new long[mine] : null;
                final long[] recv = root == Intercomm.ROOT ? guarded(span(counts)) : null;
                return new Persistent(c.inter().gathervInit(send, 0, mine, Datatype.LONG, recv, 0, counts, displs, Datatype.LONG, root), e ->
                {
                    reset(recv);
                    if (send != null)
                    {
                        put(send, 0, values(key(c.world(), e), mine));
                    }
                }, e ->
                {
                    if (recv != null)
                    {
                        final long[][] want = new long[r][];
                        for (int j = 0; j < r; j++)
                        {
                            want[j] = values(key(c.remote()[j], e), counts[j]);
                        }
                        assertBlocks("gathervInit at " + c.world() + " start " + e, recv, displs, want);
                    }
                });
            };
        }

        static PersistentScenario scatter(final boolean rootInA, final int rootIdx, final int count)
        {
            return c ->
            {
                final int root = Scenarios.rootArg(c, rootInA, rootIdx);
                final int r = c.remote().length;
                final long[] send = root == Intercomm.ROOT ? new long[r * count] : null;
                final long[] recv = root >= 0 ? guarded(count + 2) : null;
                return new Persistent(c.inter().scatterInit(send, 0, count, Datatype.LONG, recv, 1, count, Datatype.LONG, root), e ->
                {
                    reset(recv);
                    if (send != null)
                    {
                        for (int j = 0; j < r; j++)
                        {
                            put(send, j * count, values(key(c.remote()[j], e), count));
                        }
                    }
                }, e ->
                {
                    if (recv != null)
                    {
                        assertBlocks("scatterInit to " + c.world() + " start " + e, recv, new int[] {1},
                            new long[][] {values(key(c.world(), e), count)});
                    }
                });
            };
        }

        static PersistentScenario scatterv(final boolean rootInA, final int rootIdx, final int unit)
        {
            return c ->
            {
                final int root = Scenarios.rootArg(c, rootInA, rootIdx);
                final int r = c.remote().length;
                final int[] counts = Scenarios.vcounts(r, unit);
                final int[] displs = reversedDispls(counts);
                final int mine = Scenarios.vcount(c.rank(), unit);
                final long[] send = root == Intercomm.ROOT ? guarded(span(counts)) : null;
                final long[] recv = root >= 0 ? guarded(mine + 2) : null;
                return new Persistent(c.inter().scattervInit(send, 0, counts, displs, Datatype.LONG, recv, 1, mine, Datatype.LONG, root), e ->
                {
                    reset(recv);
                    if (send != null)
                    {
                        for (int j = 0; j < r; j++)
                        {
                            put(send, displs[j], values(key(c.remote()[j], e), counts[j]));
                        }
                    }
                }, e ->
                {
                    if (recv != null)
                    {
                        assertBlocks("scattervInit to " + c.world() + " start " + e, recv, new int[] {1},
                            new long[][] {values(key(c.world(), e), mine)});
                    }
                });
            };
        }

        static PersistentScenario reduce(final boolean rootInA, final int rootIdx, final int count, final boolean affine)
        {
            return c ->
            {
                final int root = Scenarios.rootArg(c, rootInA, rootIdx);
                final int width = affine ? 2 : 1;
                final long[] send = root >= 0 ? new long[width * count] : null;
                final long[] recv = root == Intercomm.ROOT ? guarded(width * count + 2) : null;
                final Request request = affine ? c.inter().reduceInit(send, 0, recv, 1, count, PAIR, AFFINE, root)
                    : c.inter().reduceInit(send, 0, recv, 1, count, Datatype.LONG, Op.SUM, root);
                return new Persistent(request, e ->
                {
                    reset(recv);
                    if (send != null)
                    {
                        put(send, 0, affine ? affine(key(c.world(), e), count) : values(key(c.world(), e), count));
                    }
                }, e ->
                {
                    if (recv != null)
                    {
                        final int[] from = keys(c.remote(), e);
                        assertBlocks("reduceInit(" + (affine ? "non-commutative" : "SUM") + ") at " + c.world() + " start " + e, recv,
                            new int[] {1}, new long[][] {affine ? affineFold(from, count) : sums(from, count)});
                    }
                });
            };
        }

        static PersistentScenario allgather(final int count)
        {
            return c ->
            {
                final int r = c.remote().length;
                final long[] send = new long[count];
                final long[] recv = guarded(r * count + 2);
                return new Persistent(c.inter().allgatherInit(send, 0, count, Datatype.LONG, recv, 1, count, Datatype.LONG), e ->
                {
                    reset(recv);
                    put(send, 0, values(key(c.world(), e), count));
                }, e ->
                {
                    final long[][] want = new long[r][];
                    final int[] displs = new int[r];
                    for (int j = 0; j < r; j++)
                    {
                        want[j] = values(key(c.remote()[j], e), count);
                        displs[j] = 1 + j * count;
                    }
                    assertBlocks("allgatherInit at " + c.world() + " start " + e, recv, displs, want);
                });
            };
        }

        static PersistentScenario allgatherv(final int unit)
        {
            return c ->
            {
                final int r = c.remote().length;
                final int[] counts = Scenarios.vcounts(r, unit);
                final int[] displs = reversedDispls(counts);
                final int mine = Scenarios.vcount(c.rank(), unit);
                final long[] send = new long[mine];
                final long[] recv = guarded(span(counts));
                return new Persistent(c.inter().allgathervInit(send, 0, mine, Datatype.LONG, recv, 0, counts, displs, Datatype.LONG), e ->
                {
                    reset(recv);
                    put(send, 0, values(key(c.world(), e), mine));
                }, e ->
                {
                    final long[][] want = new long[r][];
                    for (int j = 0; j < r; j++)
                    {
                        want[j] = values(key(c.remote()[j], e), counts[j]);
                    }
                    assertBlocks("allgathervInit at " + c.world() + " start " + e, recv, displs, want);
                });
            };
        }

        static PersistentScenario alltoall(final int count)
        {
            return c ->
            {
                final int r = c.remote().length;
                final long[] send = new long[r * count];
                final long[] recv = guarded(r * count + 2);
                return new Persistent(c.inter().alltoallInit(send, 0, count, Datatype.LONG, recv, 1, count, Datatype.LONG), e ->
                {
                    reset(recv);
                    for (int j = 0; j < r; j++)
                    {
                        for (int i = 0; i < count; i++)
                        {
                            send[j * count + i] = pairValue(key(c.world(), e), c.remote()[j], i);
                        }
                    }
                }, e ->
                {
                    final long[][] want = new long[r][count];
                    final int[] displs = new int[r];
                    for (int j = 0; j < r; j++)
                    {
                        for (int i = 0; i < count; i++)
                        {
                            want[j][i] = pairValue(key(c.remote()[j], e), c.world(), i);
                        }
                        displs[j] = 1 + j * count;
                    }
                    assertBlocks("alltoallInit at " + c.world() + " count " + count + " start " + e, recv, displs, want);
                });
            };
        }

        /** alltoallvInit, or alltoallwInit with {@code w} (same blocks, displacements in bytes). */
        static PersistentScenario alltoallv(final int unit, final boolean w)
        {
            return c ->
            {
                final int r = c.remote().length;
                final int[] counts = Scenarios.pairCounts(c, unit);
                final int[] displs = reversedDispls(counts);
                final int[] rdispls = new int[r];
                final long[] sbytes = new long[r];
                final long[] rbytes = new long[r];
                final Datatype[] types = new Datatype[r];
                for (int j = 0; j < r; j++)
                {
                    rdispls[j] = 1 + IntStream.of(counts).limit(j).sum();
                    sbytes[j] = displs[j] * 8L;
                    rbytes[j] = rdispls[j] * 8L;
                    types[j] = Datatype.LONG;
                }
                final long[] send = guarded(span(counts));
                final long[] recv = guarded(IntStream.of(counts).sum() + 2);
                final Request request = w ? c.inter().alltoallwInit(send, 0, counts, sbytes, types, recv, 0, counts, rbytes, types)
                    : c.inter().alltoallvInit(send, 0, counts, displs, Datatype.LONG, recv, 0, counts, rdispls, Datatype.LONG);
                return new Persistent(request, e ->
                {
                    reset(recv);
                    for (int j = 0; j < r; j++)
                    {
                        for (int i = 0; i < counts[j]; i++)
                        {
                            send[displs[j] + i] = pairValue(key(c.world(), e), c.remote()[j], i);
                        }
                    }
                }, e ->
                {
                    final long[][] want = new long[r][];
                    for (int j = 0; j < r; j++)
                    {
                        want[j] = new long[counts[j]];
                        for (int i = 0; i < counts[j]; i++)
                        {
                            want[j][i] = pairValue(key(c.remote()[j], e), c.world(), i);
                        }
                    }
                    assertBlocks((w ? "alltoallwInit" : "alltoallvInit") + " at " + c.world() + " start " + e, recv, rdispls, want);
                });
            };
        }

        static PersistentScenario allreduce(final int count, final boolean affine)
        {
            return c ->
            {
                final int width = affine ? 2 : 1;
                final long[] send = new long[width * count];
                final long[] recv = guarded(width * count + 2);
                final Request request = affine ? c.inter().allreduceInit(send, 0, recv, 1, count, PAIR, AFFINE)
                    : c.inter().allreduceInit(send, 0, recv, 1, count, Datatype.LONG, Op.SUM);
                return new Persistent(request, e ->
                {
                    reset(recv);
                    put(send, 0, affine ? affine(key(c.world(), e), count) : values(key(c.world(), e), count));
                }, e ->
                {
                    final int[] from = keys(c.remote(), e);
                    assertBlocks("allreduceInit(" + (affine ? "non-commutative" : "SUM") + ") at " + c.world() + " start " + e, recv,
                        new int[] {1}, new long[][] {affine ? affineFold(from, count) : sums(from, count)});
                });
            };
        }

        /** Vectors of L_A * L_B * k items in both groups, as {@link Scenarios#reduceScatterBlockSum}. */
        static PersistentScenario reduceScatterBlock(final int k, final boolean affine)
        {
            return c ->
            {
                final int width = affine ? 2 : 1;
                final int l = c.local().length;
                final int block = c.remote().length * k;
                final long[] send = new long[width * l * block];
                final long[] recv = guarded(width * block + 2);
                final Request request = affine ? c.inter().reduceScatterBlockInit(send, 0, recv, 1, block, PAIR, AFFINE)
                    : c.inter().reduceScatterBlockInit(send, 0, recv, 1, block, Datatype.LONG, Op.SUM);
                return new Persistent(request, e ->
                {
                    reset(recv);
                    put(send, 0, affine ? affine(key(c.world(), e), l * block) : values(key(c.world(), e), l * block));
                }, e ->
                {
                    final int[] from = keys(c.remote(), e);
                    final long[] all = affine ? affineFold(from, l * block) : sums(from, l * block);
                    assertBlocks("reduceScatterBlockInit(" + (affine ? "non-commutative" : "SUM") + ") at " + c.world() + " start " + e,
                        recv, new int[] {1}, new long[][] {java.util.Arrays.copyOfRange(all, width * c.rank() * block,
                            width * (c.rank() + 1) * block)});
                });
            };
        }

        static PersistentScenario reduceScatter(final int total)
        {
            return c ->
            {
                final int[] counts = Scenarios.unevenCounts(c.local().length, total);
                final int mine = counts[c.rank()];
                final int start = IntStream.of(counts).limit(c.rank()).sum();
                final long[] send = new long[total];
                final long[] recv = guarded(mine + 2);
                return new Persistent(c.inter().reduceScatterInit(send, 0, recv, 1, counts, Datatype.LONG, Op.SUM), e ->
                {
                    reset(recv);
                    put(send, 0, values(key(c.world(), e), total));
                }, e ->
                {
                    final long[] all = sums(keys(c.remote(), e), total);
                    assertBlocks("reduceScatterInit(SUM) at " + c.world() + " start " + e, recv, new int[] {1},
                        new long[][] {java.util.Arrays.copyOfRange(all, start, start + mine)});
                });
            };
        }
    }
}
