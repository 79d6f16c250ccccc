package org.jmpi.bench.ddt;

import java.util.Arrays;
import java.util.Locale;

import org.agrona.concurrent.UnsafeBuffer;
import org.jmpi.examples.ddt.DdtPattern;
import org.jmpi.examples.ddt.DdtPatterns;
import org.jmpi.examples.ddt.DdtSize;
import org.jmpi.internal.datatype.BufferView;
import org.jmpi.internal.datatype.Convertor;

/**
 * The datatype path against the hand-written loop for one DDTBench pattern, A/B interleaved in one JVM: a
 * shared machine slows both variants of a round alike, so the median of the per-round ratios holds where
 * separate JMH forks minutes apart do not (docs/ddtbench.md). Complements {@link DdtBenchmark}.
 * <ol>
 *   <li>Warm both variants up (JIT) for {@code --warmup-ms}.</li>
 *   <li>Calibrate the repetitions per batch to about {@code --batch-us}.</li>
 *   <li>{@code --rounds} rounds: one batch of each variant, in alternating order; ratio = manual time /
 *       datatype time (above 1: the datatype path is faster).</li>
 *   <li>Print, for pack and unpack, the median ratio and the best batch of each variant in us per message.</li>
 * </ol>
 * Usage: {@code DdtAbRatio PATTERN MIDDLE|LARGEST [--rounds 41] [--batch-us 2000] [--warmup-ms 3000]}.
 * Single-threaded; one pattern per JVM so the JIT sees one pattern, as in a JMH fork.
 */
public final class DdtAbRatio
{
    private final DdtPattern p;
    private final BufferView view;
    private final UnsafeBuffer stream;
    private final Object manual;
    private final int bytes;
    private long sink;

    private DdtAbRatio(final DdtPattern p)
    {
        this.p = p;
        p.fill(1);
        view = BufferView.of(p.buffer(), "user buffer");
        bytes = (int)p.bytes();
        stream = new UnsafeBuffer(new byte[bytes]);
        manual = p.newPackBuffer();
        p.packManual(manual);
    }

    private long run(final int variant, final int reps)
    {
        final long t0 = System.nanoTime();
        for (int i = 0; i < reps; i++)
        {
            switch (variant)
            {
                case 0 -> sink += Convertor.create(view, p.sendOffset(), p.sendCount(), p.sendType()).pack(stream, 0, bytes);
                case 1 -> p.packManual(manual);
                case 2 -> sink += Convertor.createForReceive(view, p.recvOffset(), p.recvCount(), p.recvType())
                    .unpack(stream, 0, bytes);
                default -> p.unpackManual(manual);
            }
        }
        return System.nanoTime() - t0;
    }

    public static void main(final String[] args)
    {
        int rounds = 41;
        long batchUs = 2000;
        long warmupMs = 3000;
        for (int i = 2; i < args.length; i += 2)
        {
            switch (args[i])
            {
                case "--rounds" -> rounds = Integer.parseInt(args[i + 1]);
                case "--batch-us" -> batchUs = Long.parseLong(args[i + 1]);
                case "--warmup-ms" -> warmupMs = Long.parseLong(args[i + 1]);
                default -> throw new IllegalArgumentException("unknown option " + args[i]);
            }
        }
        final DdtAbRatio b = new DdtAbRatio(DdtPatterns.create(args[0], DdtSize.valueOf(args[1])));
        final long end = System.nanoTime() + warmupMs * 1_000_000;
        while (System.nanoTime() < end)
        {
            for (int v = 0; v < 4; v++)
            {
                b.run(v, 50);
            }
        }
        final int[] reps = new int[4];
        for (int v = 0; v < 4; v++)
        {
            final long ns = Math.max(1, b.run(v, 200) / 200);
            reps[v] = (int)Math.max(1, batchUs * 1000 / ns);
        }
        final StringBuilder out = new StringBuilder();
        for (int dir = 0; dir < 2; dir++)
        {
            final double[] ratio = new double[rounds];
            double bestDatatype = Double.MAX_VALUE;
            double bestManual = Double.MAX_VALUE;
            for (int r = 0; r < rounds; r++)
            {
                final int dt = 2 * dir;
                final int man = dt + 1;
                final double a;
                final double m;
                if (r % 2 == 0)
                {
                    a = (double)b.run(dt, reps[dt]) / reps[dt];
                    m = (double)b.run(man, reps[man]) / reps[man];
                }
                else
                {
                    m = (double)b.run(man, reps[man]) / reps[man];
                    a = (double)b.run(dt, reps[dt]) / reps[dt];
                }
                ratio[r] = m / a;
                bestDatatype = Math.min(bestDatatype, a);
                bestManual = Math.min(bestManual, m);
            }
            Arrays.sort(ratio);
            out.append(String.format(Locale.ROOT, "%-14s %-7s %-6s median ratio %.2f  (p25 %.2f, p75 %.2f)  best: datatype %.3f us, manual %.3f us%n",
                args[0], args[1], dir == 0 ? "pack" : "unpack", ratio[rounds / 2], ratio[rounds / 4], ratio[3 * rounds / 4],
                bestDatatype / 1000, bestManual / 1000));
        }
        System.out.print(out);
        if (b.sink == 42)
        {
            System.out.println();
        }
    }
}
