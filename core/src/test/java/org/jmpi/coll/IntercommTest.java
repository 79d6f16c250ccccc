package org.jmpi.coll;

import java.util.List;
import java.util.stream.IntStream;

import org.jmpi.CommInternals;

import org.jmpi.Comm;
import org.jmpi.Datatype;
import org.jmpi.ErrorClass;
import org.jmpi.Intercomm;
import org.jmpi.MpiException;
import org.jmpi.Op;
import org.jmpi.Ranks;
import org.jmpi.Status;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Intercommunicators: create from a split world, point-to-point across, merge, free. */
@Timeout(60)
class IntercommTest
{
    @ParameterizedTest
    @ValueSource(ints = {2, 3, 4, 5, 8})
    void shouldTalkAcrossAndMerge(final int size)
    {
        Ranks.run(size, (mpi, world) ->
        {
            final int rank = world.rank();
            // Group A: even world ranks, group B: odd ones. Leaders: world 0 and world 1.
            final boolean inA = rank % 2 == 0;
            final Comm half = world.split(inA ? 0 : 1, rank);
            final Intercomm inter = Intercomm.create(half, 0, world, inA ? 1 : 0, 99);
            final int aSize = (size + 1) / 2;
            final int bSize = size / 2;
            assertEquals(inA ? aSize : bSize, inter.size());
            assertEquals(inA ? bSize : aSize, inter.remoteSize());
            assertEquals(rank / 2, inter.rank());
            // Each rank of A sends its world rank to remote rank (local rank mod remote size).
            if (inA)
            {
                inter.send(new int[] {rank}, 0, 1, Datatype.INT, inter.rank() % bSize, 5);
            }
            else
            {
                for (int a = 0; a < aSize; a++)
                {
                    if (a % bSize == inter.rank())
                    {
                        final int[] got = new int[1];
                        final Status st = inter.recv(got, 0, 1, Datatype.INT, a, 5);
                        assertEquals(2 * a, got[0]);
                        assertEquals(a, st.source());
                    }
                }
            }
            // Collectives across the groups.
            inter.barrier();
            final long[] msg = new long[3];
            if (inA)
            {
                if (inter.rank() == 0)
                {
                    msg[0] = 11;
                    msg[2] = 33;
                }
                inter.bcast(msg, 0, 3, Datatype.LONG, inter.rank() == 0 ? Intercomm.ROOT : Comm.PROC_NULL);
            }
            else
            {
                inter.bcast(msg, 0, 3, Datatype.LONG, 0);
                assertEquals(11, msg[0]);
                assertEquals(33, msg[2]);
            }
            final int[] otherSum = new int[1];
            inter.allreduce(new int[] {rank}, 0, otherSum, 0, 1, Datatype.INT, Op.SUM);
            int evens = 0;
            int odds = 0;
            for (int r = 0; r < size; r++)
            {
                evens += r % 2 == 0 ? r : 0;
                odds += r % 2 == 1 ? r : 0;
            }
            assertEquals(inA ? odds : evens, otherSum[0], "each group gets the other group's reduction");
            // Merge with B low: B's ranks come first.
            final Comm merged = inter.merge(inA);
            assertEquals(size, merged.size());
            assertEquals(inA ? bSize + rank / 2 : rank / 2, merged.rank());
            final int[] sum = new int[1];
            merged.allreduce(new int[] {rank}, 0, sum, 0, 1, Datatype.INT, Op.SUM);
            assertEquals(size * (size - 1) / 2, sum[0]);
            final int[] order = new int[size];
            merged.allgather(new int[] {rank}, 0, 1, Datatype.INT, order, 0, 1, Datatype.INT);
            for (int i = 0; i < bSize; i++)
            {
                assertEquals(2 * i + 1, order[i]);
            }
            for (int i = 0; i < aSize; i++)
            {
                assertEquals(2 * i, order[bSize + i]);
            }
        });
    }

