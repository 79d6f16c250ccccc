package org.jmpi.internal.coll;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicLong;

import org.jmpi.Datatype;
import org.jmpi.internal.datatype.BufferView;
import org.jmpi.internal.datatype.Convertor;
import org.jmpi.internal.engine.ProgressEngine;

/**
 * The cost model that chooses between the put-based and the get-based persistent schedules
 * ({@link DirectPersistent}), and its calibration. See docs/collectives.md, "Put- and get-based persistent
 * schedules".
 * <ol>
 * <li>Calibrate (or load a saved calibration, {@code jmpi.coll.persistent.calibration}; whatever the file
 * lacks is measured and then written there):
 * <ul>
 * <li>t_sync(P), once per rank count P: one counter handoff through the mechanism the schedules use. P
 * threads, each driving its own {@link ProgressEngine} with the job's idle tuning, pass a token round a ring:
 * each waits in {@link ProgressEngine#await} (spin, yield, park) until its counter reaches the hop number,
 * then bumps the next thread's counter and wakes that engine. With P threads on fewer cores a handoff costs
 * a wake-up and a scheduling delay, which is why it depends on P.</li>
 * <li>t_put(n) and t_get(n), once: a fixed cost plus a cost per byte, fitted through two sizes (64 B and
 * 256 KiB) of a convertor copy into, and from, a buffer another thread allocated, timed in turn.</li>
 * </ul>
 * Each is the median of 11 batches, so that a preemption on a shared machine does not decide it.</li>
 * <li>Model what the code does in a loop of starts (what persistent requests are for), with L = ceil(log2 P)
 * (the deepest leaf of a binomial tree). A signal that only says a rank has started (put's {@code ready}) is
 * off the critical path: the rank restarts as soon as it completes, before its peer gets to it. Signals that
 * carry data or hand a region back are on it.
 * <ul>
 * <li>bcast: put = L*t_put(n) + L*t_sync: one copy and one data signal per level; get = L*t_get(n) +
 * (L+1)*t_sync: one signal and one copy per level, plus the last reader's signal its parent waits for before
 * completing. (The RDMA design's 2*t_sync for get assumes a reader waits for one "ready" only; in this tree
 * every level waits for its parent's data.)</li>
 * <li>reduce (to rank 0): put = L*t_put(n) + L*t_sync (each child copies its operand into its parent's slot);
 * get = (L+1)*t_sync for a commutative op (the parent combines straight from the child's memory: no copy;
 * the last signal hands the child's accumulator back), plus L*t_get(n) for a non-commutative one (a private
 * copy first). The arithmetic is the same in both and drops out. A root other than 0 adds one copy and one
 * signal to both.</li>
 * <li>allreduce = the reduce without its hand-back signal + bcast. Barrier (counters only) = L*t_sync for
 * both.</li>
 * <li>gather, scatter (flat, n bytes per block, C cores): the copies are made by the P-1 other ranks at once,
 * ceil((P-1)/C) rounds (gather put, scatter get), or all by the root, P-1 in a row (gather get, scatter put);
 * put waits for one signal (the data), get for two (the data, then the region handed back).</li>
 * <li>allgather (flat): every rank copies P-1 blocks; put waits for the arrivals, get for the blocks and for
 * its own block handed back.</li>
 * </ul></li>
 * <li>Pick the cheaper; a tie (within 10%) goes to get.</li>
 * </ol>
 * All ranks of a job share one calibration (the job's shared map), so they always choose alike.
 *
 * <p>Immutable results; any thread.
 */
public final class PersistentCostModel
{
    /** Measured constants, in nanoseconds; {@code syncNs} is the handoff at {@code ranks} ranks. */
    public record Calibration(int ranks, double syncNs, double putFixedNs, double putPerByteNs, double getFixedNs, double getPerByteNs)
    {
        public double putNs(final long bytes)
        {
            return putFixedNs + putPerByteNs * bytes;
        }

        public double getNs(final long bytes)
        {
            return getFixedNs + getPerByteNs * bytes;
        }

        @Override
        public String toString()
        {
            return String.format(Locale.ROOT, "P=%d: t_sync=%.0f ns, t_put=%.0f ns + %.4f ns/B, t_get=%.0f ns + %.4f ns/B", ranks, syncNs,
                putFixedNs, putPerByteNs, getFixedNs, getPerByteNs);
        }
    }

    /** The copy constants (independent of the rank count). */
    record Copies(double putFixedNs, double putPerByteNs, double getFixedNs, double getPerByteNs)
    {
        Calibration with(final int ranks, final double syncNs)
        {
            return new Calibration(ranks, syncNs, putFixedNs, putPerByteNs, getFixedNs, getPerByteNs);
        }
    }

