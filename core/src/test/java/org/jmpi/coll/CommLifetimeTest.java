package org.jmpi.coll;

import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import org.jmpi.Comm;
import org.jmpi.CommInternals;
import org.jmpi.Datatype;
import org.jmpi.ErrorClass;
import org.jmpi.ErrorHandler;
import org.jmpi.Group;
import org.jmpi.Intracomm;
import org.jmpi.Keyval;
import org.jmpi.Mpi;
import org.jmpi.MpiException;
import org.jmpi.Op;
import org.jmpi.Ranks;
import org.jmpi.Request;
import org.jmpi.Status;
import org.jmpi.ThreadLevel;
import org.jmpi.internal.rank.ContextRegistry;
import org.jmpi.internal.bootstrap.LocalJob;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Lifetimes (issue 10, item 8), ranks as threads: freed communicators and requests, calls after finalize, a
 * null buffer with count 0, no message on another communicator after free and create, and a rank that throws
 * inside try-with-resources ending its job. The same cases across JVMs: {@code LifetimeDrill} in examples.
 */
@Timeout(60)
class CommLifetimeTest
{
    private static void assertError(final ErrorClass expected, final String mentions, final Executable call)
    {
        final MpiException ex = assertThrows(MpiException.class, call);
        assertEquals(expected, ex.errorClass(), ex.getMessage());
        assertTrue(ex.getMessage().contains(mentions), () -> "'" + ex.getMessage() + "' should name " + mentions);
    }

    @ParameterizedTest
    @ValueSource(ints = {2, 3})
    void shouldRaiseErrCommOnEveryCallOnAFreedCommunicator(final int size)
    {
        Ranks.run(size, (mpi, world) ->
        {
            final Intracomm c = world.dup();
            c.setName("doomed");
            final int peer = (world.rank() + 1) % size;
            final int[] buf = new int[4];
            c.free();
            assertTrue(c.isFreed());
            final List<Executable> calls = List.of(
                () -> c.send(buf, 0, 1, Datatype.INT, peer, 0),
                () -> c.recv(buf, 0, 1, Datatype.INT, peer, 0),
                () -> c.isend(buf, 0, 1, Datatype.INT, peer, 0),
                () -> c.irecv(buf, 0, 1, Datatype.INT, peer, 0),
                () -> c.ssend(buf, 0, 1, Datatype.INT, peer, 0),
                () -> c.sendInit(buf, 0, 1, Datatype.INT, peer, 0),
                () -> c.recvInit(buf, 0, 1, Datatype.INT, peer, 0),
                () -> c.sendrecv(buf, 0, 1, Datatype.INT, peer, 0, buf, 1, 1, Datatype.INT, peer, 0),
                () -> c.probe(peer, 0),
                () -> c.iprobe(peer, 0),
                () -> c.mprobe(peer, 0),
                () -> c.improbe(peer, 0),
                c::barrier,
                c::ibarrier,
                () -> c.bcast(buf, 0, 1, Datatype.INT, 0),
                () -> c.bcastInit(buf, 0, 1, Datatype.INT, 0),
                () -> c.reduce(buf, 0, buf, 1, 1, Datatype.INT, Op.SUM, 0),
                () -> c.allreduce(buf, 0, buf, 1, 1, Datatype.INT, Op.SUM),
                () -> c.allgather(buf, 0, 1, Datatype.INT, buf, 0, 1, Datatype.INT),
                () -> c.scan(buf, 0, buf, 1, 1, Datatype.INT, Op.SUM),
                c::dup,
                () -> c.split(0, 0),
                () -> c.create(c.group()),
                c::rank,
                c::size,
                c::group,
                c::topology,
                () -> c.getAttr(Keyval.TAG_UB),
                () -> c.compare(world),
                () -> c.setName("again"),
                c::free);
            for (final Executable call : calls)
            {
                assertError(ErrorClass.ERR_COMM, "doomed", call);
            }
        });
    }

