package org.jmpi.transport.verbs;

import org.agrona.concurrent.UnsafeBuffer;
import org.jmpi.spi.RemoteMemory;
import org.jmpi.spi.Transport;
import org.jmpi.spi.TransportContext;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Arrays;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

/**
 * The put- and get-based broadcast of the persistent-collectives work (issue 19, "Benchmarks") on the verbs device,
 * against the cost model with t_put, t_get and t_sync calibrated on the same device in the same run. Ranks are
 * threads, each with the verbs transport open (every rank a node of its own to it), talking only through
 * {@link RemoteMemory}: no MPI layer, no frames.
 * <ol>
 * <li>Calibrate at 2 ranks: t_put(n) and t_get(n), one operation to its completion, fitted as fixed + per byte
 * through 64 B and 256 KiB; at each P: t_sync(P), one counter handoff (an 8-byte put into the next rank's counter,
 * which that rank sees by polling its memory) passed round a ring of P. Each is the median of 11 batches.</li>
 * <li>Broadcast from rank 0 down a binomial tree (L = ceil(log2 P) levels), K times in a loop:
 * <b>put</b>: a rank that has the data waits for each child's "ready" counter (the child has started this round: off
 * the critical path), puts the data into the child's buffer, and on its completion puts the child's "data" counter;
 * <b>get</b>: a rank that has the data puts each child's "data" counter; the child gets the data from its parent's
 * buffer, puts the parent's "done" counter, and forwards; a parent starts the next round when its children are
 * done (its buffer is free).</li>
 * <li>Print per P and size: the measured time per broadcast (median of 5 batches of K, and their range), the
 * issue's model (T_put = L*t_put + (L+1)*t_sync, T_get = L*t_get + 2*t_sync), the model of
 * {@code PersistentCostModel} (put: L*t_put + L*t_sync, get: L*t_get + (L+1)*t_sync), and whether each model's
 * choice matches the measured one where the measured ranges do not overlap.</li>
 * </ol>
 * {@code java ... PutGetBcastBench [ranks..] } (default 2 4 8); sizes 8 B, 64 KiB, 1 MiB. With
 * {@code -Dverbs.bench.calibration.out=FILE} the calibration is also written to FILE in the format of
 * {@code jmpi.coll.persistent.calibration} ({@code put_fixed_ns} ... and {@code sync_ns.P} per P measured): the file
 * {@code jmpi.coll.persistent.calibration.remote} names, from which the persistent collectives' "auto" chooses put or
 * get between ranks that do not share a heap (docs/verbs.md, "Put/get broadcast on the device").
 *
 * <p>Emulated rxe under TCG: for the model's shape and the choice, not absolute speed.
 */
public final class PutGetBcastBench
{
    private static final long TIMEOUT_NS = TimeUnit.MINUTES.toNanos(20);
    private static final int[] SIZES = {8, 65_536, 1_048_576};
    private static final int MAX_BYTES = 1 << 20;
    private static final int BATCHES = 5;
    /** Counter slots: 0 the data counter (from the parent), 8 + r rank r's ready or done (into its parent). */
    private static final int DATA_SLOT = 0;
    private static final int CHILD_SLOT = 8;
    private static final int SLOTS = 64;
    /** Tokens of counter puts: this plus their source slot. */
    private static final long SOURCE_TOKEN = 1 << 16;

    private PutGetBcastBench()
    {
    }

    public static void main(final String[] args)
    {
        final int[] ranks = args.length > 0 ? Arrays.stream(args).mapToInt(Integer::parseInt).toArray() : new int[] {2, 4, 8};
        final double[] putGet = new double[4];
        final Map<Integer, Double> syncByRanks = new TreeMap<>();
        VerbsJobs.run(2, Map.of(), TIMEOUT_NS, (context, transport) ->
        {
            final Rank r = new Rank(context, transport);
            final double[] fit = r.calibrateOperations();
            if (context.rank() == 0)
            {
                System.arraycopy(fit, 0, putGet, 0, 4);
            }
        });
        System.out.printf(Locale.ROOT, "calibration: t_put(n) = %.1f us + %.4f us/KiB, t_get(n) = %.1f us + %.4f us/KiB%n", putGet[0] / 1e3,
            putGet[1] * 1024 / 1e3, putGet[2] / 1e3, putGet[3] * 1024 / 1e3);
        for (final int size : ranks)
        {
            final double[] sync = new double[1];
            final double[][] measured = new double[SIZES.length * 2][];
            VerbsJobs.run(size, Map.of(), TIMEOUT_NS, (context, transport) ->
            {
                final Rank r = new Rank(context, transport);
                final double syncNs = r.calibrateSync();
                for (int s = 0; s < SIZES.length; s++)
                {
                    final int iterations = SIZES[s] >= MAX_BYTES ? 8 : SIZES[s] >= 65_536 ? 20 : 100;
                    final double[] put = r.bcast(true, SIZES[s], iterations);
                    final double[] get = r.bcast(false, SIZES[s], iterations);
                    if (context.rank() == 0)
                    {
                        measured[2 * s] = put;
                        measured[2 * s + 1] = get;
                    }
                }
                if (context.rank() == 0)
                {
                    sync[0] = syncNs;
                }
            });
            report(size, sync[0], putGet, measured);
            syncByRanks.put(size, sync[0]);
        }
        final String out = System.getProperty("verbs.bench.calibration.out", "");
        if (!out.isEmpty())
        {
            writeCalibration(Path.of(out), putGet, syncByRanks);
        }
    }

