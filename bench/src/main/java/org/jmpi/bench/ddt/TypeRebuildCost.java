package org.jmpi.bench.ddt;

import java.util.Arrays;

import org.agrona.concurrent.UnsafeBuffer;
import org.jmpi.Datatype;
import org.jmpi.bench.BenchArgs;
import org.jmpi.bench.report.Stats;
import org.jmpi.examples.ddt.DdtPattern;
import org.jmpi.examples.ddt.DdtPatterns;
import org.jmpi.examples.ddt.DdtSize;
import org.jmpi.internal.datatype.TypeWireForm;

/**
 * What publishing types by content saves a receiver (issue 11, point 4; docs/pvas.md): for each DDTBench pattern's
 * send and receive type, the time to rebuild the type from its wire form (decode and commit, which compiles the flat
 * program: what a receiver paid for every type object a sender described, once per pair) against the time to find
 * an equal wire form among the types already rebuilt (copy the bytes out of the frame or the arena, hash, compare:
 * what it pays now for a type of known content). Medians over {@code --repetitions} alternated repetitions, after
 * as many for warm-up, in µs. No MPI: one thread.
 * <p>Usage: {@code java --add-exports java.base/jdk.internal.misc=ALL-UNNAMED -cp
 * bench/target/classes:examples/target/classes:core/target/classes:datatype/target/classes:AGRONA_JAR
 * org.jmpi.bench.ddt.TypeRebuildCost [--sizes middle,largest] [--repetitions 200] [PATTERN...]} (Agrona needs the export).
 */
public final class TypeRebuildCost
{
    private TypeRebuildCost()
    {
    }

    public static void main(final String[] args)
    {
        final BenchArgs parsed = BenchArgs.parse(args, "--sizes", "--repetitions");
        final int repetitions = parsed.intOption("--repetitions", 200);
        final String[] sizes = parsed.option("--sizes", "middle").split(",");
        System.out.println("# type rebuild cost: µs per type, medians over " + repetitions + " repetitions");
        System.out.printf("# %-14s %-8s %-5s %12s %14s %14s%n", "pattern", "size", "side", "wire bytes", "rebuild (us)", "by content (us)");
        final java.util.List<String> names = parsed.positionalCount() == 0 ? DdtPatterns.NAMES :
            java.util.stream.IntStream.range(0, parsed.positionalCount()).mapToObj(parsed::positional).toList();
        for (final String name : names)
        {
            for (final String size : sizes)
            {
                final DdtPattern p = DdtPatterns.create(name, DdtSize.valueOf(size.trim().toUpperCase(java.util.Locale.ROOT)));
                measure(p, "send", p.sendType(), repetitions);
                measure(p, "recv", p.recvType(), repetitions);
            }
        }
    }

    private static void measure(final DdtPattern p, final String side, final Datatype type, final int repetitions)
    {
        if (type.isPredefined() || !TypeWireForm.decodable(type))
        {
            return;
        }
        final byte[] wire = new byte[TypeWireForm.encodedLength(type)];
        TypeWireForm.encode(type, new UnsafeBuffer(wire), 0);
        final UnsafeBuffer frame = new UnsafeBuffer(wire.clone());
        final byte[] known = wire.clone();
        final int knownHash = Arrays.hashCode(known);
        final double[] rebuild = new double[repetitions];
        final double[] lookup = new double[repetitions];
        long sink = 0;
        for (int i = -repetitions; i < repetitions; i++)
        {
            long t0 = System.nanoTime();
            final Datatype rebuilt = TypeWireForm.decode(frame, 0, wire.length);
            final long t1 = System.nanoTime();
            final byte[] copy = new byte[wire.length];
            frame.getBytes(0, copy);
            final boolean hit = Arrays.hashCode(copy) == knownHash && Arrays.equals(copy, known);
            final long t2 = System.nanoTime();
            sink += rebuilt.size() + (hit ? 1 : 0);
            if (i >= 0)
            {
                rebuild[i] = (t1 - t0) / 1e3;
                lookup[i] = (t2 - t1) / 1e3;
            }
        }
        System.out.printf("  %-14s %-8s %-5s %12d %14s %14s%s%n", p.name(), p.size().name().toLowerCase(java.util.Locale.ROOT), side, wire.length,
            Stats.format(Stats.median(rebuild)), Stats.format(Stats.median(lookup)), sink == 0 ? " (no result)" : "");
    }
}
