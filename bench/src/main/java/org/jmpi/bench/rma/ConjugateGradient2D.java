package org.jmpi.bench.rma;

import java.nio.ByteBuffer;
import java.nio.DoubleBuffer;
import java.util.Arrays;
import java.util.Locale;
import java.util.stream.IntStream;

import org.jmpi.Comm;
import org.jmpi.Datatype;
import org.jmpi.Group;
import org.jmpi.Intracomm;
import org.jmpi.Mpi;
import org.jmpi.Op;
import org.jmpi.Win;
import org.jmpi.bench.BenchArgs;
import org.jmpi.coarray.DoubleCoarray;
import org.jmpi.coarray.Team;

/**
 * NPB CG's parallel scheme (issue 18, item 6) on the matrix of {@link ConjugateGradient} (the 7-point Laplacian of an
 * {@code n x n x n} grid plus 0.1): a two-dimensional process grid of {@code rows x cols} processes ({@code cols} is
 * {@code rows} or {@code 2 rows}, so the rank count is a power of two, as NPB requires), process {@code (i, j)} = rank
 * {@code i * cols + j} holding the matrix block of row block i and column block j. The vectors are distributed by
 * column blocks and replicated down each process column. One matrix-vector product {@code q = A p}:
 * <ol>
 * <li>each process multiplies its block by its part of p: a partial sum {@code w} over its row block;</li>
 * <li><b>row reduction</b>: the processes of a process row sum their partial {@code w}s (in column order, so each gets
 * the same bits), giving the row block of {@code A p};</li>
 * <li><b>transpose exchange</b>: process {@code (i, j)} needs column block j of {@code A p}, which lies in row block
 * {@code j / k} ({@code k = cols / rows}; column blocks nest in row blocks); it gets it from process
 * {@code (j / k, i k + j mod k)}. With a square grid this is the transpose partner {@code (j, i)}, as in NPB.</li>
 * </ol>
 * Dot products sum over the column blocks: an allreduce in the process row. The exchange in four versions:
 * <ul>
 * <li>{@code two-sided}: the row reduction is an allreduce on the row communicator, the transpose a sendrecv;</li>
 * <li>{@code rma} (get-based): the row reduction and the transpose in one step: each process writes its partial sums
 * straight into its window (by {@code Win.allocate} in the arena where every rank has it, so the gets between JVMs are
 * direct copies; else by {@code Win.create} over a Java array) and gets the column block it needs straight from the
 * partial sums of the processes of that block's row (the first into the result, its own piece read in place), and
 * sums them in column order; synchronised by post/start/complete/wait with those processes and with the
 * processes that read its own, not with everyone (at 2 x 2 the two busy diagonal processes never wait for each
 * other, as in the two-sided version); the window holds two halves of partial sums, used by the products in turn, so
 * the closing {@code await} of a product can wait until the next one has written;</li>
 * <li>{@code coarray}: the same with coarray gets after one {@code syncImages} with the same partners a product;</li>
 * <li>{@code coarray-nb} (the paper's nonblocking variant): each process puts each piece of its partial sums straight
 * into a slot of every process whose column block it belongs to, with {@code putAsync} completed at the one
 * {@code syncImages} of the product, and each process sums its slots (two halves again, used in turn).</li>
 * </ul>
 * Where the team's coarrays are in the PVAS arena (JVMs with the arena on: the local view is a buffer) the exchange
 * memory stays an array beside the coarray of the same layout: {@code coarray} copies this product's partial sums into
 * the coarray before its {@code syncImages}, {@code coarray-nb} copies its slots out of it after.
 * Steps of a solve and zeta as in {@link ConjugateGradient} (same matrix: the same zeta to rounding).
 * Usage: {@code bin/jmpirun [--threads] -np 4 -cp 'bench/target/classes:bench/target/lib/*'
 * org.jmpi.bench.rma.ConjugateGradient2D [--n 32] [--solves 5] [--versions two-sided,rma,coarray,coarray-nb] [--phases]};
 * {@code --phases} prints each rank's wall and CPU milliseconds per phase of the timed solves and its context switches
 * ({@code #}-lines after each result).
 */
