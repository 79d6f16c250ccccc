package org.jmpi.transport.verbs;

import org.jmpi.Datatype;
import org.jmpi.Intracomm;
import org.jmpi.Mpi;
import org.jmpi.Op;
import org.jmpi.Request;
import org.jmpi.internal.coll.PersistentCollRequest;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Locale;

/**
 * The persistent bcast of core's collectives between JVMs over verbs, as a jmpirun job ({@code rdma-tests.sh
 * putget-choice}): under {@code jmpi.coll.persistent.schedule} put, get or auto (auto with
 * {@code jmpi.coll.persistent.calibration.remote} naming the calibration {@code PutGetBcastBench} wrote on the device),
 * so that the schedule auto picks can be set beside the measured put and get.
 * <ol>
 * <li>Per size (args, default 8 B, 64 KiB, 1 MiB), a bcast of an {@code allocMem} buffer from rank 0 is initialised
 * once and started {@code jmpi.bench.starts} times (warm-up: as many), checked at the last start.</li>
 * <li>Then 5 batches: a barrier, K starts each waited for, the time per start; the slowest rank's (MAX) is the
 * batch's.</li>
 * <li>Rank 0 prints {@code persistent bcast P=.. N B schedule=..: median .. us [min, max]} (the schedule the request
 * runs: put, get or p2p).</li>
 * </ol>
 */
public final class VerbsPersistentBcastJob
{
    private static final int BATCHES = 5;

    private VerbsPersistentBcastJob()
    {
    }

    public static void main(final String[] args)
    {
        final int[] sizes = args.length > 0 ? Arrays.stream(args).mapToInt(Integer::parseInt).toArray() : new int[] {8, 65_536, 1_048_576};
        try (Mpi mpi = Mpi.init(new String[0]))
        {
            final Intracomm world = mpi.world();
            final int starts = Integer.getInteger("jmpi.bench.starts", 20);
            for (final int bytes : sizes)
            {
                final ByteBuffer block = mpi.allocMem(bytes);
                final Request bcast = world.bcastInit(block, 0, bytes, Datatype.BYTE, 0);
                final String schedule = bcast instanceof PersistentCollRequest p ? p.schedule() : "?";
                for (int i = 0; i < starts; i++)
                {
                    block.put(bytes - 1, world.rank() == 0 ? (byte)i : (byte)-1);
                    bcast.start();
                    bcast.await();
                    if (block.get(bytes - 1) != (byte)i)
                    {
                        throw new IllegalStateException("rank " + world.rank() + ": bcast start " + i + " delivered " + block.get(bytes - 1));
                    }
                }
                final double[] perStartUs = new double[BATCHES];
                final double[] mine = new double[1];
                final double[] slowest = new double[1];
                for (int b = 0; b < BATCHES; b++)
                {
                    world.barrier();
                    final long t0 = System.nanoTime();
                    for (int i = 0; i < starts; i++)
                    {
                        bcast.start();
                        bcast.await();
                    }
                    mine[0] = (System.nanoTime() - t0) / 1e3 / starts;
                    world.allreduce(mine, 0, slowest, 0, 1, Datatype.DOUBLE, Op.MAX);
                    perStartUs[b] = slowest[0];
                }
                bcast.free();
                mpi.freeMem(block);
                Arrays.sort(perStartUs);
                if (world.rank() == 0)
                {
                    System.out.printf(Locale.ROOT, "persistent bcast P=%d %d B schedule=%s: median %.1f us [%.1f, %.1f]%n", world.size(), bytes,
                        schedule, perStartUs[BATCHES / 2], perStartUs[0], perStartUs[BATCHES - 1]);
                }
            }
        }
    }
}
