package org.jmpi.internal.coll;

import java.util.concurrent.atomic.AtomicInteger;

import org.jmpi.internal.pt2pt.CommState;

/**
 * What the collectives keep per communicator (in its {@link CommState}, as a slot): the sequence that gives
 * each collective operation its own tag on the collective context (every rank calls a communicator's
 * collectives in the same order, so they agree on it) and the parameters read from the rank's services when
 * the communicator was first used.
 *
 * <p>Tags: collective operations use {@code FIRST_TAG .. VIEW_TAG - 1}, cycling (2^28 operations may be
 * in flight at once); tags below {@code FIRST_TAG} belong to the core's own barrier (finalize), tags from
 * {@code VIEW_TAG} to the two sub-communicators of the two-level collectives (org.jmpi.internal.coll.hier), which
 * match on the communicator's collective context with ranges of their own ({@link #bindView}), tags from
 * {@code SPECIAL_TAG} to the context agreement of {@code createGroup}, which runs over a subset of ranks.
 *
 * <p>Threading: any thread (the sequence is atomic; MPI requires the caller to order collective calls on
 * one communicator).
 */
public final class CollContext
{
    static final int FIRST_TAG = 64;
    static final int VIEW_TAG = 1 << 28;
    static final int VIEW_SPAN = 1 << 27;
    static final int SPECIAL_TAG = 1 << 29;

    private static final CommState.Slot<CollContext> SLOT =
        CommState.slot(c -> new CollContext(CollParams.of(c.services().params()), -1, FIRST_TAG, VIEW_TAG - FIRST_TAG));

    final CollParams params;
    private final AtomicInteger sequence = new AtomicInteger();
    private final int fixedTag;
    private final int firstTag;
    private final int tagSpan;

    private CollContext(final CollParams params, final int fixedTag, final int firstTag, final int tagSpan)
    {
        this.params = params;
        this.fixedTag = fixedTag;
        this.firstTag = firstTag;
        this.tagSpan = tagSpan;
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
        c.set(SLOT, new CollContext(CollParams.of(c.services().params()), SPECIAL_TAG + Math.floorMod(userTag, SPECIAL_TAG), 0, 1));
    }

    /**
     * Binds the context of {@code view}, sub-communicator {@code index} (0: the node's, 1: the leaders') of
     * {@code parent}'s two-level collectives, matching on the parent's collective context: the parent's parameters,
     * tags from a range of its own, and no two-level collectives of its own.
     */
    public static void bindView(final CommState view, final CommState parent, final int index)
    {
        assert index == 0 || index == 1 : index;
        view.set(SLOT, new CollContext(of(parent).params, -1, VIEW_TAG + index * VIEW_SPAN, VIEW_SPAN));
    }

    /** Whether the two-level collectives may run on this context's communicator (not on their own sub-communicators). */
    boolean twoLevelAllowed()
    {
        return fixedTag < 0 && firstTag == FIRST_TAG;
    }

    /** The tag of the next collective operation (every member takes the same tags, in the same order). */
    public int nextTag()
    {
        if (fixedTag >= 0)
        {
            return fixedTag;
        }
        return firstTag + Math.floorMod(sequence.getAndIncrement(), tagSpan);
    }
}