public final class ConjugateGradient2D implements CgSolver
{
    /** Versions of the exchange. */
    public enum Version
    {
        TWO_SIDED, RMA, COARRAY, COARRAY_NB;

        static Version of(final String name)
        {
            return valueOf(name.toUpperCase(Locale.ROOT).replace('-', '_'));
        }
    }

    private static final int ITERATIONS = 25;
    /** Elements of {@code out} summed at a time over every piece (8 KiB: the block stays in the first-level cache). */
    private static final int SUM_BLOCK = 1024;
    /** The phases {@code --phases} times, per rank: where a product's time goes, per version. */
    static final String[] PHASES = {"compute", "allreduce", "sendrecv", "await", "post", "start", "get", "complete", "sync",
        "put", "copy", "sum", "dot", "vector"};
    private static final int COMPUTE = 0;
    private static final int ALLREDUCE = 1;
    private static final int SENDRECV = 2;
    private static final int AWAIT = 3;
    private static final int POST = 4;
    private static final int START = 5;
    private static final int GET = 6;
    private static final int COMPLETE = 7;
    private static final int SYNC = 8;
    private static final int PUT = 9;
    private static final int COPY = 10;
    private static final int SUM = 11;
    private static final int DOT = 12;
    private static final int VECTOR = 13;
    private static final java.lang.management.ThreadMXBean CPU = java.lang.management.ManagementFactory.getThreadMXBean();
    private static final int TAG = 18;

    private final Intracomm comm;
    private final Intracomm rowComm;
    private final Version version;
    private final int gridRows;
    private final int gridCols;
    private final int myRow;
    private final int myCol;
    /** Column blocks per row block ({@code gridCols / gridRows}). */
    private final int k;
    /** Start of every column block (gridCols + 1 entries); row block i is column blocks i k to i k + k - 1. */
    private final int[] colStart;
    private final int rowLo;
    private final int rowCount;
    private final int colLo;
    private final int colCount;
    /** The largest row block: the layout of the exchange memory is the same on every process. */
    private final int maxRow;
    private final int maxCol;
    private final int[] rowPtr;
    private final int[] columns;
    private final double[] values;
    private final double[] p;
    private final double[] q;
    private final double[] r;
    private final double[] z;
    private final double[] x;
    /**
     * The exchange memory: two-sided: my partial sums w (maxRow); coarray: two halves of w, one per product in turn;
     * coarray-nb: [w (maxRow) | two halves of gridCols slots of maxCol: the pieces of my column block, by sender column].
     */
    private final double[] exchange;
    /** The coarray's memory where it is in the arena (the exchange memory is then an array beside it), else null. */
    private final DoubleBuffer inArena;
    /** The partial sums of the row got by the get-based versions (gridCols x maxRow). */
    private final double[] parts;
    private final int sendTo;
    private final int receiveFrom;
    private final Win win;
    /** The processes whose partial sums I read (my column block's row, less me): the rma version's access group. */
    private final Group sources;
    /** The processes that read my partial sums (the column blocks of my row block, less me): its exposure group. */
    private final Group readers;
    /** Sources and readers together (the relation is symmetric per pair): whom a product synchronises with. */
    private final int[] partners;
    /** Whether the rma version has an exposure epoch open (closed by the next product's {@code await}). */
    private boolean exposed;
    /**
     * The RMA version's window memory, two halves of my partial sums, one per product in turn: an array (the window made
     * by {@code Win.create} over it), or where every rank's window can be in the PVAS arena a buffer there
     * ({@link #stage}); the other is null.
     */
    private final double[] sums;
    private final DoubleBuffer stage;
    private final Team team;
    private final DoubleCoarray coarray;
    private long nonZeros;
    /** Which half of the exchange memory this product uses (the get-based and nonblocking versions alternate). */
    private int parity;
    private double residual;
    /** Wall then CPU time per phase of this rank ({@link #PHASES}), ns, when asked for ({@code --phases}); else null. */
    private long[] phaseNs;
    private long phaseMark;
    private long cpuMark;

