package org.jmpi.internal.datatype;

import org.agrona.UnsafeApi;
import org.jmpi.Datatype;
import org.jmpi.ErrorClass;
import org.jmpi.MpiException;

import java.io.IOException;
import java.io.Reader;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Properties;

/**
 * The cost model that chooses, per rendezvous message, between a direct copy (one or both ranks copy straight
 * from the send layout into the receive layout) and the staged pipeline (the sender packs fragments, the
 * receiver unpacks them, at once), from both sides' {@link LayoutStats} and the size (issue 11, docs/pvas.md):
 * <pre>
 *   direct  = (runs * perRun + passes * bytes * perByte + remote) / copiers    runs = runs_send + runs_recv
 *     remote = runs_send * perRemoteRun when the send runs are shorter than a cache line (each read from the peer's core)
 *            + runs_recv * REMOTE_WRITE_RUN_NS when the receive runs are shorter than two (each line taken back from it)
 *     one side a single run (the other packs into it / unpacks from it):  perRunPack, 1 pass
 *     both scattered, mean run >= 256 B (stepwise: the type-to-type copy): perRunCopy, 1 pass
 *     both scattered, shorter runs (packed and unpacked through a chunk):  perRunPack, 2 passes
 *   staged  = n * perFragment + max(pack, unpack) + min(pack, unpack) / n + bytes * STAGED_PER_BYTE_NS    n = ceil(bytes / fragment)
 *     pack   = runs_send * perRunPack + bytes * perByte
 *     unpack = runs_recv * perRunPack + bytes * perByte
 * </pre>
 * A direct copy is done by one rank (or split between two), walking both layouts; the pipeline walks each layout
 * on its own side, the two sides overlapping except for the first and last fragment, and pays a fixed cost per
 * fragment. So direct wins for contiguous and coarse layouts and for short messages, staged where both sides are
 * finely scattered and the message is long enough for the overlap to pay (NAS_MG_x: single doubles), as in the
 * PVAS paper.
 *
 * <p>Calibration ({@link #calibrate}) times type-to-type copies, packs of a contiguous and of a strided layout
 * (single doubles at stride 2) on this machine. The per-fragment cost (frame encode, hand-off to the
 * transport, dispatch) is not measured here: it is {@link #DEFAULT_PER_FRAGMENT_NS} unless a calibration file
 * says otherwise ({@code jmpirun --calibrate} writes one that can be edited).
 *
 * <p>Immutable; any thread.
 *
 * @param perByteNs     ns per byte moved by a copy of long contiguous runs
 * @param perRunCopyNs  ns per run step of a type-to-type copy, beyond its bytes
 * @param perRunPackNs  ns per run of packing or unpacking, beyond its bytes
 * @param perFragmentNs ns per fragment of the staged pipeline, beyond its bytes
 * @param perRemoteRunNs ns per short run read out of the peer's buffer, beyond a local pack of it (the line comes
 *                       from the other core's cache)
 * @param origin        where the figures come from (for diagnostics)
 */
