package org.jmpi.bench;

import org.jmpi.Comm;
import org.jmpi.Datatype;
import org.jmpi.Mpi;
import org.jmpi.Op;
import org.jmpi.Request;

import org.HdrHistogram.Histogram;

import java.nio.ByteBuffer;
import java.util.Locale;

/**
 * Windowed bandwidth and message rate, the methods of OSU's osu_bw, osu_bibw and osu_mbw_mr:
 * <ol>
 * <li>{@code bw}: rank 0 posts a window of {@code isend}s to rank 1, which has posted as many
 *     {@code irecv}s; both wait for all, then rank 1 sends a 4-byte acknowledgement. Bandwidth = bytes
 *     of all windows / time on rank 0.</li>
 * <li>{@code bibw}: both ranks post a window of {@code irecv}s and one of {@code isend}s and wait for
 *     all; twice the bytes.</li>
 * <li>{@code mbw_mr}: ranks {@code i < n/2} send windows to {@code i + n/2} as in {@code bw}; the rate
 *     is pairs x messages / the senders' mean time (osu_mbw_mr's formula).</li>
 * </ol>
 * Per size a warm-up of {@code skip} windows, then {@code iterations} timed ones (1,000 and 100 up to
 * 8 KiB, 100 and 10 above: more than OSU's 100/10, because a noisy machine needs them), window 64. Before
 * the first size, {@code --jit-warmup} windows (default 6,000, about 400,000 messages, as many as the
 * ping-pong's warm-up; docs/performance.md's run had 2,000, and its sizes below 128 B ran slow with 6,000 too) of
 * 8 B and 4 KiB alternately run the same code so the timed loops are compiled. Every window's time on rank 0 goes into an HdrHistogram; the
 * percentile columns are that time divided by the window (µs per message, {@link Percentiles}).
 * <pre>
 * # jmpi bw (window 64, byte[], 2 ranks)
 * # Size       Bandwidth (MB/s)   Messages/s    p50 (us)    p90 (us)    p99 (us)  p99.9 (us)    max (us)
 * 8                       21.10      2637500        0.37        ...
 * </pre>
 * Usage: {@code bin/jmpirun -np 2 -cp 'bench/target/classes:bench/target/lib/*' org.jmpi.bench.OsuBandwidth
 * [bw|bibw|mbw_mr] [maxBytes] [--window N] [--iterations N] [--jit-warmup N] [--direct]}.
 */
public final class OsuBandwidth
{
    private static final int LARGE_SIZE = 8192;
    private static final int DATA_TAG = 100;
    private static final int ACK_TAG = 101;
    private static final int ACK_BYTES = 4;

    /** Which of the three OSU methods. */
    enum Mode
    {
        BW, BIBW, MBW_MR;

        static Mode parse(final String text)
        {
            return switch (text)
            {
                case "bw" -> BW;
                case "bibw" -> BIBW;
                case "mbw_mr" -> MBW_MR;
                default -> throw new IllegalArgumentException("mode must be bw, bibw or mbw_mr, got '" + text + "'");
            };
        }
    }

    private final Comm world;
    private final Mode mode;
    private final int window;
    private final Object sendBuf;
    private final Object recvBuf;
    private final Object ackBuf = new byte[ACK_BYTES];
    private final Request[] requests;
    private final int peer;
    private final boolean sender;
    private final boolean active;

    private OsuBandwidth(final Comm world, final Mode mode, final int window, final int maxBytes, final boolean direct)
    {
        this.world = world;
        this.mode = mode;
        this.window = window;
        final int bytes = Math.max(1, maxBytes);
        // bibw receives a whole window at once: one buffer region per outstanding receive would be what a
        // real code does, but OSU reuses one buffer for the window, and so do we (the C twin too).
        this.sendBuf = direct ? ByteBuffer.allocateDirect(bytes) : new byte[bytes];
        this.recvBuf = direct ? ByteBuffer.allocateDirect(bytes) : new byte[bytes];
        this.requests = new Request[mode == Mode.BIBW ? 2 * window : window];
        final int rank = world.rank();
        final int pairs = mode == Mode.MBW_MR ? world.size() / 2 : 1;
        this.active = rank < 2 * pairs;
        this.sender = rank < pairs;
        this.peer = sender ? rank + pairs : rank - pairs;
    }