    /** One process's block of the {@code n^3} matrix; collective (the row communicator, the window or coarray). */
    public ConjugateGradient2D(final Intracomm comm, final Version version, final int n)
    {
        this.comm = comm;
        this.version = version;
        final int size = comm.size();
        final int[] grid = gridOf(size);
        gridRows = grid[0];
        gridCols = grid[1];
        k = gridCols / gridRows;
        myRow = comm.rank() / gridCols;
        myCol = comm.rank() % gridCols;
        final int total = n * n * n;
        colStart = new int[gridCols + 1];
        for (int b = 0; b < gridCols; b++)
        {
            colStart[b + 1] = colStart[b] + total / gridCols + (b < total % gridCols ? 1 : 0);
        }
        rowLo = colStart[myRow * k];
        rowCount = colStart[myRow * k + k] - rowLo;
        colLo = colStart[myCol];
        colCount = colStart[myCol + 1] - colLo;
        int largestRow = 0;
        int largestCol = 0;
        for (int i = 0; i < gridRows; i++)
        {
            largestRow = Math.max(largestRow, colStart[i * k + k] - colStart[i * k]);
        }
        for (int b = 0; b < gridCols; b++)
        {
            largestCol = Math.max(largestCol, colStart[b + 1] - colStart[b]);
        }
        maxRow = largestRow;
        maxCol = largestCol;
        // the block: rows of my row block, columns of my column block (local column indices)
        rowPtr = new int[rowCount + 1];
        final int[] cols = new int[7 * rowCount];
        final double[] vals = new double[7 * rowCount];
        int at = 0;
        final int[] neighbour = new int[7];
        final double[] coefficient = new double[7];
        for (int i = 0; i < rowCount; i++)
        {
            final int g = rowLo + i;
            final int gx = g % n;
            final int gy = (g / n) % n;
            final int gz = g / (n * n);
            int m = 0;
            neighbour[m] = g;
            coefficient[m++] = 6.1;
            final int[][] steps = {{gx > 0 ? -1 : 0}, {gx < n - 1 ? 1 : 0}, {gy > 0 ? -n : 0}, {gy < n - 1 ? n : 0},
                {gz > 0 ? -n * n : 0}, {gz < n - 1 ? n * n : 0}};
            for (final int[] step : steps)
            {
                if (step[0] != 0)
                {
                    neighbour[m] = g + step[0];
                    coefficient[m++] = -1;
                }
            }
            for (int e = 0; e < m; e++)
            {
                if (neighbour[e] >= colLo && neighbour[e] < colLo + colCount)
                {
                    cols[at] = neighbour[e] - colLo;
                    vals[at++] = coefficient[e];
                }
            }
            rowPtr[i + 1] = at;
        }
        columns = cols;
        values = vals;
        nonZeros = at;
        p = new double[colCount];
        q = new double[colCount];
        r = new double[colCount];
        z = new double[colCount];
        x = new double[colCount];
        parts = new double[gridCols * maxRow];
        // transpose partners: I send sub-block (myCol mod k) of my row block's sum to (myCol / k, myRow k + myCol mod k)
        // and receive column block myCol from (myCol / k, myRow k + myCol mod k): the same process
        sendTo = (myCol / k) * gridCols + myRow * k + myCol % k;
        receiveFrom = sendTo;
        rowComm = comm.split(myRow, myCol);
        final int me = comm.rank();
        final int[] from = IntStream.range(0, gridCols).map(j -> (myCol / k) * gridCols + j).filter(r -> r != me).toArray();
        final int[] to = IntStream.range(0, gridRows * k).map(t -> (t / k) * gridCols + myRow * k + t % k).filter(r -> r != me)
            .toArray();
        sources = comm.group().incl(from);
        readers = comm.group().incl(to);
        partners = IntStream.concat(IntStream.of(from), IntStream.of(to)).distinct().sorted().toArray();
        final int exchangeLength = switch (version)
        {
            case TWO_SIDED -> maxRow;
            case RMA -> 0;
            case COARRAY -> 2 * maxRow;
            case COARRAY_NB -> maxRow + 2 * gridCols * maxCol;
        };
        switch (version)
        {
            case COARRAY, COARRAY_NB ->
            {
                team = Team.of(comm);
                coarray = DoubleCoarray.allocate(team, exchangeLength);
                exchange = coarray.hasArray() ? coarray.local() : new double[exchangeLength];
                inArena = coarray.hasArray() ? null : coarray.localBuffer();
                win = null;
            }
            case RMA ->
            {
                team = null;
                coarray = null;
                exchange = null;
                inArena = null;
                win = rmaWindow(comm, 2 * maxRow);
            }
            default ->
            {
                team = null;
                coarray = null;
                exchange = new double[exchangeLength];
                inArena = null;
                win = null;
            }
        }
        sums = win != null && win.base() instanceof double[] array ? array : null;
        stage = win != null && sums == null ? ((ByteBuffer)win.base()).asDoubleBuffer() : null;
    }

