package org.jmpi.internal.coll;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicLong;

import org.jmpi.Datatype;
import org.jmpi.internal.datatype.BufferView;
import org.jmpi.internal.datatype.Convertor;
import org.jmpi.internal.runtime.RankContext;

/**
 * The cost model that chooses between the put-based and the get-based persistent schedules
 * ({@link DirectPersistent}), and its calibration.
 * <ol>
 * <li>Calibrate once per job, at the first persistent collective that needs it (or load a saved calibration,
 * {@code jmpi.coll.persistent.calibration}; a missing file is measured and then written): t_sync is half the
 * round trip of a counter between two threads (one bump seen by the other), t_put and t_get are each a fixed
 * cost plus a cost per byte, fitted through two sizes (64 B and 64 KiB) of a convertor copy into, and from, a
 * buffer another thread allocated. Each is the median of 11 batches, so that a preemption on a shared
 * machine does not decide the choice.</li>
 * <li>Model, with L = ceil(log2 P) (the design this project follows, for a binomial tree):
 * bcast put = L*t_put(n) + (L+1)*t_sync, get = L*t_get(n) + 2*t_sync; allreduce is a reduce and a bcast over
 * the same tree, each costed as a bcast (the reduction's arithmetic is the same for both and drops out).</li>
 * <li>Pick the cheaper; a tie goes to get (fewer counter operations on the critical path).</li>
 * </ol>
 * All ranks of a job share one calibration (the job's shared map), so they always choose alike.
 *
 * <p>Immutable results; any thread.
 */
