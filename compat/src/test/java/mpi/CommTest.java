package mpi;

import static mpi.Job.assertMpiError;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Communicator management, groups, intercommunicators, attributes, error handlers, names, info, messages. */
class CommTest
{
    @ParameterizedTest
    @ValueSource(ints = {2, 4})
    void shouldDupSplitCreateAndCompare(final int size)
    {
        Job.world(size, (world, rank, n) ->
        {
            final Intracomm dup = world.dup();
            assertEquals(MPI.CONGRUENT, Comm.compare(world, dup));
            assertEquals(MPI.IDENT, Comm.compare(world, world));
            assertEquals(rank, dup.getRank());
            final Intracomm half = world.split(rank % 2, -rank);
            assertEquals(rank % 2 == 0 ? (n + 1) / 2 : n / 2, half.getSize());
            assertEquals(half.getSize() - 1 - rank / 2, half.getRank());
            final Intracomm none = world.split(rank == 0 ? MPI.UNDEFINED : 1, rank);
            assertEquals(rank == 0, none.isNull());
            final Group g = world.getGroup();
            assertEquals(n, g.getSize());
            assertEquals(rank, g.getRank());
            final Group first = g.incl(new int[] {0});
            final Intracomm only0 = world.create(first);
            assertEquals(rank != 0, only0.isNull());
            if (rank == 0)
            {
                assertEquals(1, only0.getSize());
                final Intracomm byGroup = world.createGroup(first, 5);
                assertEquals(1, byGroup.getSize());
                byGroup.free();
            }
            final Intracomm shared = world.splitType(Comm.TYPE_SHARED, rank, MPI.INFO_NULL);
            assertEquals(n, shared.getSize());
            assertMpiError(MPI.ERR_ARG, () -> world.splitType(42, 0, MPI.INFO_NULL));
            final Intracomm idup = world.iDup();
            idup.getRequest().waitFor();
            assertEquals(rank, idup.getRank());
            final Intracomm withInfo = world.dupWithInfo(new Info());
            assertEquals(n, withInfo.getSize());
            final Intracomm cloned = world.clone();
            assertEquals(MPI.CONGRUENT, Comm.compare(world, cloned));
            assertFalse(world.isInter());
            assertEquals(MPI.UNDEFINED, world.getTopology());
            for (final Intracomm c : new Intracomm[] {dup, half, shared, idup, withInfo, cloned})
            {
                c.free();
                assertTrue(c.isNull());
            }
            assertMpiError(MPI.ERR_COMM, dup::getSize);
            assertMpiError(MPI.ERR_COMM, world::free);
            world.barrier();
        });
    }

    @ParameterizedTest
    @ValueSource(ints = {2, 4})
    void shouldComputeGroups(final int size)
    {
        Job.world(size, (world, rank, n) ->
        {
            final Group all = world.getGroup();
            final Group evens = all.rangeIncl(new int[][] {{0, n - 1, 2}});
            final Group odds = all.rangeExcl(new int[][] {{0, n - 1, 2}});
            assertEquals((n + 1) / 2, evens.getSize());
            assertEquals(n / 2, odds.getSize());
            assertEquals(n, Group.union(evens, odds).getSize());
            assertEquals(0, Group.intersection(evens, odds).getSize());
            assertEquals(MPI.UNEQUAL, Group.compare(evens, odds));
            assertEquals(MPI.SIMILAR, Group.compare(Group.union(odds, evens), all));
            assertEquals(MPI.IDENT, Group.compare(all, world.getGroup()));
            assertEquals(odds.getSize(), Group.difference(all, evens).getSize());
            assertArrayEquals(new int[] {0, MPI.UNDEFINED}, Group.translateRanks(all, new int[] {0, 1}, evens));
            assertEquals(rank % 2 == 0 ? rank / 2 : MPI.UNDEFINED, evens.getRank());
            assertEquals(n - 1, all.excl(new int[] {0}).getSize());
            assertEquals(0, MPI.GROUP_EMPTY.getSize());
            assertMpiError(MPI.ERR_RANK, () -> all.incl(new int[] {n}));
            evens.free();
            assertTrue(evens.isNull());
            assertMpiError(MPI.ERR_GROUP, evens::getSize);
        });
    }

