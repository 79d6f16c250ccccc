package org.jmpi;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.*;

@Timeout(120)
class ThreadMultipleTest
{
    @Test
    void shouldServeThousandVirtualThreadsDoingBlockingPairs() throws Exception
    {
        final int threads = 1000;
        Ranks.run(2, ThreadLevel.MULTIPLE, Map.of(), (mpi, world) ->
        {
            assertEquals(ThreadLevel.MULTIPLE, mpi.threadLevel());
            final int peer = 1 - world.rank();
            final AtomicInteger ok = new AtomicInteger();
            final List<Thread> all = new ArrayList<>();
            final List<Throwable> failures = java.util.Collections.synchronizedList(new ArrayList<>());
            for (int t = 0; t < threads; t++)
            {
                final int tag = t;
                all.add(Thread.ofVirtual().start(() ->
                {
                    try
                    {
                        final long[] out = {world.rank() * 100_000L + tag};
                        final long[] in = new long[1];
                        if (world.rank() == 0)
                        {
                            world.send(out, 0, 1, Datatype.LONG, peer, tag);
                            world.recv(in, 0, 1, Datatype.LONG, peer, tag);
                        }
                        else
                        {
                            world.recv(in, 0, 1, Datatype.LONG, peer, tag);
                            world.send(out, 0, 1, Datatype.LONG, peer, tag);
                        }
                        assertEquals(peer * 100_000L + tag, in[0]);
                        ok.incrementAndGet();
                    }
                    catch (final Throwable ex)
                    {
                        failures.add(ex);
                    }
                }));
            }
            for (final Thread t : all)
            {
                t.join();
            }
            if (!failures.isEmpty())
            {
                throw new AssertionError("virtual threads failed: " + failures.size() + ", first: " + failures.get(0), failures.get(0));
            }
            assertEquals(threads, ok.get());
            world.barrier();
        });
    }

    @Test
    void shouldCompleteNonblockingWorkWithAsyncProgress()
    {
        Ranks.run(2, ThreadLevel.SINGLE, Map.of("jmpi.progress.async", "true"), (mpi, world) ->
        {
            final int[] big = new int[1 << 18];
            if (world.rank() == 0)
            {
                java.util.Arrays.fill(big, 3);
                final Request r = world.isend(big, 0, big.length, Datatype.INT, 1, 0);
                final long deadline = System.nanoTime() + 30_000_000_000L;
                while (r.status() == null && System.nanoTime() < deadline)
                {
                    Thread.onSpinWait(); // "compute": no MPI calls, the progress thread completes the send
                }
                assertNotNull(r.status(), "the progress thread completed the send without test calls");
                r.await();
            }
            else
            {
                world.recv(big, 0, big.length, Datatype.INT, 0, 0);
                assertEquals(3, big[big.length - 1]);
            }
        });
    }

    @Test
    void shouldRejectConcurrentCallsBelowMultiple()
    {
        Ranks.run(2, (mpi, world) ->
        {
            if (world.rank() == 1)
            {
                Thread.sleep(300);
                world.send(new int[] {1}, 0, 1, Datatype.INT, 0, 0);
                return;
            }
            final Request r = world.irecv(new int[1], 0, 1, Datatype.INT, 1, 0);
            final Thread waiter = new Thread(r::await);
            waiter.start();
            Thread.sleep(100);
            // the waiter drives the engine: a second thread's call is refused, not interleaved
            final MpiException ex = assertThrows(MpiException.class, () -> world.send(new int[] {1}, 0, 1, Datatype.INT, 0, 5));
            assertEquals(ErrorClass.ERR_OTHER, ex.errorClass());
            assertTrue(ex.getMessage().contains("MULTIPLE"), ex.getMessage());
            waiter.join();
            assertNotNull(r.status());
        });
    }
}
