package org.jmpi.spi;

import org.jmpi.ErrorClass;
import org.jmpi.MpiException;

/**
 * A transport feature: one-sided access to memory a peer registered, without the peer taking part, as RDMA
 * verbs give it (a shared arena can give it with copies). The one-sided layer uses it for put and get where
 * the transport to the target offers no {@link PeerMemory}, and frames (active messages) otherwise.
 *
 * <p>A rank {@link #register registers} memory once and sends peers its {@link #remoteKey remote key}
 * ({@link #KEY_LONGS} longs) in a frame or message; a peer names the key, an offset and a length in
 * {@link #put} and {@link #get}, whose local side is memory the peer registered itself. Operations
 * complete asynchronously: the transport reports each, with the token the caller gave, to the
 * {@link Completions} handler from inside its {@link Transport#progress progress}. A put is reported once
 * its bytes are in the target's memory (remote completion), a get once they are in the origin's. Nothing
 * orders a put against the transport's frames: a caller that wants a frame to publish a put waits for the
 * put's completion first. Atomics on 8-byte integers are offered where {@link #atomics} says so (RDMA verbs on a
 * device whose atomics are atomic with the target's CPU, or when the job asserts it); not by default.
 *
 * <p>Threading: every method on the calling rank's progress thread (engine thread); the handler is called
 * on it too, from {@code progress}.
 */
public interface RemoteMemory
{
    /** Longs in a remote key. */
    int KEY_LONGS = 2;

    /** Where a transport reports finished operations. */
    @FunctionalInterface
    interface Completions
    {
        /**
         * One operation finished.
         *
         * @param token   what the caller passed to {@link #put} or {@link #get}.
         * @param failure null on success; else why the operation did not happen (the bytes are undefined).
         */
        void onComplete(long token, MpiException failure);

        /**
         * An atomic ({@link #fetchAndAdd}, {@link #compareAndSwap}) finished: {@code oldValue} is what the target's
         * 8 bytes held before it. By default {@link #onComplete} (the value is dropped): a caller that starts
         * atomics sets a handler that overrides this.
         */
        default void onAtomic(final long token, final MpiException failure, final long oldValue)
        {
            onComplete(token, failure);
        }
    }

    /** Sets the completion handler; once, before any operation. */
    void completions(Completions handler);

    /**
     * Registers {@code memory} (a primitive array or a {@link java.nio.ByteBuffer}) for peers' puts and gets
     * and for this rank's own as their local side.
     *
     * @return the registration (non-zero), or 0 when this transport cannot register that memory.
     */
    long register(Object memory);

    /** Ends a registration; peers must not name its key any more. */
    void deregister(long registration);

    /**
     * The application freed {@code memory} ({@code Mpi.freeMem}: a direct buffer, or a block of the node's arena) and
     * it may be reused at once: a transport that keeps registrations beyond {@link #deregister} (a registration
     * cache) drops every one overlapping it now, so that no later registration or operation uses a key of the old
     * memory. Called on the engine thread before the memory is released. Nothing by default (nothing cached).
     */
    default void memoryFreed(final java.nio.ByteBuffer memory)
    {
    }

    /** Writes the remote key of {@code registration} at {@code out[at]}, {@link #KEY_LONGS} longs. */
    void remoteKey(long registration, long[] out, int at);

    /**
     * Starts writing {@code length} bytes of this rank's registration from {@code localOffset} into the
     * memory {@code peerRank} registered under {@code key} (at {@code key[keyAt]}), from {@code remoteOffset}.
     *
     * @return false when the transport has no room for the operation now (nothing started; retry later).
     */
    boolean put(int peerRank, long[] key, int keyAt, long remoteOffset, long registration, long localOffset, long length, long token);

    /** As {@link #put}, reading the peer's memory into this rank's registration. */
    boolean get(int peerRank, long[] key, int keyAt, long remoteOffset, long registration, long localOffset, long length, long token);

