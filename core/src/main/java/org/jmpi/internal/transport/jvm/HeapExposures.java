package org.jmpi.internal.transport.jvm;

import org.jmpi.ErrorClass;
import org.jmpi.MpiException;

import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * The objects one rank exposes to the ranks of its JVM, in a fixed table of slots. A handle is
 * {@code generation * CAPACITY + slot} with a generation that grows with every exposure, so a stale
 * handle never maps to a later exposure of the same slot. Nothing is allocated per exposure.
 *
 * <p>Threading: {@link #expose} and {@link #withdraw} by the owner's engine thread only; {@link #map}
 * by any thread. The object is stored before the handle is released, and read after the handle is
 * acquired and checked, so a mapper that holds a current handle sees the object it names.
 */
final class HeapExposures
{
    /** Exposures one rank may hold at once (rendezvous sends in flight); beyond, expose returns 0. */
    static final int CAPACITY = 1024;

    private final AtomicReferenceArray<Object> objects = new AtomicReferenceArray<>(CAPACITY);
    private final AtomicLongArray handles = new AtomicLongArray(CAPACITY);
    private final int[] free = new int[CAPACITY];
    private int freeCount = CAPACITY;
    private long generation;

    HeapExposures()
    {
        for (int i = 0; i < CAPACITY; i++)
        {
            free[i] = CAPACITY - 1 - i;
        }
    }

    /** Exposes {@code memory}; returns its handle, or 0 when every slot is taken. */
    long expose(final Object memory)
    {
        if (freeCount == 0)
        {
            return 0;
        }
        final int slot = free[--freeCount];
        final long handle = ++generation * CAPACITY + slot;
        objects.setPlain(slot, memory);
        handles.setRelease(slot, handle);
        return handle;
    }

    void withdraw(final long handle)
    {
        final int slot = slotOf(handle);
        if (handles.get(slot) != handle)
        {
            throw new MpiException(ErrorClass.ERR_INTERN, "in-JVM peer memory: withdraw of unknown handle " + handle);
        }
        handles.setRelease(slot, 0);
        objects.setPlain(slot, null);
        free[freeCount++] = slot;
    }

    Object map(final int owner, final long handle)
    {
        final int slot = slotOf(handle);
        if (handle <= 0 || handles.getAcquire(slot) != handle)
        {
            throw new MpiException(ErrorClass.ERR_INTERN, "in-JVM peer memory: rank " + owner + " exposes no handle " + handle);
        }
        return objects.getPlain(slot);
    }

    private static int slotOf(final long handle)
    {
        return (int)Math.floorMod(handle, (long)CAPACITY);
    }
}
