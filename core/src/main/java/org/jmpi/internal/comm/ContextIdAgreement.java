package org.jmpi.internal.comm;

import java.util.function.IntToLongFunction;

import org.jmpi.internal.rank.ContextIdPool;
import org.jmpi.Comm;
import org.jmpi.ErrorClass;
import org.jmpi.MpiException;
import org.jmpi.Op;
import org.jmpi.Status;
import org.jmpi.internal.coll.ContextAgreement;
import org.jmpi.internal.pt2pt.CommState;
import org.jmpi.internal.pt2pt.RequestImpl;
import org.jmpi.internal.engine.ProgressEngine;

/**
 * The context-id agreement: the members of a communicator C (the parent of a new communicator, or the
 * temporary one of createGroup) pick a slot of their {@link ContextIdPool}s (a pair of ids) free on every
 * member. It is safe while other threads of the same ranks run agreements over other communicators (MPI allows
 * collectives on different communicators concurrently under {@code THREAD_MULTIPLE}), and it never waits for
 * them: concurrent agreements over overlapping groups each finish on their own.
 *
 * <p>Every round is one allreduce(BAND) over C, under a tag fixed at the call, of {@code {p, ~p, mask}}:
 * {@code p} is a slot this rank holds for the round (or -1), {@code mask} the free slots of this rank in the
 * current window of {@link ContextIdPool#WINDOW_SLOTS} slots.
 * <ol>
 * <li>Round 1: the mask of window 0, then hold the lowest free slot as {@code p} (ranks that made the same
 * communicators propose the same slot, so this one round usually decides).</li>
 * <li>After a round: if {@code AND(p) == ~AND(~p)} and it is not -1, every rank contributed that same slot and
 * holds it: commit it (held becomes used) and finish.</li>
 * <li>Otherwise release this rank's hold. If the common mask has a free slot, every rank picks the same one,
 * pseudo-randomly from a seed that depends on the agreement (C's context, its first member, the tag) and the
 * round, and proposes it if it can still hold it here (a concurrent agreement may have taken it since), else -1.
 * If the common mask is empty, move to the next window and propose this rank's lowest free slot there.
 * Contribute a fresh mask with it and go to 2.</li>
 * </ol>
 * Safety: a slot is committed only if every member held it in the same round, and on one rank a slot is held
 * by at most one agreement at a time (the pool's lock), so two communicators of a rank never share ids.
 * Progress: an agreement holds one slot at a time and only for one round; a slot held by another agreement
 * is left out of the next mask, and concurrent agreements pick different slots at random, so a conflict costs a
 * round and never a wait (MPICH instead hands its whole mask to one agreement at a time, by priority).
 *
 * <p>Threading: made on the caller's thread, advanced on the engine thread only (it is a protocol activity).
 */
public class ContextIdAgreement extends RequestImpl implements ProgressEngine.Activity
{
    private static final Status OK = new Status(Comm.ANY_SOURCE, Comm.ANY_TAG, ErrorClass.SUCCESS, false, 0);
    private static final int MASK_OFFSET = 2;
    private static final int WORDS = MASK_OFFSET + ContextIdPool.WINDOW_WORDS;
    static final long GOLDEN = 0x9E3779B97F4A7C15L;

    /** The communicator whose members agree. */
    protected final CommState over;
    private final ContextIdPool pool;
    private final int tag;
    private final long seed;
    private ContextAgreement round;
    private int window;
    private int holding = -1;
    private int rounds;
    private int agreedId = -1;

    /**
     * An agreement over {@code over} whose rounds use {@code tag} (take it with
     * {@link ContextAgreement#reserveTag} in collective order).
     */
    protected ContextIdAgreement(final CommState over, final int tag)
    {
        super(over.engine(), over::handle);
        this.over = over;
        this.pool = over.contextIds();
        this.tag = tag;
        this.seed = mix(mix(mix(over.contextId()) + over.worldRank(0)) + tag);
    }

    /**
     * Agrees a context-id pair over {@code c} (collective over c) and returns its first id, already committed
     * in this rank's pool (give it back with {@link ContextIdPool#free} if this rank does not use it).
     */
    public static int agree(final CommState c)
    {
        final ContextIdAgreement a = new ContextIdAgreement(c, ContextAgreement.reserveTag(c));
        a.launch();
        a.await();
        return a.agreedId;
    }

