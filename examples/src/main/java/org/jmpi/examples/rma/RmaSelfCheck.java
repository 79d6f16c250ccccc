package org.jmpi.examples.rma;

import java.nio.ByteBuffer;
import java.util.List;

import org.jmpi.Datatype;
import org.jmpi.Group;
import org.jmpi.Intracomm;
import org.jmpi.Mpi;
import org.jmpi.Op;
import org.jmpi.Win;
import org.jmpi.coarray.DoubleCoarray;
import org.jmpi.coarray.IntCoarray;
import org.jmpi.coarray.LongCoarray;
import org.jmpi.coarray.Section;
import org.jmpi.coarray.Team;

/**
 * Checks RMA windows and coarrays against sequential references on whatever job it is started in (for runs across
 * JVMs through {@code bin/jmpirun}, where the unit tests run ranks as threads):
 * <ol>
 * <li><b>fence</b>: puts of every rank into every rank, an accumulate from all, then gets with a strided (vector)
 * target datatype;</li>
 * <li><b>PSCW</b>: puts around a ring (post to the left neighbour, start to the right one), then every rank to every
 * rank in overlapping groups with accumulates;</li>
 * <li><b>lock/unlock</b>: a read-modify-write of one counter under exclusive locks (exact only if the locks exclude),
 * accumulates under shared locks;</li>
 * <li><b>lock_all + flush</b>: 2 000 fetch_and_ops per rank on rank 0 (the sum is exact), one compare_and_swap winner,
 * puts and gets to every rank, on a window over heap memory and on one over {@code allocMem} memory (in the arena
 * across JVMs where the PVAS transport is on, so reached directly);</li>
 * <li><b>coarrays</b>: a 1-D Jacobi stencil with nonblocking halo puts against the sequential stencil, blocking
 * puts and gets, a strided column section of a 2-D array, syncImages with the neighbours, fetchAndAdd (with
 * {@code --shared}, where the arena is on, the coarrays must be in the arena: direct copies, syncAll by atomics);</li>
 * <li>with {@code --shared}: <b>allocate_shared</b>, every rank writing its part by plain stores and reading every
 * other rank's through sharedQuery.</li>
 * </ol>
 * Prints "rma: rank R ok (N ranks)" per rank; a wrong result throws (and, with ERRORS_ARE_FATAL, ends the job).
 * <p>Usage: {@code bin/jmpirun -np 4 -cp examples/target/classes org.jmpi.examples.rma.RmaSelfCheck [--shared]}
 */
public final class RmaSelfCheck
{
    private static final int BLOCK = 5;
    private static final int ADDS = 2_000;
    private static final int LOCK_ROUNDS = 100;
    private static final int CELLS = 16;
    private static final int STEPS = 20;

    private final Mpi mpi;
    private final Intracomm world;
    private final int rank;
    private final int size;

    private RmaSelfCheck(final Mpi mpi)
    {
        this.mpi = mpi;
        this.world = mpi.world();
        this.rank = world.rank();
        this.size = world.size();
    }

    public static void main(final String[] args)
    {
        final boolean shared = List.of(args).contains("--shared");
        try (Mpi mpi = Mpi.init(args))
        {
            final RmaSelfCheck check = new RmaSelfCheck(mpi);
            check.fence();
            check.pscw();
            check.locks();
            check.lockAllFlush(false);
            check.lockAllFlush(true);
            check.coarrays(shared);
            if (shared)
            {
                check.shared();
            }
            mpi.world().barrier();
            System.out.println("rma: rank " + check.rank + " ok (" + check.size + " ranks" + (shared ? ", shared" : "") + ")");
        }
    }

    /** What {@code origin} writes to {@code target} as element i. */
    private static long code(final int origin, final int target, final int i)
    {
        return origin * 1_000_003L + target * 1009L + i + 1;
    }

    private void expect(final long expected, final long actual, final String what)
    {
        if (expected != actual)
        {
            // Abort rather than throw: a throw inside a window's try-with-resources would run Win.free, a
            // collective the other ranks never join, and the job would hang until its timeout instead of failing.
            final String message = "rma: rank " + rank + " of " + size + ": " + what + ": expected " + expected + ", got " + actual;
            System.err.println(message);
            world.abort(2);
            throw new IllegalStateException(message);
        }
    }

