package org.jmpi.internal.coll;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

import org.jmpi.Comm;
import org.jmpi.Datatype;
import org.jmpi.ErrorClass;
import org.jmpi.MpiException;
import org.jmpi.Status;
import org.jmpi.internal.engine.ProgressEngine;
import org.jmpi.internal.pt2pt.CommState;
import org.jmpi.internal.pt2pt.PointToPoint;
import org.jmpi.internal.pt2pt.RequestImpl;
import org.jmpi.internal.pt2pt.SendMode;
import org.jmpi.internal.rma.Completion;
import org.jmpi.internal.rma.OneSided;
import org.jmpi.internal.rma.Region;
import org.jmpi.internal.rma.RegionKey;
import org.jmpi.internal.rma.RemoteRegion;
import org.jmpi.spi.ArenaMemory;

/**
 * One rank's side of a put- or get-based persistent collective, on the one-sided layer ({@link OneSided}):
 * the memory it registers, the counters its peers notify, and the steps an epoch runs. The schedules
 * themselves (which rank copies what, and who tells whom) are in {@link DirectCollectives}; see
 * docs/collectives.md, "Put- and get-based persistent schedules".
 * <ol>
 * <li>At init each rank registers a counters region (one long per rank of the communicator) and its data
 * ({@link DirectMemory}), and sends every peer a record: the two regions' keys and the offset and length of
 * the part of its data that peer will copy to or from. The records travel as point-to-point messages on the
 * collective context with the operation's tag; the first start waits for them, so init itself is local.</li>
 * <li>Each start is an epoch e = 1, 2, ... A rank tells a peer "go on" by a fetch-and-add on its counter in
 * the peer's counters region ({@link #signal}); the peer waits for it by reading its own memory only
 * ({@link #await}). Counters are cumulative, so the k-th signal from a peer in epoch e is its
 * ((e-1) * n + k)-th, n being the signals it sends per epoch, and a late or early signal is never mistaken
 * for another. Data moves with put or get, and a signal after a put to the same rank publishes it.</li>
 * <li>Where the transport offers peer memory every copy and signal is direct, and a signal wakes the peer's
 * engine: between threads of one JVM, and between JVMs of one node through the arena (docs/pvas.md), where the
 * counters, the staging copies and the reductions' scratch are allocated in the arena and the user's buffer is
 * registered itself only when it lies there ({@link DirectMemory}). Elsewhere (other nodes, or no arena) the
 * one-sided layer sends active messages, and an epoch completes only when its puts are acknowledged, so that
 * the user may reuse the buffers.</li>
 * </ol>
 * A rank that finds its part's length differs from its peer's fails the epoch with ERR_TRUNCATE, skips the
 * copy and still signals, with a failure mark the peer reports too: no rank is left waiting.
 *
 * <p>Threading: built on the calling thread at init (registration through the engine); steps run on the
 * rank's engine thread only.
 */
final class DirectPersistent
{
    /** put: the writer moves the data; get: the reader does. */
    enum Mode
    {
        PUT, GET
    }

    /** A step of one epoch: returns true once done (false: poll again later). */
    @FunctionalInterface
    interface Step
    {
        boolean run(long epoch);
    }

    private static final Status OK = new Status(Comm.ANY_SOURCE, Comm.ANY_TAG, ErrorClass.SUCCESS, false, 0);
    /** Longs of one peer record: the counters' key, the data's key, the offset and the length of the part (14). */
    private static final int RECORD = 2 * RegionKey.LONGS + 2;
    /** Added with a signal that carries a failure: the low bits still count one signal. */
    private static final long FAILURE = 1L << 40;
    private static final long COUNT_MASK = FAILURE - 1;

    private final CommState comm;
    private final String call;
    private final Mode mode;
    private final OneSided oneSided;
    private final int rank;
    private final int size;
    private final Region counters;
    /** The counters' memory: a byte[], or a ByteBuffer in the node's arena (peers in other JVMs add to it directly). */
    private final Object countersMemory;
    /** The node's arena (ranks in separate JVMs), or null. */
    private final ArenaMemory arena;
    private final DirectMemory memory;
    private final long[] sent;
    private final long[] received;
    private final RequestImpl[] exchange;
    private final RemoteRegion[] peerCounters;
    private final RemoteRegion[] peerData;
    private boolean resolved;
    /** Signals awaited from each rank per epoch, counted as the steps are built. */
    private final int[] awaitedPerEpoch;
    private final long[] failuresSeen;
    final List<Step> steps = new ArrayList<>();
    private final List<Completion> inFlight = new ArrayList<>();
    private MpiException epochFailure;
    private long epoch;

