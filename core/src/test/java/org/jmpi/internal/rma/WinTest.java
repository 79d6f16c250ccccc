package org.jmpi.internal.rma;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.Map;

import org.jmpi.Datatype;
import org.jmpi.ErrorClass;
import org.jmpi.Group;
import org.jmpi.Intracomm;
import org.jmpi.MpiException;
import org.jmpi.Op;
import org.jmpi.Ranks;
import org.jmpi.Request;
import org.jmpi.ThreadLevel;
import org.jmpi.Win;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * RMA windows between ranks: every operation under every synchronisation mode against a sequential reference, derived
 * datatypes on both sides, accumulate atomicity, errors with their classes. Ranks are threads; over the jvm transport
 * targets are reached directly, on the shm and tcp axes (transport-shm and transport-tcp run this class with
 * jmpi.jvm.isolate=true) by active messages.
 */
@Timeout(120)
class WinTest
{
    private static final int N = 64;

    /** Synchronisation modes every operation runs under. */
    private enum Mode
    {
        FENCE, PSCW, LOCK, LOCK_ALL
    }

    /** Whether ranks reach each other without peer memory (the shm, tcp and remote-memory axes): by frames. */
    private static boolean isolated()
    {
        return Boolean.getBoolean("jmpi.jvm.isolate") || "remote".equals(System.getProperty("jmpi.jvm.memory"));
    }

    /** Whether the ranks have the PVAS arena (the pvas axis): shared windows across "JVMs" then live there. */
    private static boolean arena()
    {
        final String partition = System.getProperty("jmpi.pvas.partition.size");
        return partition != null && !partition.equals("0") && System.getProperty("jmpi.transports", "").contains("pvas");
    }

    private static double value(final int rank, final int i)
    {
        return rank * 1000 + i;
    }

    /** Opens an access epoch to {@code target} (and an exposure epoch for PSCW: every rank exposes to every rank). */
    private static void open(final Win win, final Mode mode, final Intracomm world, final int target)
    {
        switch (mode)
        {
            case FENCE -> win.fence(0);
            case PSCW ->
            {
                win.post(world.group(), 0);
                win.start(world.group(), 0);
            }
            case LOCK -> win.lock(Win.LOCK_EXCLUSIVE, target, 0);
            case LOCK_ALL -> win.lockAll(0);
        }
    }

