package org.jmpi.internal.coll;

import java.util.concurrent.atomic.AtomicInteger;

import org.jmpi.internal.pt2pt.CommState;

/**
 * What the collectives keep per communicator (in its {@link CommState}, as a slot): the sequence that gives
 * each collective operation its own tag on the collective context (every rank calls a communicator's
 * collectives in the same order, so they agree on it) and the parameters read from the rank's services when
 * the communicator was first used.
 *
 * <p>Tags: collective operations use {@code FIRST_TAG .. SPECIAL_TAG - 1}, cycling (2^29 operations may be
 * in flight at once); tags below {@code FIRST_TAG} belong to the core's own barrier (finalize), tags from
 * {@code SPECIAL_TAG} to the context agreement of {@code createGroup}, which runs over a subset of ranks.
 *
 * <p>Threading: any thread (the sequence is atomic; MPI requires the caller to order collective calls on
 * one communicator).
 */
public final class CollContext
{
    static final int FIRST_TAG = 64;
    static final int SPECIAL_TAG = 1 << 29;

    private static final CommState.Slot<CollContext> SLOT =
        CommState.slot(c -> new CollContext(CollParams.of(c.services().params()), -1));

    final CollParams params;
    private final AtomicInteger sequence = new AtomicInteger();
    private final int fixedTag;

    private CollContext(final CollParams params, final int fixedTag)
    {
        this.params = params;
        this.fixedTag = fixedTag;
    }

    /** The context of {@code c}, made on first use. */
    public static CollContext of(final CommState c)
    {
        return c.get(SLOT);
    }

    /**
     * Binds a context whose every operation uses one tag from the special range, derived from {@code userTag}
     * (a temporary communicator for one agreement, as in createGroup).
     */
    public static void bindSpecial(final CommState c, final int userTag)
    {
        c.set(SLOT, new CollContext(CollParams.of(c.services().params()), SPECIAL_TAG + Math.floorMod(userTag, SPECIAL_TAG)));
    }

    /** The tag of the next collective operation. */
    int nextTag()
    {
        if (fixedTag >= 0)
        {
            return fixedTag;
        }
        return FIRST_TAG + Math.floorMod(sequence.getAndIncrement(), SPECIAL_TAG - FIRST_TAG);
    }
}
