package org.jmpi.coll;

import org.jmpi.CommInternals;
import org.jmpi.Comm;
import org.jmpi.Datatype;
import org.jmpi.ErrorClass;
import org.jmpi.Group;
import org.jmpi.MpiException;
import org.jmpi.Op;
import org.jmpi.Ranks;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Communicator and group operations against hand-worked expectations. */
@Timeout(60)
class CommunicatorsTest
{
    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 4, 5, 8})
    void shouldDupIntoAnIsolatedContext(final int size)
    {
        Ranks.run(size, (mpi, world) ->
        {
            final int rank = world.rank();
            final Comm dup = world.dup();
            assertEquals(rank, dup.rank());
            assertEquals(size, dup.size());
            assertEquals(Comm.CONGRUENT, world.compare(dup));
            assertEquals(Comm.IDENT, dup.compare(dup));
            // A message on the dup never matches a receive on world: send on both, receive in the other order.
            final int right = (rank + 1) % size;
            final int left = (rank - 1 + size) % size;
            final int[] a = {rank};
            final int[] b = {rank + 100};
            final var r1 = world.irecv(new int[1], 0, 1, Datatype.INT, Comm.ANY_SOURCE, Comm.ANY_TAG);
            dup.send(b, 0, 1, Datatype.INT, right, 0);
            final int[] fromDup = new int[1];
            dup.recv(fromDup, 0, 1, Datatype.INT, left, 0);
            assertEquals(left + 100, fromDup[0]);
            world.send(a, 0, 1, Datatype.INT, right, 0);
            r1.await();
            final int[] sum = new int[1];
            dup.allreduce(new int[] {1}, 0, sum, 0, 1, Datatype.INT, Op.SUM);
            assertEquals(size, sum[0]);
            dup.free();
            assertTrue(dup.isFreed());
            final MpiException ex = assertThrows(MpiException.class, dup::barrier);
            assertEquals(ErrorClass.ERR_COMM, ex.errorClass());
            assertEquals(ErrorClass.ERR_COMM, assertThrows(MpiException.class, world::free).errorClass());
        });
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 4, 5, 8})
    void shouldIdupWhileOtherCommunicatorsAreMade(final int size)
    {
        Ranks.run(size, (mpi, world) ->
        {
            final int rank = world.rank();
            final Comm[] first = new Comm[1];
            final Comm[] second = new Comm[1];
            final org.jmpi.Request a = world.idup(first);
            // Made while the idup is in flight: a blocking dup and a split must get other contexts.
            final Comm blocking = world.dup();
            final Comm halves = world.split(rank % 2, 0);
            final org.jmpi.Request b = world.idup(second);
            org.jmpi.Request.waitAll(b, a);
            assertNotNull(first[0]);
            assertNotNull(second[0]);
            final Comm[] all = {first[0], second[0], blocking};
            for (final Comm c : all)
            {
                assertEquals(rank, c.rank());
                assertEquals(Comm.CONGRUENT, c.compare(world));
            }
            assertTrue(CommInternals.state(first[0]).contextId() != CommInternals.state(second[0]).contextId());
            assertTrue(CommInternals.state(first[0]).contextId() != CommInternals.state(blocking).contextId());
            assertTrue(CommInternals.state(second[0]).contextId() != CommInternals.state(blocking).contextId());
            assertTrue(CommInternals.state(halves).contextId() != CommInternals.state(first[0]).contextId());
            // Traffic on each stays on each: the same tag and source on all three, received in reverse order.
            final int right = (rank + 1) % size;
            final int left = (rank - 1 + size) % size;
            for (int i = 0; i < all.length; i++)
            {
                all[i].send(new int[] {i}, 0, 1, Datatype.INT, right, 3);
            }
            for (int i = all.length - 1; i >= 0; i--)
            {
                final int[] got = new int[1];
                all[i].recv(got, 0, 1, Datatype.INT, left, 3);
                assertEquals(i, got[0]);
            }
        });
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 4, 5, 8})
    void shouldSplitByColourWithKeysThatReorder(final int size)
    {
        Ranks.run(size, (mpi, world) ->
        {
            final int rank = world.rank();
            // Colour: rank % 3, but rank 2 stays out. Key: descending rank, so order reverses within a colour.
            final int color = rank == 2 ? Comm.UNDEFINED : rank % 3;
            final Comm part = world.split(color, size - rank);
            if (rank == 2)
            {
                assertNull(part);
            }
            else
            {
                assertNotNull(part);
                int members = 0;
                int higher = 0;
                for (int r = 0; r < size; r++)
                {
                    if (r != 2 && r % 3 == color)
                    {
                        members++;
                        higher += r > rank ? 1 : 0;
                    }
                }
                assertEquals(members, part.size());
                assertEquals(higher, part.rank(), "descending keys put higher world ranks first");
                // The new communicator works: sum world ranks of the colour.
                final int[] sum = new int[1];
                part.allreduce(new int[] {rank}, 0, sum, 0, 1, Datatype.INT, Op.SUM);
                int expected = 0;
                for (int r = 0; r < size; r++)
                {
                    expected += r != 2 && r % 3 == color ? r : 0;
                }
                assertEquals(expected, sum[0]);
                final Group g = part.group();
                final int[] toWorld = Group.translateRanks(g, new int[] {0}, world.group());
                assertEquals(part.rank() == 0 ? rank : toWorld[0], toWorld[0]);
            }
            // Equal keys keep the parent's order.
            final Comm same = world.split(0, 7);
            assertEquals(rank, same.rank());
            assertEquals(Comm.CONGRUENT, same.compare(world));
            final Comm reversed = world.split(0, -rank);
            assertEquals(size - 1 - rank, reversed.rank());
            assertEquals(size > 1 ? Comm.SIMILAR : Comm.CONGRUENT, reversed.compare(world));
        });
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 3, 5})
    void shouldCreateFromGroupsAndSplitShared(final int size)
    {
        Ranks.run(size, (mpi, world) ->
        {
            final int rank = world.rank();
            final Group all = world.group();
            assertEquals(size, all.size());
            assertEquals(rank, all.rank());
            final Group evens = all.rangeIncl(new int[][] {{0, size - 1, 2}});
            final Comm even = world.create(evens);
            if (rank % 2 == 0)
            {
                assertEquals(rank / 2, even.rank());
                assertEquals((size + 1) / 2, even.size());
                final int[] max = new int[1];
                even.allreduce(new int[] {rank}, 0, max, 0, 1, Datatype.INT, Op.MAX);
                assertEquals((size - 1) / 2 * 2, max[0]);
            }
            else
            {
                assertNull(even);
            }
            // create_group: only the odd ranks call it.
            if (rank % 2 == 1)
            {
                final Group odds = Group.difference(all, evens);
                final Comm odd = world.createGroup(odds, 5);
                assertEquals(rank / 2, odd.rank());
                odd.barrier();
            }
            world.barrier();
            final Comm node = world.splitType(Comm.TYPE_SHARED, 0);
            assertEquals(size, node.size(), "all in-JVM ranks share one node");
            assertEquals(rank, node.rank());
            assertNull(world.splitType(Comm.UNDEFINED, 0));
        });
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 3})
    void shouldCopyAndDeleteAttributesAndInfo(final int size)
    {
        Ranks.run(size, (mpi, world) ->
        {
            assertEquals(Comm.TAG_UB, world.getAttr(org.jmpi.Keyval.TAG_UB));
            assertEquals(Boolean.FALSE, world.getAttr(org.jmpi.Keyval.WTIME_IS_GLOBAL));
            final java.util.List<String> deleted = new java.util.ArrayList<>();
            final org.jmpi.Keyval copied = org.jmpi.Keyval.create((c, k, v) -> v + "+copy", (c, k, v) -> deleted.add((String)v));
            final org.jmpi.Keyval notCopied = org.jmpi.Keyval.create(org.jmpi.Keyval.NULL_COPY, null);
            final Comm base = world.dup();
            base.setAttr(copied, "a");
            base.setAttr(notCopied, "b");
            base.setAttr(copied, "a2");
            assertEquals(java.util.List.of("a"), deleted, "replacing calls the delete callback");
            base.setInfo(new org.jmpi.Info().set("hint", "1"));
            final Comm copy = base.dup();
            assertEquals("a2+copy", copy.getAttr(copied));
            assertNull(copy.getAttr(notCopied));
            assertEquals("1", copy.getInfo().get("hint"));
            copy.deleteAttr(copied);
            assertEquals(java.util.List.of("a", "a2+copy"), deleted);
            assertEquals(ErrorClass.ERR_KEYVAL, assertThrows(MpiException.class, () -> copy.deleteAttr(copied)).errorClass());
            base.free();
            assertEquals(java.util.List.of("a", "a2+copy", "a2"), deleted, "free deletes what is cached");
            assertEquals(ErrorClass.ERR_KEYVAL,
                assertThrows(MpiException.class, () -> world.setAttr(org.jmpi.Keyval.TAG_UB, 5)).errorClass());
        });
    }

    @Test
    void shouldCombineGroups()
    {
        final Group g = new Group(new int[] {10, 11, 12, 13, 14, 15}, 12);
        assertEquals(2, g.rank());
        final Group a = g.incl(new int[] {5, 2, 0});
        assertArrayEquals(new int[] {15, 12, 10}, a.worldRanks());
        assertEquals(1, a.rank());
        assertArrayEquals(new int[] {11, 13, 14}, g.excl(new int[] {0, 2, 5}).worldRanks());
        assertArrayEquals(new int[] {15, 13, 11}, g.rangeIncl(new int[][] {{5, 0, -2}}).worldRanks());
        assertArrayEquals(new int[] {10, 12, 14}, g.rangeExcl(new int[][] {{1, 5, 2}}).worldRanks());
        final Group b = g.incl(new int[] {0, 1});
        assertArrayEquals(new int[] {15, 12, 10, 11}, Group.union(a, b).worldRanks());
        assertArrayEquals(new int[] {10}, Group.intersection(a, b).worldRanks());
        assertArrayEquals(new int[] {15, 12}, Group.difference(a, b).worldRanks());
        assertEquals(Comm.UNDEFINED, b.rank());
        assertArrayEquals(new int[] {2, Comm.UNDEFINED, Comm.PROC_NULL}, Group.translateRanks(g, new int[] {0, 4, Comm.PROC_NULL}, a));
        assertEquals(Comm.IDENT, Group.compare(a, g.incl(new int[] {5, 2, 0})));
        assertEquals(Comm.SIMILAR, Group.compare(a, g.incl(new int[] {0, 2, 5})));
        assertEquals(Comm.UNEQUAL, Group.compare(a, b));
        assertEquals(0, Group.EMPTY.size());
        assertEquals(ErrorClass.ERR_RANK, assertThrows(MpiException.class, () -> g.incl(new int[] {6})).errorClass());
        assertEquals(ErrorClass.ERR_RANK, assertThrows(MpiException.class, () -> g.incl(new int[] {1, 1})).errorClass());
    }
}