    /** The device calibration as core's put/get model reads it (RemoteCalibration): ns, fixed + per byte, t_sync per P. */
    private static void writeCalibration(final Path file, final double[] fit, final Map<Integer, Double> syncByRanks)
    {
        final StringBuilder text = new StringBuilder("# jmpi put/get calibration measured on the verbs device by PutGetBcastBench (")
            .append(Instant.now()).append(")\n");
        final String[] keys = {"put_fixed_ns", "put_per_byte_ns", "get_fixed_ns", "get_per_byte_ns"};
        for (int k = 0; k < keys.length; k++)
        {
            text.append(keys[k]).append('=').append(Math.max(0, fit[k])).append('\n');
        }
        syncByRanks.forEach((ranks, ns) -> text.append("sync_ns.").append(ranks).append('=').append(ns).append('\n'));
        try
        {
            Files.writeString(file, text);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot write the calibration to " + file, ex);
        }
        System.out.println("calibration written to " + file);
    }

    private static void report(final int size, final double syncNs, final double[] fit, final double[][] measured)
    {
        final int levels = 32 - Integer.numberOfLeadingZeros(size - 1);
        System.out.printf(Locale.ROOT, "P=%d: L=%d, t_sync(%d) = %.1f us%n", size, levels, size, syncNs / 1e3);
        for (int s = 0; s < SIZES.length; s++)
        {
            final long n = SIZES[s];
            final double tPut = fit[0] + fit[1] * n;
            final double tGet = fit[2] + fit[3] * n;
            final double issuePut = levels * tPut + (levels + 1) * syncNs;
            final double issueGet = levels * tGet + 2 * syncNs;
            final double modelPut = levels * tPut + levels * syncNs;
            final double modelGet = levels * tGet + (levels + 1) * syncNs;
            final double[] put = measured[2 * s];
            final double[] get = measured[2 * s + 1];
            final boolean apart = put[BATCHES - 1] < get[0] || get[BATCHES - 1] < put[0];
            final String best = !apart ? "within noise" : put[BATCHES / 2] < get[BATCHES / 2] ? "put" : "get";
            System.out.printf(Locale.ROOT, "bcast P=%d %d B: put %.1f us [%.1f, %.1f], get %.1f us [%.1f, %.1f]; issue model put %.1f get %.1f " +
                    "(%s); core model put %.1f get %.1f (%s); measured: %s%n", size, n, put[BATCHES / 2] / 1e3, put[0] / 1e3, put[BATCHES - 1] / 1e3,
                get[BATCHES / 2] / 1e3, get[0] / 1e3, get[BATCHES - 1] / 1e3, issuePut / 1e3, issueGet / 1e3,
                verdict(best, issuePut < issueGet), modelPut / 1e3, modelGet / 1e3, verdict(best, modelPut < modelGet), best);
        }
    }

    private static String verdict(final String best, final boolean modelSaysPut)
    {
        final String choice = modelSaysPut ? "put" : "get";
        return best.equals("within noise") ? "chooses " + choice : choice + (best.equals(choice) ? ", right" : ", WRONG");
    }

