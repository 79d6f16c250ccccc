package org.jmpi.internal.pt2pt;

import org.jmpi.ErrorClass;
import org.jmpi.MpiException;
import org.jmpi.Request;
import org.jmpi.Status;
import org.jmpi.internal.engine.ProgressEngine;

import java.util.concurrent.locks.LockSupport;

/**
 * Base of jmpi's requests: a completion flag published with a volatile write after the status, and
 * the thread waiting for it, unparked on completion.
 *
 * <p>Threading: the engine thread completes; any thread may read {@link #isDone()}; fields other
 * than the volatile ones are written by the engine before completion and read after it.
 */
public abstract class RequestImpl implements Request, Waitable
{
    protected final ProgressEngine engine;
    protected final ErrorSink errors;
    private volatile boolean done;
    private volatile Thread waiter;
    private Status status;
    private MpiException failure;
    private boolean failureReported;
    private boolean consumed;
    private volatile boolean freed;

    protected RequestImpl(final ProgressEngine engine, final ErrorSink errors)
    {
        this.engine = engine;
        this.errors = errors;
    }

    /** Where a failed operation's exception goes: the communicator's error handler. */
    @FunctionalInterface
    public interface ErrorSink
    {
        /** Returns the exception to throw (ERRORS_RETURN), or aborts the job and does not return. */
        MpiException handle(MpiException error);
    }

    public final boolean isDone()
    {
        return done;
    }

    /** Completes the request. Engine thread. */
    protected final void complete(final Status status, final MpiException failure)
    {
        this.status = status;
        this.failure = failure;
        done = true;
        final Thread w = waiter;
        if (w != null && w != Thread.currentThread())
        {
            LockSupport.unpark(w);
        }
    }

    @Override
    public final void registerWaiter(final Thread thread)
    {
        waiter = thread;
    }

    @Override
    public final boolean done()
    {
        return done;
    }

    /** Still to be reported: MPI's "not yet MPI_REQUEST_NULL". Wait/test helpers skip inactive ones. */
    @Override
    public final boolean active()
    {
        return !consumed;
    }

    @Override
    public final ProgressEngine engine()
    {
        return engine;
    }

    @Override
    public Status await()
    {
        checkNotFreed("await");
        if (!done)
        {
            waiter = Thread.currentThread();
            try
            {
                engine.await(this::isDone);
            }
            finally
            {
                waiter = null;
            }
        }
        return finish();
    }

    @Override
    public boolean test()
    {
        checkNotFreed("test");
        if (!done)
        {
            engine.pollOnce();
        }
        if (done)
        {
            finish();
            return true;
        }
        return false;
    }

    @Override
    public Status status()
    {
        return done ? status : null;
    }

    /** The failure of a completed request, or null. */
    public final MpiException failure()
    {
        return done ? failure : null;
    }

    /** Marks the request reported, and reports a failure once through the error handler; returns the status. */
    @Override
    public Status finish()
    {
        consumed = true;
        if (failure != null && !failureReported)
        {
            failureReported = true;
            throw errors.handle(failure);
        }
        return status;
    }

    /** The operation completes unobserved; nothing holds resources on the caller's behalf. A second free is ERR_REQUEST. */
    @Override
    public void free()
    {
        checkNotFreed("free");
        freed = true;
        consumed = true;
    }

    /** ERR_REQUEST (through the error handler) when the request was freed: its handle is MPI_REQUEST_NULL now. */
    protected final void checkNotFreed(final String call)
    {
        if (freed)
        {
            throw errors.handle(new MpiException(ErrorClass.ERR_REQUEST, call + ": the request was freed"));
        }
    }

    @Override
    public boolean isPersistent()
    {
        return false;
    }

    @Override
    public void start()
    {
        checkNotFreed("start");
        throw errors.handle(new MpiException(ErrorClass.ERR_REQUEST, "start: request is not persistent"));
    }
}