    @ParameterizedTest
    @ValueSource(ints = {2, 3})
    void shouldRaiseErrRequestOnAFreedRequest(final int size)
    {
        Ranks.run(size, (mpi, world) ->
        {
            final int[] in = new int[1];
            final Request recv = world.irecv(in, 0, 1, Datatype.INT, world.rank(), 5);
            final Request send = world.isend(new int[] {9}, 0, 1, Datatype.INT, world.rank(), 5);
            send.await();
            recv.free();
            assertError(ErrorClass.ERR_REQUEST, "await", recv::await);
            assertError(ErrorClass.ERR_REQUEST, "test", recv::test);
            assertError(ErrorClass.ERR_REQUEST, "free", recv::free);
            final Request persistent = world.sendInit(new int[1], 0, 1, Datatype.INT, world.rank(), 6);
            persistent.free();
            assertError(ErrorClass.ERR_REQUEST, "await", persistent::await);
            assertError(ErrorClass.ERR_REQUEST, "test", persistent::test);
            assertError(ErrorClass.ERR_REQUEST, "start", persistent::start);
            world.barrier();
        });
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3})
    void shouldRaiseErrOtherOnEveryCallAfterFinalize(final int size)
    {
        final LocalJob.Outcome outcome = LocalJob.create(size, Map.of()).run(rank ->
        {
            final Mpi mpi = Mpi.init(new String[0]);
            final Intracomm world = mpi.world();
            final Intracomm dup = world.dup();
            mpi.close();
            final int[] buf = new int[1];
            final List<Executable> calls = List.of(
                () -> world.send(buf, 0, 1, Datatype.INT, rank, 0),
                () -> world.isend(buf, 0, 1, Datatype.INT, rank, 0),
                () -> world.recv(buf, 0, 1, Datatype.INT, rank, 0),
                world::barrier,
                () -> world.bcast(buf, 0, 1, Datatype.INT, 0),
                () -> world.allreduce(buf, 0, buf, 0, 1, Datatype.INT, Op.SUM),
                world::dup,
                () -> dup.split(0, 0),
                dup::free,
                world::rank,
                () -> mpi.bufferAttach(new byte[64]));
            final String[] names = {"send", "isend", "recv", "barrier", "bcast", "allreduce", "dup", "split", "free", "rank", "bufferAttach"};
            for (int i = 0; i < calls.size(); i++)
            {
                final MpiException ex = assertThrows(MpiException.class, calls.get(i));
                assertEquals(ErrorClass.ERR_OTHER, ex.errorClass(), ex.getMessage());
                assertTrue(ex.getMessage().contains(names[i] + ": MPI is finalized"), ex.getMessage());
            }
        }, TimeUnit.SECONDS.toNanos(30));
        assertNull(outcome.firstFailure(), () -> String.valueOf(outcome.firstFailure().failure()));
    }

    /**
     * A receive or probe from a rank that has finalized fails instead of waiting forever; what the rank sent
     * before it finalized still arrives; a receive posted before the finalize fails when it comes.
     */
    @ParameterizedTest
    @ValueSource(ints = {2, 3})
    void shouldFailAReceiveFromARankThatHasFinalized(final int size)
    {
        final LocalJob.Outcome outcome = LocalJob.create(size, Map.of()).run(rank ->
        {
            final Mpi mpi = Mpi.init(new String[0]);
            final Intracomm world = mpi.world();
            world.setErrorHandler(ErrorHandler.ERRORS_RETURN);
            final int[] buf = new int[2];
            final Request early = rank == 0 ? null : world.irecv(buf, 1, 1, Datatype.INT, 0, 11);
            final Request anyOnSelf = mpi.self().irecv(buf, 1, 1, Datatype.INT, Comm.ANY_SOURCE, 3);
            world.barrier();
            if (rank == 0)
            {
                for (int r = 1; r < size; r++)
                {
                    world.send(new int[] {70 + r}, 0, 1, Datatype.INT, r, 10);
                }
                anyOnSelf.cancel();
                mpi.close();
                return;
            }
            world.recv(buf, 0, 1, Datatype.INT, 0, 10);
            assertEquals(70 + rank, buf[0], "sent before finalize, still delivered");
            final long startNs = System.nanoTime();
            assertError(ErrorClass.ERR_OTHER, "source 0 (world rank 0) has finalized", early::await);
            assertError(ErrorClass.ERR_OTHER, "has finalized", () -> world.recv(buf, 0, 1, Datatype.INT, 0, 12));
            assertError(ErrorClass.ERR_OTHER, "probe: source 0", () -> world.probe(0, 12));
            assertTrue(System.nanoTime() - startNs < TimeUnit.SECONDS.toNanos(5));
            assertFalse(anyOnSelf.test(), "a receive that this rank itself may still satisfy keeps waiting");
            mpi.self().send(new int[] {9}, 0, 1, Datatype.INT, 0, 3);
            anyOnSelf.await();
            assertEquals(9, buf[1]);
            mpi.close();
        }, TimeUnit.SECONDS.toNanos(30));
        assertNull(outcome.firstFailure(), () -> String.valueOf(outcome.firstFailure().failure()));
    }

    @ParameterizedTest
    @ValueSource(ints = {2, 3})
    void shouldAcceptANullBufferWithCountZero(final int size)
    {
        Ranks.run(size, (mpi, world) ->
        {
            final int to = (world.rank() + 1) % size;
            final int from = (world.rank() - 1 + size) % size;
            final Request r = world.irecv(null, 0, 0, Datatype.INT, from, 3);
            world.send(null, 0, 0, Datatype.INT, to, 3);
            final Status s = r.await();
            assertEquals(from, s.source());
            assertEquals(0, s.count(Datatype.INT));
            final Request s2 = world.isend(null, 0, 0, Datatype.DOUBLE, to, 4);
            final Status got = world.recv(null, 0, 0, Datatype.DOUBLE, from, 4);
            s2.await();
            assertEquals(4, got.tag());
        });
    }

    /**
     * The case that once crossed over: both ranks free a communicator and make a new one (which may take the
     * freed context ids again); a send on the freed one must fail, never arrive on the new one.
     */
    @ParameterizedTest
    @ValueSource(ints = {2, 3, 4})
    void shouldNeverDeliverOnTheNewCommunicatorWhatWasSentOnTheFreedOne(final int size)
    {
        Ranks.run(size, (mpi, world) ->
        {
            final int rank = world.rank();
            final Intracomm old = world.dup();
            final int oldContext = CommInternals.state(old).contextId();
            final ContextRegistry contexts = CommInternals.state(world).services().contexts();
            assertTrue(contexts.isOpen(oldContext));
            old.free();
            assertFalse(contexts.isOpen(oldContext), "a freed communicator's context is closed");
            final Intracomm fresh = world.dup();
            assertTrue(contexts.isOpen(CommInternals.state(fresh).contextId()));
            final int[] value = {rank * 10 + 1};
            if (rank == 0)
            {
                assertError(ErrorClass.ERR_COMM, "send", () -> old.send(new int[] {-1}, 0, 1, Datatype.INT, 1, 0));
                fresh.send(value, 0, 1, Datatype.INT, 1, 0);
            }
            else if (rank == 1)
            {
                final int[] got = new int[1];
                fresh.recv(got, 0, 1, Datatype.INT, 0, 0);
                assertEquals(1, got[0], "the message sent on the new communicator, and only it");
            }
            fresh.barrier();
            assertNull(fresh.iprobe(Comm.ANY_SOURCE, Comm.ANY_TAG), "nothing else arrived on the new communicator");
            fresh.free();
        });
    }

    @Test
    void shouldCountOpeningsOfASharedContextAndReopenWhenIdsAreOfferedAgain()
    {
        final ContextRegistry registry = new ContextRegistry();
        final AtomicLong closed = new AtomicLong(-1);
        final AtomicLong reopened = new AtomicLong(-1);
        registry.hooks(closed::set, reopened::set);
        registry.open(700);
        registry.open(700);
        assertFalse(registry.close(700));
        assertTrue(registry.isOpen(700));
        assertEquals(-1, closed.get());
        assertTrue(registry.close(700));
        assertFalse(registry.isOpen(700));
        assertEquals(700, closed.get(), "the close hook runs when the last user is gone");
        assertEquals(-1, reopened.get(), "not reopened before ids are offered again");
        final org.jmpi.internal.rank.ContextIdPool pool = new org.jmpi.internal.rank.ContextIdPool(4);
        pool.onOffered(registry::reopenClosed);
        pool.freeMask(0, new long[org.jmpi.internal.rank.ContextIdPool.WINDOW_WORDS], 0);
        assertEquals(700, reopened.get(), "offering free ids reopens the contexts closed since");
        reopened.set(-1);
        registry.reopenClosed();
        assertEquals(-1, reopened.get(), "once");
        assertFalse(registry.isOpen(100_000));
    }

    /**
     * The README's pattern: a rank that throws (or runs out of memory) inside {@code try (Mpi mpi = ...)} while
     * the others wait for it in a receive ends the job within 5 s, its failure reported with its rank.
     */
    @ParameterizedTest
    @ValueSource(strings = {"throw", "oom"})
    void shouldEndTheJobSoonWhenARankThrowsInsideTryWithResources(final String how)
    {
        final AtomicLong failedAtNs = new AtomicLong();
        final LocalJob.Outcome outcome = LocalJob.create(3, Map.of()).run(rank ->
        {
            try (Mpi mpi = Mpi.init(new String[0]))
            {
                final Intracomm world = mpi.world();
                world.setErrorHandler(ErrorHandler.ERRORS_RETURN);
                world.barrier();
                if (rank == 1)
                {
                    failedAtNs.set(System.nanoTime());
                    if (how.equals("oom"))
                    {
                        throw new OutOfMemoryError("rank 1 ran out of memory (simulated)");
                    }
                    throw new IllegalStateException("rank 1 gave up");
                }
                world.recv(new int[1], 0, 1, Datatype.INT, 1, 77);
            }
        }, TimeUnit.SECONDS.toNanos(30));
        final long endedNs = System.nanoTime();
        final LocalJob.RankOutcome failed = outcome.ranks().get(1);
        assertNotNull(failed.failure(), "rank 1's failure is reported");
        assertTrue(failed.failure().getMessage().contains("rank 1"), failed.failure().toString());
        assertFalse(failed.timedOut());
        assertTrue(outcome.aborted(), "the job was ended");
        assertTrue(endedNs - failedAtNs.get() < TimeUnit.SECONDS.toNanos(5),
            "the job ended " + TimeUnit.NANOSECONDS.toMillis(endedNs - failedAtNs.get()) + " ms after rank 1 failed");
    }
}