    /** Starts the first round on the engine; the rest follows as the engine polls. */
    protected final void launch()
    {
        over.engine().execute(() ->
        {
            try
            {
                final long[] words = new long[WORDS];
                pool.freeMask(0, words, MASK_OFFSET);
                propose(words, pool.holdLowest(0));
            }
            catch (final RuntimeException ex)
            {
                fail(ex);
                return;
            }
            if (!progress())
            {
                over.protocol().engine().addActivity(this);
            }
        });
    }

    /**
     * Called on the engine thread with the agreed id, already committed, before the request completes. An
     * exception fails the request and returns the id to the pool.
     */
    protected void onAgreed(final int contextId)
    {
    }

    /** The agreed point-to-point context id (the collective one is this plus one); -1 before completion. */
    public final int contextId()
    {
        return agreedId;
    }

    /** Rounds run so far (1 when the first proposal was common). */
    public final int rounds()
    {
        return rounds;
    }

    @Override
    public final boolean progress()
    {
        if (isDone())
        {
            return true;
        }
        try
        {
            while (round.done())
            {
                rounds++;
                final long all = round.value(0);
                if (all == ~round.value(1) && all >= 0)
                {
                    assert holding == all : "agreed slot " + all + ", held " + holding;
                    pool.commit(holding);
                    holding = -1;
                    agreedId = pool.id((int) all);
                    try
                    {
                        onAgreed(agreedId);
                    }
                    catch (final RuntimeException ex)
                    {
                        pool.free((int) all);
                        throw ex;
                    }
                    complete(OK, null);
                    return true;
                }
                releaseHold();
                final ContextAgreement result = round;
                final int pick = pick(i -> result.value(MASK_OFFSET + i), seed + rounds * GOLDEN);
                final long[] words = new long[WORDS];
                if (pick < 0)
                {
                    window++;
                    if (window >= pool.windows())
                    {
                        throw new MpiException(ErrorClass.ERR_OTHER, "no context id is free on every member of " + over.name() +
                            " (" + pool.usedCount() + " used on rank " + over.rank() + " after " + rounds + " rounds)");
                    }
                    pool.freeMask(window, words, MASK_OFFSET);
                    propose(words, pool.holdLowest(window * ContextIdPool.WINDOW_SLOTS));
                }
                else
                {
                    final int slot = window * ContextIdPool.WINDOW_SLOTS + pick;
                    pool.freeMask(window, words, MASK_OFFSET);
                    propose(words, pool.tryHold(slot) ? slot : -1);
                }
            }
            return false;
        }
        catch (final RuntimeException ex)
        {
            fail(ex);
            return true;
        }
    }

    /** Contributes {@code slot} (held by this rank, or -1) and the mask in {@code words} to the next round. */
    private void propose(final long[] words, final int slot)
    {
        holding = slot;
        words[0] = slot;
        words[1] = ~(long) slot;
        round = ContextAgreement.reduce(over, tag, Op.BAND, words);
    }

    private void releaseHold()
    {
        if (holding >= 0)
        {
            pool.release(holding);
            holding = -1;
        }
    }

    private void fail(final RuntimeException ex)
    {
        releaseHold();
        complete(OK, ex instanceof MpiException me ? me
            : new MpiException(ErrorClass.ERR_OTHER, "context id agreement on " + over.name() + " failed: " + ex, ex));
    }

    /**
     * The index in the window of the set bit of the common mask (word i: {@code mask.applyAsLong(i)}) chosen by
     * {@code random}, or -1 if none is set.
     */
    static int pick(final IntToLongFunction mask, final long random)
    {
        int free = 0;
        for (int i = 0; i < ContextIdPool.WINDOW_WORDS; i++)
        {
            free += Long.bitCount(mask.applyAsLong(i));
        }
        if (free == 0)
        {
            return -1;
        }
        int skip = (int) Math.floorMod(mix(random), (long) free);
        for (int i = 0; i < ContextIdPool.WINDOW_WORDS; i++)
        {
            long word = mask.applyAsLong(i);
            final int n = Long.bitCount(word);
            if (skip >= n)
            {
                skip -= n;
                continue;
            }
            for (; skip > 0; skip--)
            {
                word &= word - 1;
            }
            return i * Long.SIZE + Long.numberOfTrailingZeros(word);
        }
        throw new AssertionError("unreachable");
    }

    /** SplitMix64's finaliser. */
    static long mix(final long value)
    {
        long z = value + GOLDEN;
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }

    @Override
    public void cancel()
    {
        // Collective operations cannot be cancelled (MPI 4.1 §3.8.4).
    }
}
