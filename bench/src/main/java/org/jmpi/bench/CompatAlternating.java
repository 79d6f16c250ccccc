package org.jmpi.bench;

import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.util.Arrays;

import org.jmpi.Datatype;
import org.jmpi.Intracomm;
import org.jmpi.Mpi;
import org.jmpi.Op;

import mpi.MPI;
import mpi.MPIException;

/**
 * What jmpi-compat costs per call against core in the same two JVMs: 8-byte allreduce, ping-pong and osu_bw's window,
 * each as blocks of calls through core ({@code org.jmpi}) and through compat ({@code mpi}), alternated A B B A over
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
    private static final int WINDOW = 64;
    private static final int TAG = 100;
    private static final int ACK_TAG = 101;

    /** One block of calls on one side; returns the elapsed nanoseconds. */
    @FunctionalInterface
    private interface Block
    {
        long run(int calls) throws MPIException;
    }

    private final Intracomm core;
    private final int rank;
    private final int peer;
    private final Object send;
    private final Object recv;
    private final int[] sendInts = new int[BYTES / 4];
    private final int[] recvInts = new int[BYTES / 4];
    private final byte[] ack = new byte[4];
    private final org.jmpi.Request[] coreWindow = new org.jmpi.Request[WINDOW];
    private final mpi.Request[] compatWindow = new mpi.Request[WINDOW];

    private CompatAlternating(final boolean arrays) throws MPIException
    {
        this.core = Mpi.current().world();
        this.rank = core.rank();
        this.peer = rank ^ 1;
        this.send = arrays ? new byte[BYTES] : ByteBuffer.allocateDirect(BYTES);
        this.recv = arrays ? new byte[BYTES] : ByteBuffer.allocateDirect(BYTES);
    }

    public static void main(final String[] args) throws MPIException
    {
        final BenchArgs parsed = BenchArgs.parse(args, "-a");
        final int rounds = parsed.positionalInt(0, 21);
        final int calls = parsed.positionalInt(1, 20_000);
        final boolean arrays = parsed.option("-a", "arrays").equals("arrays");
        MPI.Init(args);
        final CompatAlternating bench = new CompatAlternating(arrays);
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
        bench.part("allreduce", rounds, calls, 1, bench::coreAllreduce, bench::compatAllreduce);
        bench.part("latency", rounds, calls, 2, bench::corePingPong, bench::compatPingPong);
        bench.part("bw", rounds, Math.max(1, calls / WINDOW), WINDOW, bench::coreWindow, bench::compatWindow);
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

    private long coreAllreduce(final int calls)
    {
        final long t0 = System.nanoTime();
        for (int i = 0; i < calls; i++)
        {
            core.allreduce(sendInts, 0, recvInts, 0, sendInts.length, Datatype.INT, Op.SUM);
        }
        return System.nanoTime() - t0;
    }

    private long compatAllreduce(final int calls) throws MPIException
    {
        final long t0 = System.nanoTime();
        for (int i = 0; i < calls; i++)
        {
            MPI.COMM_WORLD.allReduce(sendInts, recvInts, sendInts.length, MPI.INT, MPI.SUM);
        }
        return System.nanoTime() - t0;
    }

    private long corePingPong(final int calls)
    {
        final long t0 = System.nanoTime();
        for (int i = 0; i < calls; i++)
        {
            if (rank == 0)
            {
                core.send(send, 0, BYTES, Datatype.BYTE, peer, TAG);
                core.recv(recv, 0, BYTES, Datatype.BYTE, peer, TAG);
            }
            else
            {
                core.recv(recv, 0, BYTES, Datatype.BYTE, peer, TAG);
                core.send(send, 0, BYTES, Datatype.BYTE, peer, TAG);
            }
        }
        return System.nanoTime() - t0;
    }

    private long compatPingPong(final int calls) throws MPIException
    {
        final long t0 = System.nanoTime();
        for (int i = 0; i < calls; i++)
        {
            if (rank == 0)
            {
                MPI.COMM_WORLD.send(send, BYTES, MPI.BYTE, peer, TAG);
                MPI.COMM_WORLD.recv(recv, BYTES, MPI.BYTE, peer, TAG);
            }
            else
            {
                MPI.COMM_WORLD.recv(recv, BYTES, MPI.BYTE, peer, TAG);
                MPI.COMM_WORLD.send(send, BYTES, MPI.BYTE, peer, TAG);
            }
        }
        return System.nanoTime() - t0;
    }

    private long coreWindow(final int windows)
    {
        final long t0 = System.nanoTime();
        for (int w = 0; w < windows; w++)
        {
            for (int j = 0; j < WINDOW; j++)
            {
                coreWindow[j] = rank == 0 ? core.isend(send, 0, BYTES, Datatype.BYTE, peer, TAG) : core.irecv(recv, 0, BYTES, Datatype.BYTE, peer, TAG);
            }
            org.jmpi.Request.waitAll(coreWindow);
            if (rank == 0)
            {
                core.recv(ack, 0, ack.length, Datatype.BYTE, peer, ACK_TAG);
            }
            else
            {
                core.send(ack, 0, ack.length, Datatype.BYTE, peer, ACK_TAG);
            }
        }
        return System.nanoTime() - t0;
    }

    private long compatWindow(final int windows) throws MPIException
    {
        final long t0 = System.nanoTime();
        for (int w = 0; w < windows; w++)
        {
            for (int j = 0; j < WINDOW; j++)
            {
                compatWindow[j] = rank == 0 ? MPI.COMM_WORLD.iSend(send, BYTES, MPI.BYTE, peer, TAG) : MPI.COMM_WORLD.iRecv(recv, BYTES, MPI.BYTE, peer, TAG);
            }
            mpi.Request.waitAll(compatWindow);
            if (rank == 0)
            {
                MPI.COMM_WORLD.recv(ack, ack.length, MPI.BYTE, peer, ACK_TAG);
            }
            else
            {
                MPI.COMM_WORLD.send(ack, ack.length, MPI.BYTE, peer, ACK_TAG);
            }
        }
        return System.nanoTime() - t0;
    }
}
