package org.jmpi.bench.threads;

import java.util.Arrays;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicLongArray;

import org.jmpi.bench.BenchArgs;

/**
 * What the split copy can gain on this machine, without MPI (issue 11, point 2; docs/pvas.md, "Why the split copy
 * does not pay here"): one thread copying N bytes between two byte arrays against two threads copying them together,
 * claiming chunks from two cursors as {@code SplitCopyPath} does (a compare-and-set per chunk, the receiver from
 * the front half, the other thread from the back half, each then stealing), with the claim words on one cache line
 * or each on its own. A round starts both threads at once (they spin on a start word) and ends when both are done;
 * the time is the wall time of the round. Variants alternate within each repetition; min and median in µs.
 * <p>If two threads do not copy faster than one here (both vCPUs busy elsewhere, or the memory system saturated by
 * one core), no split policy can make the split copy pay, whatever the chunk and the record.
 * <p>Usage: {@code java -cp bench/target/classes:core/target/classes org.jmpi.bench.threads.SplitCopyScaling
 * [--sizes 1048576,2097152,4194304] [--chunk 65536] [--repetitions 300]}
 */
public final class SplitCopyScaling
{
    /** Longs between two words of a padded record (a 64-byte line). */
    private static final int PAD = 8;
    private static final int GENERATION = 0;
    private static final int HELPER_DONE = 1;
    private static final int HELPER_COPIED = 5 * PAD;

    private final byte[] src;
    private final byte[] dst;
    private final long chunk;
    /** Words: the start generation and the helper's done mark, the claim cursors A and B (a line or a word apart), the helper's count. */
    private final AtomicLongArray words = new AtomicLongArray(6 * PAD);
    private volatile long total;
    private volatile int stride;
    private volatile boolean stop;

    private SplitCopyScaling(final int maxBytes, final long chunk)
    {
        this.src = new byte[maxBytes];
        this.dst = new byte[maxBytes];
        Arrays.fill(src, (byte)7);
        this.chunk = chunk;
    }

    public static void main(final String[] args) throws InterruptedException
    {
        final BenchArgs parsed = BenchArgs.parse(args, "--sizes", "--chunk", "--repetitions");
        final int[] sizes = parsed.intListOption("--sizes", 1 << 20, 2 << 20, 4 << 20);
        final long chunk = parsed.intOption("--chunk", 64 * 1024);
        final int repetitions = parsed.intOption("--repetitions", 300);
        final SplitCopyScaling bench = new SplitCopyScaling(Arrays.stream(sizes).max().orElse(1 << 20), chunk);
        final Thread helper = new Thread(bench::helperLoop, "split-helper");
        helper.setDaemon(true);
        helper.start();
        System.out.println("# split copy scaling: one thread vs two claiming " + chunk + "-byte chunks; µs per copy, " + repetitions +
            " repetitions (" + Runtime.getRuntime().availableProcessors() + " processors)");
        System.out.printf("# %-10s %12s %12s %12s %12s %12s %12s %10s%n", "bytes", "one min", "one p50", "two-pad min", "two-pad p50",
            "two-line min", "two-line p50", "p50 ratio");
        for (final int size : sizes)
        {
            final double[] one = new double[repetitions];
            final double[] padded = new double[repetitions];
            final double[] line = new double[repetitions];
            for (int i = -repetitions / 4; i < repetitions; i++)
            {
                final double a = bench.one(size);
                final double b = bench.two(size, PAD);
                final double c = bench.two(size, 1);
                if (i >= 0)
                {
                    one[i] = a;
                    padded[i] = b;
                    line[i] = c;
                }
            }
            Arrays.sort(one);
            Arrays.sort(padded);
            Arrays.sort(line);
            System.out.printf(Locale.ROOT, "  %-10d %12.1f %12.1f %12.1f %12.1f %12.1f %12.1f %10.2f%n", size, one[0], one[repetitions / 2],
                padded[0], padded[repetitions / 2], line[0], line[repetitions / 2], padded[repetitions / 2] / one[repetitions / 2]);
        }
        bench.stop = true;
    }

    private double one(final int size)
    {
        final long t0 = System.nanoTime();
        for (long at = 0; at < size; at += chunk)
        {
            final int n = (int)Math.min(chunk, size - at);
            System.arraycopy(src, (int)at, dst, (int)at, n);
        }
        return (System.nanoTime() - t0) / 1e3;
    }

    /**
     * Both threads copy {@code size} bytes; the claim words are {@code wordStride} longs apart. Timed until every byte
     * is copied (as a split copy's receive completes); then, untimed, until the helper has let go of the round.
     */
    private double two(final int size, final int wordStride)
    {
        total = size;
        stride = wordStride;
        words.set(cursor(0, wordStride), 0);
        words.set(cursor(1, wordStride), size / 2);
        words.set(HELPER_DONE, 0);
        words.set(HELPER_COPIED, 0);
        final long t0 = System.nanoTime();
        words.incrementAndGet(GENERATION);
        final long mine = drain(0, wordStride, size, -1) + drain(1, wordStride, size, -1);
        while (mine + words.get(HELPER_COPIED) < size)
        {
            Thread.onSpinWait();
        }
        final double us = (System.nanoTime() - t0) / 1e3;
        while (words.get(HELPER_DONE) == 0)
        {
            Thread.onSpinWait();
        }
        return us;
    }

    private void helperLoop()
    {
        long seen = 0;
        while (!stop)
        {
            final long generation = words.get(GENERATION);
            if (generation == seen)
            {
                Thread.onSpinWait();
                continue;
            }
            seen = generation;
            final int wordStride = stride;
            final long size = total;
            drain(1, wordStride, size, HELPER_COPIED);
            drain(0, wordStride, size, HELPER_COPIED);
            words.set(HELPER_DONE, 1);
        }
    }

    /** Index of cursor {@code part} (0: A, 1: B) in {@link #words}, the cursors starting two lines after the control words. */
    private static int cursor(final int part, final int wordStride)
    {
        return 2 * PAD + part * wordStride;
    }

    /** Claims and copies chunks of {@code part}; adds each to the word {@code count} (-1: none); returns the bytes copied. */
    private long drain(final int part, final int wordStride, final long size, final int count)
    {
        long copied = 0;
        final int at = cursor(part, wordStride);
        final long end = part == 0 ? size / 2 : size;
        while (true)
        {
            final long from = words.get(at);
            if (from >= end)
            {
                return copied;
            }
            final long to = Math.min(end, from + chunk);
            if (words.compareAndSet(at, from, to))
            {
                System.arraycopy(src, (int)from, dst, (int)from, (int)(to - from));
                copied += to - from;
                if (count >= 0)
                {
                    words.addAndGet(count, to - from);
                }
            }
        }
    }
}
