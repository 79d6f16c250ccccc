package org.jmpi.transport.verbs;

import org.jmpi.Datatype;
import org.jmpi.Ranks;
import org.jmpi.Request;
import org.jmpi.ThreadLevel;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Map;

/**
 * MPI-level latency and bandwidth over verbs, the figures docs/verbs.md sets beside perftest's on the same device in
 * the same VM session ({@code rdma-tests.sh bench}): two rank threads, each a JVM of its own to the protocol
 * ({@code JMPI_TRANSPORTS=verbs,jvm JMPI_JVM_ISOLATE=true}), direct buffers.
 * <ul>
 * <li>latency: {@code send}/{@code recv} ping-pong of {@code latencyBytes} (8), one way = round trip / 2, after
 * 10% warm-up round trips: mean and percentiles;</li>
 * <li>bandwidth (as osu_bw): per size, windows of 16 {@code isend}s answered by one 4-byte message, MB/s = bytes of
 * the timed windows / their time (MB = 2^20 bytes, as perftest's MB/sec), after one warm-up window.</li>
 * </ul>
 * {@code java ... VerbsMpiBench [round trips] [windows] [sizes...]}. Prints lines starting {@code mpi lat} and
 * {@code mpi bw} that rdma-tests.sh reads.
 */
public final class VerbsMpiBench
{
    private static final int WINDOW = 16;

    private VerbsMpiBench()
    {
    }

    public static void main(final String[] args)
    {
        final int roundTrips = args.length > 0 ? Integer.parseInt(args[0]) : 2000;
        final int windows = args.length > 1 ? Integer.parseInt(args[1]) : 4;
        final int[] sizes = args.length > 2 ? Arrays.stream(args, 2, args.length).mapToInt(Integer::parseInt).toArray()
            : new int[] {65_536, 1_048_576, 4_194_304};
        Ranks.run(2, ThreadLevel.SINGLE, Map.of(), (mpi, world) ->
        {
            final int peer = 1 - world.rank();
            final ByteBuffer small = ByteBuffer.allocateDirect(8);
            final int warmUp = Math.max(1, roundTrips / 10);
            final long[] oneWayNs = new long[roundTrips];
            for (int i = -warmUp; i < roundTrips; i++)
            {
                final long start = System.nanoTime();
                if (world.rank() == 0)
                {
                    world.send(small, 0, 8, Datatype.BYTE, peer, 1);
                    world.recv(small, 0, 8, Datatype.BYTE, peer, 1);
                }
                else
                {
                    world.recv(small, 0, 8, Datatype.BYTE, peer, 1);
                    world.send(small, 0, 8, Datatype.BYTE, peer, 1);
                }
                if (i >= 0)
                {
                    oneWayNs[i] = (System.nanoTime() - start) / 2;
                }
            }
            if (world.rank() == 0)
            {
                Arrays.sort(oneWayNs);
                System.out.printf("mpi lat 8 B: one way mean %.2f us, p50 %.2f, p90 %.2f, p99 %.2f, min %.2f (%d round trips)%n",
                    Arrays.stream(oneWayNs).average().orElse(0) / 1e3, oneWayNs[roundTrips / 2] / 1e3,
                    oneWayNs[(int)(roundTrips * 0.9)] / 1e3, oneWayNs[(int)(roundTrips * 0.99)] / 1e3, oneWayNs[0] / 1e3, roundTrips);
            }
            final ByteBuffer ack = ByteBuffer.allocateDirect(4);
            for (final int size : sizes)
            {
                final ByteBuffer buffer = ByteBuffer.allocateDirect(size);
                final Request[] window = new Request[WINDOW];
                long start = 0;
                for (int w = -1; w < windows; w++)
                {
                    if (w == 0)
                    {
                        start = System.nanoTime();
                    }
                    for (int i = 0; i < WINDOW; i++)
                    {
                        window[i] = world.rank() == 0 ? world.isend(buffer, 0, size, Datatype.BYTE, peer, 2)
                            : world.irecv(buffer, 0, size, Datatype.BYTE, peer, 2);
                    }
                    Request.waitAll(window);
                    if (world.rank() == 0)
                    {
                        world.recv(ack, 0, 4, Datatype.BYTE, peer, 3);
                    }
                    else
                    {
                        world.send(ack, 0, 4, Datatype.BYTE, peer, 3);
                    }
                }
                if (world.rank() == 0)
                {
                    final double seconds = (System.nanoTime() - start) / 1e9;
                    System.out.printf("mpi bw %d B: %.2f MB/s (%d windows of %d)%n", size, (double)size * WINDOW * windows / seconds / (1 << 20),
                        windows, WINDOW);
                }
            }
        });
    }
}
