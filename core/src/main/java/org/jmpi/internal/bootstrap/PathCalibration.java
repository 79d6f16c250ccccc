package org.jmpi.internal.bootstrap;

import org.jmpi.Datatype;
import org.jmpi.Intracomm;
import org.jmpi.Mpi;
import org.jmpi.ThreadLevel;
import org.jmpi.internal.pt2pt.FrameDescriptor;

import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The two figures of the copy cost model that only a real exchange shows (issue 11, docs/pvas.md "Choosing the
 * path"), measured by {@code jmpirun --calibrate} with two ranks as threads of this JVM:
 * <ol>
 * <li>{@code perFragmentNs}: the staged pipeline's cost per fragment beyond its bytes. A 256 KiB contiguous message
 * ping-pongs staged with 4 KiB fragments and with the largest that the pair's ring carries ({@link #LARGE_FRAGMENT});
 * the difference over the extra fragments. Until session 10 the large ones were 64 KiB, which went through the inbox's
 * side queue in fresh arrays and cost about as much as sixteen small ones: the quiet calibration of session 9 came out
 * at 49 ns per fragment, and the model then staged nearly every scattered message between threads.</li>
 * <li>{@code perRemoteRunNs}: what a short run read out of the peer's buffer costs beyond a local pack of it (the line
 * comes from the other core's cache). Rank 0 sends 8 Ki single doubles, one per 128-byte stride, and receives the
 * reply into the same layout, as an exchange does (so the lines the peer reads next were just written by rank 0's
 * core); rank 1 receives and replies contiguous. Against the same ping-pong with rank 0's layout contiguous; the
 * difference per run, less a local pack and a local unpack of it ({@code 2 * perRunPackNs}, measured by the caller).</li>
 * </ol>
 * Each figure is the minimum over 3 rounds of the mean of a batch of 10 ping-pongs (20 batches after 200 to warm up), the variants alternated; a figure below 0 (noise)
 * is taken as 0.
 *
 * <p>Stateless; any thread (it starts its own rank threads).
 */
final class PathCalibration
{
    static final int STAGED_BYTES = 256 * 1024;
    /**
     * The large fragment: an eighth of the in-JVM transport's default pair ring (64 KiB, {@code jmpi.jvm.ring.size}) less
     * the DATA header, the longest that stays in the ring ({@code Transport#fastFrameLength}).
     */
    static final int LARGE_FRAGMENT = 64 * 1024 / 8 - FrameDescriptor.DATA_HEADER_LENGTH;
    static final int REMOTE_RUNS = 8192;
    /** Doubles between two runs of the strided layout: 128 bytes, so every run lies on cache lines of its own. */
    static final int REMOTE_STRIDE = 16;
    private static final int ROUNDS = 3;
    /** Ping-pongs per timed batch: short, so that on a busy machine some batch runs undisturbed. */
    private static final int BATCH = 10;
    private static final int BATCHES = 20;
    private static final int WARMUP = 200;
    private static final long TIMEOUT_NS = TimeUnit.SECONDS.toNanos(60);

    private PathCalibration()
    {
    }

    /** ns per staged fragment beyond its bytes. */
    static double perFragmentNs()
    {
        long small = Long.MAX_VALUE;
        long large = Long.MAX_VALUE;
        final Datatype bytes = Datatype.BYTE;
        for (int round = 0; round < ROUNDS; round++)
        {
            small = Math.min(small, pingPong(staged("4k"), new byte[STAGED_BYTES], bytes, STAGED_BYTES, new byte[STAGED_BYTES], bytes, STAGED_BYTES));
            large = Math.min(large, pingPong(staged(Integer.toString(LARGE_FRAGMENT)), new byte[STAGED_BYTES], bytes, STAGED_BYTES,
                new byte[STAGED_BYTES], bytes, STAGED_BYTES));
        }
        final long extraFragments = 2L * (STAGED_BYTES / 4096 - (STAGED_BYTES + LARGE_FRAGMENT - 1) / LARGE_FRAGMENT);
        return Math.max(0, (double)(small - large) / extraFragments);
    }

    /** ns per short run read from the peer's buffer, beyond {@code localPackNsPerRun} (a local pack's cost per run). */
    static double perRemoteRunNs(final double localPackNsPerRun)
    {
        final Datatype strided = Datatype.vector(REMOTE_RUNS, 1, REMOTE_STRIDE, Datatype.DOUBLE).commit();
        final Map<String, String> direct = Map.of("jmpi.pvas.mode", "direct", "jmpi.eager.limit", "0");
        long scattered = Long.MAX_VALUE;
        long contiguous = Long.MAX_VALUE;
        for (int round = 0; round < ROUNDS; round++)
        {
            scattered = Math.min(scattered, pingPong(direct, new double[REMOTE_RUNS * REMOTE_STRIDE], strided, 1,
                new double[REMOTE_RUNS], Datatype.DOUBLE, REMOTE_RUNS));
            contiguous = Math.min(contiguous, pingPong(direct, new double[REMOTE_RUNS], Datatype.DOUBLE, REMOTE_RUNS,
                new double[REMOTE_RUNS], Datatype.DOUBLE, REMOTE_RUNS));
        }
        // Rank 1's side is contiguous in both variants; rank 0's strided layout is read remotely once and unpacked locally once.
        return Math.max(0, (double)(scattered - contiguous) / REMOTE_RUNS - 2 * localPackNsPerRun);
    }

    private static Object fresh(final Object array)
    {
        return array instanceof byte[] b ? b.clone() : ((double[])array).clone();
    }

    private static Map<String, String> staged(final String fragment)
    {
        return Map.of("jmpi.pvas.mode", "staged", "jmpi.eager.limit", "0", "jmpi.fragment.size", fragment);
    }

    /**
     * ns per ping-pong (the least mean of a batch of {@code BATCH}, after {@code WARMUP}): rank 0 sends {@code sendCount}
     * of {@code sendType} from {@code send} and receives the reply into the same layout; rank 1 receives {@code recvCount}
     * of {@code recvType} into {@code recv} and answers from it.
     */
    private static long pingPong(final Map<String, String> params, final Object send, final Datatype sendType, final int sendCount,
        final Object recv, final Datatype recvType, final int recvCount)
    {
        final AtomicLong best = new AtomicLong(Long.MAX_VALUE);
        final LocalJob job = LocalJob.create(2, params);
        final LocalJob.Outcome outcome = job.run(rank ->
        {
            // Each rank its own arrays, so the copies cross from one core's cache to the other's.
            final Object out = rank == 0 ? fresh(send) : null;
            final Object in = rank == 1 ? fresh(recv) : null;
            try (Mpi mpi = Mpi.init(new String[0], ThreadLevel.SINGLE))
            {
                final Intracomm world = mpi.world();
                for (int batch = 0; batch <= BATCHES; batch++)
                {
                    final int rounds = batch == 0 ? WARMUP : BATCH;
                    final long t0 = System.nanoTime();
                    for (int i = 0; i < rounds; i++)
                    {
                        if (rank == 0)
                        {
                            world.send(out, 0, sendCount, sendType, 1, 1);
                            world.recv(out, 0, sendCount, sendType, 1, 2);
                        }
                        else
                        {
                            world.recv(in, 0, recvCount, recvType, 0, 1);
                            world.send(in, 0, recvCount, recvType, 0, 2);
                        }
                    }
                    final long perPingPong = (System.nanoTime() - t0) / rounds;
                    if (rank == 0 && batch > 0)
                    {
                        best.accumulateAndGet(perPingPong, Math::min);
                    }
                }
            }
        }, TIMEOUT_NS);
        final LocalJob.RankOutcome failed = outcome.firstFailure();
        if (failed != null)
        {
            throw new IllegalStateException("calibration ping-pong failed on rank " + failed.rank() +
                (failed.timedOut() ? ": timed out" : ""), failed.failure());
        }
        return best.get();
    }
}
