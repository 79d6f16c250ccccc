package org.jmpi.bench.threads;

import org.jmpi.Comm;
import org.jmpi.Datatype;
import org.jmpi.Mpi;
import org.jmpi.Request;
import org.jmpi.ThreadLevel;
import org.jmpi.bench.BenchArgs;
import org.jmpi.bench.Percentiles;
import org.jmpi.bench.PingPong;

import org.HdrHistogram.Histogram;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CountDownLatch;

/**
 * Concurrent latency, the first measurement of the MPI+threads offloading evaluation (issue 12, item
 * 6; docs/threads.md): N conversations per rank at once, each a ping-pong between ranks 0 and 1 on its
 * own tag, carried three ways:
 * <ul>
 * <li>{@code virtual}: N virtual threads per rank under {@link ThreadLevel#MULTIPLE}, each with blocking
 *     send and recv (the caller parks; the progress thread drives the engine and unparks it);</li>
 * <li>{@code platform}: the same with N platform threads;</li>
 * <li>{@code single}: one thread per rank under {@link ThreadLevel#SINGLE} carrying all N conversations
 *     with nonblocking calls: N irecv and N isend, then wait for all (rank 1 first receives all, then
 *     answers all). A round of it is one round trip of each conversation.</li>
 * </ul>
 * For each N, about {@code --round-trips} round trips in all ({@code max(10, total / N)} per
 * conversation) after the threads are started and lined up, so thread creation is not timed. Printed on
 * rank 0: the aggregate rate (round trips per second, all conversations) and the one-way latency of single
 * round trips (half a round trip; in {@code single}, every conversation of a round is counted with that
 * round's time) as {@link Percentiles}. Before the first N, {@code --jit-warmup} round trips (default
 * 50,000) run the same code untimed with 8 conversations.
 * <pre>
 * # jmpi concurrent latency: virtual, 8 B, 2 ranks
 * # Threads  Round trips  Round trips/s    p50 (us)    p90 (us)    p99 (us)  p99.9 (us)    max (us)
 * 1                20000         180000        2.61        ...
 * </pre>
 * Usage: {@code bin/jmpirun -np 2 -cp 'bench/target/classes:bench/target/lib/*'
 * org.jmpi.bench.threads.ConcurrentLatency virtual|platform|single [--threads 1,2,4,...] [--size 8]
 * [--round-trips 20000] [--jit-warmup 50000]}. Ranks beyond 1 only join the barriers.
 */
public final class ConcurrentLatency
{
    private static final int TAG_BASE = 1000;
    private static final int MIN_PER_CONVERSATION = 10;

    private final Comm world;
    private final String mode;
    private final int size;

    private ConcurrentLatency(final Comm world, final String mode, final int size)
    {
        this.world = world;
        this.mode = mode;
        this.size = size;
    }

    public static void main(final String[] args) throws InterruptedException
    {
        final BenchArgs parsed = BenchArgs.parse(args, "--threads", "--size", "--round-trips", "--jit-warmup");
        final String mode = parsed.positionalCount() > 0 ? parsed.positional(0) : "virtual";
        if (!List.of("virtual", "platform", "single").contains(mode))
        {
            throw new IllegalArgumentException("mode must be virtual, platform or single, got '" + mode + "'");
        }
        final int[] threadCounts = parsed.intListOption("--threads", 1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1000);
        final int size = parsed.intOption("--size", 8);
        final int total = parsed.intOption("--round-trips", 20_000);
        final int jitWarmup = parsed.intOption("--jit-warmup", 50_000);
        final ThreadLevel level = mode.equals("single") ? ThreadLevel.SINGLE : ThreadLevel.MULTIPLE;
        try (Mpi mpi = Mpi.init(args, level))
        {
            final Comm world = mpi.world();
            if (world.size() < 2)
            {
                throw new IllegalStateException("ConcurrentLatency needs 2 ranks");
            }
            final ConcurrentLatency bench = new ConcurrentLatency(world, mode, size);
            if (world.rank() == 0)
            {
                System.out.printf("# jmpi concurrent latency: %s, %d B, %d ranks, thread level %s%n", mode, size, world.size(), level);
                System.out.printf("# %-7s %12s %14s %s%n", "Threads", "Round trips", "Round trips/s", Percentiles.HEADER);
            }
            bench.point(8, Math.max(MIN_PER_CONVERSATION, jitWarmup / 8), false);
            for (final int n : threadCounts)
            {
                bench.point(n, Math.max(MIN_PER_CONVERSATION, total / n), true);
            }
        }
    }

