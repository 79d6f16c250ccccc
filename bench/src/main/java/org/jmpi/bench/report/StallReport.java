package org.jmpi.bench.report;

import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedThread;
import jdk.jfr.consumer.RecordingFile;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * What was going on during the slow iterations of a DDTBench exchange between threads (issue 11, docs/pvas.md,
 * "The millisecond stalls between threads"): reads DdtPingPong's output run with {@code --samples} (every timed
 * iteration and the wall-clock start of each cell) and a flight recording of the same JVM made with
 * bench/jfr-stalls.jfc, and prints, per cell, how many iterations took at least {@code --slow-us} (default 1,000 µs)
 * and how many of those overlapped:
 * <ol>
 * <li>a JIT compilation (any, and one by C2) on the compiler threads, which are not bound and share a core with a
 * bound rank;</li>
 * <li>a garbage collection pause;</li>
 * <li>a late wake-up: a rank thread's park that lasted at least {@code --late-us} (default 500 µs) beyond its
 * timeout (the engine parks for at most 100 µs), that is a rank that could run but got no CPU in time: a busy core,
 * or a halted vCPU (the guest's halt polling is off, {@code haltpoll.guest_halt_poll_ns=0}) that the host woke
 * late.</li>
 * </ol>
 * An iteration may count in several columns. Iteration start times are reconstructed from the cell's start and the
 * durations (the loop adds well under a µs per iteration).
 * <p>Usage: {@code java -cp 'bench/target/classes:bench/target/lib/*' org.jmpi.bench.report.StallReport OUTPUT.txt
 * RECORDING.jfr [--slow-us N] [--late-us N]}
 */
public final class StallReport
{
    private static final String SAMPLES = "#   samples(us) from epoch ms ";

    /** One timed cell: its result line and the start (epoch ns) and length (ns) of each iteration. */
    record Cell(String line, long[] startNs, long[] lengthNs)
    {
    }

    /** An interval of wall-clock time (epoch ns) of an event, with what it was. */
    record Span(long fromNs, long toNs, String kind)
    {
        boolean overlaps(final long from, final long to)
        {
            return fromNs < to && toNs > from;
        }
    }

    private StallReport()
    {
    }

    public static void main(final String[] args) throws IOException
    {
        if (args.length < 2)
        {
            throw new IllegalArgumentException("usage: StallReport OUTPUT.txt RECORDING.jfr [--slow-us N] [--late-us N]");
        }
        long slowUs = 1000;
        long lateUs = 500;
        for (int i = 2; i + 1 < args.length; i += 2)
        {
            switch (args[i])
            {
                case "--slow-us" -> slowUs = Long.parseLong(args[i + 1]);
                case "--late-us" -> lateUs = Long.parseLong(args[i + 1]);
                default -> throw new IllegalArgumentException("unknown option " + args[i]);
            }
        }
        final List<Cell> cells = cells(Files.readAllLines(Path.of(args[0])));
        final List<Span> spans = spans(Path.of(args[1]), lateUs * 1000);
        System.out.print(report(cells, spans, slowUs * 1000));
    }

    /** The cells of a DdtPingPong output with {@code --samples}: each result line followed by its samples line. */
    static List<Cell> cells(final List<String> lines)
    {
        final List<Cell> cells = new ArrayList<>();
        for (int i = 1; i < lines.size(); i++)
        {
            final String line = lines.get(i);
            if (!line.startsWith(SAMPLES))
            {
                continue;
            }
            final int colon = line.indexOf(':', SAMPLES.length());
            final long startMs = Long.parseLong(line.substring(SAMPLES.length(), colon).trim());
            final long[] lengths = Arrays.stream(line.substring(colon + 1).trim().split("\\s+")).mapToLong(v -> Long.parseLong(v) * 1000).toArray();
            final long[] starts = new long[lengths.length];
            long at = startMs * 1_000_000;
            for (int k = 0; k < lengths.length; k++)
            {
                starts[k] = at;
                at += lengths[k];
            }
            cells.add(new Cell(lines.get(i - 1).trim(), starts, lengths));
        }
        return cells;
    }

    /** Compilations ("jit", "c2"), GC pauses ("gc") and rank parks late by at least {@code lateNs} ("late") in a recording. */
    static List<Span> spans(final Path recording, final long lateNs) throws IOException
    {
        final List<Span> spans = new ArrayList<>();
        for (final RecordedEvent e : RecordingFile.readAllEvents(recording))
        {
            final long from = epochNs(e.getStartTime());
            final long to = epochNs(e.getEndTime());
            switch (e.getEventType().getName())
            {
                case "jdk.Compilation" ->
                {
                    spans.add(new Span(from, to, "jit"));
                    if (e.hasField("compileLevel") && e.getInt("compileLevel") == 4)
                    {
                        spans.add(new Span(from, to, "c2"));
                    }
                }
                case "jdk.GarbageCollection" -> spans.add(new Span(from, to, "gc"));
                case "jdk.ThreadPark" ->
                {
                    final RecordedThread thread = e.getThread();
                    final Duration timeout = e.getDuration("timeout");
                    final long allowedNs = timeout.isNegative() || timeout.isZero() ? Long.MAX_VALUE : timeout.toNanos();
                    if (thread != null && thread.getJavaName() != null && thread.getJavaName().startsWith("jmpi-rank") &&
                        allowedNs != Long.MAX_VALUE && to - from - allowedNs >= lateNs)
                    {
                        spans.add(new Span(from, to, "late"));
                    }
                }
                default ->
                {
                    // not a cause looked at
                }
            }
        }
        return spans;
    }

    private static long epochNs(final java.time.Instant t)
    {
        return t.getEpochSecond() * 1_000_000_000L + t.getNano();
    }

    /** The table: per cell, its slow iterations and how many overlapped each kind of span. */
    static String report(final List<Cell> cells, final List<Span> spans, final long slowNs)
    {
        final String[] kinds = {"jit", "c2", "gc", "late"};
        final StringBuilder sb = new StringBuilder(String.format(Locale.ROOT, "# iterations >= %d us, and of those how many overlapped: a JIT "
            + "compilation (any / C2), a GC pause, a rank's late wake-up%n", slowNs / 1000));
        sb.append(String.format(Locale.ROOT, "# %-50s %6s %6s %6s %6s %6s %6s%n", "cell", "iters", "slow", "jit", "c2", "gc", "late"));
        for (final Cell c : cells)
        {
            final int[] counts = new int[kinds.length];
            int slow = 0;
            for (int i = 0; i < c.lengthNs().length; i++)
            {
                if (c.lengthNs()[i] < slowNs)
                {
                    continue;
                }
                slow++;
                final long from = c.startNs()[i];
                final long to = from + c.lengthNs()[i];
                for (int k = 0; k < kinds.length; k++)
                {
                    for (final Span s : spans)
                    {
                        if (s.kind().equals(kinds[k]) && s.overlaps(from, to))
                        {
                            counts[k]++;
                            break;
                        }
                    }
                }
            }
            final String[] f = c.line().split("\\s+");
            final String name = f.length >= 4 ? f[0] + " " + f[1] + " " + f[3] : c.line();
            sb.append(String.format(Locale.ROOT, "  %-50s %6d %6d %6d %6d %6d %6d%n", name, c.lengthNs().length, slow, counts[0], counts[1], counts[2],
                counts[3]));
        }
        return sb.toString();
    }
}
