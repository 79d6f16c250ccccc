package org.jmpi.internal.transport.jvm;

import java.util.function.IntFunction;

import org.agrona.UnsafeApi;
import org.agrona.collections.LongArrayQueue;
import org.jmpi.ErrorClass;
import org.jmpi.MpiException;
import org.jmpi.internal.datatype.BufferView;
import org.jmpi.spi.RemoteMemory;

/**
 * Remote memory between threads of one JVM, with copies: a registration is an exposure in the owner's table
 * ({@link HeapExposures}), its remote key that handle; a put or get copies at once on the origin's engine
 * thread and reports its completion at the origin's next {@code progress}, as an RDMA transport would. Offered
 * instead of {@link org.jmpi.spi.PeerMemory} with {@code jmpi.jvm.memory=remote}, so that the one-sided
 * layer's remote-memory path runs where no RDMA device is (the tests' remote-memory axis), and a model for
 * the arena's.
 *
 * <p>Threading: engine thread of the owning rank; peers' tables are read with their acquire/release handles.
 */
final class HeapRemoteMemory implements RemoteMemory
{
    private final int rank;
    private final HeapExposures own;
    private final IntFunction<HeapExposures> peers;
    private final LongArrayQueue done = new LongArrayQueue();
    /** Atomics finished: token, old value, token, old value... */
    private final LongArrayQueue atomicsDone = new LongArrayQueue();
    private Completions completions;

    /** @param peers the exposure table of a world rank of this JVM. */
    HeapRemoteMemory(final int rank, final HeapExposures own, final IntFunction<HeapExposures> peers)
    {
        this.rank = rank;
        this.own = own;
        this.peers = peers;
    }

    @Override
    public void completions(final Completions handler)
    {
        this.completions = handler;
    }

    @Override
    public long register(final Object memory)
    {
        return own.expose(memory);
    }

    @Override
    public void deregister(final long registration)
    {
        own.withdraw(registration);
    }

    @Override
    public void remoteKey(final long registration, final long[] out, final int at)
    {
        out[at] = registration;
        out[at + 1] = rank + 1L;
    }

    @Override
    public boolean put(final int peerRank, final long[] key, final int keyAt, final long remoteOffset, final long registration,
        final long localOffset, final long length, final long token)
    {
        final BufferView from = view(own.map(rank, registration), localOffset, length, "put source");
        final BufferView to = view(peers.apply(peerRank).map(peerRank, key[keyAt]), remoteOffset, length, "put target of rank " + peerRank);
        UnsafeApi.copyMemory(from.base(), from.address() + localOffset, to.base(), to.address() + remoteOffset, length);
        done.addLong(token);
        return true;
    }

    @Override
    public boolean get(final int peerRank, final long[] key, final int keyAt, final long remoteOffset, final long registration,
        final long localOffset, final long length, final long token)
    {
        final BufferView from = view(peers.apply(peerRank).map(peerRank, key[keyAt]), remoteOffset, length, "get source of rank " + peerRank);
        final BufferView to = view(own.map(rank, registration), localOffset, length, "get target");
        UnsafeApi.copyMemory(from.base(), from.address() + remoteOffset, to.base(), to.address() + localOffset, length);
        done.addLong(token);
        return true;
    }

    /** The CPU's atomics on the peer's memory: atomic with its own (issue 19's SPI atomics, tested without a device). */
    @Override
    public boolean atomics(final long[] key, final int keyAt)
    {
        return true;
    }

    @Override
    public boolean fetchAndAdd(final int peerRank, final long[] key, final int keyAt, final long remoteOffset, final long delta,
        final long token)
    {
        final BufferView to = atomicTarget(peerRank, key[keyAt], remoteOffset);
        atomicsDone.addLong(token);
        atomicsDone.addLong(UnsafeApi.getAndAddLong(to.base(), to.address() + remoteOffset, delta));
        return true;
    }

    @Override
    public boolean compareAndSwap(final int peerRank, final long[] key, final int keyAt, final long remoteOffset, final long compare,
        final long swap, final long token)
    {
        final BufferView to = atomicTarget(peerRank, key[keyAt], remoteOffset);
        atomicsDone.addLong(token);
        atomicsDone.addLong(UnsafeApi.compareAndExchangeLong(to.base(), to.address() + remoteOffset, compare, swap));
        return true;
    }

    private BufferView atomicTarget(final int peerRank, final long handle, final long remoteOffset)
    {
        final BufferView to = view(peers.apply(peerRank).map(peerRank, handle), remoteOffset, 8, "atomic target of rank " + peerRank);
        if (((to.address() + remoteOffset) & 7) != 0 || to.swapBytes() || to.indirect() != null)
        {
            throw new MpiException(ErrorClass.ERR_RMA_RANGE, "in-JVM remote memory: atomic at byte " + remoteOffset +
                " is not an 8-byte aligned native-order integer");
        }
        return to;
    }

    /** Reports the operations finished since the last call; returns how many. Engine thread, from progress. */
    int reportCompletions()
    {
        int n = 0;
        while (!atomicsDone.isEmpty())
        {
            final long token = atomicsDone.removeLong();
            completions.onAtomic(token, null, atomicsDone.removeLong());
            n++;
        }
        while (!done.isEmpty())
        {
            completions.onComplete(done.removeLong(), null);
            n++;
        }
        return n;
    }

    private static BufferView view(final Object memory, final long offset, final long length, final String what)
    {
        final BufferView v = BufferView.of(memory, what);
        if (offset < 0 || length < 0 || offset + length > v.capacityBytes())
        {
            throw new MpiException(ErrorClass.ERR_RMA_RANGE, "in-JVM remote memory: " + what + " bytes [" + offset + ", " +
                (offset + length) + ") outside a registration of " + v.capacityBytes() + " bytes");
        }
        return v;
    }
}