    /** Runs {@code conversations} ping-pongs of {@code perConversation} round trips each; prints a row when {@code print}. */
    private void point(final int conversations, final int perConversation, final boolean print) throws InterruptedException
    {
        final Histogram all = Percentiles.newHistogram();
        world.barrier();
        final long elapsedNs;
        if (world.rank() > 1)
        {
            world.barrier(); // the line-up barrier ranks 0 and 1 make before their first round trip
            elapsedNs = 0;
        }
        else if (mode.equals("single"))
        {
            elapsedNs = multiplexed(conversations, perConversation, all);
        }
        else
        {
            elapsedNs = threaded(conversations, perConversation, all);
        }
        world.barrier();
        if (print && world.rank() == 0)
        {
            final long roundTrips = (long)conversations * perConversation;
            System.out.printf(Locale.ROOT, "%-9d %12d %14.0f %s%n", conversations, roundTrips, roundTrips / (elapsedNs * 1e-9),
                Percentiles.columns(all, 2.0));
        }
    }

    private long threaded(final int conversations, final int perConversation, final Histogram all) throws InterruptedException
    {
        final CountDownLatch ready = new CountDownLatch(conversations);
        final CountDownLatch go = new CountDownLatch(1);
        final Histogram[] histograms = new Histogram[conversations];
        final List<Thread> threads = new ArrayList<>(conversations);
        final Thread.Builder builder = mode.equals("virtual") ? Thread.ofVirtual() : Thread.ofPlatform().daemon();
        final Throwable[] failure = new Throwable[1];
        for (int t = 0; t < conversations; t++)
        {
            final int tag = TAG_BASE + t;
            final Histogram h = Percentiles.newHistogram();
            histograms[t] = h;
            final Thread thread = builder.unstarted(() ->
            {
                final byte[] buf = new byte[Math.max(1, size)];
                ready.countDown();
                awaitQuietly(go);
                pingPong(buf, tag, perConversation, h);
            });
            thread.setUncaughtExceptionHandler((th, ex) ->
            {
                synchronized (failure)
                {
                    failure[0] = ex;
                }
            });
            threads.add(thread);
            thread.start();
        }
        ready.await();
        // Both ranks' conversations are lined up before either starts: a barrier from the main thread
        // (MULTIPLE allows it while the other threads wait on the latch).
        world.barrier();
        final long start = System.nanoTime();
        go.countDown();
        for (final Thread thread : threads)
        {
            thread.join();
        }
        final long elapsed = System.nanoTime() - start;
        synchronized (failure)
        {
            if (failure[0] != null)
            {
                throw new IllegalStateException("a conversation failed", failure[0]);
            }
        }
        for (final Histogram h : histograms)
        {
            all.add(h);
        }
        return elapsed;
    }

    private void pingPong(final byte[] buf, final int tag, final int roundTrips, final Histogram h)
    {
        long last = System.nanoTime();
        for (int i = 0; i < roundTrips; i++)
        {
            PingPong.roundTrip(world, buf, size, tag);
            final long now = System.nanoTime();
            h.recordValue(now - last);
            last = now;
        }
    }

    private long multiplexed(final int conversations, final int rounds, final Histogram all)
    {
        final int rank = world.rank();
        final int peer = 1 - rank;
        final byte[][] sendBufs = new byte[conversations][Math.max(1, size)];
        final byte[][] recvBufs = new byte[conversations][Math.max(1, size)];
        final Request[] receives = new Request[conversations];
        final Request[] sends = new Request[conversations];
        final Request[] both = new Request[2 * conversations];
        world.barrier();
        final long start = System.nanoTime();
        long last = start;
        for (int i = 0; i < rounds; i++)
        {
            for (int t = 0; t < conversations; t++)
            {
                receives[t] = world.irecv(recvBufs[t], 0, size, Datatype.BYTE, peer, TAG_BASE + t);
            }
            if (rank == 0)
            {
                for (int t = 0; t < conversations; t++)
                {
                    both[t] = receives[t];
                    both[conversations + t] = world.isend(sendBufs[t], 0, size, Datatype.BYTE, peer, TAG_BASE + t);
                }
                Request.waitAll(both);
            }
            else
            {
                Request.waitAll(receives);
                for (int t = 0; t < conversations; t++)
                {
                    sends[t] = world.isend(sendBufs[t], 0, size, Datatype.BYTE, peer, TAG_BASE + t);
                }
                Request.waitAll(sends);
            }
            final long now = System.nanoTime();
            all.recordValueWithCount(now - last, conversations);
            last = now;
        }
        return System.nanoTime() - start;
    }

    private static void awaitQuietly(final CountDownLatch latch)
    {
        boolean interrupted = false;
        while (true)
        {
            try
            {
                latch.await();
                break;
            }
            catch (final InterruptedException ex)
            {
                interrupted = true;
            }
        }
        if (interrupted)
        {
            Thread.currentThread().interrupt();
        }
    }
}
