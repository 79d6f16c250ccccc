package org.jmpi.bench;

import org.jmpi.Datatype;
import org.jmpi.Intracomm;
import org.jmpi.Mpi;

import mpi.MPI;
import mpi.MPIException;

/**
 * The time jmpi-compat adds to a call, without the transport in the way: a send to PROC_NULL (argument checks,
 * the call itself, completion) through core and through compat, alternated in rounds (A B A B ...) in one JVM
 * of one rank, so that both see the same machine state. Prints ns per call for each round and the median
 * difference; a ping-pong's one-way latency divided into it gives the layer's share.
 * Usage: {@code java -cp bench/target/classes:compat/target/classes:... org.jmpi.bench.CompatOverhead [rounds] [callsPerRound]}
 */
public final class CompatOverhead
{
    private CompatOverhead()
    {
    }

    public static void main(final String[] args) throws MPIException
    {
        final int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 10;
        final int calls = args.length > 1 ? Integer.parseInt(args[1]) : 2_000_000;
        MPI.Init(args);
        final Intracomm core = Mpi.current().world();
        final byte[] buf = new byte[8];
        final double[] coreNs = new double[rounds];
        final double[] compatNs = new double[rounds];
        for (int r = -2; r < rounds; r++)
        {
            long t0 = System.nanoTime();
            for (int i = 0; i < calls; i++)
            {
                core.send(buf, 0, 8, Datatype.BYTE, Intracomm.PROC_NULL, 1);
            }
            final double a = (System.nanoTime() - t0) / (double)calls;
            t0 = System.nanoTime();
            for (int i = 0; i < calls; i++)
            {
                MPI.COMM_WORLD.send(buf, 8, MPI.BYTE, MPI.PROC_NULL, 1);
            }
            final double b = (System.nanoTime() - t0) / (double)calls;
            if (r >= 0)
            {
                coreNs[r] = a;
                compatNs[r] = b;
                System.out.printf("round %d: core %.1f ns, compat %.1f ns per send to PROC_NULL%n", r, a, b);
            }
        }
        final double[] diff = new double[rounds];
        for (int r = 0; r < rounds; r++)
        {
            diff[r] = compatNs[r] - coreNs[r];
        }
        java.util.Arrays.sort(diff);
        java.util.Arrays.sort(coreNs);
        System.out.printf("median core %.1f ns, median added by compat %.1f ns per call%n", coreNs[rounds / 2], diff[rounds / 2]);
        MPI.Finalize();
    }
}
