package org.jmpi.coll;

import org.jmpi.Intracomm;
import org.jmpi.CommInternals;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.jmpi.Comm;
import org.jmpi.Datatype;
import org.jmpi.Group;
import org.jmpi.Intercomm;
import org.jmpi.Op;
import org.jmpi.Ranks;
import org.jmpi.Request;
import org.jmpi.Status;
import org.jmpi.ThreadLevel;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Communicators made concurrently by several threads of each rank under {@link ThreadLevel#MULTIPLE}, each
 * thread from its own parent (MPI allows collectives on different communicators to run concurrently): every
 * live communicator of a rank must have its own context ids, and traffic on one (same tag, ANY_SOURCE) must
 * never reach another. Intercommunicators (create, and create + merge + free) are made among the rest, so their
 * agreement across two groups runs while other threads of the same ranks agree ids for dups and splits.
 */
@Timeout(120)
class ConcurrentCommCreateTest
{
    private static final int THREADS = 4;
    private static final int ROUNDS = 10;
    private static final int KINDS = 7;
    private static final int TAG = 7;

    /**
     * A communicator (or intercommunicator: {@code inter} not null, {@code comm} null) a thread made, with a value
     * every member knows and no other communicator of the job has.
     */
    private record Made(Intracomm comm, Intercomm inter, long identity)
    {
        Made(final Intracomm comm, final long identity)
        {
            this(comm, null, identity);
        }

        /** The context ids it matches on. */
        int[] contextIds()
        {
            return inter != null ? CommInternals.contextIds(inter) : new int[] {CommInternals.state(comm).contextId(), CommInternals.state(comm).collContextId()};
        }

        /** Pool slots it owns (an intercommunicator two). */
        int slots()
        {
            return inter != null ? 2 : 1;
        }

        void free()
        {
            if (inter != null)
            {
                inter.free();
            }
            else
            {
                comm.free();
            }
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {2, 3, 4})
    void shouldGiveConcurrentlyMadeCommunicatorsDistinctContextsAndIsolatedTraffic(final int size)
    {
        Ranks.run(size, ThreadLevel.MULTIPLE, Map.of(), (mpi, world) ->
        {
            final Intracomm[] parents = new Intracomm[THREADS];
            for (int t = 0; t < THREADS; t++)
            {
                parents[t] = world.dup();
            }
            final List<List<Made>> made = new ArrayList<>();
            for (int t = 0; t < THREADS; t++)
            {
                made.add(Collections.synchronizedList(new ArrayList<>()));
            }

            // Phase 1: every thread makes communicators from its own parent, all threads at once.
            inThreads(t -> create(parents[t], t, 0, made.get(t)));
            checkDistinct(world, parents, made);
            inThreads(t -> exchange(made.get(t)));
            world.barrier();

            // Phase 2: free those of even rounds (its ids go back to the pool), make more concurrently, check again.
            inThreads(t ->
            {
                final List<Made> mine = made.get(t);
                for (int i = mine.size() - 1; i >= 0; i--)
                {
                    if ((mine.get(i).identity() / 16) % 2 == 0)
                    {
                        mine.remove(i).free();
                    }
                }
                create(parents[t], t, 1, mine);
            });
            checkDistinct(world, parents, made);
            inThreads(t -> exchange(made.get(t)));
            world.barrier();
        });
    }

    /** Runs {@code body(t)} in one virtual thread per t and rethrows the first failure. */
    private static void inThreads(final ThreadBody body) throws Throwable
    {
        final List<Throwable> failures = Collections.synchronizedList(new ArrayList<>());
        final Thread[] threads = new Thread[THREADS];
        for (int t = 0; t < THREADS; t++)
        {
            final int index = t;
            threads[t] = Thread.ofVirtual().start(() ->
            {
                try
                {
                    body.run(index);
                }
                catch (final Throwable ex)
                {
                    failures.add(ex);
                }
            });
        }
        for (final Thread t : threads)
        {
            t.join();
        }
        if (!failures.isEmpty())
        {
            throw failures.get(0);
        }
    }

    @FunctionalInterface
    private interface ThreadBody
    {
        void run(int thread) throws Throwable;
    }

    /**
     * ROUNDS new communicators from {@code parent}, cycling through dup, split, create, idup, createGroup,
     * intercommunicator create (between the even and odd ranks of the parent, the parent as peer communicator) and
     * intercommunicator create + merge + free (starting at a different kind per thread so that different kinds run
     * concurrently).
     */
    private static void create(final Intracomm parent, final int thread, final int phase, final List<Made> out)
    {
        final int rank = parent.rank();
        final int size = parent.size();
        for (int round = 0; round < ROUNDS; round++)
        {
            final long base = ((long) (phase * THREADS + thread) * ROUNDS + round) * 16;
            final int left = round % size;
            final int[] others = new int[size > 2 ? size - 1 : size];
            for (int r = 0, i = 0; r < size; r++)
            {
                if (size <= 2 || r != left)
                {
                    others[i++] = r;
                }
            }
            final Group group = parent.group().incl(others);
            final boolean member = size <= 2 || rank != left;
            switch ((thread + round) % KINDS)
            {
                case 0 -> out.add(new Made(parent.dup(), base));
                case 1 ->
                {
                    final int color = rank % 2;
                    final Intracomm part = parent.split(color, size - rank);
                    assertNotNull(part);
                    assertEquals((size - color + 1) / 2, part.size());
                    out.add(new Made(part, base + 1 + color));
                }
                case 2 ->
                {
                    final Intracomm c = parent.create(group);
                    if (member)
                    {
                        assertNotNull(c);
                        assertEquals(others.length, c.size());
                        out.add(new Made(c, base + 3));
                    }
                    else
                    {
                        assertNull(c);
                    }
                }
                case 3 ->
                {
                    final Comm[] box = new Comm[1];
                    final Request r = parent.idup(box);
                    r.await();
                    assertNotNull(box[0]);
                    out.add(new Made((Intracomm)box[0], base + 4));
                }
                case 4 ->
                {
                    if (member)
                    {
                        final Intracomm c = parent.createGroup(group, thread);
                        assertEquals(others.length, c.size());
                        out.add(new Made(c, base + 5));
                    }
                }
                default ->
                {
                    final int color = rank % 2;
                    final Intracomm half = parent.split(color, rank);
                    out.add(new Made(half, base + 6 + color));
                    final Intercomm inter = Intercomm.create(half, 0, parent, 1 - color, TAG + 1 + thread);
                    assertEquals(size / 2 + (color == 0 ? size % 2 : 0), inter.size());
                    assertEquals(size - inter.size(), inter.remoteSize());
                    if ((thread + round) % KINDS == 5)
                    {
                        out.add(new Made(null, inter, base + 8));
                    }
                    else
                    {
                        final Intracomm merged = inter.merge(color == 1);
                        assertEquals(size, merged.size());
                        assertEquals(color == 0 ? rank / 2 : (size + 1) / 2 + rank / 2, merged.rank());
                        inter.free();
                        assertTrue(inter.isFreed());
                        out.add(new Made(merged, base + 9));
                    }
                }
            }
        }
    }

    /**
     * Every live communicator of this rank (world, the parents, everything made) has context ids no other one
     * has, and the rank's pool holds exactly the pairs they own (one each, two per intercommunicator; freed ones and pairs agreed for
     * communicators this rank is not in went back). All ranks agree on the verdict before anyone sends, so a failure does not leave peers hanging.
     */
    private static void checkDistinct(final Intracomm world, final Intracomm[] parents, final List<List<Made>> made)
    {
        final List<Made> all = new ArrayList<>();
        all.add(new Made(world, 0));
        for (final Intracomm p : parents)
        {
            all.add(new Made(p, 0));
        }
        for (final List<Made> list : made)
        {
            all.addAll(list);
        }
        final Set<Integer> ids = new HashSet<>();
        final StringBuilder clashes = new StringBuilder();
        int owned = -1;
        for (final Made m : all)
        {
            owned += m.slots();
            for (final int id : m.contextIds())
            {
                if (!ids.add(id))
                {
                    clashes.append(' ').append(m.inter() != null ? "an intercommunicator" : m.comm().name()).append(" reuses context ")
                        .append(id).append(';');
                }
            }
        }
        final int used = CommInternals.state(world).contextIds().usedCount();
        if (used != owned)
        {
            clashes.append(" the pool has ").append(used).append(" pairs in use for ").append(owned).append(" owned by live communicators;");
        }
        final int[] ok = {clashes.length() == 0 ? 1 : 0};
        final int[] verdict = new int[1];
        world.allreduce(ok, 0, verdict, 0, 1, Datatype.INT, Op.MIN);
        assertTrue(clashes.length() == 0, "rank " + world.rank() + " of " + world.size() + ":" + clashes);
        assertEquals(1, verdict[0], "another rank found communicators sharing a context id");
    }

    /**
     * On each communicator in turn (threads of one index go through the same list, other threads use other
     * communicators at the same time): every member sends {identity, rank} to every other member with one tag,
     * then receives as many with ANY_SOURCE, and checks that each came from a distinct member of this communicator.
     */
    private static void exchange(final List<Made> list)
    {
        for (final Made m : list)
        {
            if (m.inter() != null)
            {
                exchangeAcross(m.inter(), m.identity());
                continue;
            }
            final Intracomm c = m.comm();
            final int me = c.rank();
            final int peers = c.size() - 1;
            final long[] out = {m.identity(), me};
            final Request[] sends = new Request[peers];
            for (int p = 0, i = 0; p < c.size(); p++)
            {
                if (p != me)
                {
                    sends[i++] = c.isend(out, 0, 2, Datatype.LONG, p, TAG);
                }
            }
            final boolean[] seen = new boolean[c.size()];
            for (int i = 0; i < peers; i++)
            {
                final long[] in = new long[2];
                final Status st = c.recv(in, 0, 2, Datatype.LONG, Comm.ANY_SOURCE, TAG);
                assertEquals(m.identity(), in[0], "message of another communicator received on " + c.name());
                assertEquals(st.source(), (int) in[1], "source of the message on " + c.name());
                assertTrue(!seen[st.source()], "two messages from rank " + st.source() + " on " + c.name());
                seen[st.source()] = true;
            }
            Request.waitAll(sends);
        }
    }

    /**
     * As {@link #exchange} across an intercommunicator: every member sends {identity, rank} to every member of
     * the remote group and receives as many with ANY_SOURCE; then an allreduce across (each group gets the other's
     * sum of {identity, 1}) checks the collective context too.
     */
    private static void exchangeAcross(final Intercomm inter, final long identity)
    {
        final int remote = inter.remoteSize();
        final long[] out = {identity, inter.rank()};
        final Request[] sends = new Request[remote];
        for (int p = 0; p < remote; p++)
        {
            sends[p] = inter.isend(out, 0, 2, Datatype.LONG, p, TAG);
        }
        final boolean[] seen = new boolean[remote];
        for (int i = 0; i < remote; i++)
        {
            final long[] in = new long[2];
            final Status st = inter.recv(in, 0, 2, Datatype.LONG, Comm.ANY_SOURCE, TAG);
            assertEquals(identity, in[0], "message of another communicator received on an intercommunicator");
            assertEquals(st.source(), (int) in[1], "source of the message on an intercommunicator");
            assertTrue(!seen[st.source()], "two messages from remote rank " + st.source() + " on an intercommunicator");
            seen[st.source()] = true;
        }
        Request.waitAll(sends);
        final long[] sum = new long[2];
        inter.allreduce(new long[] {identity, 1}, 0, sum, 0, 2, Datatype.LONG, Op.SUM);
        assertEquals(identity * remote, sum[0], "allreduce across an intercommunicator");
        assertEquals(remote, sum[1], "allreduce across an intercommunicator");
    }
}