    private static final String SHARED_KEY = "coll.direct.calibration.";
    /**
     * Relative difference below which put and get are a tie: repeated calibrations of the copies on the 2-vCPU
     * shared machine (PersistentPutGetBench, docs/collectives.md) differ by more than this from run to run.
     */
    private static final double TIE_BAND = 0.10;
    /** Batches per measurement: the median batch is kept, so a preemption (a shared machine) does not skew it. */
    private static final int BATCHES = 11;
    private static final int SYNC_HOPS = 50;
    private static final int SYNC_WARMUP_HOPS = 200;
    private static final int SMALL_BYTES = 64;
    /** Larger than a core's L2 here, as the messages where put and get differ are. */
    private static final int LARGE_BYTES = 256 * 1024;
    /** Copies per batch of the large size (ten times as many of the small one). */
    private static final int COPY_REPS = 8;
    /** Rounds of copies before timing, so that the JIT has compiled the copy loops. */
    private static final int COPY_WARMUP = 5_000;
    /** The idle tuning of an engine outside a job (CoreParams' defaults). */
    private static final ProgressEngine.IdleSpec DEFAULT_IDLE = new ProgressEngine.IdleSpec(10_000, 100, ProgressEngine.OVERSUBSCRIBED_SPIN_BURST, 1_000, 100_000);
    /** Serialises reading and rewriting of calibration files. */
    private static final Object FILE_LOCK = new Object();

    private PersistentCostModel()
    {
    }

    /** As {@link #calibration(Map, String, int, ProgressEngine.IdleSpec)} with the default idle tuning (benchmarks, outside a job). */
    public static Calibration calibration(final String file, final int ranks)
    {
        return calibration(null, file, ranks, DEFAULT_IDLE);
    }

    /**
     * The calibration for {@code ranks} ranks whose engines idle with {@code idle}: the job's (measured or loaded
     * once per job and rank count, kept in {@code shared}, the in-JVM job's shared structures); with a null
     * {@code shared} measured afresh (or loaded).
     */
    public static Calibration calibration(final Map<String, Object> shared, final String file, final int ranks,
        final ProgressEngine.IdleSpec idle)
    {
        if (shared == null)
        {
            return loadOrMeasure(file, ranks, idle);
        }
        final Calibration copies = (Calibration)shared.computeIfAbsent(SHARED_KEY + "copies", k -> loadOrMeasure(file, 0, idle));
        final Double sync = (Double)shared.computeIfAbsent(SHARED_KEY + "sync." + ranks, k -> loadOrMeasure(file, ranks, idle).syncNs());
        return new Calibration(ranks, sync, copies.putFixedNs(), copies.putPerByteNs(), copies.getFixedNs(), copies.getPerByteNs());
    }

    /** Rounds of {@code copies} copies made by as many threads on this machine's cores. */
    private static int parallel(final int copies)
    {
        final int cores = Math.max(1, Runtime.getRuntime().availableProcessors());
        return (copies + cores - 1) / cores;
    }

    /** ceil(log2 size): the depth of a binomial tree. */
    static int depth(final int size)
    {
        return size <= 1 ? 0 : 32 - Integer.numberOfLeadingZeros(size - 1);
    }

    /**
     * Modelled time of {@code call} ("bcast", "reduce", "allreduce", "barrier", "gather", "scatter" or "allgather") with {@code put} or get on
     * {@code size} ranks, {@code bytes} per rank, in ns ({@code commutative}: the reduction's op).
     */
    public static double costNs(final String call, final boolean put, final int size, final long bytes, final boolean commutative,
        final Calibration c)
    {
        final int l = depth(size);
        if (l == 0)
        {
            return 0;
        }
        final double t = c.syncNs();
        final double copy = put ? c.putNs(bytes) : c.getNs(bytes);
        // Signals on the critical path of a start in a start loop: put waits for data only (the child's ready is
        // set when it restarts, before its parent gets to it); get also waits for the last reader's signal.
        final double bcast = l * copy + (put ? l : l + 1) * t;
        final double reduceUp = put ? l * copy + l * t : (commutative ? 0 : l * copy) + l * t;
        return switch (call)
        {
            case "bcast" -> bcast;
            case "reduce" -> put ? reduceUp : reduceUp + t;
            case "allreduce" -> reduceUp + bcast;
            case "barrier" -> l * t;
            case "allgather" -> (put ? t : 2 * t) + (size - 1) * copy;
            case "gather" -> (put ? t : 2 * t) + (put ? parallel(size - 1) : size - 1) * copy;
            case "scatter" -> (put ? t : 2 * t) + (put ? size - 1 : parallel(size - 1)) * copy;
            default -> throw new IllegalArgumentException("no put/get cost model for " + call);
        };
    }