public record CopyCostModel(double perByteNs, double perRunCopyNs, double perRunPackNs, double perFragmentNs,
    double perRemoteRunNs, String origin)
{
    /**
     * Per short run read from the peer's buffer when no calibration measured it: WRF_x_vec between two threads (8,554
     * runs of 12 bytes) took about 70 µs more per message direct than packed and unpacked on each side (2-vCPU
     * machine, loaded, 2026-11-26), about 8 ns a run.
     */
    public static final double DEFAULT_PER_REMOTE_RUN_NS = 8;
    /**
     * Per-fragment cost when no calibration file gives one. {@code jmpirun --calibrate} on the project's 2-vCPU machine
     * (loaded, 2026-11-26) measured 164 ns between 4 KiB fragments and the largest the in-JVM ring carries; the 302-877 ns
     * it measured before, against 64 KiB fragments that went through the in-JVM transport's side queue, included the
     * side queue's cost, and 1.5 µs (the default until session 10) kept the model from staging where staging won.
     */
    public static final double DEFAULT_PER_FRAGMENT_NS = 300;
    /**
     * Per byte, per type-to-type step and per packed run when no calibration measured them with compiled code: a long
     * calibration ({@code jmpirun --calibrate}, 2 s) and 0.6 s of repeated 5 ms calibrations in one JVM on the project's
     * 2-vCPU machine (loaded, 2026-11-26) gave 0.0088-0.0104 ns, 5.2-8.7 ns and 0.20-0.35 ns.
     */
    public static final double DEFAULT_PER_BYTE_NS = 0.01;
    public static final double DEFAULT_PER_RUN_COPY_NS = 7;
    public static final double DEFAULT_PER_RUN_PACK_NS = 0.3;
    /**
     * A start-up measurement whose per-run figures exceed the defaults by this factor timed code the JIT had not compiled
     * yet, and is replaced by the defaults ({@link #startup}). The first 5 ms calibration of a JVM measured the
     * interpreter: perRunPack 41.7 ns and perRunCopy 128 ns (2026-11-26, the same machine), 100-200 times the compiled
     * figures, which it reached only after about 400 ms of calibrating; C1's code gave 1.8-3 ns and 16.6 ns.
     */
    static final double UNCOMPILED_FACTOR = 4;
    /** The fragment sizes the model chooses from (bytes): the sizes of the PVAS paper's Figure 5. */
    public static final long[] FRAGMENT_SIZES = {4096, 8192, 16384, 32768, 65536};
    /** Mean run length (bytes over both sides' runs) from which {@link #stepwise} holds. */
    public static final long STEPWISE_MIN_RUN_BYTES = 256;
    /** Mean send run below which a sender may pack at send ({@link #packAtSend}): runs shorter than a cache line. */
    public static final double PACK_AT_SEND_MAX_RUN_BYTES = 64;
    /** Mean receive run below which a direct copy pays {@link #REMOTE_WRITE_RUN_NS} per receive run: two cache lines. */
    public static final double REMOTE_WRITE_MAX_RUN_BYTES = 128;
    /**
     * Per short run a direct copy writes into a scattered receive layout, beyond a local unpack: in an exchange each rank
     * receives into the buffer it sends from, so the lines the receiver writes were last read by the peer's core and each
     * scattered write first takes them back (a contiguous receive streams and pays nothing of the kind). Fitted to the
     * quiet sweep of session 10 (2-vCPU machine, Figure 5 through the arena and between threads, 88 points): WRF_x_vec at
     * 64 KiB took about 47 µs per message direct for 5,462 receive runs of 12 bytes, 8 ns a run, where a contiguous
     * receive of the same send layout (SPECFEM3D_mt) took under 1 ns a run; with this term the model's choice matches the
     * faster of direct and staged at 51 of 88 points instead of 42 (docs/pvas.md, session 11).
     */
    public static final double REMOTE_WRITE_RUN_NS = 8;
    /**
     * Per byte of the staged pipeline beyond its two copies' {@code perByte}: the receiver reads each fragment out of the
     * other core's cache, which the calibration's in-cache copy does not show. Fitted to the same sweep: with it the model
     * stops staging the 2-4 KiB runs of NAS_MG_y and _z at 256 KiB and 1 MiB through the arena, where the direct copy was
     * 1.6-5.6x faster (55 of 88 points with the term above; larger figures lose more points than they win).
     */
    public static final double STAGED_PER_BYTE_NS = 0.005;

    private static final String PER_BYTE = "perByteNs";
    private static final String PER_RUN_COPY = "perRunCopyNs";
    private static final String PER_RUN_PACK = "perRunPackNs";
    private static final String PER_FRAGMENT = "perFragmentNs";
    private static final String PER_REMOTE_RUN = "perRemoteRunNs";
    /** Doubles the long calibration ({@code jmpirun --calibrate}) copies; the start-up one uses a quarter (cheaper rounds). */
    private static final int CALIBRATION_DOUBLES = 1 << 14;
    private static final long LONG_CALIBRATION_NS = 100_000_000;

    public CopyCostModel
    {
        check(PER_BYTE, perByteNs, origin);
        check(PER_RUN_COPY, perRunCopyNs, origin);
        check(PER_RUN_PACK, perRunPackNs, origin);
        check(PER_FRAGMENT, perFragmentNs, origin);
        check(PER_REMOTE_RUN, perRemoteRunNs, origin);
    }

    /** A model with {@link #DEFAULT_PER_REMOTE_RUN_NS}. */
    public CopyCostModel(final double perByteNs, final double perRunCopyNs, final double perRunPackNs, final double perFragmentNs,
        final String origin)
    {
        this(perByteNs, perRunCopyNs, perRunPackNs, perFragmentNs, DEFAULT_PER_REMOTE_RUN_NS, origin);
    }

    /** This model with the staged pipeline's per-fragment cost and the per remote run cost measured elsewhere. */
    public CopyCostModel withMeasured(final double fragmentNs, final double remoteRunNs, final String how)
    {
        return new CopyCostModel(perByteNs, perRunCopyNs, perRunPackNs, fragmentNs, remoteRunNs, origin + "; " + how);
    }

    private static void check(final String name, final double value, final String origin)
    {
        if (!(value >= 0 && value < 1e9))
        {
            throw new MpiException(ErrorClass.ERR_ARG, "copy cost model (" + origin + "): " + name + "=" + value +
                " must be a number of nanoseconds between 0 and 1e9");
        }
    }

    /**
     * Whether a direct copy between two scattered layouts should step through both at once (the type-to-type copy:
     * one pass, a step wherever either side's run ends) rather than pack and unpack through a chunk in cache (two
     * passes, the strided kernels): when the runs are long. A step cost about 9 ns against 0.5 ns per packed run and
     * 0.01-0.05 ns per byte (calibration on the 2-vCPU machine, 2026-11-26), so steps pay from runs of about 256 bytes.
     */
    public static boolean stepwise(final LayoutStats send, final LayoutStats recv, final long bytes)
    {
        final long runs = send.blockCount() + recv.blockCount();
        return runs > 0 && bytes / runs >= STEPWISE_MIN_RUN_BYTES;
    }

    /**
     * Estimated ns of a direct copy of {@code bytes} between the two layouts by {@code copiers} ranks (1 or 2), as
     * core's DirectCopy does it: one side a single run, the other packs into it or unpacks from it; both scattered,
     * {@link #stepwise} for long runs, else packed and unpacked through a chunk in cache (the bytes pass twice).
     */
    public double directNs(final LayoutStats send, final LayoutStats recv, final long bytes, final int copiers)
    {
        final long runs = send.blockCount() + recv.blockCount();
        final double oneSide;
        if (send.blockCount() <= 1 || recv.blockCount() <= 1)
        {
            oneSide = runs * perRunPackNs + bytes * perByteNs;
        }
        else if (stepwise(send, recv, bytes))
        {
            oneSide = runs * perRunCopyNs + bytes * perByteNs;
        }
        else
        {
            oneSide = runs * perRunPackNs + 2 * bytes * perByteNs;
        }
        final double remoteReads = send.blockCount() > 1 && send.meanRunBytes() < PACK_AT_SEND_MAX_RUN_BYTES
            ? send.blockCount() * perRemoteRunNs : 0;
        final double remoteWrites = recv.blockCount() > 1 && recv.meanRunBytes() < REMOTE_WRITE_MAX_RUN_BYTES
            ? recv.blockCount() * REMOTE_WRITE_RUN_NS : 0;
        return (oneSide + remoteReads + remoteWrites) / Math.max(1, copiers);
    }

    /** Estimated ns of the staged pipeline for {@code bytes} in fragments of {@code fragmentBytes}. */
    public double stagedNs(final LayoutStats send, final LayoutStats recv, final long bytes, final long fragmentBytes)
    {
        final long fragments = Math.max(1, (bytes + fragmentBytes - 1) / Math.max(1, fragmentBytes));
        final double pack = send.blockCount() * perRunPackNs + bytes * perByteNs;
        final double unpack = recv.blockCount() * perRunPackNs + bytes * perByteNs;
        return fragments * perFragmentNs + Math.max(pack, unpack) + Math.min(pack, unpack) / fragments + bytes * STAGED_PER_BYTE_NS;
    }

    /**
     * The fragment size with the lowest staged estimate among {@link #FRAGMENT_SIZES} up to {@code maxFragmentBytes} and
     * {@code maxFragmentBytes} itself when it lies below the largest of them (a transport's full-speed frame less the
     * header: 8,160 bytes between threads, where 8 KiB would not fit).
     */
    public long bestFragment(final LayoutStats send, final LayoutStats recv, final long bytes, final long maxFragmentBytes)
    {
        long best = Math.min(FRAGMENT_SIZES[0], maxFragmentBytes);
        double bestNs = stagedNs(send, recv, bytes, best);
        for (int i = 0; i <= FRAGMENT_SIZES.length; i++)
        {
            final long size = i < FRAGMENT_SIZES.length ? FRAGMENT_SIZES[i] : maxFragmentBytes;
            if (size <= maxFragmentBytes && size <= FRAGMENT_SIZES[FRAGMENT_SIZES.length - 1])
            {
                final double ns = stagedNs(send, recv, bytes, size);
                if (ns < bestNs)
                {
                    best = size;
                    bestNs = ns;
                }
            }
        }
        return best;
    }

    /**
     * Whether a sender whose layout is {@code send} should pack the message into a contiguous staging buffer of its own
     * before it offers the direct copy, so that the receiver unpacks from one contiguous run (the "manual" exchange of
     * DDTBench done by the library): when the send runs are shorter than a cache line ({@link #PACK_AT_SEND_MAX_RUN_BYTES})
     * and packing then unpacking one after the other (the receiver's layout assumed like the sender's, which the
     * sender cannot see) is estimated no slower than the best staged pipeline. A receiver reading such runs straight out
     * of the sender's buffer touches a cache line of the other core's for every run (about 8 ns each on the 2-vCPU
     * machine, 2026-11-26: WRF_x_vec between two threads took 195 µs per ping-pong direct against 54 staged, for a
     * copy that takes 15 µs from one core's own cache).
     */
    public boolean packAtSend(final LayoutStats send, final long bytes, final long maxFragmentBytes)
    {
        if (send.blockCount() <= 1 || send.meanRunBytes() >= PACK_AT_SEND_MAX_RUN_BYTES || bytes <= 0)
        {
            return false;
        }
        final double pack = send.blockCount() * perRunPackNs + bytes * perByteNs;
        final long fragment = bestFragment(send, send, bytes, maxFragmentBytes);
        return 2 * pack <= stagedNs(send, send, bytes, fragment);
    }

    /** Whether a direct copy by {@code copiers} is estimated no slower than the best staged pipeline. */
    public boolean preferDirect(final LayoutStats send, final LayoutStats recv, final long bytes, final int copiers,
        final long maxFragmentBytes)
    {
        final long fragment = bestFragment(send, recv, bytes, maxFragmentBytes);
        return directNs(send, recv, bytes, copiers) <= stagedNs(send, recv, bytes, fragment);
    }

    /**
     * Measures the per-byte and per-run costs on this machine for about {@code budgetNs} (the minimum of
     * repeated timings of each kernel, alternated): a contiguous copy of 128 KiB, a type-to-type copy and a pack
     * of 8 Ki single doubles at stride 2 (a quarter of each for budgets under 100 ms, so that a start-up calibration
     * gets more rounds in).
     */
    public static CopyCostModel calibrate(final long budgetNs)
    {
        final int doubles = budgetNs >= LONG_CALIBRATION_NS ? CALIBRATION_DOUBLES : CALIBRATION_DOUBLES / 4;
        final double[] a = new double[doubles];
        final double[] b = new double[doubles];
        final long contiguousBytes = 8L * doubles;
        final int runs = doubles / 2;
        final long stridedBytes = 8L * runs;
        final Datatype contiguous = Datatype.contiguous(doubles, Datatype.DOUBLE).commit();
        final Datatype strided = Datatype.vector(runs, 1, 2, Datatype.DOUBLE).commit();
        final Convertor contiguousSrc = Convertor.create(BufferView.of(a, "calibration"), 0, 1, contiguous);
        final Convertor contiguousDst = Convertor.createForReceive(BufferView.of(b, "calibration"), 0, 1, contiguous);
        final Convertor stridedSrc = Convertor.create(BufferView.of(a, "calibration"), 0, 1, strided);
        final Convertor stridedDst = Convertor.createForReceive(BufferView.of(b, "calibration"), 0, 1, strided);
        final long bBase = UnsafeApi.arrayBaseOffset(double[].class);
        long contiguousNs = Long.MAX_VALUE;
        long copyNs = Long.MAX_VALUE;
        long packNs = Long.MAX_VALUE;
        final long deadline = System.nanoTime() + budgetNs;
        int rounds = 0;
        while (rounds < 2 || System.nanoTime() - deadline < 0)
        {
            long t0 = System.nanoTime();
            Convertor.copy(contiguousSrc, contiguousDst, 0, contiguousBytes);
            long t1 = System.nanoTime();
            contiguousNs = Math.min(contiguousNs, t1 - t0);
            t0 = System.nanoTime();
            Convertor.copy(stridedSrc, stridedDst, 0, stridedBytes);
            t1 = System.nanoTime();
            copyNs = Math.min(copyNs, t1 - t0);
            stridedSrc.seek(0);
            t0 = System.nanoTime();
            stridedSrc.pack(b, bBase, stridedBytes);
            t1 = System.nanoTime();
            packNs = Math.min(packNs, t1 - t0);
            rounds++;
        }
        final double perByte = (double)contiguousNs / contiguousBytes;
        final double perRunCopy = Math.max(0, (copyNs - stridedBytes * perByte) / runs);
        final double perRunPack = Math.max(0, (packNs - stridedBytes * perByte) / runs);
        return new CopyCostModel(perByte, perRunCopy, perRunPack, DEFAULT_PER_FRAGMENT_NS,
            "measured for " + budgetNs / 1_000_000 + " ms, " + rounds + " rounds");
    }

    /** The model of the {@code DEFAULT_*} figures; {@code why} says why it is used (for diagnostics). */
    public static CopyCostModel defaults(final String why)
    {
        return new CopyCostModel(DEFAULT_PER_BYTE_NS, DEFAULT_PER_RUN_COPY_NS, DEFAULT_PER_RUN_PACK_NS, DEFAULT_PER_FRAGMENT_NS,
            DEFAULT_PER_REMOTE_RUN_NS, "defaults: " + why);
    }

    /**
     * The model a rank uses when no calibration file is given: {@link #calibrate} for {@code budgetNs}, unless the
     * figures show code the JIT had not compiled yet (a per-run figure above {@link #UNCOMPILED_FACTOR} times its
     * default); then the defaults. A few ms at start-up time the interpreter, whose per-run costs are 100-200 times the
     * compiled ones and differ from rank to rank and run to run: with them the receiver chose the staged pipeline with
     * 4-8 KiB fragments for every DDTBench pattern between threads, and the choice changed between runs.
     */
    public static CopyCostModel startup(final long budgetNs)
    {
        return compiledOrDefaults(calibrate(budgetNs));
    }

    /** {@code measured}, or the defaults when its per-run figures show uncompiled code ({@link #startup}). */
    static CopyCostModel compiledOrDefaults(final CopyCostModel measured)
    {
        if (measured.perRunPackNs > UNCOMPILED_FACTOR * DEFAULT_PER_RUN_PACK_NS || measured.perRunCopyNs > UNCOMPILED_FACTOR * DEFAULT_PER_RUN_COPY_NS)
        {
            return defaults(String.format(Locale.ROOT, "the start-up measurement timed uncompiled code (perRunPack=%.2f ns, perRunCopy=%.2f ns, %s)",
                measured.perRunPackNs, measured.perRunCopyNs, measured.origin));
        }
        return measured;
    }

    /**
     * Reads a calibration written by {@link #save}.
     *
     * @throws MpiException ERR_ARG naming the file when it cannot be read or a value is missing or malformed
     */
    public static CopyCostModel load(final Path file)
    {
        final Properties p = new Properties();
        try (Reader in = Files.newBufferedReader(file, StandardCharsets.UTF_8))
        {
            p.load(in);
        }
        catch (final IOException ex)
        {
            throw new MpiException(ErrorClass.ERR_ARG, "jmpi.pvas.calibration: cannot read " + file + ": " + ex.getMessage() +
                " (jmpirun --calibrate writes one)", ex);
        }
        final String origin = "file " + file;
        // perRemoteRunNs came later: a file without it takes the default.
        final double remote = p.getProperty(PER_REMOTE_RUN) == null ? DEFAULT_PER_REMOTE_RUN_NS : value(p, PER_REMOTE_RUN, origin);
        return new CopyCostModel(value(p, PER_BYTE, origin), value(p, PER_RUN_COPY, origin), value(p, PER_RUN_PACK, origin),
            value(p, PER_FRAGMENT, origin), remote, origin);
    }

    private static double value(final Properties p, final String key, final String origin)
    {
        final String v = p.getProperty(key);
        if (v == null)
        {
            throw new MpiException(ErrorClass.ERR_ARG, "jmpi.pvas.calibration: " + origin + " has no " + key);
        }
        try
        {
            return Double.parseDouble(v.trim());
        }
        catch (final NumberFormatException ex)
        {
            throw new MpiException(ErrorClass.ERR_ARG, "jmpi.pvas.calibration: " + origin + ": " + key + "='" + v + "' is not a number", ex);
        }
    }

    /** Writes the figures as a properties file that {@link #load} reads (and a person may edit). */
    public void save(final Path file) throws IOException
    {
        final Path parent = file.toAbsolutePath().getParent();
        if (parent != null)
        {
            Files.createDirectories(parent);
        }
        try (Writer out = Files.newBufferedWriter(file, StandardCharsets.UTF_8))
        {
            out.write("# jmpi copy cost model (issue 11, docs/pvas.md): " + origin + "\n");
            out.write("# ns per byte copied, per run step of a type-to-type copy, per run packed, per staged fragment, per short run\n");
            out.write("# read from the peer's buffer\n");
            out.write(String.format(Locale.ROOT, "%s=%.6f%n%s=%.4f%n%s=%.4f%n%s=%.1f%n%s=%.2f%n", PER_BYTE, perByteNs, PER_RUN_COPY,
                perRunCopyNs, PER_RUN_PACK, perRunPackNs, PER_FRAGMENT, perFragmentNs, PER_REMOTE_RUN, perRemoteRunNs));
        }
    }

    /** One line for {@code jmpi.pvas.stats}. */
    public String describe()
    {
        return String.format(Locale.ROOT, "perByte=%.4f ns, perRunCopy=%.2f ns, perRunPack=%.2f ns, perFragment=%.0f ns, perRemoteRun=%.2f ns (%s)",
            perByteNs, perRunCopyNs, perRunPackNs, perFragmentNs, perRemoteRunNs, origin);
    }
}