    @ParameterizedTest
    @ValueSource(ints = {2, 4})
    void shouldBuildAndUseIntercommunicators(final int size)
    {
        Job.world(size, (world, rank, n) ->
        {
            final int colour = rank % 2;
            final Intracomm local = world.split(colour, rank);
            final Intercomm inter = world.createIntercomm(local, 0, colour == 0 ? 1 : 0, 99);
            assertTrue(inter.isInter());
            assertEquals(colour == 0 ? n / 2 : (n + 1) / 2, inter.getRemoteSize());
            assertEquals(inter.getRemoteSize(), inter.getRemoteGroup().getSize());
            final int[] sum = new int[1];
            inter.allReduce(new int[] {rank}, sum, 1, MPI.INT, MPI.SUM);
            int expected = 0;
            for (int r = 0; r < n; r++)
            {
                expected += r % 2 != colour ? r : 0;
            }
            assertEquals(expected, sum[0]);
            final int peerRank = local.getRank();
            if (peerRank < Math.min(n / 2, (n + 1) / 2))
            {
                final int[] got = new int[1];
                inter.sendRecv(new int[] {rank}, 1, MPI.INT, peerRank, 1, got, 1, MPI.INT, peerRank, 1);
                assertEquals(colour == 0 ? rank + 1 : rank - 1, got[0]);
            }
            final Intracomm merged = inter.merge(colour == 1);
            assertEquals(n, merged.getSize());
            assertEquals(colour == 0 ? rank / 2 : n - (n / 2) + rank / 2, merged.getRank());
            final Intercomm idup = inter.iDup();
            idup.getRequest().waitFor();
            assertEquals(inter.getRemoteSize(), idup.getRemoteSize());
            assertTrue(Intercomm.getParent().isNull());
            idup.free();
            inter.free();
        });
    }

    @ParameterizedTest
    @ValueSource(ints = {2, 4})
    void shouldKeepAttributesNamesInfoAndErrorHandlers(final int size)
    {
        Job.world(size, (world, rank, n) ->
        {
            assertEquals(Integer.class, world.getAttr(MPI.TAG_UB).getClass());
            assertTrue((Integer)world.getAttr(MPI.TAG_UB) >= 32767);
            assertEquals(Boolean.FALSE, world.getAttr(MPI.WTIME_IS_GLOBAL));
            assertEquals(n, world.getAttr(MPI.UNIVERSE_SIZE));
            final int key = Comm.createKeyval();
            world.setAttr(key, new int[] {1, rank});
            final int[] value = (int[])world.getAttr(key);
            assertArrayEquals(new int[] {1, rank}, value);
            value[0] = 99;
            assertEquals(1, ((int[])world.getAttr(key))[0]);
            final Intracomm dup = world.dup();
            assertArrayEquals(new int[] {1, rank}, (int[])dup.getAttr(key));
            world.deleteAttr(key);
            assertNull(world.getAttr(key));
            Comm.freeKeyval(key);
            assertMpiError(MPI.ERR_KEYVAL, () -> world.getAttr(key));
            assertMpiError(MPI.ERR_KEYVAL, () -> world.setAttr(MPI.TAG_UB, 5));
            assertEquals("MPI_COMM_WORLD", world.getName());
            assertEquals("MPI_COMM_SELF", MPI.COMM_SELF.getName());
            dup.setName("mine");
            assertEquals("mine", dup.getName());
            // error handlers
            assertEquals(MPI.ERRORS_RETURN, world.getErrhandler());
            dup.setErrhandler(MPI.ERRORS_RETURN);
            assertMpiError(MPI.ERR_RANK, () -> dup.send(new int[1], 1, MPI.INT, n + 3, 0));
            assertMpiError(MPI.ERR_ARG, () -> dup.setErrhandler(null));
            assertMpiError(MPI.ERR_OTHER, () -> dup.callErrhandler(MPI.ERR_OTHER));
            // info
            final Info info = new Info();
            info.set("a", "1");
            info.set("b", "2");
            assertEquals("1", info.get("a"));
            assertNull(info.get("zz"));
            assertEquals(2, info.size());
            assertEquals("a", info.getKey(0));
            final Info copy = info.dup();
            info.delete("a");
            assertEquals(1, info.size());
            assertEquals(2, copy.size());
            assertMpiError(MPI.ERR_INFO_NOKEY, () -> info.delete("a"));
            dup.setInfo(copy);
            assertEquals("2", dup.getInfo().get("b"));
            info.free();
            assertTrue(info.isNull());
            assertTrue(MPI.INFO_NULL.isNull());
            assertMpiError(MPI.ERR_INFO, () -> info.get("b"));
            dup.free();
        });
    }

