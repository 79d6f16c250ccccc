package org.jmpi.internal.rma;

import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

import org.jmpi.Datatype;
import org.jmpi.ErrorClass;
import org.jmpi.MpiException;
import org.jmpi.Op;
import org.jmpi.Ranks;
import org.jmpi.Win;
import org.jmpi.coarray.DoubleCoarray;
import org.jmpi.coarray.LongCoarray;
import org.jmpi.coarray.Team;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The hot path of MPI_Put and MPI_Get ({@link DirectTargets#copy}: one plain copy between an origin array and a target
 * reached directly, elements of one basic type on both sides) against the general path, the errors it must still raise,
 * that it allocates nothing, and the fence's barrier by atomics between threads (and the coarrays' {@code syncAll} on it).
 * On the axes where ranks are reached by frames everything takes the general path and must agree all the same.
 */
@Timeout(120)
class DirectCopyTest
{
    private static boolean isolated()
    {
        return Boolean.getBoolean("jmpi.jvm.isolate") || "remote".equals(System.getProperty("jmpi.jvm.memory"));
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 4})
    void shouldPutAndGetAlikeOnTheHotAndTheGeneralPath(final int size)
    {
        Ranks.run(size, (mpi, world) ->
        {
            final int me = world.rank();
            final int right = (me + 1) % size;
            final double[] memory = new double[16];
            final ByteBuffer bytes = ByteBuffer.allocateDirect(16 * 8).order(ByteOrder.nativeOrder());
            try (Win win = Win.create(memory, 8, null, world); Win nio = Win.create(bytes, 8, null, world))
            {
                final double[] mine = new double[16];
                for (int i = 0; i < 16; i++)
                {
                    mine[i] = me * 100 + i;
                }
                win.fence(0);
                nio.fence(0);
                // hot path on both: double[] origin, DOUBLE on both sides; into an array window and a ByteBuffer window
                win.put(mine, 2, 5, Datatype.DOUBLE, right, 3, 5, Datatype.DOUBLE);
                nio.put(mine, 2, 5, Datatype.DOUBLE, right, 3, 5, Datatype.DOUBLE);
                win.fence(0);
                nio.fence(0);
                final int left = (me - 1 + size) % size;
                for (int i = 0; i < 5; i++)
                {
                    assertEquals(left * 100 + 2 + i, memory[3 + i], "put into the array window at " + (3 + i));
                    assertEquals(left * 100 + 2 + i, bytes.getDouble((3 + i) * 8), "put into the buffer window at " + (3 + i));
                }
                final double[] got = new double[8];
                final double[] gotByTheGeneralPath = new double[8];
                win.get(got, 1, 5, Datatype.DOUBLE, right, 3, 5, Datatype.DOUBLE);
                // the general path: a contiguous derived type of the same elements
                final Datatype five = Datatype.contiguous(5, Datatype.DOUBLE).commit();
                win.get(gotByTheGeneralPath, 1, 1, five, right, 3, 1, five);
                win.fence(0);
                assertArrayEquals(gotByTheGeneralPath, got);
                assertEquals(me * 100 + 2, got[1]);
                win.fence(0);
                nio.fence(0);
            }
        });
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2})
    void shouldStillRaiseTheErrorsOnTheHotPath(final int size)
    {
        Ranks.run(size, (mpi, world) ->
        {
            final int target = (world.rank() + 1) % size;
            final double[] data = new double[4];
            final Win win = Win.create(new double[4], 8, null, world);
            assertEquals(ErrorClass.ERR_RMA_SYNC, assertThrows(MpiException.class,
                () -> win.put(data, 0, 1, Datatype.DOUBLE, target, 0, 1, Datatype.DOUBLE)).errorClass(), "outside an epoch");
            win.lockAll(0);
            assertEquals(ErrorClass.ERR_RMA_RANGE, assertThrows(MpiException.class,
                () -> win.put(data, 0, 2, Datatype.DOUBLE, target, 3, 2, Datatype.DOUBLE)).errorClass(), "past the window");
            assertEquals(ErrorClass.ERR_RMA_RANGE, assertThrows(MpiException.class,
                () -> win.get(data, 0, 1, Datatype.DOUBLE, target, Long.MAX_VALUE / 16, 1, Datatype.DOUBLE)).errorClass(),
                "far past the window");
            assertEquals(ErrorClass.ERR_DISP, assertThrows(MpiException.class,
                () -> win.get(data, 0, 1, Datatype.DOUBLE, target, -1, 1, Datatype.DOUBLE)).errorClass(), "negative displacement");
            assertEquals(ErrorClass.ERR_TYPE, assertThrows(MpiException.class,
                () -> win.put(new int[2], 0, 2, Datatype.INT, target, 0, 2, Datatype.INT)).errorClass(), "ints on a double[] window");
            assertEquals(ErrorClass.ERR_RANK, assertThrows(MpiException.class,
                () -> win.put(data, 0, 1, Datatype.DOUBLE, size, 0, 1, Datatype.DOUBLE)).errorClass(), "a rank outside the window");
            assertThrows(MpiException.class, () -> win.get(data, 3, 2, Datatype.DOUBLE, target, 0, 2, Datatype.DOUBLE),
                "past the origin array");
            win.put(data, 0, 1, Datatype.DOUBLE, target, 3, 1, Datatype.DOUBLE);
            win.unlockAll();
            win.free();
            assertEquals(ErrorClass.ERR_WIN, assertThrows(MpiException.class,
                () -> win.get(data, 0, 1, Datatype.DOUBLE, target, 0, 1, Datatype.DOUBLE)).errorClass(), "a freed window");
        });
    }

    @Test
    void shouldReachAllocatedWindowsDirectlyWhereTheArenaIsOn()
    {
        // ranks as isolated JVMs with the PVAS arena (the pvas axis): Win.allocate's memory is in the arena, so puts,
        // gets and fetch_and_ops on it are direct (no allocation), where a window over a heap array goes by frames
        final boolean arena = System.getProperty("jmpi.pvas.partition.size") != null;
        Assumptions.assumeTrue(!isolated() || arena, "without the arena, isolated ranks reach each other by frames");
        Ranks.run(2, (mpi, world) ->
        {
            try (Win win = Win.allocate(64 * Double.BYTES, Double.BYTES, null, world))
            {
                final ByteBuffer mine = (ByteBuffer)win.base();
                assertEquals(0, mine.getLong(8), "zeroed");
                mine.putDouble(8, world.rank() + 0.5);
                world.barrier();
                win.lockAll(0);
                final double[] plane = new double[32];
                final long[] one = {1};
                final long[] old = new long[1];
                final int target = 1 - world.rank();
                for (int i = 0; i < 20_000; i++)
                {
                    win.get(plane, 0, 32, Datatype.DOUBLE, target, 0, 32, Datatype.DOUBLE);
                    win.fetchAndOp(one, 0, old, 0, Datatype.LONG, target, 40, Op.SUM);
                    win.flush(target);
                }
                assertEquals(target + 0.5, plane[1], "the target's element, read directly");
                final com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean)ManagementFactory.getThreadMXBean();
                final long before = threads.getCurrentThreadAllocatedBytes();
                for (int i = 0; i < 10_000; i++)
                {
                    win.put(plane, 0, 32, Datatype.DOUBLE, target, 0, 32, Datatype.DOUBLE);
                    win.fetchAndOp(one, 0, old, 0, Datatype.LONG, target, 40, Op.SUM);
                    win.flush(target);
                }
                final long allocated = threads.getCurrentThreadAllocatedBytes() - before;
                win.unlockAll();
                world.barrier();
                assertTrue(allocated < 1_000, "10 000 puts and fetch_and_ops on allocated memory allocated " + allocated + " bytes");
                assertEquals(30_000, mine.getLong(40 * Double.BYTES), "every fetch_and_op of the other rank");
                world.barrier();
            }
        });
    }

    @Test
    void shouldPlaceCoarraysInTheArenaAndReachThemDirectlyAcrossJvms()
    {
        // ranks as isolated JVMs with the PVAS arena (the pvas axis): the team puts its coarrays in the arena, their local
        // view is a buffer, and puts and gets between images are direct copies (no frame, no allocation); elsewhere the
        // coarrays are arrays and the same code must give the same results
        final boolean arena = System.getProperty("jmpi.pvas.partition.size") != null;
        Ranks.run(2, (mpi, world) ->
        {
            final Team team = Team.of(world);
            assertEquals(arena, team.inArena(), "coarrays in the arena exactly where it is on");
            final int me = team.thisImage();
            final int other = 1 - me;
            try (DoubleCoarray a = DoubleCoarray.allocate(team, 64); LongCoarray n = LongCoarray.allocate(team, 2))
            {
                assertEquals(!arena, a.hasArray());
                if (arena)
                {
                    assertTrue(a.win().inArena() && n.win().inArena(), "the coarrays' memory is in the arena");
                    assertThrows(UnsupportedOperationException.class, a::local);
                    // the synchronisation memory too: fences (syncAll) are the barrier by atomics across the JVMs
                    assertTrue(windowOf(a.win()).barrierDirect(), "every image's synchronisation memory reached directly");
                }
                final java.nio.DoubleBuffer view = a.localBuffer();
                assertEquals(64, view.capacity());
                for (int i = 0; i < 64; i++)
                {
                    assertEquals(0.0, a.get(i), "zeroed");
                    view.put(i, me * 1000 + i);
                }
                assertEquals(me * 1000 + 7, a.get(7), "get(i) sees the buffer view's store");
                a.set(8, -1);
                assertEquals(-1, view.get(8), "the buffer view sees set(i, v)");
                team.syncAll();
                final double[] plane = new double[32];
                a.get(other, 4, plane, 0, 32);
                assertEquals(other * 1000 + 4, plane[0]);
                assertEquals(-1, plane[4], "the other image's set(8, -1)");
                team.syncAll();
                final long allocatedByCopies = allocatedBy(() ->
                {
                    for (int i = 0; i < 10_000; i++)
                    {
                        a.get(other, 32, plane, 0, 32);
                        a.put(other, 0, plane, 0, 32);
                        n.fetchAndAdd(other, 1, 1);
                    }
                });
                team.syncAll();
                assertEquals(10_000, n.get(1), "every fetchAndAdd of the other image");
                assertEquals(me * 1000 + 32, a.get(0), "the other image's put of what it got from this one's elements 32..63");
                if (arena || !isolated())
                {
                    assertTrue(allocatedByCopies < 1_000, "10 000 puts, gets and fetchAndAdds between images allocated " +
                        allocatedByCopies + " bytes (direct copies allocate nothing)");
                }
                for (int round = 1; round <= 200; round++)
                {
                    a.put(other, 63, new double[] {round}, 0, 1);
                    team.syncAll();
                    assertEquals(round, a.get(63), "syncAll round " + round);
                    team.syncAll();
                }
            }
            team.free();
        });
    }

    /** The one-sided window beneath a {@link Win} (a package-private field of org.jmpi). */
    private static Window windowOf(final Win win)
    {
        try
        {
            final java.lang.reflect.Field field = Win.class.getDeclaredField("window");
            field.setAccessible(true);
            return (Window)field.get(win);
        }
        catch (final ReflectiveOperationException ex)
        {
            throw new AssertionError(ex);
        }
    }

    private static long allocatedBy(final Runnable work)
    {
        final com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean)ManagementFactory.getThreadMXBean();
        final long before = threads.getCurrentThreadAllocatedBytes();
        work.run();
        return threads.getCurrentThreadAllocatedBytes() - before;
    }

    @Test
    void shouldAllocateNothingOnTheHotPath()
    {
        Assumptions.assumeFalse(isolated(), "ranks reached by frames take the general path");
        Ranks.run(2, (mpi, world) ->
        {
            final double[] memory = new double[64];
            try (Win win = Win.create(memory, 8, null, world))
            {
                win.lockAll(0);
                final double[] plane = new double[32];
                final int target = 1 - world.rank();
                for (int i = 0; i < 50_000; i++)
                {
                    win.put(plane, 0, 32, Datatype.DOUBLE, target, 0, 32, Datatype.DOUBLE);
                    win.get(plane, 0, 32, Datatype.DOUBLE, target, 32, 32, Datatype.DOUBLE);
                    win.flush(target);
                    win.flushAll();
                }
                final com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean)ManagementFactory.getThreadMXBean();
                final long before = threads.getCurrentThreadAllocatedBytes();
                for (int i = 0; i < 10_000; i++)
                {
                    win.put(plane, 0, 32, Datatype.DOUBLE, target, 0, 32, Datatype.DOUBLE);
                    win.get(plane, 0, 32, Datatype.DOUBLE, target, 32, 32, Datatype.DOUBLE);
                    win.flush(target);
                    win.flushAll();
                }
                final long allocated = threads.getCurrentThreadAllocatedBytes() - before;
                win.unlockAll();
                world.barrier();
                assertTrue(allocated < 1_000, "10 000 puts, gets and flushes allocated " + allocated + " bytes");
            }
        });
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 5})
    void shouldSeparateFenceEpochsAndSyncAllsAtEveryRankCount(final int size)
    {
        Ranks.run(size, (mpi, world) ->
        {
            final int me = world.rank();
            final long[] slots = new long[size];
            final Team team = Team.of(world);
            try (Win win = Win.create(slots, 8, null, world); DoubleCoarray a = DoubleCoarray.allocate(team, size))
            {
                final long[] value = new long[1];
                final double[] x = new double[1];
                for (int round = 1; round <= 50; round++)
                {
                    // every rank writes its slot at every rank, then everyone checks every slot: a fence that let a rank
                    // through early would show an old round
                    win.fence(0);
                    value[0] = round * 1000L + me;
                    for (int t = 0; t < size; t++)
                    {
                        win.put(value, 0, 1, Datatype.LONG, t, me, 1, Datatype.LONG);
                    }
                    win.fence(0);
                    for (int r = 0; r < size; r++)
                    {
                        assertEquals(round * 1000L + r, slots[r], "fence round " + round + ", slot " + r);
                    }
                    x[0] = round + me / 1000.0;
                    for (int t = 0; t < size; t++)
                    {
                        a.putAsync(t, me, x, 0, 1);
                    }
                    team.syncAll();
                    for (int r = 0; r < size; r++)
                    {
                        assertEquals(round + r / 1000.0, a.get(r), "syncAll round " + round + ", image " + r);
                    }
                    team.syncAll();
                }
                win.fence(Win.MODE_NOSUCCEED);
            }
            team.free();
        });
    }
}
