package org.jmpi.examples;

import org.jmpi.Datatype;
import org.jmpi.Intracomm;
import org.jmpi.Mpi;

import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * A rough one-way latency of a large message between ranks 0 and 1 with the buffers on the heap, in
 * {@code mpi.allocMem} memory on both sides, or on one side (docs/pvas.md, "Bench harness note"): a ping-pong, half
 * the round trip, p50 and mean over the iterations, per mode. Not a benchmark (no JMH, no C baseline): it shows
 * the paths work end to end and gives indicative figures.
 * <p>
 * {@code bin/jmpirun -np 2 --param pvas.partition.size=64m -cp examples/target/classes org.jmpi.examples.ArenaLatency [bytes] [iterations]}
 */
public final class ArenaLatency
{
    private ArenaLatency()
    {
    }

    public static void main(final String[] args)
    {
        final int bytes = args.length > 0 ? Integer.parseInt(args[0]) : 4 << 20;
        final int iterations = args.length > 1 ? Integer.parseInt(args[1]) : 50;
        try (Mpi mpi = Mpi.init(args))
        {
            final Intracomm world = mpi.world();
            if (world.size() < 2)
            {
                throw new IllegalStateException("needs 2 ranks");
            }
            final ByteBuffer arena = mpi.allocMem(bytes);
            final ByteBuffer heap = ByteBuffer.allocate(bytes);
            // mode: which buffer rank 0 and rank 1 use
            final String[] modes = {"heap-heap", "arena-arena", "heap-arena", "arena-heap"};
            for (final String mode : modes)
            {
                final boolean zeroArena = mode.startsWith("arena");
                final boolean oneArena = mode.endsWith("arena");
                final ByteBuffer mine = world.rank() == 0 ? (zeroArena ? arena : heap) : (oneArena ? arena : heap);
                final double[] oneWayUs = new double[iterations];
                for (int i = -10; i < iterations; i++)
                {
                    world.barrier();
                    final long start = System.nanoTime();
                    if (world.rank() == 0)
                    {
                        world.send(mine, 0, bytes, Datatype.BYTE, 1, 1);
                        world.recv(mine, 0, bytes, Datatype.BYTE, 1, 2);
                    }
                    else if (world.rank() == 1)
                    {
                        world.recv(mine, 0, bytes, Datatype.BYTE, 0, 1);
                        world.send(mine, 0, bytes, Datatype.BYTE, 0, 2);
                    }
                    if (i >= 0)
                    {
                        oneWayUs[i] = (System.nanoTime() - start) / 2e3;
                    }
                }
                if (world.rank() == 0)
                {
                    Arrays.sort(oneWayUs);
                    System.out.printf("latency: %s %d bytes: p50 %.0f us, mean %.0f us, min %.0f us (%d iterations)%n", mode, bytes,
                        oneWayUs[iterations / 2], Arrays.stream(oneWayUs).average().orElse(0), oneWayUs[0], iterations);
                }
            }
            mpi.freeMem(arena);
        }
    }
}