    /** One rank's registered memory, its peers' keys and its counters. */
    private static final class Rank
    {
        private final TransportContext context;
        private final Transport transport;
        private final RemoteMemory memory;
        private final int rank;
        private final int size;
        private final ByteBuffer data = ByteBuffer.allocateDirect(MAX_BYTES);
        private final ByteBuffer counters = ByteBuffer.allocateDirect(8 * SLOTS).order(ByteOrder.nativeOrder());
        private final UnsafeBuffer counterView = new UnsafeBuffer(counters);
        /** Where counter values are put from: one slot per destination slot, reused after its put completed. */
        private final ByteBuffer source = ByteBuffer.allocateDirect(8 * SLOTS * 8).order(ByteOrder.nativeOrder());
        private final long dataReg;
        private final long counterReg;
        private final long sourceReg;
        private final long[][] dataKeys;
        private final long[][] counterKeys;
        /** Source slots whose put is in flight. */
        private final boolean[] busy = new boolean[SLOTS * 8];
        private long issued;
        private long completed;
        /** Counter values already used, per slot: counters only grow, so every round waits for a new value. */
        private long round;

        Rank(final TransportContext context, final Transport transport)
        {
            this.context = context;
            this.transport = transport;
            this.memory = transport.feature(RemoteMemory.class);
            this.rank = context.rank();
            this.size = context.size();
            memory.completions((token, failure) ->
            {
                if (failure != null)
                {
                    throw new IllegalStateException("operation " + token + " failed on rank " + rank, failure);
                }
                if (token >= SOURCE_TOKEN)
                {
                    busy[(int)(token - SOURCE_TOKEN)] = false;
                }
                completed++;
            });
            dataReg = memory.register(data);
            counterReg = memory.register(counters);
            sourceReg = memory.register(source);
            final long[] key = new long[4];
            memory.remoteKey(dataReg, key, 0);
            memory.remoteKey(counterReg, key, 2);
            context.bootstrap().put("pg." + rank, (key[0] + " " + key[1] + " " + key[2] + " " + key[3]).getBytes(StandardCharsets.US_ASCII));
            dataKeys = new long[size][];
            counterKeys = new long[size][];
            for (int p = 0; p < size; p++)
            {
                if (p != rank)
                {
                    final String[] k = new String(context.bootstrap().get("pg." + p, TIMEOUT_NS), StandardCharsets.US_ASCII).split(" ");
                    dataKeys[p] = new long[] {Long.parseLong(k[0]), Long.parseLong(k[1])};
                    counterKeys[p] = new long[] {Long.parseLong(k[2]), Long.parseLong(k[3])};
                }
            }
            context.bootstrap().fence(TIMEOUT_NS);
        }

        private void poll(final long spins)
        {
            transport.progress((src, buffer, index, length) -> { });
            if ((spins & 63) == 63)
            {
                Thread.yield();
            }
        }

        private void awaitCompletions()
        {
            for (long spins = 0; completed < issued; spins++)
            {
                poll(spins);
            }
        }

        private void awaitCounter(final int slot, final long value)
        {
            for (long spins = 0; counterView.getLongVolatile(8 * slot) < value; spins++)
            {
                poll(spins);
            }
        }

        /** Puts {@code value} into {@code peer}'s counter {@code slot} (not waited for; its source slot is reused once done). */
        private void signal(final int peer, final int slot, final long value)
        {
            final int index = peer * SLOTS + slot;
            for (long spins = 0; busy[index]; spins++)
            {
                poll(spins);
            }
            busy[index] = true;
            source.putLong(8 * index, value);
            issue(() -> memory.put(peer, counterKeys[peer], 0, 8L * slot, sourceReg, 8L * index, 8, SOURCE_TOKEN + index));
        }

        private void issue(final java.util.function.BooleanSupplier start)
        {
            for (long spins = 0; !start.getAsBoolean(); spins++)
            {
                poll(spins);
            }
            issued++;
        }

        /** t_put and t_get at 64 B and 256 KiB, fitted: {putFixed, putPerByte, getFixed, getPerByte} ns (rank 0's). */
        double[] calibrateOperations()
        {
            final double[] at = new double[4];
            final int[] sizes = {64, 256 * 1024};
            for (int op = 0; op < 2; op++)
            {
                for (int s = 0; s < 2; s++)
                {
                    final int n = sizes[s];
                    final boolean put = op == 0;
                    final double[] batches = new double[11];
                    final int perBatch = n > 1024 ? 4 : 50;
                    for (int b = 0; b < batches.length; b++)
                    {
                        final long start = System.nanoTime();
                        if (rank == 0)
                        {
                            for (int i = 0; i < perBatch; i++)
                            {
                                issue(() -> put ? memory.put(1, dataKeys[1], 0, 0, dataReg, 0, n, 2) : memory.get(1, dataKeys[1], 0, 0, dataReg, 0, n, 2));
                                awaitCompletions();
                            }
                        }
                        batches[b] = (double)(System.nanoTime() - start) / perBatch;
                    }
                    context.bootstrap().fence(TIMEOUT_NS);
                    Arrays.sort(batches);
                    at[2 * op + s] = batches[batches.length / 2];
                }
            }
            final double putPerByte = (at[1] - at[0]) / (sizes[1] - sizes[0]);
            final double getPerByte = (at[3] - at[2]) / (sizes[1] - sizes[0]);
            return new double[] {at[0] - putPerByte * sizes[0], putPerByte, at[2] - getPerByte * sizes[0], getPerByte};
        }