    /**
     * The RMA version's window of {@code doubles} partial sums (collective): in the PVAS arena where every rank's can be
     * ({@code Win.allocate}; the gets between JVMs are then direct copies), else over a Java array ({@code Win.create},
     * MPI_Win_create over user memory: between threads the gets are direct copies too, and the partial product is
     * written at array speed rather than through a buffer).
     */
    static Win rmaWindow(final Intracomm comm, final int doubles)
    {
        final Win allocated = Win.allocate((long)doubles * Double.BYTES, Double.BYTES, null, comm);
        final int[] everyone = {allocated.inArena() ? 1 : 0};
        comm.allreduce(Comm.IN_PLACE, 0, everyone, 0, 1, Datatype.INT, Op.MIN);
        if (everyone[0] == 1)
        {
            return allocated;
        }
        allocated.free();
        return Win.create(new double[doubles], Double.BYTES, null, comm);
    }

    /**
     * NPB's process grid for {@code size} ranks: rows x columns with columns = rows or 2 rows.
     *
     * @throws IllegalArgumentException unless {@code size} is a power of two.
     */
    public static int[] gridOf(final int size)
    {
        if (size < 1 || Integer.bitCount(size) != 1)
        {
            throw new IllegalArgumentException("CG with a 2-D process grid needs a power-of-two number of ranks, not " + size);
        }
        final int rows = 1 << (Integer.numberOfTrailingZeros(size) / 2);
        return new int[] {rows, size / rows};
    }

    /** As {@link ConjugateGradient#run}: zeta of the last of {@code solves} solves. */
    @Override
    public double run(final int solves)
    {
        return ConjugateGradient.powerIteration(solves, x, z, this::solve, this::dot);
    }

    /** ||x - A z|| after the last solve. */
    @Override
    public double residual()
    {
        return residual;
    }

    private void solve()
    {
        Arrays.fill(z, 0);
        System.arraycopy(x, 0, r, 0, colCount);
        System.arraycopy(x, 0, p, 0, colCount);
        double rho = dot(r, r);
        for (int it = 0; it < ITERATIONS; it++)
        {
            multiply(p, q);
            final double alpha = rho / dot(p, q);
            for (int i = 0; i < colCount; i++)
            {
                z[i] += alpha * p[i];
                r[i] -= alpha * q[i];
            }
            lap(VECTOR);
            final double next = dot(r, r);
            final double beta = next / rho;
            rho = next;
            for (int i = 0; i < colCount; i++)
            {
                p[i] = r[i] + beta * p[i];
            }
            lap(VECTOR);
        }
        multiply(z, q);
        double sum = 0;
        for (int i = 0; i < colCount; i++)
        {
            final double d = x[i] - q[i];
            sum += d * d;
        }
        residual = Math.sqrt(rowSum(sum));
    }

