package org.jmpi.junit;

import org.jmpi.Comm;
import org.jmpi.Datatype;
import org.jmpi.Op;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Events;
import org.opentest4j.AssertionFailedError;

import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.*;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

/**
 * {@link MpiTest} seen from outside: each nested class is a user's test class, run through JUnit's
 * engine test kit (Surefire skips nested classes, so their deliberate failures stay here).
 */
class MpiTestExtensionTest
{
    private static Events run(final Class<?> testClass)
    {
        return EngineTestKit.engine("junit-jupiter").selectors(selectClass(testClass)).execute().testEvents();
    }

    private static Throwable onlyFailure(final Events events)
    {
        final List<Throwable> failures = events.failed().stream()
            .map(e -> e.getRequiredPayload(TestExecutionResult.class).getThrowable().orElseThrow()).toList();
        assertEquals(1, failures.size(), () -> "failures: " + failures);
        return failures.get(0);
    }

    static class EveryRankCount
    {
        static final Set<String> SEEN = ConcurrentHashMap.newKeySet();

        @MpiTest(ranks = {1, 2, 3, 4, 5, 6, 7, 8})
        void sumsOverTheWorld(final Comm comm)
        {
            final long[] sum = new long[1];
            comm.allreduce(new long[] {comm.rank()}, 0, sum, 0, 1, Datatype.LONG, Op.SUM);
            assertEquals((long)comm.size() * (comm.size() - 1) / 2, sum[0]);
            SEEN.add(comm.size() + "/" + comm.rank() + "/" + Thread.currentThread().getName());
        }
    }

    @Test
    void shouldRunOncePerRankCountWithEachRanksOwnWorldOnItsOwnThread()
    {
        EveryRankCount.SEEN.clear();
        final Events events = run(EveryRankCount.class);
        events.assertStatistics(s -> s.started(8).succeeded(8).failed(0));
        final Set<String> expected = ConcurrentHashMap.newKeySet();
        for (int size = 1; size <= 8; size++)
        {
            for (int rank = 0; rank < size; rank++)
            {
                expected.add(size + "/" + rank + "/jmpi-rank-" + rank);
            }
        }
        assertEquals(expected, EveryRankCount.SEEN);
        assertEquals(List.of("1 rank", "2 ranks", "3 ranks"),
            events.started().stream().map(e -> e.getTestDescriptor().getDisplayName()).limit(3).toList());
    }

    static class OneRankFailsAnAssertion
    {
        @MpiTest(ranks = 4)
        void checksOnRankTwo(final Comm comm)
        {
            if (comm.rank() == 2)
            {
                assertEquals(1, 2, "rank two's check");
            }
            comm.barrier();
        }
    }

    @Test
    void shouldNameTheFailingRankAndKeepItsAssertionAsCause()
    {
        final Throwable failure = onlyFailure(run(OneRankFailsAnAssertion.class));
        assertTrue(failure.getMessage().contains("rank 2 of 4 failed"), failure.getMessage());
        assertInstanceOf(AssertionFailedError.class, failure.getCause());
        assertTrue(failure.getCause().getMessage().contains("rank two's check"), failure.getCause().getMessage());
        assertEquals(0, failure.getSuppressed().length, "the barrier's aborts on the other ranks are not failures of their own");
    }

    static class OneRankThrows
    {
        @MpiTest(ranks = {1, 3})
        void throwsOnRankOne(final Comm comm)
        {
            if (comm.rank() == 1)
            {
                throw new IllegalStateException("boom on rank one");
            }
        }
    }

    @Test
    void shouldFailOnlyTheRankCountWhereOneRankThrows()
    {
        final Events events = run(OneRankThrows.class);
        events.assertStatistics(s -> s.started(2).succeeded(1).failed(1));
        final Throwable failure = onlyFailure(events);
        assertTrue(failure.getMessage().contains("rank 1 of 3 failed: java.lang.IllegalStateException: boom on rank one"), failure.getMessage());
        assertInstanceOf(IllegalStateException.class, failure.getCause());
    }

    static class TwoRanksFail
    {
        /** Ranks 1 and 2 meet here, past init, before either throws (spinning: an abort's interrupt cannot end it). */
        private final AtomicInteger arrived = new AtomicInteger();

        @MpiTest(ranks = 3, timeout = 20)
        void failsOnRanksOneAndTwo(final Comm comm)
        {
            if (comm.rank() > 0)
            {
                arrived.incrementAndGet();
                while (arrived.get() < 2)
                {
                    Thread.onSpinWait();
                }
                throw new IllegalArgumentException("bad on rank " + comm.rank());
            }
        }
    }

