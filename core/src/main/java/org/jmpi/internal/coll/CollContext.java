package org.jmpi.internal.coll;

import java.lang.ref.WeakReference;
import java.util.Map;
import java.util.WeakHashMap;
import java.util.concurrent.atomic.AtomicInteger;

import org.jmpi.internal.pt2pt.CommState;

/**
 * What the collectives keep per communicator: the sequence that gives each collective operation its own
 * tag on the collective context (every rank calls a communicator's collectives in the same order, so they
 * agree on it), the parameters read when the communicator was first used, and whether it was freed.
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

    private static final Map<CommState, CollContext> CONTEXTS = new WeakHashMap<>();
    /** The calling thread's last lookup: most threads call collectives on one communicator, without taking the lock. */
    private static final ThreadLocal<CollContext> LAST = new ThreadLocal<>();

    private final WeakReference<CommState> owner;
    final CollParams params;
    private final AtomicInteger sequence = new AtomicInteger();
    private final int fixedTag;
    private volatile boolean freed;

    private CollContext(final CommState owner, final CollParams params, final int fixedTag)
    {
        this.owner = new WeakReference<>(owner);
        this.params = params;
        this.fixedTag = fixedTag;
    }

    /** The context of {@code c}, made on first use. */
    public static CollContext of(final CommState c)
    {
        final CollContext last = LAST.get();
        if (last != null && last.owner.get() == c)
        {
            return last;
        }
        final CollContext found;
        synchronized (CONTEXTS)
        {
            found = CONTEXTS.computeIfAbsent(c, k -> new CollContext(k, CollParams.current(), -1));
        }
        LAST.set(found);
        return found;
    }

    /**
     * Binds a context whose every operation uses one tag from the special range, derived from {@code userTag}
     * (a temporary communicator for one agreement, as in createGroup).
     */
    public static void bindSpecial(final CommState c, final int userTag)
    {
        synchronized (CONTEXTS)
        {
            CONTEXTS.put(c, new CollContext(c, CollParams.current(), SPECIAL_TAG + Math.floorMod(userTag, SPECIAL_TAG)));
        }
    }

    /** Marks {@code c} freed: collectives on it fail with ERR_COMM. */
    public static void free(final CommState c)
    {
        of(c).markFreed();
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

    public boolean freed()
    {
        return freed;
    }

    void markFreed()
    {
        freed = true;
    }
}