        /** t_sync(P): a token round a ring of counter puts, per hop; median of 11 batches (rank 0's). */
        double calibrateSync()
        {
            final int laps = 5;
            final double[] batches = new double[11];
            final int next = (rank + 1) % size;
            for (int b = 0; b < batches.length; b++)
            {
                context.bootstrap().fence(TIMEOUT_NS);
                final long start = System.nanoTime();
                for (int lap = 0; lap < laps; lap++)
                {
                    final long hop = ++round;
                    if (rank != 0)
                    {
                        awaitCounter(CHILD_SLOT + SLOTS / 2, hop);
                    }
                    signal(next, CHILD_SLOT + SLOTS / 2, hop);
                    if (rank == 0)
                    {
                        awaitCounter(CHILD_SLOT + SLOTS / 2, hop);
                    }
                }
                awaitCompletions();
                batches[b] = (double)(System.nanoTime() - start) / (laps * size);
            }
            context.bootstrap().fence(TIMEOUT_NS);
            Arrays.sort(batches);
            return batches[batches.length / 2];
        }

        /**
         * {@code BATCHES} batches of {@code iterations} broadcasts of {@code n} bytes from rank 0; per batch the slowest
         * rank's time per broadcast, sorted (rank 0's result; the others return theirs).
         */
        double[] bcast(final boolean put, final int n, final int iterations)
        {
            final int parent = rank == 0 ? -1 : rank - Integer.highestOneBit(rank);
            final int firstChildBit = rank == 0 ? 1 : Integer.highestOneBit(rank) << 1;
            int childCount = 0;
            for (int bit = firstChildBit; rank + bit < size; bit <<= 1)
            {
                childCount++;
            }
            final int[] children = new int[childCount];
            for (int i = 0, bit = Integer.highestOneBit(Math.max(1, size - 1)) << 1; bit >= firstChildBit; bit >>= 1)
            {
                if (rank + bit < size && bit >= firstChildBit)
                {
                    children[i++] = rank + bit;
                }
            }
            final double[] times = new double[BATCHES];
            for (int b = 0; b < BATCHES; b++)
            {
                context.bootstrap().fence(TIMEOUT_NS);
                final long base = round;
                final long start = System.nanoTime();
                for (int i = 1; i <= iterations; i++)
                {
                    final long value = base + i;
                    if (put)
                    {
                        if (parent >= 0)
                        {
                            signal(parent, CHILD_SLOT + rank, value);
                            awaitCounter(DATA_SLOT, value);
                        }
                        for (final int child : children)
                        {
                            awaitCounter(CHILD_SLOT + child, value);
                            issue(() -> memory.put(child, dataKeys[child], 0, 0, dataReg, 0, n, 3));
                            awaitCompletions();
                            signal(child, DATA_SLOT, value);
                        }
                    }
                    else
                    {
                        if (parent >= 0)
                        {
                            awaitCounter(DATA_SLOT, value);
                            issue(() -> memory.get(parent, dataKeys[parent], 0, 0, dataReg, 0, n, 4));
                            awaitCompletions();
                            signal(parent, CHILD_SLOT + rank, value);
                        }
                        for (final int child : children)
                        {
                            signal(child, DATA_SLOT, value);
                        }
                        for (final int child : children)
                        {
                            awaitCounter(CHILD_SLOT + child, value);
                        }
                    }
                }
                awaitCompletions();
                final long ns = System.nanoTime() - start;
                round = base + iterations;
                context.bootstrap().put("pg.t." + b + "." + (put ? "p" : "g") + n + "." + rank, Long.toString(ns).getBytes(StandardCharsets.US_ASCII));
                long slowest = 0;
                for (int p = 0; p < size; p++)
                {
                    slowest = Math.max(slowest, Long.parseLong(new String(context.bootstrap().get("pg.t." + b + "." + (put ? "p" : "g") + n + "." + p,
                        TIMEOUT_NS), StandardCharsets.US_ASCII)));
                }
                times[b] = (double)slowest / iterations;
            }
            Arrays.sort(times);
            return times;
        }
    }
}