    @Test
    void shouldReportEveryRanksOwnFailureTheFirstInTimeAsCause()
    {
        final Throwable failure = onlyFailure(run(TwoRanksFail.class));
        final int first = failure.getMessage().contains("rank 1 of 3 failed: ") ? 1 : 2;
        final int other = 3 - first;
        assertTrue(failure.getMessage().contains("rank " + first + " of 3 failed: java.lang.IllegalArgumentException: bad on rank " + first),
            failure.getMessage());
        assertEquals(1, failure.getSuppressed().length, () -> List.of(failure.getSuppressed()).toString());
        assertTrue(failure.getSuppressed()[0].getMessage().contains("rank " + other + " of 3 failed too: java.lang.IllegalArgumentException: bad on rank " + other),
            failure.getSuppressed()[0].toString());
    }

    static class Hangs
    {
        static final CountDownLatch NEVER = new CountDownLatch(1);

        @MpiTest(ranks = 3, timeout = 500, timeoutUnit = TimeUnit.MILLISECONDS)
        void hangsOnEveryRank(final Comm comm) throws InterruptedException
        {
            switch (comm.rank())
            {
                case 0 -> comm.recv(new int[1], 0, 1, Datatype.INT, 1, 9);
                case 1 -> waitForever();
                default -> comm.barrier();
            }
        }

        private static void waitForever() throws InterruptedException
        {
            NEVER.await();
        }
    }

    @Test
    void shouldFailAHangAfterTheTimeoutWithEveryRanksStack()
    {
        final long start = System.nanoTime();
        final Throwable failure = onlyFailure(run(Hangs.class));
        assertTrue(TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - start) < 30, "a 500 ms timeout took long to fire");
        final String message = failure.getMessage();
        assertTrue(message.contains("with 3 ranks timed out after 500 ms"), message);
        assertTrue(message.contains("ranks still running: [0, 1, 2]"), message);
        assertTrue(message.contains("waitForever"), message);
        assertEquals(3, failure.getSuppressed().length);
        for (int rank = 0; rank < 3; rank++)
        {
            assertTrue(failure.getSuppressed()[rank].getMessage().startsWith("rank " + rank + " of 3"), failure.getSuppressed()[rank].getMessage());
            assertTrue(failure.getSuppressed()[rank].getStackTrace().length > 0);
        }
        assertTrue(List.of(failure.getSuppressed()[1].getStackTrace()).stream().anyMatch(e -> e.getMethodName().equals("waitForever")));
    }

    static class Mixed
    {
        @Test
        void ordinary()
        {
            assertEquals(4, 2 + 2);
        }

        @ParameterizedTest
        @ValueSource(ints = {1, 2})
        void parameterized(final int value)
        {
            assertTrue(value > 0);
        }

        @MpiTest(ranks = {1, 2})
        void multiRank(final Comm comm, final TestInfo info)
        {
            assertEquals("multiRank(Comm, TestInfo)", info.getTestMethod().orElseThrow().getName() + "(Comm, TestInfo)");
            final int[] back = new int[1];
            comm.sendrecv(new int[] {comm.rank()}, 0, 1, Datatype.INT, (comm.rank() + 1) % comm.size(), 0,
                back, 0, 1, Datatype.INT, (comm.rank() + comm.size() - 1) % comm.size(), 0);
            assertEquals((comm.rank() + comm.size() - 1) % comm.size(), back[0]);
        }
    }

    @Test
    void shouldRunBesideOrdinaryAndParameterizedTests()
    {
        run(Mixed.class).assertStatistics(s -> s.started(5).succeeded(5).failed(0));
    }

    static class NoComm
    {
        @MpiTest
        void forgotTheComm()
        {
        }
    }

    static class ZeroRanks
    {
        @MpiTest(ranks = {2, 0})
        void zero(final Comm comm)
        {
        }
    }

    @Test
    void shouldRejectAMethodWithoutCommAndAZeroRankCount()
    {
        final Events noComm = EngineTestKit.engine("junit-jupiter").selectors(selectClass(NoComm.class)).execute().allEvents();
        final String noCommMessage = noComm.failed().stream()
            .map(e -> e.getRequiredPayload(TestExecutionResult.class).getThrowable().orElseThrow().getMessage()).findFirst().orElseThrow();
        assertTrue(noCommMessage.contains("takes no org.jmpi.Comm"), noCommMessage);
        final Events zero = EngineTestKit.engine("junit-jupiter").selectors(selectClass(ZeroRanks.class)).execute().allEvents();
        final String zeroMessage = zero.failed().stream()
            .map(e -> e.getRequiredPayload(TestExecutionResult.class).getThrowable().orElseThrow().getMessage()).findFirst().orElseThrow();
        assertTrue(zeroMessage.contains("every job size must be at least 1"), zeroMessage);
    }
}
