package org.jmpi.bench;

import java.util.Locale;

import mpi.MPI;
import mpi.MPIException;
import mpi.Request;

/**
 * {@link OsuBandwidth}'s {@code bw} and {@code bibw} written against the Open MPI Java API (jmpi-compat), as OMB-J's
 * osu_bw and osu_bibw are. bw: rank 0 posts a window of {@code iSend}s, rank 1 as many {@code iRecv}s, both wait for
 * all, rank 1 acknowledges with 4 bytes. bibw: both ranks post a window of {@code iRecv}s and one of {@code iSend}s and
 * wait for all; twice the bytes, timed on rank 0.
 * Same window (64), iteration counts (1,000 windows up to 8 KiB, 100 above, a tenth of each as warm-up) and JIT
 * warm-up (6,000 windows of 8 B and 4 KiB alternately) as OsuBandwidth, so the two compare row for row.
 * {@code -a buffer} (default, OMB-J's) uses direct ByteBuffers from {@link MPI#newByteBuffer}; {@code -a arrays} byte[].
 * <pre>
 * # jmpi-compat bw (window 64, direct ByteBuffer, 2 ranks)
 * # Size       Bandwidth (MB/s)
 * 8                       21.10
 * </pre>
 * Usage: {@code bin/jmpirun -np 2 -cp 'bench/target/classes:bench/target/lib/*:compat/target/classes'
 * org.jmpi.bench.CompatBandwidth [bw|bibw] [maxBytes] [-a buffer|arrays]}
 */
public final class CompatBandwidth
{
    private static final int WINDOW = 64;
    private static final int ITERATIONS = 1000;
    private static final int JIT_WARMUP = 6000;
    private static final int LARGE_SIZE = 8192;
    private static final int DATA_TAG = 100;
    private static final int ACK_TAG = 101;

    private final Object sendBuf;
    private final Object recvBuf;
    private final byte[] ack = new byte[4];
    private final Request[] requests;
    private final int rank;
    private final boolean bibw;

    private CompatBandwidth(final int maxBytes, final boolean arrays, final boolean bibw) throws MPIException
    {
        this.bibw = bibw;
        this.requests = new Request[bibw ? 2 * WINDOW : WINDOW];
        final int bytes = Math.max(1, maxBytes);
        this.sendBuf = arrays ? new byte[bytes] : MPI.newByteBuffer(bytes);
        this.recvBuf = arrays ? new byte[bytes] : MPI.newByteBuffer(bytes);
        this.rank = MPI.COMM_WORLD.getRank();
    }

    public static void main(final String[] args) throws MPIException
    {
        final BenchArgs parsed = BenchArgs.parse(args, "-a");
        final boolean named = parsed.positionalCount() > 0 && !parsed.positional(0).matches("\\d+");
        final String mode = named ? parsed.positional(0) : "bw";
        if (!mode.equals("bw") && !mode.equals("bibw"))
        {
            throw new IllegalArgumentException("mode must be bw or bibw, got '" + mode + "'");
        }
        final int maxBytes = parsed.positionalInt(named ? 1 : 0, 4 << 20);
        final boolean arrays = parsed.option("-a", "buffer").equals("arrays");
        MPI.Init(args);
        if (MPI.COMM_WORLD.getSize() < 2)
        {
            throw new IllegalStateException("CompatBandwidth needs 2 ranks");
        }
        final CompatBandwidth bench = new CompatBandwidth(maxBytes, arrays, mode.equals("bibw"));
        if (bench.rank == 0)
        {
            System.out.printf("# jmpi-compat %s (window %d, %s, %d ranks)%n", mode, WINDOW, arrays ? "byte[]" : "direct ByteBuffer",
                MPI.COMM_WORLD.getSize());
            System.out.printf("# %-10s %18s%n", "Size", "Bandwidth (MB/s)");
        }
        for (int i = 0; i < JIT_WARMUP; i++)
        {
            bench.window(Math.min(i % 2 == 0 ? 8 : 4096, Math.max(1, maxBytes)));
        }
        MPI.COMM_WORLD.barrier();
        for (int size = 1; size <= maxBytes; size *= 2)
        {
            final int loop = size > LARGE_SIZE ? ITERATIONS / 10 : ITERATIONS;
            final int skip = Math.max(1, loop / 10);
            MPI.COMM_WORLD.barrier();
            long start = 0;
            for (int i = 0; i < loop + skip; i++)
            {
                if (i == skip)
                {
                    start = System.nanoTime();
                }
                bench.window(size);
            }
            if (bench.rank == 0)
            {
                final double seconds = (System.nanoTime() - start) * 1e-9;
                final double rate = (double)loop * WINDOW * (bench.bibw ? 2 : 1) / seconds;
                System.out.printf(Locale.ROOT, "%-12d %18.2f%n", size, rate * size / 1e6);
            }
        }
        MPI.Finalize();
    }

    private void window(final int size) throws MPIException
    {
        if (bibw)
        {
            if (rank < 2)
            {
                final int peer = 1 - rank;
                for (int j = 0; j < WINDOW; j++)
                {
                    requests[j] = MPI.COMM_WORLD.iRecv(recvBuf, size, MPI.BYTE, peer, DATA_TAG);
                }
                for (int j = 0; j < WINDOW; j++)
                {
                    requests[WINDOW + j] = MPI.COMM_WORLD.iSend(sendBuf, size, MPI.BYTE, peer, DATA_TAG);
                }
                Request.waitAll(requests);
            }
        }
        else if (rank == 0)
        {
            for (int j = 0; j < WINDOW; j++)
            {
                requests[j] = MPI.COMM_WORLD.iSend(sendBuf, size, MPI.BYTE, 1, DATA_TAG);
            }
            Request.waitAll(requests);
            MPI.COMM_WORLD.recv(ack, ack.length, MPI.BYTE, 1, ACK_TAG);
        }
        else if (rank == 1)
        {
            for (int j = 0; j < WINDOW; j++)
            {
                requests[j] = MPI.COMM_WORLD.iRecv(recvBuf, size, MPI.BYTE, 0, DATA_TAG);
            }
            Request.waitAll(requests);
            MPI.COMM_WORLD.send(ack, ack.length, MPI.BYTE, 0, ACK_TAG);
        }
    }
}
