package org.jmpi.bench;

import java.lang.management.ManagementFactory;
import java.util.Arrays;

import org.jmpi.Intracomm;
import org.jmpi.Mpi;

import mpi.MPI;
import mpi.MPIException;

/**
 * What jmpi-compat costs per call against core in the same two JVMs: 8-byte allreduce, ping-pong and osu_bw's window,
 * barrier; osu_bibw's window at 8 B; ping-pong, osu_bw and osu_bibw at 1 MiB; bcast, reduce, allreduce, gather, scatter,
 * allgather and alltoall at 8 B and 1 MiB ({@link CompatBlocks}), each as blocks of calls through core ({@code org.jmpi}) and through compat ({@code mpi}), alternated A B B A over
 * {@code rounds} rounds in one job, so that both see the same processes, placement, JIT state and load. Separate jobs per
 * side (bench/compat-vs-core.sh's other parts) compare two pairs of JVMs, whose own state (a 8-byte allreduce took
 * 1.2-1.8 us from one core job to the next in session 8) decides a 5% question more than the layer can.
 *
 * <p>Rank 0 prints, per part: the median time per call (allreduce), per one-way message (ping-pong) or per message of
 * the window (bw), core and compat; the median, 10th and 90th percentile of the per-round ratio compat / core; and the
 * bytes each side allocates per call on rank 0's thread.
 * <pre>
 * # jmpi-compat against core in the same JVMs (2 ranks, byte[] / int[], 21 rounds of 20000 calls)
 * # part        core ns  compat ns  ratio p50   p10   p90  core B/call  compat B/call
 * allreduce     1021.5     1019.7      0.998 0.971 1.030        544.0          544.0
 * </pre>
 * Usage: {@code bin/jmpirun -np 2 -cp 'bench/target/classes:bench/target/lib/*:compat/target/classes'
 * org.jmpi.bench.CompatAlternating [rounds] [callsPerBlock] [-a arrays|buffer]} (defaults 21, 20000, arrays).
 */
public final class CompatAlternating
{
    private static final int BYTES = 8;
    /** The collectives' message sizes in bytes (OMB-J's osu_bcast ... osu_alltoall, at the issue's 8 B and 1 MiB). */
    private static final int[] COLLECTIVE_SIZES = {8, 1 << 20};

    /** One block of calls on one side; returns the elapsed nanoseconds. */
    @FunctionalInterface
    interface Block
    {
        long run(int calls) throws MPIException;
    }

    private final Intracomm core;
    private final int rank;

    private CompatAlternating()
    {
        this.core = Mpi.current().world();
        this.rank = core.rank();
    }

