package org.jmpi.internal.rma;

import org.jmpi.MpiException;

/**
 * The completion of one one-sided operation: done once every fragment of it is done at the target
 * (remote completion). A fetch-and-add carries the value it fetched.
 *
 * <p>Threading: completed on the origin's engine thread; {@link #isDone()} and the results may be read
 * by any thread after it returns true.
 */
public final class Completion
{
    /** A put, get or add of a fetched 0 that finished as it was issued; shared, never changed. */
    static final Completion DONE = done(0);

    /** An operation that finished as it was issued (peer memory, or the origin itself). */
    static Completion done(final long value)
    {
        final Completion c = new Completion(0);
        c.value = value;
        c.done = true;
        return c;
    }

    private int outstanding;
    private long value;
    private MpiException failure;
    private volatile boolean done;
    /** A thread parked until this completes (offload mode: nobody else polls for it), or null. */
    private volatile Thread waiter;

    Completion(final int fragments)
    {
        this.outstanding = fragments;
        this.done = fragments == 0;
    }

    /** Whether the operation finished at the target. */
    public boolean isDone()
    {
        return done;
    }

    /** The fetched value of a fetch-and-add; 0 for puts and gets. Valid once done. */
    public long value()
    {
        return value;
    }

    /** The failure, or null. Valid once done. */
    public MpiException failure()
    {
        return failure;
    }

    /**
     * Unparks {@code thread} when the operation completes (the engine's progress thread completes it while the
     * thread waits parked); a no-op once done, as the waiter checks before parking.
     */
    public void wakeOnDone(final Thread thread)
    {
        if (!done)
        {
            waiter = thread;
        }
    }

    /** One fragment finished; engine thread. */
    void fragmentDone(final long fetched)
    {
        value = fetched;
        if (--outstanding == 0)
        {
            finish();
        }
    }

    void fail(final MpiException ex)
    {
        failure = ex;
        outstanding = 0;
        finish();
    }

    private void finish()
    {
        done = true;
        final Thread w = waiter;
        if (w != null)
        {
            java.util.concurrent.locks.LockSupport.unpark(w);
        }
    }
}
