package org.jmpi.bench;

import org.jmpi.Comm;

/**
 * The warm-up every point-to-point harness runs before its first timed size, so the timed loops measure
 * compiled code rather than the JIT at work: {@code roundTrips} ping-pongs between ranks 0 and 1
 * cycling through sizes that take the eager path (8 B to 4 KiB) and the rendezvous path (32 KiB), each
 * capped at the buffer's length. The issue measured a 128-double halo exchange at interpreter speed for
 * its first 20,000 exchanges and warm after about 40,000 (2 JVMs, JDK 25). On the shared 2-vCPU machine at
 * load 14-16 (2026-11-25, docs/performance.md) 100,000 were not enough: 1-8 B ping-pongs right after
 * them had a p50 of 6-290 µs, after 400,000 of 0.5 µs; hence the default of 400,000.
 * The C twins in bench/c run the same loop, so both sides follow one method. Ranks beyond 1 do nothing.
 */
public final class JitWarmup
{
    /** The default number of warm-up round trips ({@code --jit-warmup N} overrides it). */
    public static final int DEFAULT_ROUND_TRIPS = 400_000;

    private static final int[] SIZES = {8, 64, 512, 4096, 32768};
    private static final int TAG = 99;

    private JitWarmup()
    {
    }

    /** Runs the warm-up on {@code world} with {@code buf} ({@code byte[]} or a ByteBuffer of {@code bufBytes}). */
    public static void run(final Comm world, final Object buf, final int bufBytes, final int roundTrips)
    {
        for (int i = 0; i < roundTrips && world.rank() < 2; i++)
        {
            PingPong.roundTrip(world, buf, Math.min(SIZES[i % SIZES.length], bufBytes), TAG);
        }
        world.barrier();
    }
}
