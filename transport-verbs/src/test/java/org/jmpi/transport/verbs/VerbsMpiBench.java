package org.jmpi.transport.verbs;

import org.jmpi.Datatype;
import org.jmpi.Ranks;
import org.jmpi.Request;
import org.jmpi.ThreadLevel;

import jdk.jfr.Configuration;
import jdk.jfr.Recording;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.text.ParseException;
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
 * the timed windows / their time (MB = 2^20 bytes, as perftest's MB/sec), after one warm-up window;</li>
 * <li>strided bandwidth: the same windows of 1 MiB sent as 256 runs of 4 KiB (every other 4 KiB of 2 MiB) into a
 * contiguous receive, by scatter-gather lists and, in a second job with {@code jmpi.rdma.sge.min} past any run, packed
 * through fragments (not with {@code -Dverbs.bench.contiguous=true}).</li>
 * </ul>
 * {@code java ... VerbsMpiBench [round trips] [windows] [sizes...]}. Prints lines starting {@code mpi lat} and
 * {@code mpi bw} that rdma-tests.sh reads. {@code -Dverbs.bench.warmup=N}: warm-up round trips (default a tenth of the
 * timed ones); the timed latency loop is framed by the lines {@code mpi lat timed phase begins/ends at N ms} on stdout
 * (with {@code -XX:+PrintCompilation} the compilations stamped between them are the JIT working during the
 * measurement), and with
 * {@code -Dverbs.bench.jfr=FILE} a JFR recording (profile settings) of only that loop is written to FILE.
 */
public final class VerbsMpiBench
{
    private static final int WINDOW = 16;
    /**
     * A job's time limit: generous, as emulation on a loaded host is slow (session 10: with Ranks' 60 s the first job
     * ran out of time at load 26, its rank 0 still in init).
     */
    private static final int JOB_SECONDS = 1800;
    /** The strided case: 1 MiB in runs of 4 KiB. */
    private static final int STRIDED_BYTES = 1 << 20;
    private static final int STRIDED_RUN = 4096;

    private VerbsMpiBench()
    {
    }

    public static void main(final String[] args)
    {
        final int roundTrips = args.length > 0 ? Integer.parseInt(args[0]) : 2000;
        final int windows = args.length > 1 ? Integer.parseInt(args[1]) : 4;
        final int[] sizes = args.length > 2 ? Arrays.stream(args, 2, args.length).mapToInt(Integer::parseInt).toArray()
            : new int[] {65_536, 1_048_576, 4_194_304};
        Ranks.run(2, ThreadLevel.SINGLE, Map.of(), JOB_SECONDS, (mpi, world) ->
        {
            final int peer = 1 - world.rank();
            final ByteBuffer small = ByteBuffer.allocateDirect(8);
            final int warmUp = Integer.getInteger("verbs.bench.warmup", Math.max(1, roundTrips / 10));
            final long[] oneWayNs = new long[roundTrips];
            final LatencyPhase phase = world.rank() == 0 ? new LatencyPhase(System.getProperty("verbs.bench.jfr", "")) : null;
            for (int i = -warmUp; i < roundTrips; i++)
            {
                if (i == 0 && phase != null)
                {
                    phase.begin();
                }
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
                phase.end();
                Arrays.sort(oneWayNs);
                System.out.printf("mpi lat 8 B: one way mean %.2f us, p50 %.2f, p90 %.2f, p99 %.2f, min %.2f (%d round trips)%n",
                    Arrays.stream(oneWayNs).average().orElse(0) / 1e3, oneWayNs[roundTrips / 2] / 1e3,
                    oneWayNs[(int)(roundTrips * 0.9)] / 1e3, oneWayNs[(int)(roundTrips * 0.99)] / 1e3, oneWayNs[0] / 1e3, roundTrips);
            }
            for (final int size : sizes)
            {
                final double mbs = bandwidth(world, ByteBuffer.allocateDirect(size), size, Datatype.BYTE, windows);
                if (world.rank() == 0)
                {
                    System.out.printf("mpi bw %d B: %.2f MB/s (%d windows of %d)%n", size, mbs, windows, WINDOW);
                }
            }
        });
        // A strided send (runs of STRIDED_RUN bytes, every other one) into a contiguous receive: by scatter-gather lists
        // (jmpi.rdma.sge.min at its default), then packed through fragments (lists off), a job each.
        for (final String[] way : Boolean.getBoolean("verbs.bench.contiguous") ? new String[0][] : new String[][] {{"lists", "1024"}, {"packed", "1024g"}})
        {
            Ranks.run(2, ThreadLevel.SINGLE, Map.of("jmpi.rdma.sge.min", way[1]), JOB_SECONDS, (mpi, world) ->
            {
                final int size = STRIDED_BYTES;
                final Datatype strided = Datatype.vector(size / STRIDED_RUN, STRIDED_RUN, 2 * STRIDED_RUN, Datatype.BYTE).commit();
                final double mbs = world.rank() == 0 ? bandwidth(world, ByteBuffer.allocateDirect(2 * size), 1, strided, windows)
                    : bandwidth(world, ByteBuffer.allocateDirect(size), size, Datatype.BYTE, windows);
                if (world.rank() == 0)
                {
                    System.out.printf("mpi strided bw %d B %s: %.2f MB/s (runs of %d B, %d windows of %d)%n", size, way[0], mbs, STRIDED_RUN,
                        windows, WINDOW);
                }
            });
        }
    }

    /**
     * osu_bw: windows of {@link #WINDOW} {@code isend}s of {@code count} {@code type} from rank 0 (received as the same
     * number of bytes by rank 1's {@code irecv}s of its own layout), each answered by 4 bytes; MB/s (2^20) of the timed windows.
     */
    private static double bandwidth(final org.jmpi.Intracomm world, final ByteBuffer buffer, final int count, final Datatype type, final int windows)
    {
        final int peer = 1 - world.rank();
        final ByteBuffer ack = ByteBuffer.allocateDirect(4);
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
                window[i] = world.rank() == 0 ? world.isend(buffer, 0, count, type, peer, 2) : world.irecv(buffer, 0, count, type, peer, 2);
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
        return (double)type.size() * count * WINDOW * windows / ((System.nanoTime() - start) / 1e9) / (1 << 20);
    }

    /**
     * A line {@code mpi lat timed phase begins|ends at N ms}, N the JVM's uptime: the time base of
     * {@code -XX:+PrintCompilation}'s first column, whose lines may land in the middle of this one on a shared stdout.
     */
    private static void marker(final String what)
    {
        System.out.println("mpi lat timed phase " + what + " at " + ManagementFactory.getRuntimeMXBean().getUptime() + " ms");
        System.out.flush();
    }

    /** The timed latency loop's frame: marker lines, and a JFR recording of only that loop when a file is named. */
    private static final class LatencyPhase
    {
        private final String jfrFile;
        private Recording recording;

        LatencyPhase(final String jfrFile)
        {
            this.jfrFile = jfrFile;
        }

        /** The recording first (JFR compiles its own code as it starts), then the marker. */
        void begin()
        {
            if (!jfrFile.isEmpty())
            {
                try
                {
                    recording = new Recording(Configuration.getConfiguration("profile"));
                }
                catch (final IOException | ParseException ex)
                {
                    throw new IllegalStateException("no JFR profile configuration", ex);
                }
                recording.start();
            }
            marker("begins");
        }

        void end()
        {
            marker("ends");
            if (recording != null)
            {
                recording.stop();
                try
                {
                    recording.dump(Path.of(jfrFile));
                }
                catch (final IOException ex)
                {
                    throw new UncheckedIOException(ex);
                }
                recording.close();
            }
        }
    }
}