    /**
     * An intercommunicator owns two context-id pairs of each member's pool and a merged communicator one; free gives
     * them back; collectives, persistent inits and merge on a freed intercommunicator fail with ERR_COMM, and so does
     * a second free, while the merged communicator lives on.
     */
    @ParameterizedTest
    @ValueSource(ints = {2, 3, 5})
    void shouldGiveContextIdsBackOnFreeAndRefuseCollectivesAfterwards(final int size)
    {
        Ranks.run(size, (mpi, world) ->
        {
            final int rank = world.rank();
            final boolean inA = rank % 2 == 0;
            final Comm half = world.split(inA ? 0 : 1, rank);
            final int before = CommInternals.state(world).contextIds().usedCount();
            final Intercomm inter = Intercomm.create(half, 0, world, inA ? 1 : 0, 98);
            assertEquals(before + 2, CommInternals.state(world).contextIds().usedCount(), "an intercommunicator takes two pairs");
            final int[] ids = CommInternals.contextIds(inter);
            assertEquals(ids[0] + 1, ids[1], "point-to-point and bridge: one pair");
            assertEquals(ids[2] + 1, ids[3], "local group and both groups: one pair");
            assertNotEquals(ids[0], ids[2]);
            final Comm merged = inter.merge(false);
            final int root = inA ? (inter.rank() == 0 ? Intercomm.ROOT : Comm.PROC_NULL) : 0;
            assertEquals(before + 3, CommInternals.state(world).contextIds().usedCount(), "a merged communicator takes one pair");
            assertFalse(inter.isFreed());
            inter.free();
            assertTrue(inter.isFreed());
            assertEquals(before + 1, CommInternals.state(world).contextIds().usedCount(), "free gives the intercommunicator's pairs back");
            final long[] buf = new long[4];
            final List<Executable> calls = List.of(
                inter::barrier,
                inter::ibarrier,
                inter::barrierInit,
                () -> inter.bcast(buf, 0, 1, Datatype.LONG, root),
                () -> inter.allreduceInit(buf, 0, buf, 1, 1, Datatype.LONG, Op.SUM),
                () -> inter.merge(true),
                inter::rank,
                () -> inter.send(buf, 0, 1, Datatype.LONG, 0, 0),
                inter::free);
            for (final Executable call : calls)
            {
                final MpiException ex = assertThrows(MpiException.class, call);
                assertEquals(ErrorClass.ERR_COMM, ex.errorClass(), ex.getMessage());
            }
            final int[] sum = new int[1];
            merged.allreduce(new int[] {rank}, 0, sum, 0, 1, Datatype.INT, Op.SUM);
            assertEquals(size * (size - 1) / 2, sum[0]);
            merged.free();
            assertEquals(before, CommInternals.state(world).contextIds().usedCount());
            // The pairs given back are taken again by the next intercommunicator, which works.
            final Intercomm again = Intercomm.create(half, 0, world, inA ? 1 : 0, 98);
            again.barrier();
            again.free();
        });
    }

    /**
     * An intercommunicator is a Comm: dup and split (by colour on both sides, null where a colour has no
     * member on the other side) make intercommunicators whose point-to-point, collectives and sizes are right.
     */
    @ParameterizedTest
    @ValueSource(ints = {2, 3, 4, 5})
    void shouldDupAndSplitAnIntercommunicator(final int size)
    {
        Ranks.run(size, (mpi, world) ->
        {
            final int rank = world.rank();
            final boolean inA = rank % 2 == 0;
            final Comm half = world.split(inA ? 0 : 1, rank);
            final Comm inter = Intercomm.create(half, 0, world, inA ? 1 : 0, 97);
            assertTrue(inter.isInter());
            final Comm copy = inter.dup();
            assertTrue(copy instanceof Intercomm);
            assertEquals(inter.size(), copy.size());
            assertEquals(((Intercomm)inter).remoteSize(), ((Intercomm)copy).remoteSize());
            final int color = (rank / 2) % 2;
            final Comm sub = inter.split(color, -rank);
            final int[] remote = IntStream.range(0, size).filter(r -> (r % 2 == 0) != inA && (r / 2) % 2 == color).toArray();
            final int[] mine = IntStream.range(0, size).filter(r -> (r % 2 == 0) == inA && (r / 2) % 2 == color).toArray();
            if (remote.length == 0)
            {
                assertEquals(null, sub, "a colour without members on the other side gives null");
            }
            else
            {
                final Intercomm s = (Intercomm)sub;
                assertEquals(mine.length, s.size());
                assertEquals(remote.length, s.remoteSize());
                assertEquals(mine.length - 1 - java.util.Arrays.binarySearch(mine, rank), s.rank(), "ordered by key = -rank");
                final long[] sum = new long[1];
                s.allreduce(new long[] {rank}, 0, sum, 0, 1, Datatype.LONG, Op.SUM);
                assertEquals(IntStream.of(remote).sum(), sum[0], "allreduce over a split intercommunicator sums the remote group");
                if (s.rank() == 0)
                {
                    final int[] got = new int[1];
                    final var r = s.irecv(got, 0, 1, Datatype.INT, 0, 5);
                    s.send(new int[] {rank}, 0, 1, Datatype.INT, 0, 5);
                    r.await();
                    assertEquals(remote[remote.length - 1], got[0], "point-to-point reaches the other side's rank 0 (highest world rank)");
                }
                s.free();
            }
            copy.barrier();
            copy.free();
            inter.free();
        });
    }
}