    @ParameterizedTest
    @ValueSource(ints = {2, 4})
    void shouldMatchProbeAndReceiveMessages(final int size)
    {
        Job.world(size, (world, rank, n) ->
        {
            final int next = (rank + 1) % n;
            final int prev = (rank + n - 1) % n;
            final Message none = new Message();
            assertTrue(none.isNull());
            assertNull(none.imProbe(prev, 5, world));
            world.barrier();
            world.send(new int[] {rank, 2 * rank}, 2, MPI.INT, next, 5);
            final Message m = new Message();
            final Status st = m.mProbe(MPI.ANY_SOURCE, MPI.ANY_TAG, world);
            assertFalse(m.isNull());
            assertEquals(prev, st.getSource());
            assertEquals(5, st.getTag());
            assertEquals(2, st.getCount(MPI.INT));
            final int[] got = new int[2];
            m.mRecv(got, 2, MPI.INT);
            assertArrayEquals(new int[] {prev, 2 * prev}, got);
            assertTrue(m.isNull());
            assertMpiError(MPI.ERR_REQUEST, () -> m.mRecv(got, 2, MPI.INT));
            world.send(new double[] {rank}, 1, MPI.DOUBLE, next, 6);
            final Message m2 = new Message();
            Status st2;
            do
            {
                st2 = m2.imProbe(prev, 6, world);
            }
            while (st2 == null);
            final java.nio.DoubleBuffer d = MPI.newDoubleBuffer(1);
            m2.imRecv(d, 1, MPI.DOUBLE).waitFor();
            assertEquals(prev, d.get(0));
            final Message noProc = new Message();
            noProc.mProbe(MPI.PROC_NULL, 0, world);
            assertTrue(noProc.isNoProc());
            assertEquals(MPI.PROC_NULL, noProc.mRecv(new int[1], 1, MPI.INT).getSource());
            world.barrier();
        });
    }

    /** Ranks as threads cannot spawn: ERR_SPAWN at every rank under ERRORS_RETURN (through jmpirun: CompatJmpirunIT). */
    @ParameterizedTest
    @ValueSource(ints = {2})
    void shouldRefuseSpawnWithRanksAsThreads(final int size)
    {
        Job.world(size, (world, rank, n) ->
        {
            world.setErrhandler(MPI.ERRORS_RETURN);
            final int[] errcodes = {-1};
            final MPIException ex = assertThrows(MPIException.class,
                () -> world.spawn(CommTest.class.getName(), new String[0], 1, MPI.INFO_NULL, 0, errcodes));
            assertEquals(MPI.ERR_SPAWN, ex.getErrorClass(), ex.getMessage());
            assertEquals(MPI.ERR_SPAWN, errcodes[0]);
            assertEquals(MPI.ERR_ARG, assertThrows(MPIException.class,
                () -> world.spawnMultiple(new String[] {"x"}, new String[][] {{}}, new int[] {0}, new Info[] {MPI.INFO_NULL}, 0, null))
                .getErrorClass());
        });
    }
}
