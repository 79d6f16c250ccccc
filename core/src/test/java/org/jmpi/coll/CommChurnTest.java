package org.jmpi.coll;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicReference;

import org.jmpi.Comm;
import org.jmpi.Datatype;
import org.jmpi.Intracomm;
import org.jmpi.Ranks;
import org.jmpi.Request;
import org.jmpi.ThreadLevel;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Communicators made, used and freed in random order by several threads of every rank at once (issue 10, item
 * 8): each thread owns a parent (a dup of world, made in the same order everywhere) and, in a seeded random
 * sequence that every rank draws alike, dups or splits it, keeps up to three children alive, exchanges a message
 * with every other rank on a random live child, and frees a random child. Context ids are released and taken
 * again all the time, by several threads at once; every message must arrive on the communicator it was sent
 * on, carrying that communicator's serial number and the step.
 */
@Timeout(120)
class CommChurnTest
{
    private static final int THREADS = 3;
    private static final int STEPS = 40;
    private static final int MAX_LIVE = 3;

    @ParameterizedTest(name = "{0} ranks")
    @ValueSource(ints = {2, 3, 4})
    void shouldDeliverEveryMessageOnItsOwnCommunicator(final int size)
    {
        final long seed = System.nanoTime();
        System.out.println("CommChurnTest seed " + seed + " (" + size + " ranks)");
        Ranks.run(size, ThreadLevel.MULTIPLE, Map.of(), (mpi, world) ->
        {
            final Intracomm[] parents = new Intracomm[THREADS];
            for (int t = 0; t < THREADS; t++)
            {
                parents[t] = world.dup();
            }
            final List<Thread> threads = new ArrayList<>();
            final AtomicReference<Throwable> failure = new AtomicReference<>();
            for (int t = 0; t < THREADS; t++)
            {
                final int thread = t;
                threads.add(Thread.ofPlatform().inheritInheritableThreadLocals(thread % 2 == 0).name("churn-" + t).start(() ->
                {
                    try
                    {
                        churn(parents[thread], thread, new SplittableRandom(seed + thread));
                    }
                    catch (final Throwable ex)
                    {
                        failure.compareAndSet(null, ex);
                    }
                }));
            }
            for (final Thread t : threads)
            {
                t.join();
            }
            if (failure.get() != null)
            {
                throw failure.get();
            }
            for (final Intracomm p : parents)
            {
                p.free();
            }
        });
    }

    private record Child(Intracomm comm, int serial)
    {
    }

    private static void churn(final Intracomm parent, final int thread, final SplittableRandom random)
    {
        final List<Child> live = new ArrayList<>();
        int serial = 0;
        for (int step = 0; step < STEPS; step++)
        {
            final int action = random.nextInt(3);
            if ((action == 0 || live.isEmpty()) && live.size() < MAX_LIVE)
            {
                final Intracomm made = random.nextBoolean() ? parent.dup() : parent.split(0, -parent.rank());
                live.add(new Child(made, serial++));
            }
            else if (action == 1 && !live.isEmpty())
            {
                live.remove(random.nextInt(live.size())).comm().free();
            }
            if (!live.isEmpty())
            {
                exchange(live.get(random.nextInt(live.size())), thread, step);
            }
        }
        for (final Child c : live)
        {
            c.comm().free();
        }
    }

    /** Every rank sends {thread, serial, step, its rank} to every other and checks what it gets from each. */
    private static void exchange(final Child child, final int thread, final int step)
    {
        final Comm c = child.comm();
        final int size = c.size();
        final int rank = c.rank();
        final int[][] got = new int[size][4];
        final List<Request> pending = new ArrayList<>();
        for (int r = 0; r < size; r++)
        {
            if (r != rank)
            {
                pending.add(c.irecv(got[r], 0, 4, Datatype.INT, r, step));
            }
        }
        for (int r = 0; r < size; r++)
        {
            if (r != rank)
            {
                pending.add(c.isend(new int[] {thread, child.serial(), step, rank}, 0, 4, Datatype.INT, r, step));
            }
        }
        for (final Request p : pending)
        {
            p.await();
        }
        for (int r = 0; r < size; r++)
        {
            if (r != rank)
            {
                assertEquals(thread, got[r][0], "thread of the message from rank " + r);
                assertEquals(child.serial(), got[r][1], "communicator serial of the message from rank " + r + " at step " + step);
                assertEquals(step, got[r][2], "step of the message from rank " + r);
                assertEquals(r, got[r][3], "sender");
            }
        }
    }
}
