package org.jmpi.transport.verbs;

import org.jmpi.spi.FrameHandler;
import org.jmpi.spi.FrameWriter;
import org.jmpi.spi.Transport;

import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Frame ping-pong latency and streaming bandwidth between two ranks over the verbs transport, to set beside
 * perftest's {@code ib_send_lat} and {@code ib_write_bw} on the same device in the same VM session
 * ({@code rdma-tests.sh bench}). Transport level, not MPI level: no matching, no protocol. Prints mean and
 * percentiles; asserts nothing.
 *
 * <p>Arguments: ping-pong iterations (default 20000), bandwidth bytes (default 256 MiB).
 */
public final class VerbsFrameBench
{
    private static final long TIMEOUT_NS = TimeUnit.MINUTES.toNanos(20);

    private VerbsFrameBench()
    {
    }

    public static void main(final String[] args)
    {
        final int iterations = args.length > 0 ? Integer.parseInt(args[0]) : 20_000;
        final long bandwidthBytes = args.length > 1 ? Long.parseLong(args[1]) : 256L << 20;
        VerbsJobs.run(2, Map.of(), TIMEOUT_NS, (context, transport) ->
        {
            final int rank = context.rank();
            final int peer = 1 - rank;
            final int[] received = {0};
            final FrameHandler count = (src, buffer, index, length) -> received[0]++;
            final FrameWriter fill = (buffer, index, length) -> buffer.putLong(index, length);
            final long[] rtt = new long[iterations];
            for (int i = -iterations / 10; i < iterations; i++)
            {
                final long start = System.nanoTime();
                if (rank == 0)
                {
                    send(transport, peer, 8, fill, count);
                    await(transport, received, count);
                }
                else
                {
                    await(transport, received, count);
                    send(transport, peer, 8, fill, count);
                }
                if (i >= 0)
                {
                    rtt[i] = System.nanoTime() - start;
                }
            }
            if (rank == 0)
            {
                Arrays.sort(rtt);
                System.out.printf("VerbsFrameBench: 8 B one-way latency over %d round trips: mean %.2f us, p50 %.2f, p90 %.2f, p99 %.2f, max %.2f%n",
                    iterations, Arrays.stream(rtt).average().orElse(0) / 2000.0, rtt[iterations / 2] / 2000.0, rtt[iterations * 9 / 10] / 2000.0,
                    rtt[iterations * 99 / 100] / 2000.0, rtt[iterations - 1] / 2000.0);
            }
            context.bootstrap().fence(TIMEOUT_NS);
            for (final int frame : new int[] {4096, 32768, transport.maxFrameLength()})
            {
                final long frames = bandwidthBytes / frame;
                received[0] = 0;
                final long start = System.nanoTime();
                if (rank == 0)
                {
                    for (long f = 0; f < frames; f++)
                    {
                        send(transport, peer, frame, fill, count);
                    }
                    await(transport, received, count);
                    final double seconds = (System.nanoTime() - start) / 1e9;
                    System.out.printf("VerbsFrameBench: %d B frames: %.1f MB/s (%d frames in %.2f s)%n", frame, frames * frame / seconds / 1e6,
                        frames, seconds);
                }
                else
                {
                    while (received[0] < frames)
                    {
                        transport.progress(count);
                    }
                    send(transport, peer, 8, fill, count);
                }
                context.bootstrap().fence(TIMEOUT_NS);
            }
        });
    }

    private static void send(final Transport transport, final int peer, final int length, final FrameWriter writer, final FrameHandler handler)
    {
        while (!transport.offer(peer, length, writer))
        {
            transport.progress(handler);
        }
    }

    private static void await(final Transport transport, final int[] received, final FrameHandler handler)
    {
        final int target = received[0] + 1;
        while (received[0] < target)
        {
            transport.progress(handler);
        }
    }
}