    /**
     * "put" or "get": the cheaper under the model. A tie goes to get: costs within {@link #TIE_BAND} of each
     * other are a tie, since the copy calibration does not resolve smaller differences (put and get run the
     * same copy kernel on the same memory here).
     */
    public static String choose(final String call, final int size, final long bytes, final boolean commutative, final Calibration c)
    {
        final double put = costNs(call, true, size, bytes, commutative, c);
        final double get = costNs(call, false, size, bytes, commutative, c);
        return put < get * (1 - TIE_BAND) ? "put" : "get";
    }

    /**
     * Loads what {@code file} holds and measures the rest (the copies, and t_sync at {@code ranks} unless 0),
     * then writes back whatever was measured.
     */
    private static Calibration loadOrMeasure(final String file, final int ranks, final ProgressEngine.IdleSpec idle)
    {
        if (file == null || file.isEmpty())
        {
            final Copies copies = measureCopies();
            return copies.with(ranks, ranks > 0 ? measureSyncNs(ranks, idle) : 0);
        }
        synchronized (FILE_LOCK)
        {
            final Path path = Path.of(file);
            final Properties p = new Properties();
            if (Files.isReadable(path))
            {
                try (InputStream in = Files.newInputStream(path))
                {
                    p.load(in);
                }
                catch (final IOException | RuntimeException ex)
                {
                    p.clear(); // an unreadable file: measure instead and rewrite it below
                }
            }
            boolean measured = false;
            Copies copies = parseCopies(p);
            if (copies == null)
            {
                copies = measureCopies();
                p.setProperty("put_fixed_ns", Double.toString(copies.putFixedNs()));
                p.setProperty("put_per_byte_ns", Double.toString(copies.putPerByteNs()));
                p.setProperty("get_fixed_ns", Double.toString(copies.getFixedNs()));
                p.setProperty("get_per_byte_ns", Double.toString(copies.getPerByteNs()));
                measured = true;
            }
            double sync = 0;
            if (ranks > 0)
            {
                final String key = "sync_ns." + ranks;
                final Double loaded = parse(p, key);
                if (loaded == null)
                {
                    sync = measureSyncNs(ranks, idle);
                    p.setProperty(key, Double.toString(sync));
                    measured = true;
                }
                else
                {
                    sync = loaded;
                }
            }
            if (measured)
            {
                try (OutputStream out = Files.newOutputStream(path))
                {
                    p.store(out, "jmpi persistent put/get calibration (jmpi.coll.persistent.calibration); sync_ns.P: handoff at P ranks");
                }
                catch (final IOException ex)
                {
                    // Not fatal: the measured calibration is used for this job all the same.
                }
            }
            return copies.with(ranks, sync);
        }
    }

    static Copies parseCopies(final Properties p)
    {
        final Double putFixed = parse(p, "put_fixed_ns");
        final Double putPerByte = parse(p, "put_per_byte_ns");
        final Double getFixed = parse(p, "get_fixed_ns");
        final Double getPerByte = parse(p, "get_per_byte_ns");
        return putFixed == null || putPerByte == null || getFixed == null || getPerByte == null ? null :
            new Copies(putFixed, putPerByte, getFixed, getPerByte);
    }

    static Double parse(final Properties p, final String key)
    {
        final String v = p.getProperty(key);
        if (v == null)
        {
            return null;
        }
        try
        {
            return Double.parseDouble(v.trim());
        }
        catch (final NumberFormatException ex)
        {
            return null;
        }
    }

    /** Measures t_sync at {@code ranks} ranks, t_put and t_get on this machine now (milliseconds). */
    public static Calibration measure(final int ranks)
    {
        final Copies copies = measureCopies();
        return copies.with(ranks, measureSyncNs(ranks, DEFAULT_IDLE));
    }

    /**
     * t_put and t_get: each batch times the four copies (put and get, small and large) in turn, so that the JIT
     * compiling or the machine's load changing during the measurement biases neither side; the median batch of
     * each is kept.
     */
    private static Copies measureCopies()
    {
        final byte[][] peer = new byte[1][];
        final Thread owner = Thread.ofPlatform().daemon().start(() ->
        {
            final byte[] b = new byte[LARGE_BYTES];
            Arrays.fill(b, (byte)1);
            peer[0] = b;
        });
        join(owner);
        final byte[] remote = peer[0];
        final byte[] local = new byte[LARGE_BYTES];
        final AtomicLong flag = new AtomicLong();
        final Convertor[][] pairs = {
            pair(local, remote, SMALL_BYTES), pair(local, remote, LARGE_BYTES), pair(remote, local, SMALL_BYTES), pair(remote, local, LARGE_BYTES)};
        for (int i = 0; i < COPY_WARMUP; i++)
        {
            for (int k = 0; k < pairs.length; k++)
            {
                // The small copies often (the JIT compiles the loops after a few thousand calls), the large ones now and then.
                if (k % 2 == 0 || i % 20 == 0)
                {
                    copyOnce(pairs[k], flag, k < 2, i);
                }
            }
        }
        final double[][] batches = new double[pairs.length][BATCHES];
        for (int b = 0; b < BATCHES; b++)
        {
            for (int k = 0; k < pairs.length; k++)
            {
                final int reps = k % 2 == 0 ? COPY_REPS * 10 : COPY_REPS;
                final long start = System.nanoTime();
                for (int i = 0; i < reps; i++)
                {
                    copyOnce(pairs[k], flag, k < 2, i);
                }
                batches[k][b] = (System.nanoTime() - start) / (double)reps;
            }
        }
        final double putSmall = median(batches[0]);
        final double putLarge = median(batches[1]);
        final double getSmall = median(batches[2]);
        final double getLarge = median(batches[3]);
        final double putPerByte = Math.max(0, (putLarge - putSmall) / (LARGE_BYTES - SMALL_BYTES));
        final double getPerByte = Math.max(0, (getLarge - getSmall) / (LARGE_BYTES - SMALL_BYTES));
        return new Copies(Math.max(0, putSmall - putPerByte * SMALL_BYTES), putPerByte, Math.max(0, getSmall - getPerByte * SMALL_BYTES),
            getPerByte);
    }