    /** {@code out = A v} on column blocks: local product, row reduction, transpose exchange. */
    private void multiply(final double[] v, final double[] out)
    {
        lap(VECTOR);
        // 1. the partial sum over my row block, into this product's half of the exchange memory
        parity ^= 1;
        final int partial = parity * maxRow;
        switch (version)
        {
            case RMA ->
            {
                if (sums != null)
                {
                    partialProduct(v, sums, partial);
                }
                else
                {
                    partialProduct(v, stage, partial);
                }
            }
            case COARRAY -> partialProduct(v, exchange, partial);
            default -> partialProduct(v, exchange, 0);
        }
        lap(COMPUTE);
        final int subOffset = colStart[myCol] - colStart[(myCol / k) * k];
        switch (version)
        {
            case TWO_SIDED -> exchangeTwoSided(out);
            case RMA -> exchangeRma(out, partial, subOffset);
            case COARRAY -> exchangeCoarray(out, partial, subOffset);
            default -> exchangeCoarrayNb(out, subOffset);
        }
    }

    /** My block times my part of {@code v}, into {@code into} from {@code at}. */
    private void partialProduct(final double[] v, final double[] into, final int at)
    {
        for (int i = 0; i < rowCount; i++)
        {
            double sum = 0;
            for (int e = rowPtr[i]; e < rowPtr[i + 1]; e++)
            {
                sum += values[e] * v[columns[e]];
            }
            into[at + i] = sum;
        }
    }

    /** As above, into a buffer (window memory in the arena). */
    private void partialProduct(final double[] v, final DoubleBuffer into, final int at)
    {
        for (int i = 0; i < rowCount; i++)
        {
            double sum = 0;
            for (int e = rowPtr[i]; e < rowPtr[i + 1]; e++)
            {
                sum += values[e] * v[columns[e]];
            }
            into.put(at + i, sum);
        }
    }

    private void exchangeTwoSided(final double[] out)
    {
        final int sendBlock = myRow * k + myCol % k;
        final int sendOffset = colStart[sendBlock] - rowLo;
        final int sendLength = colStart[sendBlock + 1] - colStart[sendBlock];
        rowComm.allreduce(Comm.IN_PLACE, 0, exchange, 0, rowCount, Datatype.DOUBLE, Op.SUM);
        lap(ALLREDUCE);
        comm.sendrecv(exchange, sendOffset, sendLength, Datatype.DOUBLE, sendTo, TAG, out, 0, colCount, Datatype.DOUBLE,
            receiveFrom, TAG);
        lap(SENDRECV);
    }

    /**
     * The get-based exchange, synchronised with the partners only (post/start/complete/wait): the exposure epoch of the
     * previous product closes ({@code await}: its readers are done with the other half, which the next product
     * overwrites), a new one opens to my readers ({@code post}: my partial sums of this product are written), an
     * access epoch to my sources ({@code start}: theirs are), the pieces of my column block (gets; my own piece copied
     * from my window), {@code complete}.
     */
    private void exchangeRma(final double[] out, final int partial, final int subOffset)
    {
        if (exposed)
        {
            win.await();
        }
        lap(AWAIT);
        win.post(readers, Win.MODE_NOPUT);
        exposed = true;
        lap(POST);
        win.start(sources, 0);
        lap(START);
        final int sourceRow = myCol / k;
        int own = -1;
        int first = -1;
        for (int j = 0; j < gridCols; j++)
        {
            final int source = sourceRow * gridCols + j;
            if (source == comm.rank() && sums != null)
            {
                own = j;
            }
            else if (source == comm.rank())
            {
                stage.get(partial + subOffset, parts, j * maxRow, colCount);
            }
            else if (first < 0 && j <= 1)
            {
                // the first piece got straight into out (piece 0 or 1: the sum starts with p0 + p1, in either order)
                win.get(out, 0, colCount, Datatype.DOUBLE, source, partial + subOffset, colCount, Datatype.DOUBLE);
                first = j;
            }
            else
            {
                win.get(parts, j * maxRow, colCount, Datatype.DOUBLE, source, partial + subOffset, colCount, Datatype.DOUBLE);
            }
        }
        lap(GET);
        win.complete();
        lap(COMPLETE);
        // my own piece read in place from my window memory (local loads, as the coarray version reads its own)
        sumColumnBlock(out, first, own, sums, partial + subOffset, parts, maxRow, 0);
        lap(SUM);
    }

