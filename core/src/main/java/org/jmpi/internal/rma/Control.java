package org.jmpi.internal.rma;

import java.nio.ByteBuffer;

import org.agrona.UnsafeApi;
import org.jmpi.Datatype;
import org.jmpi.internal.datatype.BufferView;
import org.jmpi.internal.datatype.Convertor;
import org.jmpi.internal.engine.ProgressEngine;
import org.jmpi.internal.pt2pt.CommState;
import org.jmpi.spi.ArenaMemory;

/**
 * A window's synchronisation memory at one rank and its use from the others: {@code 3n + 1} registered longs, in this
 * rank's PVAS arena partition where the node's arena is on (so that ranks in other JVMs reach them by atomics, and
 * fences and {@code Team.syncAll} are barriers by atomics across JVMs too), else a heap {@code long[]}.
 * <pre>
 *   [0, n)        posts: control[o] grows when rank o posts to this rank (PSCW)
 *   [n, 2n)       completes: control[n + o] grows when rank o completes its access epoch to this rank
 *   2n            the lock word: bit 40 an exclusive holder, the bits below it the shared holders
 *   [2n+1, 3n+1)  barriers: control[2n + 1 + o] grows when rank o signals this rank in a fence's barrier
 * </pre>
 * Counters are cumulative, and each rank counts what it has consumed, so epochs never mix. Only remote atomics
 * (fetch-and-add, compare-and-swap through the one-sided layer) change them, so they work on every path; waiting reads
 * this rank's own memory only.
 *
 * <p>Threading: the window's thread; operations run on the engine.
 */
final class Control
{
    /** The lock word's exclusive holder bit. */
    static final long EXCLUSIVE = 1L << 40;
    private static final long BYTES = UnsafeApi.arrayBaseOffset(byte[].class);

    private final CommState comm;
    private final ProgressEngine engine;
    private final OneSided oneSided;
    private final int rank;
    private final int size;
    /** The memory: a {@code long[]}, or a native-order ByteBuffer in the arena ({@link #inArena}). */
    private final Object control;
    /** The arena the memory came from (freed to it by {@link #deregister}), or null. */
    private final ArenaMemory inArena;
    private final Region region;
    private final long lockByte;
    private final long[] postsSeen;
    private final long[] completesSeen;
    private RegionKey[] keys;
    private RemoteRegion[] resolved;
    /** Barriers this rank has passed ({@link #barrier}). */
    private long barriers;

    Control(final CommState comm, final OneSided oneSided)
    {
        this.comm = comm;
        this.engine = comm.engine();
        this.oneSided = oneSided;
        this.rank = comm.rank();
        this.size = comm.size();
        final ByteBuffer part = OneSided.arenaPart(oneSided.arena(), 8L * (3 * size + 1));
        this.inArena = part == null ? null : oneSided.arena();
        this.control = part == null ? new long[3 * size + 1] : part;
        this.region = engine.call(() -> oneSided.register(control));
        this.lockByte = 16L * size;
        this.postsSeen = new long[size];
        this.completesSeen = new long[size];
    }

    RegionKey key()
    {
        return region.key();
    }

    void peers(final RegionKey[] keys)
    {
        this.keys = keys;
        this.resolved = new RemoteRegion[size];
    }

    private RemoteRegion of(final int r)
    {
        RemoteRegion rr = resolved[r];
        if (rr == null)
        {
            rr = oneSided.resolve(comm.worldRank(r), keys[r]);
            resolved[r] = rr;
        }
        return rr;
    }

    /** Tells each rank of {@code group} that this rank posted (exposure epoch); the completions of the signals. */
    Completion[] post(final int[] group)
    {
        return signal(group, 8L * rank);
    }

    /** Tells each rank of {@code group} that this rank completed its access epoch to it. */
    Completion[] complete(final int[] group)
    {
        return signal(group, 8L * (size + rank));
    }

    private Completion[] signal(final int[] group, final long at)
    {
        return engine.call(() ->
        {
            final Completion[] out = new Completion[group.length];
            for (int i = 0; i < group.length; i++)
            {
                out[i] = oneSided.add(of(group[i]), at, 1);
            }
            return out;
        });
    }

    /** Waits until each target of {@code group} has posted once more than this rank has consumed, and consumes it. */
    void awaitPosts(final int[] group)
    {
        for (final int t : group)
        {
            final long want = ++postsSeen[t];
            engine.await(() -> region.loadLong(8L * t) >= want);
        }
    }

