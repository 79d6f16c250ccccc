package org.jmpi.internal.comm;

import org.jmpi.internal.rank.ContextIdPool;
import org.jmpi.Datatype;
import org.jmpi.ErrorClass;
import org.jmpi.MpiException;
import org.jmpi.Op;
import org.jmpi.internal.coll.Collectives;
import org.jmpi.internal.coll.Reductions;
import org.jmpi.internal.pt2pt.CommState;

/**
 * The context-id agreement of an intercommunicator being made ({@code Intercomm.create}) or merged
 * ({@code Intercomm.merge}): the members of <em>two</em> groups, which share no intracommunicator yet, pick a
 * slot of their {@link ContextIdPool}s free on every member of both. Same rounds and decision as
 * {@link ContextIdAgreement} (so it is as safe against other threads of the same ranks making communicators
 * from other parents, and never waits for them); only the reduction of a round spans the two groups:
 * <ol>
 * <li>allreduce(BAND) of {@code {p, ~p, mask, identity}} inside each group (over {@code local});</li>
 * <li>the two leaders exchange their group's result through {@link LeaderExchange} (over the peer
 * communicator for create, the intercommunicator's bridge for merge) and combine them: BAND of
 * {@code {p, ~p, mask}}, sum of the identities (commutative, so both groups get the same value);</li>
 * <li>each leader broadcasts the combined result in its group.</li>
 * </ol>
 * Then, as in {@link ContextIdAgreement}: if {@code AND(p) == ~AND(~p) >= 0} every member of both groups holds
 * that slot and commits it; otherwise each releases its hold and proposes the slot of the common mask that all
 * pick from the same seed (the combined identity and the round), or its lowest free slot in the next window if
 * the mask is empty. A group's identity mixes its communicator's context id, its first member and a
 * {@code salt} both groups pass alike; it only spreads the picks of concurrent agreements apart.
 *
 * <p>Threading: runs on the calling thread (blocking), collective over both groups; the pool's lock is taken
 * only briefly, never across a round.
 */
public final class InterContextIdAgreement
{
    /** The leaders' step of a round: send {@code out} to the other group's leader, receive its result into {@code in}. */
    @FunctionalInterface
    public interface LeaderExchange
    {
        void exchange(long[] out, long[] in);
    }

    private static final int MASK_OFFSET = 2;
    private static final int IDENTITY = MASK_OFFSET + ContextIdPool.WINDOW_WORDS;
    private static final int WORDS = IDENTITY + 1;

    private InterContextIdAgreement()
    {
    }

    /**
     * Agrees a context-id pair over both groups and returns its first id, committed in this rank's pool.
     *
     * @param local    this group as an intracommunicator (its collectives carry the group's part of each round).
     * @param leader   the rank in {@code local} of the group's leader.
     * @param salt     a value both groups pass alike (e.g. the tag of create).
     * @param exchange the leaders' step; called at the leader only.
     */
    public static int agree(final CommState local, final int leader, final long salt, final LeaderExchange exchange)
    {
        final ContextIdPool pool = local.contextIds();
        final long identity = ContextIdAgreement.mix(ContextIdAgreement.mix(ContextIdAgreement.mix(local.contextId()) +
            local.worldRank(0)) + salt);
        int window = 0;
        int holding = -1;
        try
        {
            final long[] words = new long[WORDS];
            pool.freeMask(0, words, MASK_OFFSET);
            holding = pool.holdLowest(0);
            for (int rounds = 1; ; rounds++)
            {
                words[0] = holding;
                words[1] = ~(long) holding;
                words[IDENTITY] = identity;
                final long[] all = round(local, leader, exchange, words);
                if (all[0] == ~all[1] && all[0] >= 0)
                {
                    assert holding == all[0] : "agreed slot " + all[0] + ", held " + holding;
                    pool.commit(holding);
                    return pool.id(holding);
                }
                if (holding >= 0)
                {
                    pool.release(holding);
                    holding = -1;
                }
                final int pick = ContextIdAgreement.pick(i -> all[MASK_OFFSET + i], all[IDENTITY] + rounds * ContextIdAgreement.GOLDEN);
                if (pick < 0)
                {
                    window++;
                    if (window >= pool.windows())
                    {
                        throw new MpiException(ErrorClass.ERR_OTHER, "no context id is free on every member of both groups of " +
                            local.name() + " (" + pool.usedCount() + " used on rank " + local.rank() + " after " + rounds + " rounds)");
                    }
                    pool.freeMask(window, words, MASK_OFFSET);
                    holding = pool.holdLowest(window * ContextIdPool.WINDOW_SLOTS);
                }
                else
                {
                    final int slot = window * ContextIdPool.WINDOW_SLOTS + pick;
                    pool.freeMask(window, words, MASK_OFFSET);
                    holding = pool.tryHold(slot) ? slot : -1;
                }
            }
        }
        catch (final RuntimeException ex)
        {
            if (holding >= 0)
            {
                pool.release(holding);
            }
            throw ex;
        }
    }

    /** One round: the group's BAND, the leaders' combination of both groups' results, the leader's bcast. */
    private static long[] round(final CommState local, final int leader, final LeaderExchange exchange, final long[] words)
    {
        final long[] group = new long[WORDS];
        Reductions.allreduce(local, words, 0, group, 0, WORDS, Datatype.LONG, Op.BAND).start().await();
        if (local.rank() == leader)
        {
            final long[] theirs = new long[WORDS];
            exchange.exchange(group.clone(), theirs);
            for (int i = 0; i < IDENTITY; i++)
            {
                group[i] &= theirs[i];
            }
            group[IDENTITY] += theirs[IDENTITY];
        }
        Collectives.bcast(local, group, 0, WORDS, Datatype.LONG, leader).start().await();
        return group;
    }
}