    /**
     * Registers this rank's memory and sends its records.
     *
     * @param parts   this rank's parts (null: no data, as in a barrier, or a part it does not have).
     * @param scratchParts parts of {@code partBytes} packed bytes each to register instead of {@code parts} (the
     *                reductions' accumulator and slots: {@link DirectMemory#scratch}); or 0.
     * @param exposed per rank, the index of the part that rank copies to or from, or -1.
     */
    DirectPersistent(final CommState comm, final String call, final Mode mode, final int tag, final Buffers.Slot[] parts,
        final int scratchParts, final int partBytes, final int[] exposed)
    {
        this.comm = comm;
        this.call = call;
        this.mode = mode;
        this.oneSided = comm.services().component(OneSided.class);
        this.rank = comm.rank();
        this.size = comm.size();
        this.arena = oneSided.arena();
        this.memory = scratchParts > 0 ? comm.engine().call(() -> DirectMemory.scratch(oneSided, scratchParts, partBytes)) :
            parts != null ? comm.engine().call(() -> DirectMemory.of(oneSided, parts)) : null;
        // One long per rank, zeroed, in the arena where there is one: peers in other JVMs then signal by an atomic add
        // through the arena's peer memory rather than by an active message. Not when the data could not be exposed (no
        // room in the arena): peers then put it by active messages, and a direct signal would overtake those puts.
        final boolean dataDirect = memory == null || memory.region().key().handle() != 0;
        this.countersMemory = comm.engine().call(() -> DirectMemory.allocate(dataDirect ? arena : null, 8 * size));
        this.counters = comm.engine().call(() -> oneSided.register(countersMemory));
        this.sent = new long[size * RECORD];
        this.received = new long[size * RECORD];
        this.exchange = new RequestImpl[2 * size];
        this.peerCounters = new RemoteRegion[size];
        this.peerData = new RemoteRegion[size];
        this.awaitedPerEpoch = new int[size];
        this.failuresSeen = new long[size];
        for (int p = 0; p < size; p++)
        {
            if (p == rank)
            {
                continue;
            }
            final int at = p * RECORD;
            counters.key().toLongs(sent, at);
            final int part = exposed[p];
            (memory == null || part < 0 ? RegionKey.NONE : memory.region().key()).toLongs(sent, at + RegionKey.LONGS);
            sent[at + 2 * RegionKey.LONGS] = part < 0 ? 0 : memory.offset(part);
            sent[at + 2 * RegionKey.LONGS + 1] = part < 0 ? -1 : memory.length(part);
            exchange[2 * p] = PointToPoint.irecv(comm, comm.collContextId(), received, at, RECORD, Datatype.LONG, p, tag);
            exchange[2 * p + 1] = PointToPoint.isend(comm, comm.collContextId(), sent, at, RECORD, Datatype.LONG, p, tag,
                SendMode.STANDARD);
        }
    }

    /**
     * Peers whose counters and data this rank reaches directly (peer memory: threads of one JVM, the arena across
     * JVMs), so that every signal and copy to them is a plain memory operation; the others go by active messages.
     * -1 before the first start resolved the peers' records. Any thread (tests and benchmarks): asks the engine.
     */
    int directPeers()
    {
        return comm.engine().call(this::countDirectPeers);
    }

    private int countDirectPeers()
    {
        if (!resolved)
        {
            return -1;
        }
        int direct = 0;
        for (int p = 0; p < size; p++)
        {
            if (p != rank && peerCounters[p].direct() != null && (peerData[p] == null || peerData[p].direct() != null))
            {
                direct++;
            }
        }
        return direct;
    }

    Mode mode()
    {
        return mode;
    }

    int rank()
    {
        return rank;
    }

    int size()
    {
        return size;
    }

    DirectMemory memory()
    {
        return memory;
    }

    /** The peer's data region, as this rank reaches it (after the first start has resolved the records). */
    RemoteRegion peerData(final int p)
    {
        return peerData[p];
    }