    private static Convertor[] pair(final byte[] from, final byte[] to, final int bytes)
    {
        return new Convertor[] {
            Convertor.create(BufferView.of(from, "calibration"), 0, bytes, Datatype.BYTE),
            Convertor.createForReceive(BufferView.of(to, "calibration"), 0, bytes, Datatype.BYTE)};
    }

    /** One copy of a step: put, the copy then the counter store; get, the counter load then the copy. */
    private static void copyOnce(final Convertor[] pair, final AtomicLong flag, final boolean put, final long i)
    {
        if (put)
        {
            Convertor.copy(pair[0], pair[1], 0, pair[0].totalBytes());
            flag.set(i);
        }
        else if (flag.get() >= 0)
        {
            Convertor.copy(pair[0], pair[1], 0, pair[0].totalBytes());
        }
    }

    private static double median(final double[] values)
    {
        Arrays.sort(values);
        return values[values.length / 2];
    }

    /**
     * One counter handoff between rank engines, at {@code ranks} ranks:
     * <ol>
     * <li>Start {@code ranks} threads, each driving a direct-mode {@link ProgressEngine} with {@code idle},
     * polling its own counter as a schedule's step would.</li>
     * <li>Pass a token round the ring: hop h is taken by thread h mod ranks, which waits in its engine until
     * its counter reaches h, stamps the time, sets the next thread's counter to h + 1 and wakes its engine.</li>
     * <li>After SYNC_WARMUP_HOPS, the median over {@link #BATCHES} batches of SYNC_HOPS hops of the time per
     * hop. One rank: 0 (nothing to wait for).</li>
     * </ol>
     */
    static double measureSyncNs(final int ranks, final ProgressEngine.IdleSpec idle)
    {
        if (ranks <= 1)
        {
            return 0;
        }
        final int hops = SYNC_WARMUP_HOPS + BATCHES * SYNC_HOPS + 1;
        final long[] stamps = new long[hops];
        final AtomicLong[] counters = new AtomicLong[ranks];
        final long[][] wants = new long[ranks][1];
        final ProgressEngine[] engines = new ProgressEngine[ranks];
        for (int i = 0; i < ranks; i++)
        {
            final AtomicLong counter = new AtomicLong(i == 0 ? 0 : -1);
            final long[] want = wants[i];
            counters[i] = counter;
            engines[i] = new ProgressEngine(() -> counter.get() >= want[0] ? 1 : 0, false, idle, "jmpi-calibration-" + i);
        }
        final Thread[] threads = new Thread[ranks];
        for (int i = 0; i < ranks; i++)
        {
            final int me = i;
            threads[i] = Thread.ofPlatform().daemon().name("jmpi-calibration-" + i).start(() ->
            {
                final AtomicLong mine = counters[me];
                final int next = (me + 1) % ranks;
                for (long h = me; h < hops; h += ranks)
                {
                    final long hop = h;
                    wants[me][0] = hop;
                    engines[me].await(() -> mine.get() >= hop);
                    stamps[(int)hop] = System.nanoTime();
                    counters[next].set(hop + 1);
                    engines[next].wakeup();
                }
            });
        }
        for (final Thread t : threads)
        {
            join(t);
        }
        final double[] batches = new double[BATCHES];
        for (int b = 0; b < BATCHES; b++)
        {
            final int from = SYNC_WARMUP_HOPS + b * SYNC_HOPS;
            batches[b] = (stamps[from + SYNC_HOPS] - stamps[from]) / (double)SYNC_HOPS;
        }
        return median(batches);
    }

    private static void join(final Thread t)
    {
        try
        {
            t.join();
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
        }
    }
}