public final class PersistentCostModel
{
    /** Measured constants, in nanoseconds. */
    public record Calibration(double syncNs, double putFixedNs, double putPerByteNs, double getFixedNs, double getPerByteNs)
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
            return String.format("t_sync=%.0f ns, t_put=%.0f ns + %.4f ns/B, t_get=%.0f ns + %.4f ns/B", syncNs, putFixedNs, putPerByteNs,
                getFixedNs, getPerByteNs);
        }
    }

    private static final String SHARED_KEY = "coll.direct.calibration";
    /** Batches per measurement: the median batch is kept, so a preemption (a shared machine) does not skew it. */
    private static final int BATCHES = 11;
    private static final int SYNC_ROUNDS = 100;
    private static final int SYNC_WARMUP = 100;
    private static final int SMALL_BYTES = 64;
    private static final int LARGE_BYTES = 64 * 1024;
    private static final int COPY_REPS = 20;
    /** Enough copies for the JIT to compile the copy loop before it is timed. */
    private static final int COPY_WARMUP = 500;

    private PersistentCostModel()
    {
    }

    /** The calling rank's job calibration (measured or loaded once per job); measured afresh outside an in-JVM job. */
    public static Calibration calibration(final String file)
    {
        final RankContext context = RankContext.current();
        if (context == null)
        {
            return loadOrMeasure(file);
        }
        return (Calibration)context.job().shared().computeIfAbsent(SHARED_KEY, k -> loadOrMeasure(file));
    }

    /** ceil(log2 size): the depth of a binomial tree. */
    static int depth(final int size)
    {
        return size <= 1 ? 0 : 32 - Integer.numberOfLeadingZeros(size - 1);
    }

    /** Modelled time of {@code call} ("bcast" or "allreduce") with {@code mode} on {@code size} ranks, in ns. */
    public static double costNs(final String call, final boolean put, final int size, final long bytes, final Calibration c)
    {
        final int l = depth(size);
        final double bcast = put ? l * c.putNs(bytes) + (l + 1) * c.syncNs() : l * c.getNs(bytes) + 2 * c.syncNs();
        return call.equals("allreduce") ? 2 * bcast : bcast;
    }

    /** "put" or "get": the cheaper under the model. */
    public static String choose(final String call, final int size, final long bytes, final Calibration c)
    {
        return costNs(call, true, size, bytes, c) < costNs(call, false, size, bytes, c) ? "put" : "get";
    }

    private static Calibration loadOrMeasure(final String file)
    {
        if (file == null || file.isEmpty())
        {
            return measure();
        }
        final Path path = Path.of(file);
        if (Files.isReadable(path))
        {
            final Properties p = new Properties();
            try (InputStream in = Files.newInputStream(path))
            {
                p.load(in);
                return new Calibration(Double.parseDouble(p.getProperty("sync_ns")), Double.parseDouble(p.getProperty("put_fixed_ns")),
                    Double.parseDouble(p.getProperty("put_per_byte_ns")), Double.parseDouble(p.getProperty("get_fixed_ns")),
                    Double.parseDouble(p.getProperty("get_per_byte_ns")));
            }
            catch (final IOException | RuntimeException ex)
            {
                // An unreadable or partial file: measure instead and rewrite it below.
            }
        }
        final Calibration c = measure();
        final Properties p = new Properties();
        p.setProperty("sync_ns", Double.toString(c.syncNs()));
        p.setProperty("put_fixed_ns", Double.toString(c.putFixedNs()));
        p.setProperty("put_per_byte_ns", Double.toString(c.putPerByteNs()));
        p.setProperty("get_fixed_ns", Double.toString(c.getFixedNs()));
        p.setProperty("get_per_byte_ns", Double.toString(c.getPerByteNs()));
        try (OutputStream out = Files.newOutputStream(path))
        {
            p.store(out, "jmpi persistent put/get calibration (jmpi.coll.persistent.calibration)");
        }
        catch (final IOException ex)
        {
            // Not fatal: the measured calibration is used for this job all the same.
        }
        return c;
    }

    /** Measures t_sync, t_put and t_get on this machine now (a few milliseconds). */
    public static Calibration measure()
    {
        final double sync = measureSyncNs();
        final byte[][] peer = new byte[1][];
        final Thread owner = Thread.ofPlatform().daemon().start(() ->
        {
            final byte[] b = new byte[LARGE_BYTES];
            java.util.Arrays.fill(b, (byte)1);
            peer[0] = b;
        });
        join(owner);
        final byte[] remote = peer[0];
        final byte[] local = new byte[LARGE_BYTES];
        final AtomicLong flag = new AtomicLong();
        final double putSmall = copyNs(local, remote, SMALL_BYTES, flag, true);
        final double putLarge = copyNs(local, remote, LARGE_BYTES, flag, true);
        final double getSmall = copyNs(remote, local, SMALL_BYTES, flag, false);
        final double getLarge = copyNs(remote, local, LARGE_BYTES, flag, false);
        final double putPerByte = Math.max(0, (putLarge - putSmall) / (LARGE_BYTES - SMALL_BYTES));
        final double getPerByte = Math.max(0, (getLarge - getSmall) / (LARGE_BYTES - SMALL_BYTES));
        return new Calibration(sync, Math.max(0, putSmall - putPerByte * SMALL_BYTES), putPerByte,
            Math.max(0, getSmall - getPerByte * SMALL_BYTES), getPerByte);
    }

    /**
     * Time of one copy of {@code bytes} with the counter store (put) or load (get) of a step: the median over
     * {@link #BATCHES} batches of the mean of COPY_REPS copies.
     */
    private static double copyNs(final byte[] from, final byte[] to, final int bytes, final AtomicLong flag, final boolean put)
    {
        final Convertor src = Convertor.create(BufferView.of(from, "calibration"), 0, bytes, Datatype.BYTE);
        final Convertor dst = Convertor.createForReceive(BufferView.of(to, "calibration"), 0, bytes, Datatype.BYTE);
        for (int i = 0; i < COPY_WARMUP; i++)
        {
            Convertor.copy(src, dst, 0, bytes);
        }
        final double[] batches = new double[BATCHES];
        for (int b = 0; b < BATCHES; b++)
        {
            final long start = System.nanoTime();
            for (int i = 0; i < COPY_REPS; i++)
            {
                if (put)
                {
                    Convertor.copy(src, dst, 0, bytes);
                    flag.set(i);
                }
                else if (flag.get() >= 0)
                {
                    Convertor.copy(src, dst, 0, bytes);
                }
            }
            batches[b] = (System.nanoTime() - start) / (double)COPY_REPS;
        }
        return median(batches);
    }

    private static double median(final double[] values)
    {
        java.util.Arrays.sort(values);
        return values[values.length / 2];
    }

    /**
     * Half the round trip of a counter between this thread and a helper thread: the median over
     * {@link #BATCHES} batches of SYNC_ROUNDS round trips, after SYNC_WARMUP.
     */
    private static double measureSyncNs()
    {
        final AtomicLong ping = new AtomicLong();
        final AtomicLong pong = new AtomicLong();
        final long total = SYNC_WARMUP + (long)BATCHES * SYNC_ROUNDS;
        final Thread echo = Thread.ofPlatform().daemon().name("jmpi-calibration").start(() ->
        {
            for (long i = 1; i <= total; i++)
            {
                int spins = 0;
                while (ping.get() < i)
                {
                    spins = spin(spins);
                }
                pong.set(i);
            }
        });
        final double[] batches = new double[BATCHES];
        long start = System.nanoTime();
        for (long i = 1; i <= total; i++)
        {
            ping.set(i);
            int spins = 0;
            while (pong.get() < i)
            {
                spins = spin(spins);
            }
            final long done = i - SYNC_WARMUP;
            if (done == 0)
            {
                start = System.nanoTime();
            }
            else if (done > 0 && done % SYNC_ROUNDS == 0)
            {
                final long now = System.nanoTime();
                batches[(int)(done / SYNC_ROUNDS) - 1] = (now - start) / (double)SYNC_ROUNDS / 2;
                start = now;
            }
        }
        join(echo);
        return median(batches);
    }

    private static int spin(final int spins)
    {
        if (spins < 1_000)
        {
            Thread.onSpinWait();
        }
        else
        {
            Thread.yield();
        }
        return spins + 1;
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