    /** The offset in {@code p}'s region of the part this rank copies to or from. */
    long peerOffset(final int p)
    {
        return received[p * RECORD + 2 * RegionKey.LONGS];
    }

    /** Starts epoch e + 1. */
    RequestImpl start()
    {
        return new Run(++epoch).launch();
    }

    /** Ends the registrations; the request is freed and no epoch runs any more. */
    void free()
    {
        comm.engine().execute(() ->
        {
            oneSided.deregister(counters);
            if (countersMemory instanceof ByteBuffer b)
            {
                arena.free(b);
            }
            if (memory != null)
            {
                memory.release(oneSided);
            }
        });
    }

    // ------------------------------------------------------------------------------------------ steps

    /** A step that runs {@code action} once per epoch. */
    void local(final Runnable action)
    {
        steps.add(e ->
        {
            action.run();
            return true;
        });
    }

    /** Waits for {@code p}'s next signal of the epoch. */
    void await(final int p)
    {
        final int k = ++awaitedPerEpoch[p];
        steps.add(e -> arrived(p, (e - 1) * awaitedPerEpoch[p] + k));
    }

    /** Tells {@code p} to go on. */
    void signal(final int p)
    {
        steps.add(e ->
        {
            notify(p, 1);
            return true;
        });
    }

    /** Tells every rank but this one to go on. */
    void signalAll()
    {
        for (int i = 1; i < size; i++)
        {
            signal((rank + i) % size);
        }
    }

    /** Waits for the next signal of every rank but this one. */
    void awaitAll()
    {
        for (int i = 1; i < size; i++)
        {
            await((rank + i) % size);
        }
    }

    /** Puts this rank's part {@code part} into {@code p}'s part for it, then signals {@code p}. */
    void putThenSignal(final int p, final int part)
    {
        steps.add(e ->
        {
            long delta = 1;
            if (agree(p, part))
            {
                inFlight.add(oneSided.put(peerData[p], peerOffset(p), memory.region(), memory.offset(part), memory.length(part)));
            }
            else
            {
                delta += FAILURE;
            }
            notify(p, delta);
            return true;
        });
    }

    /** Gets {@code p}'s part for this rank into this rank's part {@code part}, then signals {@code p}. */
    void getThenSignal(final int p, final int part)
    {
        readPeer(p, part, null, null, true);
    }

    /** Reads a peer's memory in place: returns true when it has used {@code memory} from byte {@code offset}, false to get a copy. */
    @FunctionalInterface
    interface InPlace
    {
        boolean use(Object memory, long offset);
    }

    /**
     * Takes {@code p}'s part for this rank: where {@code inPlace} is given and this rank reaches {@code p}'s memory
     * directly, it reads it there; otherwise the bytes are got into this rank's part {@code part} and
     * {@code afterCopy} (if any) runs. Then, with {@code signal}, tells {@code p} its part may be reused.
     */
    void readPeer(final int p, final int part, final InPlace inPlace, final Runnable afterCopy, final boolean signal)
    {
        final Completion[] pending = new Completion[1];
        final boolean[] failed = new boolean[1];
        steps.add(e ->
        {
            pending[0] = null;
            failed[0] = !agree(p, part);
            if (!failed[0] && (inPlace == null || peerData[p].directMemory() == null || !inPlace.use(peerData[p].directMemory(), peerOffset(p))))
            {
                pending[0] = oneSided.get(peerData[p], peerOffset(p), memory.region(), memory.offset(part), memory.length(part));
            }
            return true;
        });
        steps.add(e -> pending[0] == null || pending[0].isDone());
        steps.add(e ->
        {
            if (pending[0] != null && pending[0].failure() != null)
            {
                fail(pending[0].failure());
            }
            else if (pending[0] != null && afterCopy != null)
            {
                afterCopy.run();
            }
            if (signal)
            {
                notify(p, failed[0] ? 1 + FAILURE : 1);
            }
            return true;
        });
    }

    /** True when this rank's part and {@code p}'s record agree on the length; else records the failure. */
    boolean agree(final int p, final int part)
    {
        final long theirs = received[p * RECORD + 2 * RegionKey.LONGS + 1];
        final long mine = memory.length(part);
        if (theirs == mine)
        {
            return true;
        }
        fail(new MpiException(ErrorClass.ERR_TRUNCATE, "rank " + rank + " and rank " + p + " disagree on the message size (" + mine +
            " and " + theirs + " bytes; do all ranks pass matching counts, types and root?)"));
        return false;
    }