    private void fence()
    {
        final long[] memory = new long[size * BLOCK + 1];
        try (Win win = Win.create(memory, Long.BYTES, null, world))
        {
            final long[][] out = new long[size][BLOCK];
            win.fence(0);
            for (int t = 0; t < size; t++)
            {
                for (int i = 0; i < BLOCK; i++)
                {
                    out[t][i] = code(rank, t, i);
                }
                win.put(out[t], 0, BLOCK, Datatype.LONG, t, (long)rank * BLOCK, BLOCK, Datatype.LONG);
                win.accumulate(new long[] {rank + 1}, 0, 1, Datatype.LONG, t, (long)size * BLOCK, 1, Datatype.LONG, Op.SUM);
            }
            win.fence(0);
            for (int o = 0; o < size; o++)
            {
                for (int i = 0; i < BLOCK; i++)
                {
                    expect(code(o, rank, i), memory[o * BLOCK + i], "fence: element " + i + " put by rank " + o);
                }
            }
            expect((long)size * (size + 1) / 2, memory[size * BLOCK], "fence: accumulated sum");
            // every size-th element of the right neighbour's window, by a vector target type
            final int right = (rank + 1) % size;
            final Datatype strided = Datatype.vector(BLOCK, 1, size, Datatype.LONG).commit();
            final long[] got = new long[BLOCK];
            win.get(got, 0, BLOCK, Datatype.LONG, right, 0, 1, strided);
            win.fence(Win.MODE_NOSUCCEED);
            for (int j = 0; j < BLOCK; j++)
            {
                final int at = j * size;
                expect(code(at / BLOCK, right, at % BLOCK), got[j], "fence: strided get, element " + j);
            }
        }
    }

    private void pscw()
    {
        final long[] memory = new long[BLOCK];
        final int left = (rank - 1 + size) % size;
        final int right = (rank + 1) % size;
        final Group fromLeft = world.group().incl(new int[] {left});
        final Group toRight = world.group().incl(new int[] {right});
        try (Win win = Win.create(memory, Long.BYTES, null, world))
        {
            for (int round = 0; round < 3; round++)
            {
                final long[] out = new long[BLOCK];
                for (int i = 0; i < BLOCK; i++)
                {
                    out[i] = code(rank, right, i + 100 * round);
                }
                win.post(fromLeft, 0);
                win.start(toRight, 0);
                win.put(out, 0, BLOCK, Datatype.LONG, right, 0, BLOCK, Datatype.LONG);
                win.complete();
                win.await();
                for (int i = 0; i < BLOCK; i++)
                {
                    expect(code(left, rank, i + 100 * round), memory[i], "pscw ring round " + round + ": element " + i);
                }
            }
            // overlapping groups: everyone exposes to everyone and accesses everyone
            memory[0] = 0;
            final Group all = world.group();
            win.post(all, 0);
            win.start(all, 0);
            for (int t = 0; t < size; t++)
            {
                win.accumulate(new long[] {rank + 1}, 0, 1, Datatype.LONG, t, 0, 1, Datatype.LONG, Op.SUM);
            }
            win.complete();
            win.await();
            expect((long)size * (size + 1) / 2, memory[0], "pscw all-to-all: accumulated sum");
        }
    }

    private void locks()
    {
        final long[] memory = new long[2];
        try (Win win = Win.create(memory, Long.BYTES, null, world))
        {
            final long[] value = new long[1];
            final long[] one = {1};
            for (int k = 0; k < LOCK_ROUNDS; k++)
            {
                win.lock(Win.LOCK_EXCLUSIVE, 0, 0);
                win.get(value, 0, 1, Datatype.LONG, 0, 0, 1, Datatype.LONG);
                win.flush(0);
                value[0]++;
                win.put(value, 0, 1, Datatype.LONG, 0, 0, 1, Datatype.LONG);
                win.unlock(0);
                win.lock(Win.LOCK_SHARED, 0, 0);
                win.accumulate(one, 0, 1, Datatype.LONG, 0, 1, 1, Datatype.LONG, Op.SUM);
                win.unlock(0);
            }
            world.barrier();
            if (rank == 0)
            {
                win.sync();
                expect((long)LOCK_ROUNDS * size, memory[0], "lock: counter incremented under exclusive locks");
                expect((long)LOCK_ROUNDS * size, memory[1], "lock: accumulates under shared locks");
            }
        }
    }