    private static void close(final Win win, final Mode mode, final Intracomm world, final int target)
    {
        switch (mode)
        {
            case FENCE -> win.fence(Win.MODE_NOSUCCEED);
            case PSCW ->
            {
                win.complete();
                win.await();
            }
            case LOCK ->
            {
                win.unlock(target);
                world.barrier();
            }
            case LOCK_ALL ->
            {
                win.unlockAll();
                world.barrier();
            }
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 4})
    void shouldPutGetAndAccumulateUnderEverySynchronisation(final int size)
    {
        Ranks.run(size, (mpi, world) ->
        {
            final int rank = world.rank();
            final int right = (rank + 1) % size;
            final int left = (rank + size - 1) % size;
            for (final Mode mode : Mode.values())
            {
                final double[] memory = new double[N];
                try (Win win = Win.create(memory, 8, null, world))
                {
                    // put to the right neighbour's first half, get from its second half.
                    Arrays.fill(memory, -1);
                    for (int i = N / 2; i < N; i++)
                    {
                        memory[i] = value(rank, i);
                    }
                    world.barrier();
                    final double[] out = new double[N / 2];
                    for (int i = 0; i < N / 2; i++)
                    {
                        out[i] = value(rank, i) + 0.5;
                    }
                    final double[] got = new double[N / 2];
                    open(win, mode, world, right);
                    win.put(out, 0, N / 2, Datatype.DOUBLE, right, 0, N / 2, Datatype.DOUBLE);
                    win.get(got, 0, N / 2, Datatype.DOUBLE, right, N / 2, N / 2, Datatype.DOUBLE);
                    close(win, mode, world, right);
                    for (int i = 0; i < N / 2; i++)
                    {
                        assertEquals(value(left, i) + 0.5, memory[i], mode + ": element " + i + " put by rank " + left);
                        assertEquals(value(right, N / 2 + i), got[i], mode + ": element " + (N / 2 + i) + " got from rank " + right);
                    }

                    // every rank accumulates into every rank's first element with SUM; then MAX into the second.
                    world.barrier();
                    for (int t = 0; t < size; t++)
                    {
                        open(win, mode, world, t);
                        win.accumulate(new double[] {rank + 1}, 0, 1, Datatype.DOUBLE, t, 0, 1, Datatype.DOUBLE, Op.SUM);
                        win.accumulate(new double[] {rank}, 0, 1, Datatype.DOUBLE, t, 1, 1, Datatype.DOUBLE, Op.MAX);
                        close(win, mode, world, t);
                    }
                    world.barrier();
                    assertEquals(value(left, 0) + 0.5 + size * (size + 1) / 2.0, memory[0], mode + ": SUM of every rank's rank + 1");
                    assertEquals(Math.max(value(left, 1) + 0.5, size - 1), memory[1], mode + ": MAX");
                }
            }
        });
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 4})
    void shouldMoveDerivedDatatypesOnBothSides(final int size)
    {
        Ranks.run(size, (mpi, world) ->
        {
            final int rank = world.rank();
            final int right = (rank + 1) % size;
            final int left = (rank + size - 1) % size;
            final int[] memory = new int[4 * N];
            // origin: every other int of 2N; target: blocks of 2 ints at stride 4 from displacement 1.
            final Datatype originType = Datatype.vector(N, 1, 2, Datatype.INT).commit();
            final Datatype targetType = Datatype.vector(N / 2, 2, 4, Datatype.INT).commit();
            final int[] src = new int[2 * N];
            for (int i = 0; i < 2 * N; i++)
            {
                src[i] = rank * 10_000 + i;
            }
            try (Win win = Win.create(memory, 4, null, world))
            {
                win.fence(0);
                win.put(src, 0, 1, originType, right, 1, 1, targetType);
                win.fence(0);
                final int[] expected = new int[4 * N];
                for (int k = 0, b = 0; b < N / 2; b++)
                {
                    expected[1 + 4 * b] = left * 10_000 + 2 * k++;
                    expected[2 + 4 * b] = left * 10_000 + 2 * k++;
                }
                assertArrayEquals(expected, memory, "derived put from rank " + left);

                // get back through the same layouts, the other way round; accumulate through them too.
                final int[] back = new int[2 * N];
                win.get(back, 0, 1, originType, right, 1, 1, targetType);
                win.fence(0);
                win.accumulate(src, 0, 1, originType, right, 1, 1, targetType, Op.SUM);
                win.fence(0);
                for (int i = 0; i < 2 * N; i++)
                {
                    assertEquals(i % 2 == 0 ? src[i] : 0, back[i], "derived get of element " + i);
                }
                for (int k = 0, b = 0; b < N / 2; b++)
                {
                    expected[1 + 4 * b] += left * 10_000 + 2 * k++;
                    expected[2 + 4 * b] += left * 10_000 + 2 * k++;
                }
                assertArrayEquals(expected, memory, "derived accumulate from rank " + left);
                win.fence(Win.MODE_NOSUCCEED);
            }
        });
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 4})
    void shouldApplyEveryPredefinedOpFetchAndCompareAndSwap(final int size)
    {
        Ranks.run(size, (mpi, world) ->
        {
            final int rank = world.rank();
            final int target = (rank + 1) % size;
            final Op[] ops = {Op.SUM, Op.PROD, Op.MIN, Op.MAX, Op.LAND, Op.LOR, Op.LXOR, Op.BAND, Op.BOR, Op.BXOR, Op.REPLACE, Op.NO_OP};
            final long[] memory = new long[ops.length + 4];
            try (Win win = Win.create(memory, 8, null, world))
            {
                for (int k = 0; k < ops.length; k++)
                {
                    memory[k] = 12;
                }
                win.fence(0);
                for (int k = 0; k < ops.length; k++)
                {
                    win.accumulate(new long[] {10}, 0, 1, Datatype.LONG, target, k, 1, Datatype.LONG, ops[k]);
                }
                win.fence(0);
                final long[] expected = {22, 120, 10, 12, 1, 1, 0, 8, 14, 6, 10, 12};
                for (int k = 0; k < ops.length; k++)
                {
                    assertEquals(expected[k], memory[k], "12 " + ops[k] + " 10");
                }
                // get_accumulate, fetch_and_op, compare_and_swap on the last four longs; each rank owns its target's.
                final int at = ops.length;
                memory[at] = 5;
                memory[at + 1] = 7;
                memory[at + 2] = 3;
                memory[at + 3] = 3;
                world.barrier();
                win.lock(Win.LOCK_SHARED, target, 0);
                final long[] result = new long[2];
                win.getAccumulate(new long[] {1, 2}, 0, 2, Datatype.LONG, result, 0, 2, Datatype.LONG, target, at, 2, Datatype.LONG, Op.SUM);
                win.flush(target);
                assertArrayEquals(new long[] {5, 7}, result, "get_accumulate fetches the old values");
                final long[] one = new long[1];
                win.fetchAndOp(new long[] {100}, 0, one, 0, Datatype.LONG, target, at, Op.REPLACE);
                win.flush(target);
                assertEquals(6, one[0]);
                win.fetchAndOp(null, 0, one, 0, Datatype.LONG, target, at, Op.NO_OP);
                win.flush(target);
                assertEquals(100, one[0], "NO_OP fetches atomically");
                win.compareAndSwap(new long[] {42}, 0, new long[] {3}, 0, one, 0, Datatype.LONG, target, at + 2);
                win.compareAndSwap(new long[] {43}, 0, new long[] {3}, 0, one, 0, Datatype.LONG, target, at + 3);
                win.compareAndSwap(new long[] {44}, 0, new long[] {3}, 0, one, 0, Datatype.LONG, target, at + 2);
                win.flush(target);
                assertEquals(42, one[0], "the third swap finds 42 and leaves it");
                win.unlock(target);
                world.barrier();
                assertEquals(100, memory[at]);
                assertEquals(9, memory[at + 1]);
                assertEquals(42, memory[at + 2]);
                assertEquals(43, memory[at + 3]);
                world.barrier();
            }
        });
    }

    @ParameterizedTest
    @ValueSource(ints = {2, 4})
    void shouldSumFetchAndOpsExactlyUnderContention(final int size)
    {
        final int perRank = 100_000;
        Ranks.run(size, (mpi, world) ->
        {
            final long[] counter = new long[1];
            try (Win win = Win.create(counter, 8, null, world))
            {
                win.lockAll(0);
                final long[] one = {1};
                final long[] fetched = new long[1000];
                long fetchedSum = 0;
                for (int i = 0; i < perRank; i += fetched.length)
                {
                    for (int k = 0; k < fetched.length; k++)
                    {
                        win.fetchAndOp(one, 0, fetched, k, Datatype.LONG, 0, 0, Op.SUM);
                    }
                    win.flush(0);
                    for (final long f : fetched)
                    {
                        fetchedSum += f;
                    }
                }
                win.unlockAll();
                world.barrier();
                final long total = (long)perRank * size;
                final long[] sums = new long[1];
                world.allreduce(new long[] {fetchedSum}, 0, sums, 0, 1, Datatype.LONG, Op.SUM);
                assertEquals(total * (total - 1) / 2, sums[0], "every value 0..n-1 fetched exactly once");
                if (world.rank() == 0)
                {
                    assertEquals(total, counter[0], "10^5 increments per rank");
                }
            }
        });
    }

    @ParameterizedTest
    @ValueSource(ints = {2, 3, 4})
    void shouldSignalAndWaitPairwiseBetweenPscwEpochs(final int size)
    {
        Ranks.run(size, (mpi, world) ->
        {
            final int rank = world.rank();
            final int right = (rank + 1) % size;
            final int left = (rank + size - 1) % size;
            final int[] neighbours = right == left ? new int[] {right} : new int[] {left, right};
            final int[] memory = new int[size];
            try (Win win = Win.create(memory, 4, null, world))
            {
                for (int round = 1; round <= 20; round++)
                {
                    // a store, then the pairwise signal: after it each neighbour's store of this round is visible
                    memory[rank] = round;
                    win.signalAndWait(neighbours);
                    // no epoch is open after it: read the neighbour's memory through a lock
                    final int[] seen = new int[1];
                    win.lock(Win.LOCK_SHARED, left, 0);
                    win.get(seen, 0, 1, Datatype.INT, left, left, 1, Datatype.INT);
                    win.unlock(left);
                    // the left neighbour cannot pass its next signal before this rank's: it is at this round exactly
                    assertEquals(round, seen[0], "round " + round + ": the left neighbour's store before its signal");
                    win.signalAndWait(neighbours);
                    // signals and posts share the post counters, consumed in order: a PSCW epoch after two signals
                    final Group group = world.group().incl(neighbours);
                    win.post(group, 0);
                    win.start(group, 0);
                    assertEquals(ErrorClass.ERR_RMA_SYNC, assertThrows(MpiException.class, () -> win.signalAndWait(neighbours)).errorClass());
                    win.complete();
                    win.await();
                }
                assertEquals(ErrorClass.ERR_RANK, assertThrows(MpiException.class, () -> win.signalAndWait(rank)).errorClass());
                assertEquals(ErrorClass.ERR_RANK, assertThrows(MpiException.class, () -> win.signalAndWait(size)).errorClass());
            }
        });
    }

    @ParameterizedTest
    @ValueSource(ints = {2, 3, 4})
    void shouldRunPscwWithOverlappingGroups(final int size)
    {
        Ranks.run(size, (mpi, world) ->
        {
            final int rank = world.rank();
            final int[] memory = new int[size];
            try (Win win = Win.create(memory, 4, null, world))
            {
                // Each rank exposes to its two neighbours and accesses them; groups overlap pairwise.
                final int right = (rank + 1) % size;
                final int left = (rank + size - 1) % size;
                final Group neighbours = world.group().incl(right == left ? new int[] {right} : new int[] {left, right});
                for (int round = 1; round <= 3; round++)
                {
                    win.post(neighbours, 0);
                    win.start(neighbours, 0);
                    win.put(new int[] {rank * 100 + round}, 0, 1, Datatype.INT, right, rank, 1, Datatype.INT);
                    win.put(new int[] {rank * 100 + round}, 0, 1, Datatype.INT, left, rank, 1, Datatype.INT);
                    win.complete();
                    if (round % 2 == 0)
                    {
                        while (!win.test())
                        {
                            Thread.onSpinWait();
                        }
                    }
                    else
                    {
                        win.await();
                    }
                    assertEquals(left * 100 + round, memory[left], "round " + round + " from the left");
                    assertEquals(right * 100 + round, memory[right], "round " + round + " from the right");
                }
            }
        });
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3})
    void shouldCompleteRequestBasedOperations(final int size)
    {
        Ranks.run(size, (mpi, world) ->
        {
            final int rank = world.rank();
            final int right = (rank + 1) % size;
            final ByteBuffer memory = ByteBuffer.allocateDirect(8 * N).order(ByteOrder.nativeOrder());
            try (Win win = Win.create(memory, 8, null, world))
            {
                win.lockAll(0);
                final long[] out = new long[N];
                Arrays.fill(out, rank + 7);
                final Request put = win.rput(out, 0, N, Datatype.LONG, right, 0, N, Datatype.LONG);
                put.await();
                final long[] back = new long[N];
                final Request get = win.rget(back, 0, 1, Datatype.LONG, right, 0, 1, Datatype.LONG);
                final Request acc = win.raccumulate(new long[] {1}, 0, 1, Datatype.LONG, right, 1, 1, Datatype.LONG, Op.SUM);
                final long[] old = new long[1];
                final Request ga = win.rgetAccumulate(new long[] {1}, 0, 1, Datatype.LONG, old, 0, 1, Datatype.LONG, right, 2, 1,
                    Datatype.LONG, Op.SUM);
                Request.waitAll(get, acc, ga);
                assertEquals(rank + 7, back[0]);
                assertEquals(rank + 7, old[0]);
                win.unlockAll();
                world.barrier();
                final int left = (rank + size - 1) % size;
                assertEquals(left + 7, memory.getLong(0));
                assertEquals(left + 8, memory.getLong(8));
                assertEquals(left + 8, memory.getLong(16));
                world.barrier();
            }
        });
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 4})
    void shouldRaiseRmaErrorsWithTheirClasses(final int size)
    {
        Ranks.run(size, (mpi, world) ->
        {
            final int rank = world.rank();
            final int right = (rank + 1) % size;
            final double[] memory = new double[8];
            final Win win = Win.create(memory, 8, null, world);
            final double[] one = {1};
            // Outside an epoch, and mismatched synchronisation.
            assertEquals(ErrorClass.ERR_RMA_SYNC, assertThrows(MpiException.class,
                () -> win.put(one, 0, 1, Datatype.DOUBLE, right, 0, 1, Datatype.DOUBLE)).errorClass());
            assertEquals(ErrorClass.ERR_RMA_SYNC, assertThrows(MpiException.class, () -> win.unlock(right)).errorClass());
            assertEquals(ErrorClass.ERR_RMA_SYNC, assertThrows(MpiException.class, win::complete).errorClass());
            assertEquals(ErrorClass.ERR_RMA_SYNC, assertThrows(MpiException.class, win::await).errorClass());
            assertEquals(ErrorClass.ERR_RMA_SYNC, assertThrows(MpiException.class, win::unlockAll).errorClass());
            assertEquals(ErrorClass.ERR_RMA_SYNC, assertThrows(MpiException.class, () -> win.flush(right)).errorClass());
            win.lock(Win.LOCK_SHARED, right, 0);
            assertEquals(ErrorClass.ERR_RMA_SYNC, assertThrows(MpiException.class, () -> win.lock(Win.LOCK_SHARED, right, 0)).errorClass());
            assertEquals(ErrorClass.ERR_RMA_SYNC, assertThrows(MpiException.class, () -> win.fence(0)).errorClass());
            // Outside the target's window, bad displacements, bad lock types and assertions.
            assertEquals(ErrorClass.ERR_RMA_RANGE, assertThrows(MpiException.class,
                () -> win.put(one, 0, 1, Datatype.DOUBLE, right, 8, 1, Datatype.DOUBLE)).errorClass());
            assertEquals(ErrorClass.ERR_RMA_RANGE, assertThrows(MpiException.class,
                () -> win.get(new double[4], 0, 4, Datatype.DOUBLE, right, 5, 4, Datatype.DOUBLE)).errorClass());
            assertEquals(ErrorClass.ERR_RMA_RANGE, assertThrows(MpiException.class,
                () -> win.accumulate(one, 0, 1, Datatype.DOUBLE, right, 100, 1, Datatype.DOUBLE, Op.SUM)).errorClass());
            assertEquals(ErrorClass.ERR_DISP, assertThrows(MpiException.class,
                () -> win.put(one, 0, 1, Datatype.DOUBLE, right, -1, 1, Datatype.DOUBLE)).errorClass());
            assertEquals(ErrorClass.ERR_TYPE, assertThrows(MpiException.class,
                () -> win.put(new int[] {1, 2}, 0, 2, Datatype.INT, right, 0, 2, Datatype.INT)).errorClass(),
                "an int put into a double[] window");
            assertEquals(ErrorClass.ERR_RANK, assertThrows(MpiException.class,
                () -> win.put(one, 0, 1, Datatype.DOUBLE, size, 0, 1, Datatype.DOUBLE)).errorClass());
            assertEquals(ErrorClass.ERR_OP, assertThrows(MpiException.class,
                () -> win.accumulate(one, 0, 1, Datatype.DOUBLE, right, 0, 1, Datatype.DOUBLE, Op.BAND)).errorClass());
            win.unlock(right);
            assertEquals(ErrorClass.ERR_LOCKTYPE, assertThrows(MpiException.class, () -> win.lock(7, right, 0)).errorClass());
            assertEquals(ErrorClass.ERR_ASSERT, assertThrows(MpiException.class, () -> win.fence(Win.MODE_NOCHECK)).errorClass());
            world.barrier();
            // A freed window.
            win.free();
            assertTrue(win.isFreed());
            assertEquals(ErrorClass.ERR_WIN, assertThrows(MpiException.class, () -> win.fence(0)).errorClass());
            assertEquals(ErrorClass.ERR_WIN, assertThrows(MpiException.class, () -> win.lock(Win.LOCK_SHARED, right, 0)).errorClass());
            // A bad displacement unit at create.
            assertEquals(ErrorClass.ERR_DISP, assertThrows(MpiException.class, () -> Win.create(memory, 0, null, world)).errorClass());
        });
    }

    @Test
    void shouldReportAttributesAndAllocate()
    {
        Ranks.run(2, (mpi, world) ->
        {
            final long[] memory = new long[5];
            try (Win win = Win.create(memory, 8, null, world))
            {
                assertTrue(win.base() == memory);
                assertEquals(40, win.size());
                assertEquals(8, win.dispUnit());
                assertEquals(Win.Flavor.CREATE, win.flavor());
                assertEquals(Win.Model.UNIFIED, win.model());
                assertEquals("", win.name());
                win.setName("halo");
                assertEquals("halo", win.name());
                assertEquals(2, win.group().size());
                assertEquals(ErrorClass.ERR_RMA_FLAVOR, assertThrows(MpiException.class, () -> win.sharedQuery(0)).errorClass());
            }
            try (Win win = Win.allocate(24 + world.rank(), 1, null, world))
            {
                assertEquals(Win.Flavor.ALLOCATE, win.flavor());
                assertEquals(24 + world.rank(), win.size());
                final ByteBuffer mine = (ByteBuffer)win.base();
                win.fence(0);
                win.put(new byte[] {(byte)(world.rank() + 1)}, 0, 1, Datatype.BYTE, 1 - world.rank(), 23, 1, Datatype.BYTE);
                win.fence(Win.MODE_NOSUCCEED);
                assertEquals(2 - world.rank(), mine.get(23));
            }
            try (Win win = Win.create(new byte[4], 1, null, world))
            {
                assertEquals(ErrorClass.ERR_RMA_FLAVOR, assertThrows(MpiException.class, () -> win.attach(new byte[4])).errorClass());
            }
        });
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 4})
    void shouldShareMemoryBetweenThreadsAndThroughTheArenaAndRefuseWithoutIt(final int size)
    {
        Ranks.run(size, (mpi, world) ->
        {
            final int rank = world.rank();
            if (isolated() && size > 1 && !arena())
            {
                final MpiException ex = assertThrows(MpiException.class, () -> Win.allocateShared(64, 8, null, world));
                assertEquals(ErrorClass.ERR_RMA_SHARED, ex.errorClass());
                assertTrue(ex.getMessage().contains("pvas.partition.size"), ex.getMessage());
                return;
            }
            try (Win win = Win.allocateShared(8L * (rank + 1), 8, null, world))
            {
                assertEquals(Win.Flavor.SHARED, win.flavor());
                final Win.SharedMemory mine = win.sharedQuery(rank);
                assertEquals(8L * (rank + 1), mine.sizeBytes());
                win.lockAll(0);
                mine.memory().putLong(0, rank * 11L);
                win.sync();
                world.barrier();
                win.sync();
                for (int r = 0; r < size; r++)
                {
                    final Win.SharedMemory part = win.sharedQuery(r);
                    assertEquals(8, part.dispUnit());
                    assertEquals(r * 11L, part.memory().getLong(0), "rank " + r + "'s part by a plain load");
                }
                final long[] got = new long[1];
                win.get(got, 0, 1, Datatype.LONG, (rank + 1) % size, 0, 1, Datatype.LONG);
                win.flush((rank + 1) % size);
                assertEquals(((rank + 1) % size) * 11L, got[0]);
                win.unlockAll();
                world.barrier();
            }
        });
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3})
    void shouldReachAttachedMemoryOfDynamicWindows(final int size)
    {
        Ranks.run(size, (mpi, world) ->
        {
            final int rank = world.rank();
            final int right = (rank + 1) % size;
            final int left = (rank + size - 1) % size;
            try (Win win = Win.createDynamic(null, world))
            {
                assertEquals(Win.Flavor.DYNAMIC, win.flavor());
                assertEquals(0, win.size());
                final double[] first = new double[8];
                final ByteBuffer second = ByteBuffer.allocateDirect(64).order(ByteOrder.nativeOrder());
                final long[] mine = {win.attach(first), win.attach(second)};
                assertEquals(ErrorClass.ERR_RMA_ATTACH, assertThrows(MpiException.class, () -> win.attach(first)).errorClass());
                final long[] addresses = new long[2 * size];
                world.allgather(mine, 0, 2, Datatype.LONG, addresses, 0, 2, Datatype.LONG);
                win.fence(0);
                win.put(new double[] {rank + 0.25, rank + 0.5}, 0, 2, Datatype.DOUBLE, right, addresses[2 * right] + 8 * 3, 2, Datatype.DOUBLE);
                win.put(new long[] {rank * 7L}, 0, 1, Datatype.LONG, right, addresses[2 * right + 1] + 16, 1, Datatype.LONG);
                win.accumulate(new double[] {1}, 0, 1, Datatype.DOUBLE, right, addresses[2 * right], 1, Datatype.DOUBLE, Op.SUM);
                assertEquals(ErrorClass.ERR_RMA_RANGE, assertThrows(MpiException.class, () -> win.put(new double[1], 0, 1, Datatype.DOUBLE,
                    right, addresses[2 * right] + 64, 1, Datatype.DOUBLE)).errorClass(), "past the end of the attachment");
                assertEquals(ErrorClass.ERR_RMA_RANGE, assertThrows(MpiException.class, () -> win.put(new double[1], 0, 1, Datatype.DOUBLE,
                    right, 5, 1, Datatype.DOUBLE)).errorClass(), "not an attached address");
                win.fence(0);
                assertEquals(left + 0.25, first[3]);
                assertEquals(left + 0.5, first[4]);
                assertEquals(1, first[0]);
                assertEquals(left * 7L, second.getLong(16));
                win.detach(second);
                assertEquals(ErrorClass.ERR_RMA_ATTACH, assertThrows(MpiException.class, () -> win.detach(second)).errorClass());
                win.fence(0);
                assertEquals(ErrorClass.ERR_RMA_RANGE, assertThrows(MpiException.class, () -> win.put(new long[1], 0, 1, Datatype.LONG,
                    right, addresses[2 * right + 1], 1, Datatype.LONG)).errorClass(), "detached");
                win.fence(Win.MODE_NOSUCCEED);
                win.detach(first);
            }
        });
    }

    /**
     * Passive target progresses while the target computes and calls nothing: a lock-based put and get finish while
     * the target is still in a compute loop of up to 10 s (2 s in the words; longer here so that a loaded
     * machine cannot fail it). Through peer memory (jvm) nothing of the target runs; through frames (the shm and tcp
     * axes) its engine serves them, so those runs turn on asynchronous progress (docs/rma.md).
     */
    /** Keeps the compute loop's result alive. */
    private static volatile double sink;

    @Test
    void shouldProgressPassiveTargetWhileTheTargetComputes()
    {
        final java.util.concurrent.atomic.AtomicBoolean computing = new java.util.concurrent.atomic.AtomicBoolean();
        final java.util.concurrent.atomic.AtomicBoolean originDone = new java.util.concurrent.atomic.AtomicBoolean();
        final Map<String, String> params = isolated() ? Map.of("jmpi.progress.async", "true") : Map.of();
        Ranks.run(2, ThreadLevel.SINGLE, params, (mpi, world) ->
        {
            final long[] memory = new long[4];
            try (Win win = Win.create(memory, 8, null, world))
            {
                if (world.rank() == 1)
                {
                    computing.set(true);
                    world.barrier();
                    final long until = System.nanoTime() + 10_000_000_000L;
                    double x = 0;
                    while (!originDone.get() && System.nanoTime() < until)
                    {
                        x += Math.sqrt(x + 1);
                    }
                    computing.set(false);
                    sink = x;
                }
                else
                {
                    world.barrier();
                    final long started = System.nanoTime();
                    win.lock(Win.LOCK_EXCLUSIVE, 1, 0);
                    win.put(new long[] {7, 8}, 0, 2, Datatype.LONG, 1, 1, 2, Datatype.LONG);
                    final long[] back = new long[2];
                    win.get(back, 0, 2, Datatype.LONG, 1, 1, 2, Datatype.LONG);
                    win.unlock(1);
                    final boolean whileComputing = computing.get();
                    originDone.set(true);
                    System.out.printf("passive put+get while the target computes: %.1f ms (%s)%n",
                        (System.nanoTime() - started) / 1e6, isolated() ? "frames, async progress" : "direct");
                    assertTrue(whileComputing, "the lock, put, get and unlock finished while the target was still computing");
                    assertArrayEquals(new long[] {7, 8}, back);
                }
                world.barrier();
                if (world.rank() == 1)
                {
                    assertArrayEquals(new long[] {0, 7, 8, 0}, memory);
                }
            }
        });
    }

    @Test
    void shouldRefuseAnEmptyEpochPairing()
    {
        Ranks.run(1, (mpi, world) ->
        {
            try (Win win = Win.create(null, 1, null, world))
            {
                assertNull(win.base());
                assertEquals(0, win.size());
                win.fence(0);
                assertEquals(ErrorClass.ERR_RMA_RANGE, assertThrows(MpiException.class,
                    () -> win.put(new byte[1], 0, 1, Datatype.BYTE, 0, 0, 1, Datatype.BYTE)).errorClass());
                win.fence(Win.MODE_NOSUCCEED);
                assertFalse(win.isFreed());
            }
        });
    }
}