    /**
     * As {@link #exchangeRma} with coarray gets after one {@code syncImages} with the partners (after it my sources have
     * written this product's half, and my readers have read the other half, which the next product overwrites).
     */
    private void exchangeCoarray(final double[] out, final int partial, final int subOffset)
    {
        if (inArena != null)
        {
            inArena.put(partial, exchange, partial, rowCount);
        }
        lap(COPY);
        team.syncImages(partners);
        lap(SYNC);
        final int sourceRow = myCol / k;
        int first = -1;
        for (int j = 0; j < gridCols; j++)
        {
            if (sourceRow * gridCols + j != comm.rank())
            {
                final boolean intoOut = first < 0 && j <= 1;
                coarray.get(sourceRow * gridCols + j, partial + subOffset, intoOut ? out : parts, intoOut ? 0 : j * maxRow, colCount);
                first = intoOut ? j : first;
            }
        }
        lap(GET);
        sumColumnBlock(out, first, sourceRow == myRow ? myCol : -1, exchange, partial + subOffset, parts, maxRow, 0);
        lap(SUM);
    }

    /**
     * The nonblocking put-based exchange: each piece of my partial sums goes straight to every process whose column
     * block it belongs to, into my slot of that process's half for this product, by {@code putAsync}; one
     * {@code syncImages} with the partners completes them all (and says the receivers have summed the other half, which
     * the next product fills); then each process sums its slots in column order (its own piece read in place).
     */
    private void exchangeCoarrayNb(final double[] out, final int subOffset)
    {
        final int slots = maxRow + parity * gridCols * maxCol;
        for (int c = myRow * k; c < myRow * k + k; c++)
        {
            final int offset = colStart[c] - rowLo;
            final int length = colStart[c + 1] - colStart[c];
            for (int i = 0; i < gridRows; i++)
            {
                final int receiver = i * gridCols + c;
                if (receiver != comm.rank())
                {
                    coarray.putAsync(receiver, slots + myCol * maxCol, exchange, offset, length);
                }
            }
        }
        lap(PUT);
        team.syncImages(partners);
        lap(SYNC);
        if (inArena != null)
        {
            inArena.get(slots, exchange, slots, gridCols * maxCol);
        }
        lap(COPY);
        sumColumnBlock(out, -1, myCol / k == myRow ? myCol : -1, exchange, subOffset, exchange, maxCol, slots);
        lap(SUM);
    }

    /**
     * {@code out[i]} = the sum over the row's columns j, in column order, of piece j: {@code pieces[at + j * stride + i]},
     * piece {@code own} (unless -1) read in place from {@code ownArray[ownAt + i]}, piece {@code first} (0, 1 or -1 for
     * none) already in {@code out} (p0 + p1 = p1 + p0 exactly, so the sum is the same either way). In blocks of {@link #SUM_BLOCK}
     * elements, every piece's part of a block added before the next block, so that the block of {@code out} stays in
     * the first-level cache (one pass over each piece, not one over {@code out} per piece); each element still sums its
     * pieces in column order, so the bits are those of the plain loop.
     */
    private void sumColumnBlock(final double[] out, final int first, final int own, final double[] ownArray, final int ownAt,
        final double[] pieces, final int stride, final int at)
    {
        for (int lo = 0; lo < colCount; lo += SUM_BLOCK)
        {
            final int hi = Math.min(lo + SUM_BLOCK, colCount);
            for (int j = 0; j < gridCols; j++)
            {
                if (j == first)
                {
                    continue;
                }
                final double[] from = j == own ? ownArray : pieces;
                final int shift = (j == own ? ownAt : at + j * stride);
                if (j == 0 && first < 0)
                {
                    System.arraycopy(from, shift + lo, out, lo, hi - lo);
                }
                else
                {
                    for (int i = lo; i < hi; i++)
                    {
                        out[i] += from[shift + i];
                    }
                }
            }
        }
    }

