package org.jmpi.internal.rank;

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
 * <p>Threading: any thread; reads ({@link #isOpen}) take no lock, so the matching layer may call it per frame.
 */
public final class ContextRegistry
{
    /** Context ids this registry tracks with a plain array; larger ids grow it. */
    private static final int INITIAL_IDS = 256;

    private volatile int[] openCounts = new int[INITIAL_IDS];
    private volatile IntConsumer onClose;

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
     * close hook (if any) runs, under this registry's lock, so it must not block.
     *
     * @return whether the context is closed now.
     */
    public synchronized boolean close(final int contextId)
    {
        final int[] counts = openCounts;
        assert contextId >= 0 && contextId < counts.length && counts[contextId] > 0 : "close of a context that is not open: " + contextId;
        counts[contextId]--;
        openCounts = counts;
        if (counts[contextId] == 0)
        {
            final IntConsumer hook = onClose;
            if (hook != null)
            {
                hook.accept(contextId);
            }
            return true;
        }
        return false;
    }

    /** Whether a communicator of this rank uses {@code contextId}. */
    public boolean isOpen(final int contextId)
    {
        final int[] counts = openCounts;
        return contextId >= 0 && contextId < counts.length && counts[contextId] > 0;
    }

    /**
     * Sets the hook run when a context closes (the matching layer drops what is queued for it); {@code null}
     * for none.
     */
    public void onClose(final IntConsumer hook)
    {
        this.onClose = hook;
    }
}
