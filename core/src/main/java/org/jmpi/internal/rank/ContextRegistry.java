package org.jmpi.internal.rank;

import java.util.Arrays;
import java.util.function.IntConsumer;

/**
 * Which matching contexts are live on this rank: the one place where a context id becomes live (a communicator
 * using it is made here) and stops being live (the last communicator using it is freed here). The matching
 * layer asks {@link #isOpen} before matching a frame, so a frame for a context no communicator of this rank uses
 * (freed, or not made yet) is never matched against another communicator's receives.
 *
 * <p>Several communicator states may share a context (the parts of an intercommunicator, a split's disjoint
 * communicators): the registry counts openings. WORLD and SELF open theirs at init and never close them.
 *
 * <p>Hooks for the matching layer: {@code onClose} runs when a context's last user is freed (from then on its
 * frames are dropped); {@code onReopen} runs for such a context when this rank next offers its free ids for a
 * new communicator ({@link #reopenClosed}, called by the pool's {@code freeMask}) — not later, when the new
 * communicator is made: a peer that finished the agreement first may already send on the id, and its frames
 * must be matched, not dropped. So frames of a freed context are dropped from its free until this rank next
 * takes part in making a communicator; a frame sent on the old communicator that arrives after that (an
 * erroneous program: a send nobody received before the free) would need an epoch in the frame to be told
 * apart.
 *
 * <p>Threading: any thread; reads ({@link #isOpen}) take no lock, so the matching layer may call it per frame. The
 * hooks run under the registry's lock (see {@link #hooks}).
 */
public final class ContextRegistry
{
    /** Context ids this registry tracks with a plain array; larger ids grow it. */
    private static final int INITIAL_IDS = 256;

    private volatile int[] openCounts = new int[INITIAL_IDS];
    private volatile IntConsumer onClose;
    private volatile IntConsumer onReopen;
    /** Contexts closed (their hook ran) and not reopened since. */
    private int[] closed = new int[8];
    private int closedCount;

    /** Marks {@code contextId} live on this rank (once more, if already). */
    public synchronized void open(final int contextId)
    {
        assert contextId >= 0 : contextId;
        int[] counts = openCounts;
        if (contextId >= counts.length)
        {
            counts = java.util.Arrays.copyOf(counts, Math.max(contextId + 1, counts.length * 2));
        }
        counts[contextId]++;
        openCounts = counts;
    }

    /**
     * One user of {@code contextId} is gone; when it was the last, the context is no longer live and the
     * close hook (if any) runs.
     *
     * @return whether the context is closed now.
     */
    public boolean close(final int contextId)
    {
        synchronized (this)
        {
            final int[] counts = openCounts;
            assert contextId >= 0 && contextId < counts.length && counts[contextId] > 0 : "close of a context that is not open: " + contextId;
            counts[contextId]--;
            openCounts = counts;
            if (counts[contextId] != 0)
            {
                return false;
            }
            if (closedCount == closed.length)
            {
                closed = Arrays.copyOf(closed, 2 * closed.length);
            }
            closed[closedCount++] = contextId;
            // Under the lock, with the id's entry in the closed list: a reopenClosed on another thread (an agreement
            // offering ids) must not run its reopen hook for this id before this close hook ran, or the matching
            // layer sees open, then closed, and drops the id's frames for good.
            final IntConsumer hook = onClose;
            if (hook != null)
            {
                hook.accept(contextId);
            }
        }
        return true;
    }

    /** Runs the reopen hook for every context closed since the last call (see the class comment). */
    public synchronized void reopenClosed()
    {
        if (closedCount == 0)
        {
            return;
        }
        final IntConsumer hook = onReopen;
        for (int i = 0; i < closedCount; i++)
        {
            if (hook != null)
            {
                hook.accept(closed[i]);
            }
        }
        closedCount = 0;
    }

    /** Whether a communicator of this rank uses {@code contextId}. */
    public boolean isOpen(final int contextId)
    {
        final int[] counts = openCounts;
        return contextId >= 0 && contextId < counts.length && counts[contextId] > 0;
    }

    /**
     * Sets the hooks: {@code onClose} when a context closes (the matching layer drops what is queued for it and
     * its later frames), {@code onReopen} when it may be chosen again (see the class comment); {@code null} for
     * none. They run under this registry's lock, so the matching layer gets a context's close and reopen in the
     * order the registry made them: they must be quick, never block and never call back into the registry.
     */
    public void hooks(final IntConsumer onClose, final IntConsumer onReopen)
    {
        this.onClose = onClose;
        this.onReopen = onReopen;
    }
}