    public static void main(final String[] args) throws MPIException
    {
        final BenchArgs parsed = BenchArgs.parse(args, "-a");
        final int rounds = parsed.positionalInt(0, 21);
        final int calls = parsed.positionalInt(1, 20_000);
        final boolean arrays = parsed.option("-a", "arrays").equals("arrays");
        MPI.Init(args);
        final CompatAlternating bench = new CompatAlternating();
        if (bench.core.size() != 2)
        {
            throw new IllegalArgumentException("CompatAlternating runs on 2 ranks, not " + bench.core.size());
        }
        if (bench.rank == 0)
        {
            System.out.printf("# jmpi-compat against core in the same JVMs (2 ranks, %s, %d rounds of %d calls)%n",
                arrays ? "byte[] / int[]" : "direct ByteBuffer / int[]", rounds, calls);
            System.out.printf("# %-10s %9s %10s %10s %5s %5s %12s %14s%n", "part", "core ns", "compat ns", "ratio p50", "p10", "p90",
                "core B/call", "compat B/call");
        }
        final CompatBlocks small = new CompatBlocks(bench.core, BYTES, arrays);
        bench.part("allreduce", rounds, calls, 1, small::coreAllreduce, small::compatAllreduce);
        bench.part("latency", rounds, calls, 2, small::corePingPong, small::compatPingPong);
        bench.part("bw", rounds, Math.max(1, calls / CompatBlocks.WINDOW), CompatBlocks.WINDOW, w -> small.coreWindows(w, false),
            w -> small.compatWindows(w, false));
        bench.part("barrier", rounds, calls, 1, small::coreBarrier, small::compatBarrier);
        for (final int size : COLLECTIVE_SIZES)
        {
            final CompatBlocks c = new CompatBlocks(bench.core, size, arrays);
            // calls per block: as many as the 8-byte parts at small sizes, fewer as a call moves more (at least 20)
            final int n = (int)Math.max(20, Math.min(calls, calls * 64L / size));
            if (size > BYTES)
            {
                bench.part("latency-" + size, rounds, n, 2, c::corePingPong, c::compatPingPong);
                bench.part("bw-" + size, rounds, Math.max(2, n / CompatBlocks.WINDOW), CompatBlocks.WINDOW, w -> c.coreWindows(w, false),
                    w -> c.compatWindows(w, false));
            }
            bench.part("bibw-" + size, rounds, Math.max(2, n / CompatBlocks.WINDOW), 2 * CompatBlocks.WINDOW, w -> c.coreWindows(w, true),
                w -> c.compatWindows(w, true));
            bench.part("bcast-" + size, rounds, n, 1, c::coreBcast, c::compatBcast);
            bench.part("reduce-" + size, rounds, n, 1, c::coreReduce, c::compatReduce);
            bench.part("allreduce-" + size, rounds, n, 1, c::coreAllreduce, c::compatAllreduce);
            bench.part("gather-" + size, rounds, n, 1, c::coreGather, c::compatGather);
            bench.part("scatter-" + size, rounds, n, 1, c::coreScatter, c::compatScatter);
            bench.part("allgather-" + size, rounds, n, 1, c::coreAllgather, c::compatAllgather);
            bench.part("alltoall-" + size, rounds, n, 1, c::coreAlltoall, c::compatAlltoall);
        }
        MPI.Finalize();
    }

    /**
     * 1. Warm both sides up (three blocks each).
     * 2. Each round, a barrier, then core and compat blocks (core first in even rounds, compat first in odd ones).
     * 3. Rank 0 prints the medians and the ratio's percentiles over rounds.
     */
    private void part(final String name, final int rounds, final int calls, final int perCall, final Block coreBlock,
        final Block compatBlock) throws MPIException
    {
        for (int i = 0; i < 3; i++)
        {
            coreBlock.run(calls);
            compatBlock.run(calls);
        }
        final double[] coreNs = new double[rounds];
        final double[] compatNs = new double[rounds];
        final double[] ratio = new double[rounds];
        final long[] allocated = new long[2];
        final double units = (double)calls * perCall;
        for (int r = 0; r < rounds; r++)
        {
            core.barrier();
            if (r % 2 == 0)
            {
                coreNs[r] = timed(coreBlock, calls, allocated, 0) / units;
                compatNs[r] = timed(compatBlock, calls, allocated, 1) / units;
            }
            else
            {
                compatNs[r] = timed(compatBlock, calls, allocated, 1) / units;
                coreNs[r] = timed(coreBlock, calls, allocated, 0) / units;
            }
            ratio[r] = compatNs[r] / coreNs[r];
        }
        if (rank == 0)
        {
            Arrays.sort(coreNs);
            Arrays.sort(compatNs);
            Arrays.sort(ratio);
            final double perBlock = (double)rounds * calls;
            System.out.printf("%-12s %9.1f %10.1f %10.3f %5.3f %5.3f %12.1f %14.1f%n", name, coreNs[rounds / 2], compatNs[rounds / 2],
                ratio[rounds / 2], ratio[rounds / 10], ratio[rounds - 1 - rounds / 10], allocated[0] / perBlock, allocated[1] / perBlock);
        }
    }

    private static long timed(final Block block, final int calls, final long[] allocated, final int side) throws MPIException
    {
        final long bytes0 = allocatedBytes();
        final long ns = block.run(calls);
        allocated[side] += allocatedBytes() - bytes0;
        return ns;
    }

    private static long allocatedBytes()
    {
        return ((com.sun.management.ThreadMXBean)ManagementFactory.getThreadMXBean()).getCurrentThreadAllocatedBytes();
    }
}