    /** Whether every origin of {@code group} has completed once more than this rank has consumed. */
    boolean completed(final int[] group)
    {
        for (final int o : group)
        {
            if (region.loadLong(8L * (size + o)) <= completesSeen[o])
            {
                return false;
            }
        }
        return true;
    }

    /** Consumes one completion of each origin of {@code group}. */
    void consumeCompletes(final int[] group)
    {
        for (final int o : group)
        {
            completesSeen[o]++;
        }
    }

    /**
     * Takes {@code target}'s lock. Exclusive: compare-and-swap 0 to {@link #EXCLUSIVE}. Shared: fetch-and-add 1, and
     * add -1 again if an exclusive holder was there. Retries with a doubling pause (1 us to 1 ms), idling on the engine
     * so that this rank keeps serving its own window.
     */
    void acquire(final int target, final boolean exclusive)
    {
        final long[] witness = new long[1];
        long backoffNs = 1_000;
        while (true)
        {
            if (exclusive)
            {
                final byte[] data = new byte[16];
                UnsafeApi.putLong(data, BYTES, EXCLUSIVE);
                final Convertor res = Convertor.createForReceive(BufferView.of(witness, "lock"), 0, 1, Datatype.LONG);
                finish(engine.call(() -> oneSided.winOps().compareAndSwap(of(target), lockByte, Datatype.LONG, data, res)));
                if (witness[0] == 0)
                {
                    return;
                }
            }
            else
            {
                if (finish(engine.call(() -> oneSided.fetchAndAdd(of(target), lockByte, 1))).value() < EXCLUSIVE)
                {
                    return;
                }
                finish(engine.call(() -> oneSided.fetchAndAdd(of(target), lockByte, -1)));
            }
            final long until = System.nanoTime() + backoffNs;
            engine.await(() -> System.nanoTime() >= until);
            backoffNs = Math.min(backoffNs * 2, 1_000_000);
        }
    }

    /**
     * Whether every rank's control memory is reached directly (loads, stores and atomics: ranks that are threads of
     * this JVM, or JVMs whose control memory is in the arena) and this rank's calling thread drives its engine, so that {@link #barrier} may run. Resolves every rank's
     * control memory once. Not in offload mode (MULTIPLE, async progress): a thread waiting there re-checks only every
     * millisecond or more ({@code ProgressEngine.await}), where the communicator's barrier is woken by its completion.
     */
    boolean allDirect()
    {
        return !engine.offload() && engine.call(() ->
        {
            boolean all = true;
            for (int r = 0; r < size; r++)
            {
                all &= of(r).direct() != null;
            }
            return all;
        });
    }

    /**
     * A barrier through the control memory, where {@link #allDirect} holds on every rank (the caller decides that
     * collectively). Dissemination: in round k, while 2^k &lt; n, add 1 to rank (me + 2^k)'s barrier counter for this
     * rank (one atomic on its memory, which wakes its engine), then wait until this rank's counter for rank
     * (me - 2^k) has reached the number of barriers passed. Each rank signals a given rank at most once per barrier
     * (the distances are distinct modulo n), so the counters never run ahead of a barrier. The atomics order every
     * store before a rank's signal before every load after the barrier.
     */
    void barrier()
    {
        final long epoch = ++barriers;
        for (int distance = 1; distance < size; distance <<= 1)
        {
            // a direct region: the add touches only the target's memory and wakes its engine, safe off the engine thread
            oneSided.add(resolved[(rank + distance) % size], 8L * (2 * size + 1 + rank), 1);
            final long at = 8L * (2 * size + 1 + (rank - distance + size) % size);
            if (region.loadLong(at) < epoch)
            {
                engine.await(() -> region.loadLong(at) >= epoch);
            }
        }
    }

    /** Releases {@code target}'s lock. */
    void release(final int target, final boolean exclusive)
    {
        finish(engine.call(() -> oneSided.fetchAndAdd(of(target), lockByte, exclusive ? -EXCLUSIVE : -1)));
    }

    private Completion finish(final Completion c)
    {
        c.wakeOnDone(Thread.currentThread());
        engine.await(c::isDone);
        if (c.failure() != null)
        {
            throw c.failure();
        }
        return c;
    }

    /** Ends the registration and gives arena memory back. Engine thread. */
    void deregister()
    {
        oneSided.deregister(region);
        if (inArena != null)
        {
            inArena.free((ByteBuffer)control);
        }
    }
}
