package org.jmpi.bench;

import org.jmpi.Comm;
import org.jmpi.Datatype;
import org.jmpi.Mpi;
import org.jmpi.Request;

import java.util.Arrays;
import java.util.Locale;

/**
 * Where the time of an osu_mbw_mr-style window goes, per phase and per message (issue 12, message rate): rank 0
 * posts {@code window} isends of {@code size} bytes to rank 1 and waits for all, then receives a 4-byte
 * acknowledgement; rank 1 posts as many irecvs, waits for all and sends the acknowledgement ({@link OsuBandwidth}'s
 * {@code bw}/{@code mbw_mr} window). Each phase of each window is timed with {@code System.nanoTime()}:
 * <ol>
 * <li>{@code post}: the loop of isends (rank 0) or irecvs (rank 1), divided by the window: what one call costs;</li>
 * <li>{@code wait}: {@code Request.waitAll}, divided by the window: on rank 0 the reporting of sends that completed
 * as they were posted, on rank 1 the arrival, matching and copy of the messages (and any wait for rank 0);</li>
 * <li>{@code ack}: the acknowledgement, in ns: on rank 0 mostly the wait for rank 1 to finish its window.</li>
 * </ol>
 * A window takes about {@code 64 x (post + wait) + ack} on the slower rank. Each rank prints, per block of
 * {@code windows} windows, the p10 and p50 of each phase; the last block counts (the first ones run while the JIT
 * compiles). Run it as JVMs or as threads ({@code --threads}) to compare transports.
 * <pre>
 * rank 0 block 3: post p50 45.5 p10 44.4 ns/msg, wait p50 3.9 p10 3.6 ns/msg, ack p50 320 ns
 * </pre>
 * Usage: {@code bin/jmpirun -np 2 -cp 'bench/target/classes:bench/target/lib/*' org.jmpi.bench.MessageRatePhases
 * [--windows N] [--blocks N] [--window N] [--size BYTES]}.
 */
public final class MessageRatePhases
{
    private static final int DATA_TAG = 100;
    private static final int ACK_TAG = 101;
    private static final int ACK_BYTES = 4;

    private MessageRatePhases()
    {
    }

    public static void main(final String[] args)
    {
        final BenchArgs parsed = BenchArgs.parse(args, "--windows", "--blocks", "--window", "--size");
        final int windows = parsed.intOption("--windows", 30_000);
        final int blocks = parsed.intOption("--blocks", 3);
        final int window = parsed.intOption("--window", 64);
        final int size = parsed.intOption("--size", 8);
        try (Mpi mpi = Mpi.init(args))
        {
            final Comm world = mpi.world();
            if (world.size() != 2)
            {
                throw new IllegalStateException("MessageRatePhases runs on 2 ranks, not " + world.size());
            }
            final int rank = world.rank();
            final byte[] data = new byte[Math.max(1, size)];
            final byte[] ack = new byte[ACK_BYTES];
            final Request[] requests = new Request[window];
            final long[] post = new long[windows];
            final long[] wait = new long[windows];
            final long[] acks = new long[windows];
            for (int block = 1; block <= blocks; block++)
            {
                world.barrier();
                for (int w = 0; w < windows; w++)
                {
                    final long start = System.nanoTime();
                    for (int j = 0; j < window; j++)
                    {
                        requests[j] = rank == 0 ? world.isend(data, 0, size, Datatype.BYTE, 1, DATA_TAG)
                            : world.irecv(data, 0, size, Datatype.BYTE, 0, DATA_TAG);
                    }
                    final long posted = System.nanoTime();
                    Request.waitAll(requests);
                    final long waited = System.nanoTime();
                    if (rank == 0)
                    {
                        world.recv(ack, 0, ACK_BYTES, Datatype.BYTE, 1, ACK_TAG);
                    }
                    else
                    {
                        world.send(ack, 0, ACK_BYTES, Datatype.BYTE, 0, ACK_TAG);
                    }
                    post[w] = posted - start;
                    wait[w] = waited - posted;
                    acks[w] = System.nanoTime() - waited;
                }
                Arrays.sort(post);
                Arrays.sort(wait);
                Arrays.sort(acks);
                System.out.printf(Locale.ROOT, "rank %d block %d: post p50 %.1f p10 %.1f ns/msg, wait p50 %.1f p10 %.1f ns/msg, ack p50 %d ns%n",
                    rank, block, post[windows / 2] / (double)window, post[windows / 10] / (double)window, wait[windows / 2] / (double)window,
                    wait[windows / 10] / (double)window, acks[windows / 2]);
            }
        }
    }
}