    /** {@code arena}: the window's memory from {@code allocMem} (the arena where the PVAS transport is on). */
    private void lockAllFlush(final boolean arena)
    {
        final int longs = 2 + size;
        final ByteBuffer block = arena ? mpi.allocMem(longs * Long.BYTES) : null;
        final Object memory = arena ? block : new long[longs];
        if (arena)
        {
            for (int i = 0; i < longs; i++)
            {
                block.putLong(i * Long.BYTES, 0);
            }
        }
        world.barrier();
        final String where = arena ? "lock_all (allocMem): " : "lock_all: ";
        try (Win win = Win.create(memory, Long.BYTES, null, world))
        {
            win.lockAll(0);
            final long[] one = {1};
            final long[] old = new long[1];
            for (int k = 0; k < ADDS; k++)
            {
                win.fetchAndOp(one, 0, old, 0, Datatype.LONG, 0, 0, Op.SUM);
                win.flush(0);
                if (old[0] < 0 || old[0] >= (long)ADDS * size)
                {
                    expect(-1, old[0], where + "fetch_and_op fetched a value outside [0, " + (long)ADDS * size + ")");
                }
            }
            final long[] result = new long[1];
            win.compareAndSwap(new long[] {rank + 1}, 0, new long[] {0}, 0, result, 0, Datatype.LONG, 0, 1);
            win.flush(0);
            final int[] won = {result[0] == 0 ? 1 : 0};
            final long[] mine = new long[size];
            for (int t = 0; t < size; t++)
            {
                mine[t] = code(rank, t, 7);
                win.put(mine, t, 1, Datatype.LONG, t, 2 + rank, 1, Datatype.LONG);
            }
            win.flushAll();
            final long[] back = new long[size];
            for (int t = 0; t < size; t++)
            {
                win.get(back, t, 1, Datatype.LONG, t, 2 + rank, 1, Datatype.LONG);
            }
            win.flushAll();
            for (int t = 0; t < size; t++)
            {
                expect(mine[t], back[t], where + "put then get at rank " + t);
            }
            win.unlockAll();
            world.allreduce(org.jmpi.Comm.IN_PLACE, 0, won, 0, 1, Datatype.INT, Op.SUM);
            expect(1, won[0], where + "compare_and_swap winners");
            world.barrier();
            if (rank == 0)
            {
                win.sync();
                final long sum = arena ? block.getLong(0) : ((long[])memory)[0];
                expect((long)ADDS * size, sum, where + "fetch_and_op sum at rank 0");
            }
            world.barrier();
        }
        finally
        {
            if (arena)
            {
                mpi.freeMem(block);
            }
        }
    }

