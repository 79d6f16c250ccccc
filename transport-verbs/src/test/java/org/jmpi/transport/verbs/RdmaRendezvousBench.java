package org.jmpi.transport.verbs;

import org.jmpi.Datatype;
import org.jmpi.Ranks;
import org.jmpi.ThreadLevel;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Map;

/**
 * Ping-pong of rendezvous messages between direct buffers over verbs, by RDMA read and by RDMA write
 * ({@code jmpi.rdma.rendezvous}), two rank threads each a JVM of its own to the protocol: what docs/verbs.md's
 * "Rendezvous" rule is measured with, in the soft-RoCE VM ({@code rdma-tests.sh CLASS} runs tests; this is a main:
 * {@code java ... RdmaRendezvousBench [iterations] [sizes...]}). Prints, per mode and size, the one-way time's mean and
 * median over the round trips after 3 warm-up ones. Emulated device: ratios between the modes only.
 */
public final class RdmaRendezvousBench
{
    private RdmaRendezvousBench()
    {
    }

    public static void main(final String[] args)
    {
        final int iterations = args.length > 0 ? Integer.parseInt(args[0]) : 20;
        final int[] sizes = args.length > 1 ? Arrays.stream(args, 1, args.length).mapToInt(Integer::parseInt).toArray()
            : new int[] {65_536, 262_144, 1_048_576, 4_194_304};
        final boolean trace = System.getenv("RNDV_TRACE") != null;
        if (trace)
        {
            final Thread dump = new Thread(() ->
            {
                try
                {
                    Thread.sleep(40_000);
                }
                catch (final InterruptedException ex)
                {
                    return;
                }
                Thread.getAllStackTraces().forEach((t, st) ->
                {
                    System.err.println("THREAD " + t.getName());
                    for (final StackTraceElement e : st)
                    {
                        System.err.println("    " + e);
                    }
                });
            });
            dump.setDaemon(true);
            dump.start();
        }
        for (final String mode : new String[] {"read", "write", "read", "write"})
        {
            // The transports come from the environment: JMPI_TRANSPORTS=verbs,jvm JMPI_JVM_ISOLATE=true in the VM (rdma-tests.sh
            // rndv-bench); -Djmpi.jvm.memory=remote runs the same over the in-JVM remote memory.
            Ranks.run(2, ThreadLevel.SINGLE, Map.of("jmpi.rdma.rendezvous", mode), (mpi, world) ->
            {
                final int peer = 1 - world.rank();
                for (final int size : sizes)
                {
                    final ByteBuffer out = ByteBuffer.allocateDirect(size);
                    final ByteBuffer in = ByteBuffer.allocateDirect(size);
                    final long[] oneWayNs = new long[iterations];
                    for (int i = -3; i < iterations; i++)
                    {
                        final long start = System.nanoTime();
                        if (world.rank() == 0)
                        {
                            world.send(out, 0, size, Datatype.BYTE, peer, 1);
                            world.recv(in, 0, size, Datatype.BYTE, peer, 2);
                        }
                        else
                        {
                            world.recv(in, 0, size, Datatype.BYTE, peer, 1);
                            world.send(out, 0, size, Datatype.BYTE, peer, 2);
                        }
                        if (trace && i < 3)
                        {
                            System.err.println("rank " + world.rank() + " " + mode + " " + size + " B round " + i + " done");
                        }
                        if (i >= 0)
                        {
                            oneWayNs[i] = (System.nanoTime() - start) / 2;
                        }
                    }
                    if (world.rank() == 0)
                    {
                        Arrays.sort(oneWayNs);
                        System.out.printf("rndv %-5s %8d B: one way mean %9.1f us, p50 %9.1f us, min %9.1f us (%d round trips)%n", mode, size,
                            Arrays.stream(oneWayNs).average().orElse(0) / 1e3, oneWayNs[iterations / 2] / 1e3, oneWayNs[0] / 1e3, iterations);
                    }
                }
            });
        }
    }
}
