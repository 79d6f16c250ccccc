package org.jmpi.internal.coll;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

import org.jmpi.ErrorClass;
import org.jmpi.MpiException;

/**
 * The put/get cost model's constants for ranks that do not share a heap (ranks on other nodes, or JVMs of one node):
 * t_put, t_get and t_sync measured on the transport's device, not on copies between threads. Their source is the file
 * {@code jmpi.coll.persistent.calibration.remote} names, in the format of {@code jmpi.coll.persistent.calibration}
 * ({@code put_fixed_ns}, {@code put_per_byte_ns}, {@code get_fixed_ns}, {@code get_per_byte_ns}, {@code sync_ns.P}),
 * written by a calibration on the device (verbs: {@code PutGetBcastBench} with {@code -Dverbs.bench.calibration.out},
 * docs/verbs.md, "Put/get broadcast on the device"). Never measured here: a job between nodes cannot time a copy
 * between threads and call it an RDMA put.
 * <ol>
 * <li>No file named: no calibration (the caller keeps the point-to-point schedule, as before there was one).</li>
 * <li>A file named but unreadable, or lacking a constant or every {@code sync_ns.P}: {@code ERR_FILE} naming it (every
 * rank must choose alike; a rank that silently fell back would wait for peers running another schedule).</li>
 * <li>t_sync at P ranks: the file's {@code sync_ns.P}; a P it lacks takes the nearest measured rank count above P (a
 * handoff does not get cheaper with more ranks), or the largest measured below it.</li>
 * </ol>
 * Files are read once per JVM and path. Any thread.
 */
final class RemoteCalibration
{
    private static final String SYNC_PREFIX = "sync_ns.";
    private static final Map<String, Properties> LOADED = new ConcurrentHashMap<>();

    private RemoteCalibration()
    {
    }

    /** The device calibration at {@code ranks} ranks from {@code file}, or null when {@code file} is empty. */
    static PersistentCostModel.Calibration load(final String file, final int ranks)
    {
        if (file == null || file.isEmpty())
        {
            return null;
        }
        return of(LOADED.computeIfAbsent(file, RemoteCalibration::read), file, ranks);
    }

    /** The calibration {@code p} (read from {@code file}) gives at {@code ranks} ranks. */
    static PersistentCostModel.Calibration of(final Properties p, final String file, final int ranks)
    {
        final PersistentCostModel.Copies copies = PersistentCostModel.parseCopies(p);
        final TreeMap<Integer, Double> sync = new TreeMap<>();
        for (final String key : p.stringPropertyNames())
        {
            if (key.startsWith(SYNC_PREFIX))
            {
                final Double ns = PersistentCostModel.parse(p, key);
                try
                {
                    final int at = Integer.parseInt(key.substring(SYNC_PREFIX.length()).trim());
                    if (ns != null && at > 1)
                    {
                        sync.put(at, ns);
                    }
                }
                catch (final NumberFormatException ex)
                {
                    // not a rank count: ignored, like any other key the file may carry
                }
            }
        }
        if (copies == null || sync.isEmpty())
        {
            throw new MpiException(ErrorClass.ERR_FILE, "jmpi.coll.persistent.calibration.remote=" + file + " lacks " +
                (copies == null ? "put_fixed_ns, put_per_byte_ns, get_fixed_ns or get_per_byte_ns" : "sync_ns.P for any rank count P > 1"));
        }
        final Map.Entry<Integer, Double> atOrAbove = sync.ceilingEntry(ranks);
        final double syncNs = ranks <= 1 ? 0 : (atOrAbove != null ? atOrAbove : sync.lastEntry()).getValue();
        return copies.with(ranks, syncNs);
    }

    private static Properties read(final String file)
    {
        final Properties p = new Properties();
        try (InputStream in = Files.newInputStream(Path.of(file)))
        {
            p.load(in);
        }
        catch (final IOException | RuntimeException ex)
        {
            throw new MpiException(ErrorClass.ERR_FILE, "jmpi.coll.persistent.calibration.remote=" + file + " cannot be read: " + ex);
        }
        return p;
    }
}
