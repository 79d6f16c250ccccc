package org.jmpi.examples;

import org.jmpi.Comm;
import org.jmpi.Datatype;
import org.jmpi.Mpi;
import org.jmpi.Status;

/**
 * The demo: a token passed around a ring of all ranks, then a ping-pong between ranks 0 and 1 over a
 * few sizes. The ping-pong times are indicative only (short runs, freshly started JVMs, and the other
 * ranks share the cores); bench/ measures latency properly. Run with {@code bin/jmpirun -np 4 -cp examples/target/classes org.jmpi.examples.Demo}.
 * Exits with 1 if any value arrives wrong.
 */
public final class Demo
{
    private Demo()
    {
    }

    public static void main(final String[] args)
    {
        try (Mpi mpi = Mpi.init(args))
        {
            final Comm world = mpi.world();
            final int rank = world.rank();
            final int size = world.size();
            System.out.println("rank " + rank + " of " + size + " on " + mpi.processorName());

            // 1. Ring: rank 0 starts a token at 0, each rank adds its rank and passes it on.
            final long[] token = new long[1];
            if (rank == 0)
            {
                world.send(token, 0, 1, Datatype.LONG, 1 % size, 0);
                final Status st = world.recv(token, 0, 1, Datatype.LONG, (size - 1) % size, 0);
                final long expected = (long)size * (size - 1) / 2;
                check(token[0] == expected, "ring token " + token[0] + " != " + expected);
                System.out.println("ring: token came back from rank " + st.source() + " with sum " + token[0] + " (ok)");
            }
            else
            {
                world.recv(token, 0, 1, Datatype.LONG, rank - 1, 0);
                token[0] += rank;
                world.send(token, 0, 1, Datatype.LONG, (rank + 1) % size, 0);
            }
            world.barrier();

            // 2. Ping-pong between ranks 0 and 1: eager and rendezvous sizes.
            if (size >= 2 && rank < 2)
            {
                final int peer = 1 - rank;
                for (final int bytes : new int[] {8, 4096, 65536, 1 << 20})
                {
                    final byte[] buf = new byte[bytes];
                    final int iterations = bytes >= (1 << 20) ? 50 : 2000;
                    final int warmup = iterations / 2;
                    double start = 0;
                    for (int i = 0; i < warmup + iterations; i++)
                    {
                        if (i == warmup)
                        {
                            start = Mpi.wtime();
                        }
                        if (rank == 0)
                        {
                            buf[bytes - 1] = (byte)i;
                            world.send(buf, 0, bytes, Datatype.BYTE, peer, 1);
                            world.recv(buf, 0, bytes, Datatype.BYTE, peer, 1);
                            check(buf[bytes - 1] == (byte)(i + 1), "pong " + i + " carried " + buf[bytes - 1]);
                        }
                        else
                        {
                            world.recv(buf, 0, bytes, Datatype.BYTE, peer, 1);
                            buf[bytes - 1]++;
                            world.send(buf, 0, bytes, Datatype.BYTE, peer, 1);
                        }
                    }
                    if (rank == 0)
                    {
                        final double oneWayUs = (Mpi.wtime() - start) / (2.0 * iterations) * 1e6;
                        System.out.printf("ping-pong %8d bytes: %10.2f us one-way, mean of %d after %d warm-up (ok)%n",
                            bytes, oneWayUs, iterations, warmup);
                    }
                }
            }
            world.barrier();
            if (rank == 0)
            {
                System.out.println("demo done");
            }
        }
    }

    static void check(final boolean condition, final String message)
    {
        if (!condition)
        {
            System.err.println("demo: wrong result: " + message);
            System.exit(1);
        }
    }
}