    private void notify(final int p, final long delta)
    {
        oneSided.add(peerCounters[p], 8L * rank, delta);
    }

    private boolean arrived(final int p, final long wanted)
    {
        final long v = counters.loadLong(8L * p);
        if ((v & COUNT_MASK) < wanted)
        {
            return false;
        }
        final long failures = v >>> 40;
        if (failures > failuresSeen[p])
        {
            failuresSeen[p] = failures;
            fail(new MpiException(ErrorClass.ERR_TRUNCATE, "rank " + p + " and rank " + rank + " disagree on the message size (" +
                received[p * RECORD + 2 * RegionKey.LONGS + 1] + " bytes on rank " + p + ", as rank " + p +
                " found; do all ranks pass matching counts, types and root?)"));
        }
        return true;
    }

    private void fail(final MpiException ex)
    {
        if (epochFailure == null)
        {
            epochFailure = ex;
        }
    }

    /** Once the records of every peer have arrived, resolves their regions; false until then. */
    private boolean resolve()
    {
        if (resolved)
        {
            return true;
        }
        for (final RequestImpl r : exchange)
        {
            if (r != null && !r.isDone())
            {
                return false;
            }
        }
        for (int p = 0; p < size; p++)
        {
            if (p == rank)
            {
                continue;
            }
            final RequestImpl failed = exchange[2 * p].failure() != null ? exchange[2 * p] : exchange[2 * p + 1];
            if (failed.failure() != null)
            {
                throw failed.failure();
            }
            final int at = p * RECORD;
            peerCounters[p] = oneSided.resolve(comm.worldRank(p), RegionKey.fromLongs(received, at));
            final RegionKey data = RegionKey.fromLongs(received, at + RegionKey.LONGS);
            peerData[p] = data.id() == 0 ? null : oneSided.resolve(comm.worldRank(p), data);
        }
        resolved = true;
        return true;
    }

    // ------------------------------------------------------------------------------------------ execution

    /** One epoch: a request advanced by the engine, step by step. */
    private final class Run extends RequestImpl implements ProgressEngine.Activity
    {
        private final long e;
        private int step = -1;

        Run(final long epoch)
        {
            super(comm.engine(), comm::handle);
            this.e = epoch;
        }

        Run launch()
        {
            comm.engine().execute(() ->
            {
                epochFailure = null;
                if (!progress())
                {
                    comm.protocol().engine().addActivity(this);
                }
            });
            return this;
        }

        @Override
        public boolean progress()
        {
            if (step < 0)
            {
                try
                {
                    if (!resolve())
                    {
                        return false;
                    }
                }
                catch (final MpiException ex)
                {
                    complete(OK, new MpiException(ex.errorClass(), call + " on " + comm.name() + ": " + withoutClass(ex), ex));
                    return true;
                }
                step = 0;
            }
            while (step < steps.size())
            {
                boolean done;
                try
                {
                    done = steps.get(step).run(e);
                }
                catch (final RuntimeException ex)
                {
                    // Record and go on: the later steps still signal the peers, so none is left waiting.
                    fail(ex instanceof MpiException mpiEx ? mpiEx : new MpiException(ErrorClass.ERR_OTHER, "failed: " + ex, ex));
                    done = true;
                }
                if (!done)
                {
                    return false;
                }
                step++;
            }
            for (int i = inFlight.size() - 1; i >= 0; i--)
            {
                final Completion c = inFlight.get(i);
                if (!c.isDone())
                {
                    return false;
                }
                if (c.failure() != null)
                {
                    fail(c.failure());
                }
                inFlight.remove(i);
            }
            final MpiException f = epochFailure;
            complete(OK, f == null ? null : new MpiException(f.errorClass(), call + " on " + comm.name() + ": " + withoutClass(f), f));
            return true;
        }

        @Override
        public void cancel()
        {
            // Collective operations cannot be cancelled.
        }
    }

    private static String withoutClass(final MpiException ex)
    {
        final String m = ex.getMessage();
        final String prefix = ex.errorClass().name() + ": ";
        return m != null && m.startsWith(prefix) ? m.substring(prefix.length()) : m;
    }
}