    public static void main(final String[] args)
    {
        final BenchArgs parsed = BenchArgs.parse(args, "--window", "--iterations", "--jit-warmup");
        final Mode mode = Mode.parse(parsed.positionalCount() > 0 ? parsed.positional(0) : "bw");
        final int maxBytes = parsed.positionalInt(1, 4 << 20);
        final int window = parsed.intOption("--window", 64);
        final int iterations = parsed.intOption("--iterations", 1000);
        final int jitWarmup = parsed.intOption("--jit-warmup", 6000);
        final boolean direct = parsed.flag("--direct");
        try (Mpi mpi = Mpi.init(args))
        {
            final Comm world = mpi.world();
            if (world.size() < 2)
            {
                throw new IllegalStateException("OsuBandwidth needs at least 2 ranks");
            }
            final OsuBandwidth bench = new OsuBandwidth(world, mode, window, maxBytes, direct);
            if (world.rank() == 0)
            {
                System.out.printf("# jmpi %s (window %d, %s, %d ranks)%n", mode.name().toLowerCase(Locale.ROOT), window,
                    direct ? "direct ByteBuffer" : "byte[]", world.size());
                System.out.printf("# %-10s %18s %12s %s%n", "Size", "Bandwidth (MB/s)", "Messages/s", Percentiles.HEADER);
            }
            for (int i = 0; i < jitWarmup; i++)
            {
                bench.window(Math.min(i % 2 == 0 ? 8 : 4096, Math.max(1, maxBytes)));
            }
            world.barrier();
            final Histogram windows = Percentiles.newHistogram();
            for (int size = 1; size <= maxBytes; size *= 2)
            {
                final boolean large = size > LARGE_SIZE;
                final int loop = large ? Math.max(1, iterations / 10) : iterations;
                final int skip = Math.max(1, loop / 10);
                bench.measure(size, loop, skip, windows);
            }
        }
    }

    /** Times {@code loop} windows of {@code size} after {@code skip} untimed ones and prints a row on rank 0. */
    private void measure(final int size, final int loop, final int skip, final Histogram windows)
    {
        windows.reset();
        world.barrier();
        long start = 0;
        long last = 0;
        for (int i = 0; i < loop + skip; i++)
        {
            if (i == skip)
            {
                start = System.nanoTime();
                last = start;
            }
            window(size);
            if (i >= skip)
            {
                final long now = System.nanoTime();
                windows.recordValue(now - last);
                last = now;
            }
        }
        final double seconds = active && (sender || mode == Mode.BIBW) ? (System.nanoTime() - start) * 1e-9 : 0;
        final double[] secondsSum = {seconds};
        final double[] total = new double[1];
        world.allreduce(secondsSum, 0, total, 0, 1, Datatype.DOUBLE, Op.SUM);
        if (world.rank() == 0)
        {
            final int pairs = mode == Mode.MBW_MR ? world.size() / 2 : 1;
            final double meanSeconds = mode == Mode.BIBW ? seconds : total[0] / pairs;
            final double messages = (double)pairs * loop * window * (mode == Mode.BIBW ? 2 : 1);
            final double rate = messages / meanSeconds;
            System.out.printf(Locale.ROOT, "%-12d %18.2f %12.0f %s%n", size, rate * size / 1e6, rate,
                Percentiles.columns(windows, window));
        }
    }

    /** One window of {@code size}-byte messages, as this rank's role in the mode asks. */
    private void window(final int size)
    {
        if (!active)
        {
            return;
        }
        if (mode == Mode.BIBW)
        {
            for (int j = 0; j < window; j++)
            {
                requests[j] = world.irecv(recvBuf, 0, size, Datatype.BYTE, peer, DATA_TAG);
            }
            for (int j = 0; j < window; j++)
            {
                requests[window + j] = world.isend(sendBuf, 0, size, Datatype.BYTE, peer, DATA_TAG);
            }
            Request.waitAll(requests);
        }
        else if (sender)
        {
            for (int j = 0; j < window; j++)
            {
                requests[j] = world.isend(sendBuf, 0, size, Datatype.BYTE, peer, DATA_TAG);
            }
            Request.waitAll(requests);
            world.recv(ackBuf, 0, ACK_BYTES, Datatype.BYTE, peer, ACK_TAG);
        }
        else
        {
            for (int j = 0; j < window; j++)
            {
                requests[j] = world.irecv(recvBuf, 0, size, Datatype.BYTE, peer, DATA_TAG);
            }
            Request.waitAll(requests);
            world.send(ackBuf, 0, ACK_BYTES, Datatype.BYTE, peer, ACK_TAG);
        }
    }
}
