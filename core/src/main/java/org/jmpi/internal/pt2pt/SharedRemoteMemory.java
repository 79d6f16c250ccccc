package org.jmpi.internal.pt2pt;

import org.jmpi.ErrorClass;
import org.jmpi.MpiException;
import org.jmpi.spi.RemoteMemory;

import java.nio.ByteBuffer;

/**
 * A transport's {@link RemoteMemory} shared by the point-to-point protocol's {@link RdmaPath} and the layer above
 * (the one-sided layer), which the SPI lets set one completion handler: this wrapper takes the transport's handler
 * itself and hands each completion to whoever started the operation, by bit {@link #PATH_TOKEN} of its token (set on
 * the path's tokens; the layer's tokens must leave it clear). Everything else passes through.
 *
 * <p>Threading: engine thread only, as the SPI.
 */
final class SharedRemoteMemory implements RemoteMemory
{
    /** Set on the tokens of {@link RdmaPath}'s operations. */
    static final long PATH_TOKEN = 1L << 62;

    private final RemoteMemory transport;
    private RdmaPath path;
    private Completions layer;

    SharedRemoteMemory(final RemoteMemory transport)
    {
        this.transport = transport;
        transport.completions(new Completions()
        {
            @Override
            public void onComplete(final long token, final MpiException failure)
            {
                dispatch(token, failure);
            }

            @Override
            public void onAtomic(final long token, final MpiException failure, final long oldValue)
            {
                if (layer == null)
                {
                    throw new MpiException(ErrorClass.ERR_INTERN, "remote memory completed atomic " + token + " with no handler set");
                }
                layer.onAtomic(token, failure, oldValue);
            }
        });
    }

    /** The transport's own feature. */
    RemoteMemory transport()
    {
        return transport;
    }

    void path(final RdmaPath path)
    {
        this.path = path;
    }

    private void dispatch(final long token, final MpiException failure)
    {
        if ((token & PATH_TOKEN) != 0)
        {
            path.onComplete(token, failure);
            return;
        }
        if (layer == null)
        {
            throw new MpiException(ErrorClass.ERR_INTERN, "remote memory completed operation " + token + " with no handler set");
        }
        layer.onComplete(token, failure);
    }

    @Override
    public void completions(final Completions handler)
    {
        this.layer = handler;
    }

    @Override
    public long register(final Object memory)
    {
        return transport.register(memory);
    }

    @Override
    public void deregister(final long registration)
    {
        transport.deregister(registration);
    }

    @Override
    public void memoryFreed(final ByteBuffer memory)
    {
        transport.memoryFreed(memory);
    }

    @Override
    public void remoteKey(final long registration, final long[] out, final int at)
    {
        transport.remoteKey(registration, out, at);
    }

    @Override
    public boolean put(final int peerRank, final long[] key, final int keyAt, final long remoteOffset, final long registration,
        final long localOffset, final long length, final long token)
    {
        assert (token & PATH_TOKEN) == 0 || path != null;
        return transport.put(peerRank, key, keyAt, remoteOffset, registration, localOffset, length, token);
    }

    @Override
    public int putGather(final int peerRank, final long[] key, final int keyAt, final long remoteOffset, final long registration,
        final long[] segments, final int first, final int count, final long token)
    {
        return transport.putGather(peerRank, key, keyAt, remoteOffset, registration, segments, first, count, token);
    }

    @Override
    public int getScatter(final int peerRank, final long[] key, final int keyAt, final long remoteOffset, final long registration,
        final long[] segments, final int first, final int count, final long token)
    {
        return transport.getScatter(peerRank, key, keyAt, remoteOffset, registration, segments, first, count, token);
    }

    @Override
    public boolean atomics(final long[] key, final int keyAt)
    {
        return transport.atomics(key, keyAt);
    }

    @Override
    public boolean fetchAndAdd(final int peerRank, final long[] key, final int keyAt, final long remoteOffset, final long delta,
        final long token)
    {
        return transport.fetchAndAdd(peerRank, key, keyAt, remoteOffset, delta, token);
    }

    @Override
    public boolean compareAndSwap(final int peerRank, final long[] key, final int keyAt, final long remoteOffset, final long compare,
        final long swap, final long token)
    {
        return transport.compareAndSwap(peerRank, key, keyAt, remoteOffset, compare, swap, token);
    }

    @Override
    public boolean get(final int peerRank, final long[] key, final int keyAt, final long remoteOffset, final long registration,
        final long localOffset, final long length, final long token)
    {
        return transport.get(peerRank, key, keyAt, remoteOffset, registration, localOffset, length, token);
    }
}
