package org.jmpi.bench.ddt;

import org.jmpi.Comm;
import org.jmpi.Datatype;
import org.jmpi.Info;
import org.jmpi.Mpi;
import org.jmpi.bench.BenchArgs;
import org.jmpi.examples.ddt.DdtPattern;
import org.jmpi.examples.ddt.DdtPatterns;
import org.jmpi.examples.ddt.DdtSize;

import java.io.PrintStream;
import java.nio.Buffer;
import java.nio.ByteBuffer;
import java.nio.DoubleBuffer;
import java.nio.FloatBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * The DDTBench exchange harness (issue 11; docs/pvas.md): ranks 0 and 1 ping-pong each of the 16 patterns, as
 * DDTBench does, in two ways per pattern and size:
 * <ul>
 * <li>{@code datatype}: rank 0 sends the pattern with the application's send type and receives the reply with its
 * receive type; rank 1 receives and sends back the same way;</li>
 * <li>{@code manual} (DDTBench's "manual"): each side packs by hand into a contiguous array of the buffer's element
 * type, sends that, and unpacks by hand on arrival.</li>
 * </ul>
 * One line per pattern, size and method: µs per iteration (one iteration = one ping-pong, round trip, with the
 * packing and unpacking, as DDTBench times it), mean, median, minimum, 90th percentile (nearest rank) and maximum
 * over {@code --iterations} after {@code --warmup}. Before timing, each method does one ping-pong from the same initial data, and the two
 * methods' buffers must then agree on both ranks (else {@code MISMATCH} and exit code 1).
 * <p>
 * Options: {@code --buffers heap|arena} (arena: the pattern's buffer and, for manual, the packed buffer are typed
 * views of {@code mpi.allocMem} memory, the node's arena when the arena transport is on; the hand loops pack into an
 * array that is then put into the view, a contiguous copy counted in the time), {@code --sizes middle,largest},
 * {@code --methods datatype,manual}, {@code --iterations N} (200), {@code --warmup N} (20), {@code --label TEXT}
 * (printed in the header: the form, e.g. threads), {@code --samples} (also print every timed iteration, µs, on a comment
 * line: to see stalls the median hides), {@code --alternations N} (10: the methods of a pattern and size are timed
 * alternately, in N rounds of {@code --iterations / N} each, the order rotating, so that both meet the same JIT state,
 * placement and load; 1 times them one after the other), and {@code --sweep 1k,2k,...,1m}: instead of DDTBench's sizes,
 * each pattern's layout (the middle size's where it is long enough, else the largest's) cut to each of these byte
 * counts ({@link PrefixLayout}; sizes above the largest message are left out), datatype only (Figures 5 and 15 of
 * the PVAS paper). With {@code --sweep}, {@code --modes auto,direct,staged-4k,...} measures every listed path in the
 * same job, alternated: one communicator per mode (a dup of the world with the info hints {@code jmpi.pvas.mode} and,
 * for {@code staged-Nk}, {@code jmpi.fragment.size}), each warmed up, then {@code --alternations} rounds (10) in
 * each of which every mode runs its share of the iterations, the order rotating from round to round; one line per
 * mode (method = the mode), so the auto rule compares paths under one JIT state, placement and load.
 * Patterns are positional (default all 16).
 * jmpi's own parameters ({@code jmpi.pvas.mode}, {@code jmpi.eager.limit}, {@code jmpi.fragment.size}) are set on
 * the launcher's command line; bench/pvas-eval.sh runs every form and mode.
 * <p>
 * Usage: {@code bin/jmpirun [--threads] -np 2 [--param ...] -cp 'bench/target/classes:bench/target/lib/*'
 * org.jmpi.bench.ddt.DdtPingPong [options] [pattern...]}. Ranks above 1 only wait.
 */
public final class DdtPingPong
{
    private static final long RANK0_BASE = 1;
    private static final long RANK1_BASE = 1L << 22;

    /** What to run. */
    public record Options(List<String> patterns, List<DdtSize> sizes, List<String> methods, boolean arena, int iterations,
        int warmup, long[] sweepBytes, String label, boolean samples, List<String> modes, int alternations)
    {
        /** Without alternated modes. */
        public Options(final List<String> patterns, final List<DdtSize> sizes, final List<String> methods, final boolean arena,
            final int iterations, final int warmup, final long[] sweepBytes, final String label, final boolean samples)
        {
            this(patterns, sizes, methods, arena, iterations, warmup, sweepBytes, label, samples, List.of(), 1);
        }

        /** Without the per-iteration samples. */
        public Options(final List<String> patterns, final List<DdtSize> sizes, final List<String> methods, final boolean arena,
            final int iterations, final int warmup, final long[] sweepBytes, final String label)
        {
            this(patterns, sizes, methods, arena, iterations, warmup, sweepBytes, label, false, List.of(), 1);
        }
    }

    private final Mpi mpi;
    private final Comm world;
    private final Options options;
    private final PrintStream out;
    private int tag;
    /** With {@code --modes}: one communicator per mode, in the order given. */
    private final List<Comm> modeComms = new ArrayList<>();

    private DdtPingPong(final Mpi mpi, final Comm world, final Options options, final PrintStream out)
    {
        this.mpi = mpi;
        this.world = world;
        this.options = options;
        this.out = out;
    }

    public static void main(final String[] args)
    {
        final Options options = parse(args);
        final boolean ok;
        try (Mpi mpi = Mpi.init(args))
        {
            ok = run(mpi, mpi.world(), options, System.out);
        }
        if (!ok)
        {
            System.exit(1);
        }
    }

    /** Parses the harness's options (see the class comment); jmpi's own arguments are left for {@code Mpi.init}. */
    public static Options parse(final String[] args)
    {
        final BenchArgs a = BenchArgs.parse(args, "--buffers", "--sizes", "--methods", "--iterations", "--warmup", "--sweep",
            "--label", "--modes", "--alternations");
        final List<String> patterns = new ArrayList<>();
        for (int i = 0; i < a.positionalCount(); i++)
        {
            patterns.add(a.positional(i));
        }
        final String buffers = a.option("--buffers", "heap");
        if (!buffers.equals("heap") && !buffers.equals("arena"))
        {
            throw new IllegalArgumentException("--buffers must be heap or arena, not " + buffers);
        }
        final List<DdtSize> sizes = new ArrayList<>();
        for (final String s : a.option("--sizes", "middle,largest").split(","))
        {
            sizes.add(DdtSize.valueOf(s.trim().toUpperCase(Locale.ROOT)));
        }
        final List<String> methods = List.of(a.option("--methods", "datatype,manual").split(","));
        for (final String m : methods)
        {
            if (!m.equals("datatype") && !m.equals("manual"))
            {
                throw new IllegalArgumentException("--methods takes datatype and manual, not " + m);
            }
        }
        final String sweep = a.option("--sweep", "");
        final long[] sweepBytes = sweep.isEmpty() ? new long[0] : Arrays.stream(sweep.split(",")).mapToLong(DdtPingPong::bytes).toArray();
        final String modeList = a.option("--modes", "");
        final List<String> modes = modeList.isEmpty() ? List.of() : List.of(modeList.split(","));
        for (final String m : modes)
        {
            modeHints(m);
        }
        if (!modes.isEmpty() && sweepBytes.length == 0)
        {
            throw new IllegalArgumentException("--modes needs --sweep");
        }
        return new Options(patterns.isEmpty() ? DdtPatterns.NAMES : patterns, sizes, methods, buffers.equals("arena"),
            a.intOption("--iterations", 200), a.intOption("--warmup", 20), sweepBytes, a.option("--label", ""),
            a.flag("--samples"), modes, Math.max(1, a.intOption("--alternations", 10)));
    }

    /** The info hints of a {@code --modes} entry: auto, direct, staged (the job's fragment size) or staged-Nk. */
    static Info modeHints(final String mode)
    {
        final String m = mode.trim();
        if (m.equals("auto") || m.equals("direct") || m.equals("staged"))
        {
            return new Info().set("jmpi.pvas.mode", m);
        }
        if (m.startsWith("staged-"))
        {
            final long fragment = bytes(m.substring("staged-".length()));
            return new Info().set("jmpi.pvas.mode", "staged").set("jmpi.fragment.size", Long.toString(fragment));
        }
        throw new IllegalArgumentException("--modes takes auto, direct, staged and staged-<size> (staged-4k), not " + mode);
    }

    /** {@code 4096}, {@code 4k}, {@code 1m}. */
    static long bytes(final String text)
    {
        final String t = text.trim().toLowerCase(Locale.ROOT);
        final long unit = t.endsWith("k") ? 1024 : t.endsWith("m") ? 1 << 20 : 1;
        return Long.parseLong(unit == 1 ? t : t.substring(0, t.length() - 1)) * unit;
    }

    /**
     * Runs the exchanges between ranks 0 and 1 of {@code world}; rank 0 prints the table on {@code out}.
     *
     * @return false if the datatype and manual methods left different buffers (printed)
     */
    public static boolean run(final Mpi mpi, final Comm world, final Options options, final PrintStream out)
    {
        if (world.size() < 2)
        {
            out.println("ddt-pingpong: needs at least 2 ranks, have " + world.size());
            return false;
        }
        return new DdtPingPong(mpi, world, options, out).run();
    }

    private boolean run()
    {
        final int rank = world.rank();
        if (rank == 0)
        {
            out.println("# DDTBench exchange (jmpi, issue 11): " + (options.label().isEmpty() ? "" : options.label() + ", ") +
                "buffers=" + (options.arena() ? "arena" : "heap") + ", iterations=" + options.iterations() + ", warmup=" +
                options.warmup() + "; us per iteration (one ping-pong, round trip)");
            out.println(String.format(Locale.ROOT, "# %-14s %-8s %10s %-9s %11s %11s %11s %11s %11s", "pattern", "size", "bytes", "method",
                "mean(us)", "median(us)", "min(us)", "p90(us)", "max(us)"));
        }
        for (final String mode : options.modes())
        {
            final Comm c = world.dup();
            c.setInfo(modeHints(mode));
            modeComms.add(c);
        }
        boolean ok = true;
        for (final String name : options.patterns())
        {
            if (options.sweepBytes().length > 0)
            {
                final DdtPattern middle = DdtPatterns.create(name, DdtSize.MIDDLE);
                DdtPattern largest = null;
                for (final long bytes : options.sweepBytes())
                {
                    if (middle.bytes() < bytes && largest == null)
                    {
                        largest = DdtPatterns.create(name, DdtSize.LARGEST);
                    }
                    sweepPoint(middle.bytes() >= bytes ? middle : largest, bytes);
                }
                continue;
            }
            for (final DdtSize size : options.sizes())
            {
                if (rank <= 1)
                {
                    ok &= exchange(name, size);
                }
            }
        }
        world.barrier();
        for (final Comm c : modeComms)
        {
            c.free();
        }
        return ok;
    }

    /**
     * The Figure 5/15 point: the pattern's layout (middle size where it is long enough, else largest) cut to
     * {@code bytes}, datatype only; skipped when even the largest message is shorter.
     */
    private void sweepPoint(final DdtPattern p, final long bytes)
    {
        if (p.bytes() < bytes || world.rank() > 1)
        {
            return;
        }
        final Datatype send = PrefixLayout.of(p, p.sendOffset(), p.sendCount(), p.sendType(), bytes);
        final Datatype recv = PrefixLayout.of(p, p.recvOffset(), p.recvCount(), p.recvType(), bytes);
        if (modeComms.isEmpty())
        {
            final Exchange e = datatype(p, send, recv);
            try
            {
                time(p.name(), "sweep", bytes, List.of(e));
            }
            finally
            {
                free(e);
            }
        }
        else
        {
            alternated(p, send, recv, bytes);
        }
    }

    /**
     * The sweep point under every {@code --modes} entry in one job: each mode's communicator warmed up, then
     * {@code --alternations} rounds, each running every mode's share of the iterations in an order that rotates; one
     * line per mode.
     */
    private void alternated(final DdtPattern p, final Datatype send, final Datatype recv, final long bytes)
    {
        final int rank = world.rank();
        p.fill(rank == 0 ? RANK0_BASE : RANK1_BASE);
        final ByteBuffer memory = options.arena() ? mpi.allocMem(p.bufferLength() * (int)p.element().size()) : null;
        try
        {
            final Object buffer = memory == null ? p.buffer() : copyIn(p.buffer(), memory);
            final int modes = modeComms.size();
            final Runnable[] iterations = new Runnable[modes];
            for (int m = 0; m < modes; m++)
            {
                iterations[m] = pingPong(modeComms.get(m), buffer, p, send, recv);
            }
            for (int m = 0; m < modes; m++)
            {
                for (int i = 0; i < options.warmup(); i++)
                {
                    iterations[m].run();
                }
            }
            final int alternations = options.alternations();
            final int share = Math.max(1, (options.iterations() + alternations - 1) / alternations);
            final long[][] ns = new long[modes][share * alternations];
            for (int round = 0; round < alternations; round++)
            {
                for (int k = 0; k < modes; k++)
                {
                    final int m = (k + round) % modes;
                    for (int i = 0; i < share; i++)
                    {
                        final long t0 = System.nanoTime();
                        iterations[m].run();
                        ns[m][round * share + i] = System.nanoTime() - t0;
                    }
                }
            }
            for (int m = 0; m < modes; m++)
            {
                report(p.name(), "sweep", bytes, options.modes().get(m).trim(), ns[m], 0);
            }
        }
        finally
        {
            if (memory != null)
            {
                mpi.freeMem(memory);
            }
        }
    }

    /** One ping-pong of the datatype method on {@code comm} (count 1 of the cut layouts). */
    private Runnable pingPong(final Comm comm, final Object buffer, final DdtPattern p, final Datatype send, final Datatype recv)
    {
        final int t = ++tag;
        return world.rank() == 0 ? () ->
        {
            comm.send(buffer, (int)p.sendOffset(), 1, send, 1, t);
            comm.recv(buffer, (int)p.recvOffset(), 1, recv, 1, t);
        } : () ->
        {
            comm.recv(buffer, (int)p.recvOffset(), 1, recv, 0, t);
            comm.send(buffer, (int)p.sendOffset(), 1, send, 0, t);
        };
    }

    /** One method's ping-pong of one pattern: the iteration, this rank's buffer after its checked first run, arena memory. */
    private record Exchange(String method, Runnable iteration, byte[] after, ByteBuffer memory)
    {
    }

    /**
     * DDTBench's size {@code size} of pattern {@code name} by every method (ranks 0 and 1): each method's first
     * ping-pong from the same initial data, the buffers compared, then every method warmed up and timed alternately in
     * {@code --alternations} rounds (the order rotating), so that the datatype and manual methods meet the same JIT
     * state, placement and load, as Figure 5's modes do: run one after the other, a drift of the machine between the two
     * decided the 4-13 KB cells, whose methods differ by a few per cent. Returns false on a mismatch (printed).
     */
    private boolean exchange(final String name, final DdtSize size)
    {
        final List<Exchange> exchanges = new ArrayList<>();
        try
        {
            boolean ok = true;
            long bytes = 0;
            for (final String method : options.methods())
            {
                final DdtPattern p = DdtPatterns.create(name, size);
                bytes = p.bytes();
                final Exchange e = method.equals("manual") ? manual(p) : datatype(p, p.sendType(), p.recvType());
                exchanges.add(e);
                final byte[] first = exchanges.get(0).after();
                if (!Arrays.equals(first, e.after()))
                {
                    ok = false;
                    out.println("ddt-pingpong: " + name + " " + size + " MISMATCH on rank " + world.rank() + ": " + method +
                        " left a different buffer than " + options.methods().get(0) + " at byte " + Arrays.mismatch(first, e.after()));
                }
            }
            time(name, size.name(), bytes, exchanges);
            return ok;
        }
        finally
        {
            for (final Exchange e : exchanges)
            {
                free(e);
            }
        }
    }

    private void free(final Exchange e)
    {
        if (e.memory() != null)
        {
            mpi.freeMem(e.memory());
        }
    }

    /**
     * The datatype method: its iteration after one checked ping-pong. {@code send} and {@code recv} are used with count
     * 1 when they are not the pattern's own types.
     */
    private Exchange datatype(final DdtPattern p, final Datatype send, final Datatype recv)
    {
        final int rank = world.rank();
        p.fill(rank == 0 ? RANK0_BASE : RANK1_BASE);
        final boolean own = send == p.sendType();
        final int sendCount = own ? p.sendCount() : 1;
        final int recvCount = own ? p.recvCount() : 1;
        final ByteBuffer memory = options.arena() ? mpi.allocMem(p.bufferLength() * (int)p.element().size()) : null;
        try
        {
            final Object buffer = memory == null ? p.buffer() : copyIn(p.buffer(), memory);
            final int t = ++tag;
            final Runnable iteration = rank == 0 ? () ->
            {
                world.send(buffer, (int)p.sendOffset(), sendCount, send, 1, t);
                world.recv(buffer, (int)p.recvOffset(), recvCount, recv, 1, t);
            } : () ->
            {
                world.recv(buffer, (int)p.recvOffset(), recvCount, recv, 0, t);
                world.send(buffer, (int)p.sendOffset(), sendCount, send, 0, t);
            };
            iteration.run();
            copyBack(buffer, p.buffer());
            return new Exchange("datatype", iteration, p.bufferBytes(), memory);
        }
        catch (final RuntimeException | Error ex)
        {
            if (memory != null)
            {
                mpi.freeMem(memory);
            }
            throw ex;
        }
    }

    /** The manual method: hand packing into a contiguous array (put into arena memory for {@code --buffers arena}). */
    private Exchange manual(final DdtPattern p)
    {
        final int rank = world.rank();
        p.fill(rank == 0 ? RANK0_BASE : RANK1_BASE);
        final Object packed = p.newPackBuffer();
        final int elements = (int)(p.bytes() / p.element().size());
        final ByteBuffer memory = options.arena() ? mpi.allocMem(elements * (int)p.element().size()) : null;
        try
        {
            final boolean viaArena = memory != null;
            final Object wire = viaArena ? copyIn(packed, memory) : packed;
            final Datatype element = p.element();
            final int t = ++tag;
            final Runnable iteration = rank == 0 ? () ->
            {
                p.packManual(packed);
                if (viaArena)
                {
                    copyIn(packed, wire);
                }
                world.send(wire, 0, elements, element, 1, t);
                world.recv(wire, 0, elements, element, 1, t);
                copyBack(wire, packed);
                p.unpackManual(packed);
            } : () ->
            {
                world.recv(wire, 0, elements, element, 0, t);
                copyBack(wire, packed);
                p.unpackManual(packed);
                p.packManual(packed);
                if (viaArena)
                {
                    copyIn(packed, wire);
                }
                world.send(wire, 0, elements, element, 0, t);
            };
            iteration.run();
            return new Exchange("manual", iteration, p.bufferBytes(), memory);
        }
        catch (final RuntimeException | Error ex)
        {
            if (memory != null)
            {
                mpi.freeMem(memory);
            }
            throw ex;
        }
    }

    /**
     * Warm-up of each exchange, then {@code --iterations} timed iterations of each, alternated in {@code --alternations}
     * rounds whose order rotates; rank 0 prints one line per exchange (with {@code --samples}, from the first round's start).
     */
    private void time(final String name, final String size, final long bytes, final List<Exchange> exchanges)
    {
        for (final Exchange e : exchanges)
        {
            for (int i = 0; i < options.warmup(); i++)
            {
                e.iteration().run();
            }
        }
        final int count = exchanges.size();
        final int iterations = Math.max(1, options.iterations());
        final int rounds = Math.min(options.alternations(), iterations);
        final long[][] ns = new long[count][iterations];
        final long startMs = System.currentTimeMillis();
        for (int round = 0; round < rounds; round++)
        {
            final int from = (int)((long)iterations * round / rounds);
            final int to = (int)((long)iterations * (round + 1) / rounds);
            for (int k = 0; k < count; k++)
            {
                final int m = (k + round) % count;
                final Runnable iteration = exchanges.get(m).iteration();
                for (int i = from; i < to; i++)
                {
                    final long t0 = System.nanoTime();
                    iteration.run();
                    ns[m][i] = System.nanoTime() - t0;
                }
            }
        }
        for (int m = 0; m < count; m++)
        {
            report(name, size, bytes, exchanges.get(m).method(), ns[m], startMs);
        }
    }

    /** Rank 0 prints the line of {@code ns} (and with {@code --samples} every sample, from {@code startMs} when known). */
    private void report(final String name, final String size, final long bytes, final String method, final long[] ns, final long startMs)
    {
        if (world.rank() == 0)
        {
            final long[] sorted = ns.clone();
            Arrays.sort(sorted);
            out.println(String.format(Locale.ROOT, "  %-14s %-8s %10d %-9s %11.2f %11.2f %11.2f %11.2f %11.2f", name, size, bytes, method,
                mean(ns) / 1e3, median(ns) / 1e3, sorted[0] / 1e3, sorted[(int)Math.ceil(0.9 * sorted.length) - 1] / 1e3,
                sorted[sorted.length - 1] / 1e3));
            if (options.samples())
            {
                final StringBuilder sb = new StringBuilder("#   samples(us) from epoch ms " + startMs + ":");
                for (final long v : ns)
                {
                    sb.append(' ').append(v / 1000);
                }
                out.println(sb);
            }
        }
    }

    static double mean(final long[] values)
    {
        return Arrays.stream(values).average().orElse(Double.NaN);
    }

    static double median(final long[] values)
    {
        final long[] sorted = values.clone();
        Arrays.sort(sorted);
        final int n = sorted.length;
        return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2.0;
    }

    /** A typed view of {@code memory} (or {@code memory} itself, a view) holding {@code array}'s values. */
    private static Buffer copyIn(final Object array, final Object memory)
    {
        return switch (array)
        {
            case float[] a -> memory instanceof FloatBuffer f ? f.put(0, a) : ((ByteBuffer)memory).asFloatBuffer().put(0, a);
            case double[] a -> memory instanceof DoubleBuffer d ? d.put(0, a) : ((ByteBuffer)memory).asDoubleBuffer().put(0, a);
            default -> throw new IllegalStateException("pattern buffer " + array.getClass());
        };
    }

    /** Copies a view made by {@link #copyIn} back into {@code array}; nothing when {@code buffer} is the array. */
    private static void copyBack(final Object buffer, final Object array)
    {
        switch (buffer)
        {
            case FloatBuffer b -> b.get(0, (float[])array);
            case DoubleBuffer b -> b.get(0, (double[])array);
            default ->
            {
                // the array itself
            }
        }
    }
}