    /**
     * Starts writing several runs of this rank's registration, gathered in order, into one run of the memory
     * {@code peerRank} registered under {@code key}, from {@code remoteOffset}: the scatter-gather list of a
     * non-contiguous send (RDMA verbs post up to the device's {@code max_sge} runs per work request, so the runs are
     * never packed). Run {@code i} is {@code segments[2 * i]} (its offset in the registration) and
     * {@code segments[2 * i + 1]} (its length, positive); this call takes runs {@code first} to
     * {@code first + count - 1}.
     *
     * <p>It may start only a prefix of them when the transport runs out of room: it returns how many it started
     * (0: none, retry later), and the caller calls again for the rest, with {@code remoteOffset} advanced by the
     * bytes of those started. Every started run is reported by one completion carrying {@code token} (a run is
     * reported once its bytes are in the target's memory), so the caller counts completions against the runs it
     * started.
     *
     * <p>By default each run is one {@link #put}, in order, until one finds no room: transports without
     * scatter-gather hardware need nothing more.
     *
     * @return how many runs, from {@code first}, were started (0 to {@code count}).
     */
    default int putGather(final int peerRank, final long[] key, final int keyAt, final long remoteOffset, final long registration,
        final long[] segments, final int first, final int count, final long token)
    {
        return eachSegment(this, false, peerRank, key, keyAt, remoteOffset, registration, segments, first, count, token);
    }

    /**
     * As {@link #putGather}, reading one run of the peer's memory from {@code remoteOffset} into several runs of this
     * rank's registration, in order (the scatter list of a non-contiguous receive). By default one {@link #get} per run.
     *
     * @return how many runs, from {@code first}, were started (0 to {@code count}).
     */
    default int getScatter(final int peerRank, final long[] key, final int keyAt, final long remoteOffset, final long registration,
        final long[] segments, final int first, final int count, final long token)
    {
        return eachSegment(this, true, peerRank, key, keyAt, remoteOffset, registration, segments, first, count, token);
    }

    /**
     * {@link #putGather} and {@link #getScatter} one run at a time through {@link #put} or {@link #get} (their default,
     * and a transport's own fallback for memory its hardware cannot gather from); how many runs were started.
     */
    static int eachSegment(final RemoteMemory memory, final boolean read, final int peerRank, final long[] key, final int keyAt,
        final long remoteOffset, final long registration, final long[] segments, final int first, final int count, final long token)
    {
        if (first < 0 || count < 0 || 2L * (first + count) > segments.length)
        {
            throw new MpiException(ErrorClass.ERR_ARG, (read ? "getScatter" : "putGather") + ": runs [" + first + ", " +
                (first + count) + ") outside a list of " + segments.length / 2 + ", peer=" + peerRank);
        }
        long at = remoteOffset;
        int started = 0;
        while (started < count)
        {
            final int i = 2 * (first + started);
            final boolean room = read ? memory.get(peerRank, key, keyAt, at, registration, segments[i], segments[i + 1], token)
                : memory.put(peerRank, key, keyAt, at, registration, segments[i], segments[i + 1], token);
            if (!room)
            {
                break;
            }
            at += segments[i + 1];
            started++;
        }
        return started;
    }

    /**
     * Whether {@link #fetchAndAdd} and {@link #compareAndSwap} work on the memory {@code key} names, atomically with
     * every other access the target's rank makes to it with its CPU's atomics (so a one-sided layer may mix them with
     * its other paths). False by default: not offered.
     */
    default boolean atomics(final long[] key, final int keyAt)
    {
        return false;
    }

    /**
     * Starts an atomic add of {@code delta} to the 8-byte integer (native order) at {@code remoteOffset} (a multiple of
     * 8) of the memory {@code peerRank} registered under {@code key}; the old value is reported through
     * {@link Completions#onAtomic}. Only where {@link #atomics} is true.
     *
     * @return false when the transport has no room for the operation now (nothing started; retry later).
     * @throws UnsupportedOperationException where atomics are not offered (the default).
     */
    default boolean fetchAndAdd(final int peerRank, final long[] key, final int keyAt, final long remoteOffset, final long delta,
        final long token)
    {
        throw new UnsupportedOperationException("remote memory offers no atomics (issue 19)");
    }

    /** As {@link #fetchAndAdd}: stores {@code swap} if the 8 bytes equal {@code compare}; the old value is reported. */
    default boolean compareAndSwap(final int peerRank, final long[] key, final int keyAt, final long remoteOffset, final long compare,
        final long swap, final long token)
    {
        throw new UnsupportedOperationException("remote memory offers no atomics (issue 19)");
    }
}
