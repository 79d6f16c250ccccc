package org.jmpi.coll;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
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

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import static org.jmpi.coll.IntercommFixture.*;
import static org.jmpi.coll.IntercommScenarios.scenarios;

/**
 * Every intercommunicator collective, blocking and nonblocking, against a sequential reference computed from
 * the world ranks: groups of uneven sizes (world rank mod 3 == 0 against the rest, which puts the group with
 * world rank 0 first in the union; and the last world rank alone against the rest, which puts it second),
 * roots at the first and last rank of either group, zero counts, v-variants with zero blocks and gaps, a
 * non-commutative op, all collectives in flight at once completed in reverse order, IN_PLACE and bad roots,
 * and the {@code jmpi.coll.check} mismatch check across the groups. The persistent forms are
 * {@link IntercommPersistentCollectivesTest}'s; the scenarios are {@link IntercommScenarios}.
 */
@Timeout(120)
class IntercommCollectivesTest
{
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
            for (final IntercommScenarios.Scenario sc : scenarios(c, arrived))
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
            for (final IntercommScenarios.Scenario sc : scenarios(c, arrived))
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
            for (final IntercommScenarios.Scenario sc : scenarios(c, arrived))
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
            IntercommScenarios.allreduceSum(3).post(c, false, null).run();
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
            for (final IntercommScenarios.Scenario sc : scenarios(c, arrived))
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
            IntercommScenarios.allreduceSum(2).post(c, false, null).run();
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
            for (final IntercommScenarios.Scenario sc : scenarios(c, arrived))
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
            IntercommScenarios.allreduceSum(2).post(c, false, null).run();
        });
    }
}
