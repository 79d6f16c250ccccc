package org.jmpi.internal.pt2pt;

import org.jmpi.ErrorClass;
import org.jmpi.MpiException;
import org.jmpi.Request;
import org.jmpi.Status;
import org.jmpi.internal.engine.ProgressEngine;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

/**
 * Base of jmpi's requests: a completion flag published with a volatile write after the status, and
 * the thread waiting for it, unparked on completion.
 *
 * <p>Threading: the engine thread completes; any thread may read {@link #isDone()}; fields other
 * than the volatile ones are written by the engine before completion and read after it.
 */
public abstract class RequestImpl implements Request, Waitable, BooleanSupplier
{
    protected final ProgressEngine engine;
    protected final ErrorSink errors;
    private volatile boolean done;
    private volatile Thread waiter;
    private Status status;
    /** The status's fields, for completions that build the {@link Status} only when someone asks for it. */
    private int statusSource;
    private int statusTag;
    private ErrorClass statusError;
    private long statusBytes;
    private MpiException failure;
    private boolean failureReported;
    private boolean consumed;
    private volatile boolean freed;

    private static final VarHandle DONE;

    static
    {
        try
        {
            DONE = MethodHandles.lookup().findVarHandle(RequestImpl.class, "done", boolean.class);
        }
        catch (final ReflectiveOperationException ex)
        {
            throw new ExceptionInInitializerError(ex);
        }
    }

    protected RequestImpl(final ProgressEngine engine, final ErrorSink errors)
    {
        this.engine = engine;
        this.errors = errors;
    }

    /**
     * Makes a request that completed and was reported new again, for the next message of a blocking call
     * ({@link BlockingRequests}): the caller's thread drives the engine (direct mode) and nothing else holds the
     * request any more.
     */
    protected final void rearm()
    {
        status = null;
        failure = null;
        failureReported = false;
        consumed = false;
        DONE.setRelease(this, false); // direct mode only: no waiter was registered, and no fence is needed
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

    /**
     * Completes the request. Engine thread. In direct mode, on the thread driving the engine, the flag is published
     * with a release store: the only thread that can wait for the request then is this one (a direct-mode wait
     * drives the engine), so there is no waiter to read and no need for the full fence of a volatile store, which
     * was one per message (issue 12, message rate). Otherwise a volatile store, then the waiter is unparked: either
     * it sees the flag or this thread sees it registered.
     */
    protected final void complete(final Status status, final MpiException failure)
    {
        this.status = status;
        this.failure = failure;
        if (!engine.offload() && engine.onEngineThread())
        {
            DONE.setRelease(this, true);
            return;
        }
        done = true;
        final Thread w = waiter;
        if (w != null && w != Thread.currentThread())
        {
            LockSupport.unpark(w);
        }
    }

    /**
     * Completes the request with a status made only when asked for ({@link #status()}), so that a message whose
     * status nobody reads allocates none. Engine thread.
     */
    protected final void complete(final int source, final int tag, final ErrorClass error, final long bytes,
        final MpiException failure)
    {
        this.statusSource = source;
        this.statusTag = tag;
        this.statusError = error;
        this.statusBytes = bytes;
        complete((Status)null, failure);
    }

    /** The engine's wait condition: whether the request is complete. */
    @Override
    public final boolean getAsBoolean()
    {
        return done;
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
        awaitCompletion();
        return status();
    }

    /** As {@link #await()}, for callers that need no status (a blocking send): reports a failure, returns nothing. */
    public final void awaitCompletion()
    {
        checkNotFreed("await");
        if (!done)
        {
            if (!engine.offload())
            {
                engine.await(this); // the waiter drives the engine: nobody needs to unpark it
            }
            else
            {
                waiter = Thread.currentThread();
                try
                {
                    engine.await(this);
                }
                finally
                {
                    waiter = null;
                }
            }
        }
        report();
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
        if (!done)
        {
            return null;
        }
        final Status st = status;
        // Made per call, not kept: a caller that drops it (a blocking recv used as a statement) lets C2's escape
        // analysis take the allocation away, which a field store would prevent.
        return st != null ? st : new Status(statusSource, statusTag, statusError, false, statusBytes);
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
        report();
        return status();
    }

    /** Marks the request reported, and reports a failure once through the error handler. */
    private void report()
    {
        consumed = true;
        if (failure != null && !failureReported)
        {
            failureReported = true;
            throw errors.handle(failure);
        }
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
