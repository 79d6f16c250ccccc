package org.jmpi.bench.ddt;

import org.jmpi.Datatype;
import org.jmpi.Mpi;
import org.jmpi.examples.ddt.DdtPattern;
import org.jmpi.examples.ddt.DdtPatterns;
import org.jmpi.examples.ddt.DdtSize;
import org.jmpi.internal.datatype.CopyCostModel;
import org.jmpi.internal.datatype.LayoutStats;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.Locale;

/**
 * What {@code pvas.mode=auto} decides at each point of the Figure 5 sweep, and why (issue 11, docs/pvas.md): per
 * DDTBench pattern and size, both sides' {@link LayoutStats}, the cost model's direct and best staged estimates (ns)
 * and the choice, for a frame limit (8,160 payload bytes between threads, 64 KiB through the arena), with pack at
 * send marked. No MPI traffic: it reads the calibration file and builds the layouts as the sweep does.
 * <p>
 * Usage: {@code java -cp ... org.jmpi.bench.ddt.AutoChoice CALIBRATION-FILE [maxFragmentBytes] [1k,4k,...] [pattern...]}.
 */
public final class AutoChoice
{
    private AutoChoice()
    {
    }

    public static void main(final String[] args)
    {
        final CopyCostModel model = CopyCostModel.load(Path.of(args[0]));
        final long maxFragment = args.length > 1 ? Long.parseLong(args[1]) : 8160;
        final long[] sweep = Arrays.stream((args.length > 2 ? args[2] : "1k,4k,16k,64k,256k,1m").split(","))
            .mapToLong(DdtPingPong::bytes).toArray();
        final String[] patterns = args.length > 3 ? Arrays.copyOfRange(args, 3, args.length) : DdtPatterns.NAMES.toArray(String[]::new);
        System.out.println("# " + model.describe() + "; max fragment " + maxFragment + " B");
        System.out.println("| pattern | bytes | send runs | send mean run B | recv runs | recv mean run B | direct ns | staged ns (fragment) | pack at send | choice |");
        System.out.println("|---|---|---|---|---|---|---|---|---|---|");
        for (final String name : patterns)
        {
            final DdtPattern middle = DdtPatterns.create(name, DdtSize.MIDDLE);
            DdtPattern largest = null;
            for (final long bytes : sweep)
            {
                if (middle.bytes() < bytes && largest == null)
                {
                    largest = DdtPatterns.create(name, DdtSize.LARGEST);
                }
                final DdtPattern p = middle.bytes() >= bytes ? middle : largest;
                if (p.bytes() < bytes)
                {
                    continue;
                }
                final Datatype send = PrefixLayout.of(p, p.sendOffset(), p.sendCount(), p.sendType(), bytes);
                final Datatype recv = PrefixLayout.of(p, p.recvOffset(), p.recvCount(), p.recvType(), bytes);
                final LayoutStats s = LayoutStats.of(send, 1);
                final LayoutStats r = LayoutStats.of(recv, 1);
                final boolean packed = model.packAtSend(s, bytes, maxFragment);
                final LayoutStats offered = packed ? LayoutStats.contiguous(bytes) : s;
                final long fragment = model.bestFragment(offered, r, bytes, maxFragment);
                final double direct = model.directNs(offered, r, bytes, 1);
                final double staged = model.stagedNs(offered, r, bytes, fragment);
                System.out.println(String.format(Locale.ROOT, "| %s | %d | %d | %.1f | %d | %.1f | %.0f | %.0f (%d) | %s | %s |", name, bytes,
                    s.blockCount(), s.meanRunBytes(), r.blockCount(), r.meanRunBytes(), direct, staged, fragment, packed ? "yes" : "no",
                    direct <= staged ? "direct" : "staged"));
            }
        }
    }
}