    private void coarrays(final boolean shared)
    {
        final Team team = Team.of(world);
        final int me = team.thisImage();
        final int images = team.numImages();
        try (DoubleCoarray u = DoubleCoarray.allocate(team, CELLS + 2); LongCoarray counts = LongCoarray.allocate(team, 1 + images);
            IntCoarray grid = IntCoarray.allocate(team, 4 * 6))
        {
            // 1. a 1-D Jacobi stencil over images * CELLS points, halos by nonblocking puts; the local view as a buffer,
            // which works wherever the coarray lives (an array; across JVMs with the arena on, arena memory)
            if (shared)
            {
                expect(1, team.inArena() && !u.hasArray() ? 1 : 0, "coarrays in the arena with --shared (the arena is on)");
            }
            final java.nio.DoubleBuffer v = u.localBuffer();
            final double[] reference = new double[images * CELLS + 2];
            for (int g = 0; g < images * CELLS; g++)
            {
                reference[g + 1] = Math.sin(g * 0.37) + g % 5;
            }
            v.put(1, reference, 1 + me * CELLS, CELLS);
            final double[] next = new double[CELLS + 2];
            final double[] edges = new double[2];
            for (int step = 0; step < STEPS; step++)
            {
                edges[0] = v.get(1);
                edges[1] = v.get(CELLS);
                if (me > 0)
                {
                    u.putAsync(me - 1, CELLS + 1, edges, 0, 1);
                }
                if (me < images - 1)
                {
                    u.putAsync(me + 1, 0, edges, 1, 1);
                }
                team.syncAll();
                for (int i = 1; i <= CELLS; i++)
                {
                    next[i] = (v.get(i - 1) + v.get(i) + v.get(i + 1)) / 3;
                }
                team.syncAll();
                v.put(1, next, 1, CELLS);
            }
            final double[] seq = reference.clone();
            final double[] seqNext = new double[seq.length];
            for (int step = 0; step < STEPS; step++)
            {
                for (int g = 1; g <= images * CELLS; g++)
                {
                    seqNext[g] = (seq[g - 1] + seq[g] + seq[g + 1]) / 3;
                }
                System.arraycopy(seqNext, 1, seq, 1, images * CELLS);
            }
            for (int i = 1; i <= CELLS; i++)
            {
                expect(Double.doubleToLongBits(seq[me * CELLS + i]), Double.doubleToLongBits(v.get(i)), "coarray stencil: cell " + i);
            }
            // 2. blocking puts to every image, blocking gets back
            for (int p = 0; p < images; p++)
            {
                counts.put(p, 1 + me, code(me, p, 3));
            }
            team.syncAll();
            for (int o = 0; o < images; o++)
            {
                expect(code(o, me, 3), counts.get(1 + o), "coarray put from image " + o);
            }
            final int right = (me + 1) % images;
            final long[] fetched = new long[images];
            counts.get(right, 1, fetched, 0, images);
            for (int o = 0; o < images; o++)
            {
                expect(code(o, right, 3), fetched[o], "coarray get from image " + right + ", element " + (1 + o));
            }
            team.syncAll();
            // 3. a column of a 4 x 6 array into the right neighbour's, by sections; sync images with the neighbours only
            final int column = me % 6;
            final int[] src = new int[4];
            for (int r = 0; r < 4; r++)
            {
                src[r] = me * 100 + r;
            }
            grid.put(right, Section.of(new int[] {4, 6}, new int[] {0, column}, new int[] {4, 1}, new int[] {1, 1}), src,
                Section.range(0, 4));
            final int left = (me - 1 + images) % images;
            if (left == right)
            {
                team.syncImages(left);
            }
            else
            {
                team.syncImages(left, right);
            }
            for (int r = 0; r < 4; r++)
            {
                expect(left * 100 + r, grid.get(r * 6 + left % 6), "coarray section: row " + r + " of column " + left % 6);
            }
            // 4. fetchAndAdd on image 0
            for (int k = 0; k < 100; k++)
            {
                counts.fetchAndAdd(0, 0, 1);
            }
            team.syncAll();
            if (me == 0)
            {
                expect(100L * images, counts.get(0), "coarray fetchAndAdd sum");
            }
            team.syncAll();
        }
        team.free();
    }

    private void shared()
    {
        final int bytes = (rank + 1) * 64 + 8;
        try (Win win = Win.allocateShared(bytes, Long.BYTES, null, world))
        {
            final ByteBuffer mine = win.sharedQuery(rank).memory();
            for (int i = 0; i + Long.BYTES <= bytes; i += Long.BYTES)
            {
                mine.putLong(i, code(rank, rank, i));
            }
            win.sync();
            world.barrier();
            win.sync();
            for (int r = 0; r < size; r++)
            {
                final Win.SharedMemory part = win.sharedQuery(r);
                expect((r + 1) * 64L + 8, part.sizeBytes(), "shared: size of rank " + r + "'s part");
                for (int i = 0; i + Long.BYTES <= part.sizeBytes(); i += Long.BYTES)
                {
                    expect(code(r, r, i), part.memory().getLong(i), "shared: byte " + i + " of rank " + r + "'s part");
                }
            }
            // Every rank has read every part before any rank changes one: without this barrier a fast rank 0
            // added to its first long while a peer was still checking it (a flaky failure of this check).
            world.barrier();
            // RMA on the shared window too: every rank adds to rank 0's first long
            win.lockAll(0);
            win.fetchAndOp(new long[] {1}, 0, new long[1], 0, Datatype.LONG, 0, 0, Op.SUM);
            win.flush(0);
            win.unlockAll();
            world.barrier();
            win.sync();
            expect(code(0, 0, 0) + size, win.sharedQuery(0).memory().getLong(0), "shared: fetch_and_op on rank 0's part");
            world.barrier();
        }
    }
}