    private double dot(final double[] a, final double[] b)
    {
        double sum = 0;
        for (int i = 0; i < colCount; i++)
        {
            sum += a[i] * b[i];
        }
        lap(VECTOR);
        return rowSum(sum);
    }

    /** The sum over my process row (every column block once). */
    private double rowSum(final double value)
    {
        final double[] v = {value};
        rowComm.allreduce(Comm.IN_PLACE, 0, v, 0, 1, Datatype.DOUBLE, Op.SUM);
        lap(DOT);
        return v[0];
    }

    /** Adds the wall and CPU time since the last lap to {@code phase}, when phases are timed. */
    private void lap(final int phase)
    {
        if (phaseNs != null)
        {
            final long now = System.nanoTime();
            final long cpu = CPU.getCurrentThreadCpuTime();
            phaseNs[phase] += now - phaseMark;
            phaseNs[PHASES.length + phase] += cpu - cpuMark;
            phaseMark = now;
            cpuMark = cpu;
        }
    }

    /** Times the phases from now on ({@code --phases}); {@link #phaseNs()} reads them. */
    @Override
    public void timePhases()
    {
        phaseNs = new long[2 * PHASES.length];
        phaseMark = System.nanoTime();
        cpuMark = CPU.getCurrentThreadCpuTime();
    }

    /** Wall ns per phase of {@link #PHASES} since {@link #timePhases()}, or null. */
    @Override
    public long[] phaseNs()
    {
        return phaseNs;
    }

    /**
     * Flops of one solve on this process: 2 per non-zero of its block in each product, and 10 per vector element in
     * the vector updates counted on process row 0 only (the other rows repeat them).
     */
    @Override
    public long flopsPerSolve()
    {
        return (ITERATIONS + 1) * (2 * nonZeros + (myRow == 0 ? 10L * colCount : 0));
    }

    /** Frees the row communicator and the window or coarray (collective). */
    @Override
    public void close()
    {
        if (exposed)
        {
            win.await();
        }
        Himeno.free(win, coarray, team);
        rowComm.free();
    }

    public static void main(final String[] args)
    {
        final BenchArgs parsed = BenchArgs.parse(args, "--n", "--solves", "--versions", "--rounds");
        final int n = parsed.intOption("--n", 32);
        final int solves = parsed.intOption("--solves", 5);
        final int rounds = parsed.intOption("--rounds", 2);
        final boolean phases = parsed.flag("--phases");
        try (Mpi mpi = Mpi.init(args))
        {
            final Intracomm world = mpi.world();
            final String versions = parsed.option("--versions", "two-sided,rma,coarray,coarray-nb");
            if (world.rank() == 0)
            {
                final int[] grid = gridOf(world.size());
                System.out.printf(Locale.ROOT, "# jmpi CG (2-D grid %d x %d): %d^3 rows, %d solves of %d iterations%n", grid[0], grid[1],
                    n, solves, ITERATIONS);
                System.out.printf(Locale.ROOT, "# %-12s %10s %10s %18s %10s %s%n", "version", "time (s)", "MFLOPS", "zeta", "residual",
                    "cpu s per rank (main thread)");
            }
            for (int round = 1; round <= rounds; round++)
            {
                for (final String name : versions.split(","))
                {
                    ConjugateGradient.timeAndPrint(world, name.trim(), solves, new ConjugateGradient2D(world, Version.of(name.trim()), n),
                        phases);
                }
            }
        }
    }
}
