package mpi;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.ByteBuffer;
import java.nio.DoubleBuffer;
import java.nio.IntBuffer;
import java.nio.LongBuffer;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** mpi.Win (Open MPI's Java RMA API) over jmpi's windows, at 2 and 4 ranks. */
class WinTest
{
    @ParameterizedTest
    @ValueSource(ints = {2, 4})
    void shouldPutGetAndAccumulateUnderFences(final int size)
    {
        Job.world(size, (world, rank, n) ->
        {
            final IntBuffer memory = MPI.newIntBuffer(2 * n);
            final Win win = new Win(memory, 2 * n, 1, new Info(), world);
            win.setName("ints");
            assertEquals("ints", win.getName());
            assertEquals(n, win.getGroup().getSize());
            win.fence(0);
            final IntBuffer mine = MPI.newIntBuffer(2);
            mine.put(0, 100 + rank).put(1, 200 + rank);
            final int next = (rank + 1) % n;
            win.put(mine, 2, MPI.INT, next, 2 * rank, 2, MPI.INT);
            win.fence(0);
            final int prev = (rank + n - 1) % n;
            assertEquals(100 + prev, memory.get(2 * prev));
            assertEquals(200 + prev, memory.get(2 * prev + 1));
            final IntBuffer got = IntBuffer.allocate(2);
            win.get(got, 2, MPI.INT, next, 2 * rank, 2, MPI.INT);
            win.fence(0);
            assertArrayEquals(new int[] {100 + rank, 200 + rank}, got.array());
            // every rank adds its rank + 1 into element 0 of rank 0
            final IntBuffer one = MPI.newIntBuffer(1);
            one.put(0, rank + 1);
            win.fence(0);
            memory.put(0, 0);
            win.fence(MPI.MODE_NOPRECEDE);
            win.accumulate(one, 1, MPI.INT, 0, 0, 1, MPI.INT, MPI.SUM);
            win.fence(MPI.MODE_NOSUCCEED);
            if (rank == 0)
            {
                assertEquals(n * (n + 1) / 2, memory.get(0));
            }
            win.fence(0);
            assertEquals(MPI.ERR_RMA_RANGE, assertThrows(MPIException.class,
                () -> win.put(mine, 2, MPI.INT, next, 2 * n, 2, MPI.INT)).getErrorClass());
            win.fence(0);
            win.free();
            assertEquals(MPI.ERR_WIN, assertThrows(MPIException.class, () -> win.fence(0)).getErrorClass());
        });
    }

    @ParameterizedTest
    @ValueSource(ints = {2, 4})
    void shouldCountWithFetchAndOpUnderLocksAndSwapUnderLockAll(final int size)
    {
        Job.world(size, (world, rank, n) ->
        {
            final LongBuffer counter = MPI.newLongBuffer(2);
            final Win win = new Win(counter, 2, 1, new Info(), world);
            final LongBuffer one = MPI.newLongBuffer(1);
            one.put(0, 1);
            final LongBuffer before = MPI.newLongBuffer(1);
            for (int i = 0; i < 100; i++)
            {
                win.lock(MPI.LOCK_SHARED, 0, 0);
                win.fetchAndOp(one, before, MPI.LONG, 0, 0, MPI.SUM);
                win.unlock(0);
            }
            world.barrier();
            if (rank == 0)
            {
                assertEquals(100L * n, counter.get(0));
            }
            world.barrier();
            win.lockAll(0);
            final LongBuffer mineId = MPI.newLongBuffer(1);
            mineId.put(0, rank + 1);
            final LongBuffer empty = MPI.newLongBuffer(1);
            final LongBuffer was = MPI.newLongBuffer(1);
            win.compareAndSwap(mineId, empty, was, MPI.LONG, 0, 1);
            win.flush(0);
            win.unlockAll();
            world.barrier();
            final long winner = world.getRank() == 0 ? counter.get(1) : 0;
            if (rank == 0)
            {
                assertTrue(winner >= 1 && winner <= n, "one rank's id won the swap: " + winner);
            }
            assertEquals(MPI.ERR_LOCKTYPE, assertThrows(MPIException.class, () -> win.lock(99, 0, 0)).getErrorClass());
            win.free();
        });
    }

    @ParameterizedTest
    @ValueSource(ints = {2, 4})
    void shouldSynchroniseWithPscwAndRequestsAndAttachDynamicMemory(final int size)
    {
        Job.world(size, (world, rank, n) ->
        {
            final DoubleBuffer memory = DoubleBuffer.allocate(n);
            final Win win = new Win(memory, n, 1, new Info(), world);
            final Group all = win.getGroup();
            win.post(all, 0);
            win.start(all, 0);
            final DoubleBuffer value = MPI.newDoubleBuffer(1);
            value.put(0, rank + 0.25);
            final Request[] puts = new Request[n];
            for (int t = 0; t < n; t++)
            {
                puts[t] = win.rPut(value, 1, MPI.DOUBLE, t, rank, 1, MPI.DOUBLE);
            }
            Request.waitAll(puts);
            win.complete();
            win.waitFor();
            for (int r = 0; r < n; r++)
            {
                assertEquals(r + 0.25, memory.get(r));
            }
            assertEquals(n * 8, win.getAttr(MPI.WIN_SIZE));
            assertEquals(8, win.getAttr(MPI.WIN_DISP_UNIT));
            final int key = Win.createKeyval();
            win.setAttr(key, "tagged");
            assertEquals("tagged", win.getAttr(key));
            win.deleteAttr(key);
            assertNull(win.getAttr(key));
            Win.freeKeyval(key);
            win.free();

            final Win dynamic = new Win(new Info(), world);
            final ByteBuffer bytes = MPI.newByteBuffer(16);
            dynamic.attach(bytes, 16);
            dynamic.detach(bytes);
            assertEquals(MPI.ERR_RMA_ATTACH, assertThrows(MPIException.class, () -> dynamic.detach(bytes)).getErrorClass());
            dynamic.free();
        });
    }
}
