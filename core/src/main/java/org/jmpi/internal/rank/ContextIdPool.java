package org.jmpi.internal.rank;

import java.util.BitSet;

import org.jmpi.ErrorClass;
import org.jmpi.MpiException;

/**
 * One rank's context ids: which are used by a live communicator of this rank, and which are held for a while
 * by an agreement in flight ({@code org.jmpi.internal.comm.ContextIdAgreement}). Ids go in pairs (point-to-point, collective), one
 * <em>slot</em> per pair: slot s is the ids {@code firstId + 2s} and {@code firstId + 2s + 1}.
 *
 * <p>A slot is <em>free</em> when it is neither used nor held. An agreement holds at most one slot at a time
 * and only while one of its rounds is in flight, so concurrent agreements on this rank never pick the same
 * slot, and none waits for another (a held slot is simply not offered to the others).
 *
 * <p>Threading: any thread; every method takes this pool's lock, briefly, and never communicates under it.
 */
public final class ContextIdPool
{
    /** Slots per agreement window (one bit each in the agreed mask): 2048 slots, a 256-byte mask. */
    public static final int WINDOW_SLOTS = 2048;
    /** Longs of one window's mask. */
    public static final int WINDOW_WORDS = WINDOW_SLOTS / Long.SIZE;

    private final int firstId;
    private final int slotLimit;
    private final BitSet used = new BitSet();
    private final BitSet held = new BitSet();
    private volatile Runnable onOffered;

    /**
     * A pool whose slot 0 starts at {@code firstId} (even: the ids below belong to WORLD and SELF).
     */
    public ContextIdPool(final int firstId)
    {
        if (firstId < 0 || (firstId & 1) != 0)
        {
            throw new IllegalArgumentException("first context id must be even and >= 0: " + firstId);
        }
        this.firstId = firstId;
        this.slotLimit = (Integer.MAX_VALUE - firstId) / 2;
    }

    /** The point-to-point context id of {@code slot} (the collective one is this plus one). */
    public int id(final int slot)
    {
        return firstId + 2 * slot;
    }

    /** The slot of context id {@code id}, or -1 if the id is not in this pool (WORLD, SELF). */
    public int slot(final int id)
    {
        return id < firstId ? -1 : (id - firstId) / 2;
    }

    /** Number of windows: an agreement that finds no common free slot in window w moves to w + 1. */
    public int windows()
    {
        return (slotLimit + WINDOW_SLOTS - 1) / WINDOW_SLOTS;
    }

    /**
     * Writes the free slots of window {@code window} as a bit mask (bit b of word i: slot
     * {@code window * WINDOW_SLOTS + 64 i + b}) into {@code words[from .. from + WINDOW_WORDS)}.
     */
    public void freeMask(final int window, final long[] words, final int from)
    {
        synchronized (this)
        {
            final int start = window * WINDOW_SLOTS;
            final BitSet taken = used.get(start, start + WINDOW_SLOTS);
            taken.or(held.get(start, start + WINDOW_SLOTS));
            final long[] bits = taken.toLongArray();
            for (int i = 0; i < WINDOW_WORDS; i++)
            {
                final int slot = start + i * Long.SIZE;
                long free = ~(i < bits.length ? bits[i] : 0L);
                if (slot + Long.SIZE > slotLimit)
                {
                    free &= slot >= slotLimit ? 0L : (1L << (slotLimit - slot)) - 1;
                }
                words[from + i] = free;
            }
        }
        final Runnable hook = onOffered;
        if (hook != null)
        {
            hook.run();
        }
    }

    /**
     * Runs after every {@link #freeMask}, outside the lock, before the caller sends the mask: the moment this
     * rank offers its free ids for a new communicator (the registry reopens the contexts it closed, so a peer
     * that picks one can never have its first frames dropped here). {@code null} for nothing.
     */
    public void onOffered(final Runnable hook)
    {
        this.onOffered = hook;
    }

    /** Holds the lowest free slot at or above {@code fromSlot} and returns it, or -1 if there is none. */
    public synchronized int holdLowest(final int fromSlot)
    {
        int s = fromSlot;
        while (s < slotLimit)
        {
            final int u = used.nextClearBit(s);
            final int h = held.nextClearBit(u);
            if (h == u)
            {
                if (u >= slotLimit)
                {
                    return -1;
                }
                held.set(u);
                return u;
            }
            s = h;
        }
        return -1;
    }

    /** Holds {@code slot} if it is free; returns whether it did. */
    public synchronized boolean tryHold(final int slot)
    {
        if (slot < 0 || slot >= slotLimit || used.get(slot) || held.get(slot))
        {
            return false;
        }
        held.set(slot);
        return true;
    }

    /** Gives up a hold taken by {@link #holdLowest} or {@link #tryHold}. */
    public synchronized void release(final int slot)
    {
        assert held.get(slot) : "slot " + slot + " is not held";
        held.clear(slot);
    }

    /** Turns a hold into a use: the slot belongs to a communicator of this rank until {@link #free}. */
    public synchronized void commit(final int slot)
    {
        assert held.get(slot) && !used.get(slot) : "slot " + slot + " is not held";
        held.clear(slot);
        used.set(slot);
    }

    /** Returns a used slot to the pool (its communicator was freed). */
    public synchronized void free(final int slot)
    {
        if (slot < 0 || !used.get(slot))
        {
            throw new MpiException(ErrorClass.ERR_INTERN, "context id pool: slot " + slot + " (context " + id(slot) +
                ") is not in use");
        }
        used.clear(slot);
    }

    /** Whether {@code slot} is used by a live communicator of this rank. */
    public synchronized boolean isUsed(final int slot)
    {
        return slot >= 0 && used.get(slot);
    }

    /** Number of slots in use (live communicators with ids from this pool, counting each split once). */
    public synchronized int usedCount()
    {
        return used.cardinality();
    }
}
