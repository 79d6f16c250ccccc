package org.jmpi.internal.pt2pt;

import org.jmpi.Comm;
import org.jmpi.ErrorClass;
import org.jmpi.MpiException;
import org.jmpi.Request;
import org.jmpi.Status;
import org.jmpi.internal.engine.ProgressEngine;

import java.util.function.Supplier;

/**
 * A persistent request (MPI_Send_init, MPI_Recv_init...): the arguments are checked once at init;
 * each {@link #start()} posts a new operation with them. Inactive until started, and again once its
 * completion is reported.
 *
 * Collective persistent requests extend it with their own starter.
 *
 * <p>Threading: as {@link Request}.
 */
public class PersistentRequestImpl implements Request, Waitable
{
    private final ProgressEngine engine;
    private final RequestImpl.ErrorSink errors;
    private final String what;
    private final Supplier<RequestImpl> starter;
    private RequestImpl current;
    private Status lastStatus = new Status(Comm.ANY_SOURCE, Comm.ANY_TAG, ErrorClass.SUCCESS, false, 0);
    private boolean freed;

    /**
     * @param what    the operation, for error messages ("send", "bcast"...).
     * @param starter posts one run of the operation and returns its request; called by each start.
     */
    public PersistentRequestImpl(
        final ProgressEngine engine,
        final RequestImpl.ErrorSink errors,
        final String what,
        final Supplier<RequestImpl> starter)
    {
        this.engine = engine;
        this.errors = errors;
        this.what = what;
        this.starter = starter;
    }

    @Override
    public void start()
    {
        if (freed)
        {
            throw errors.handle(new MpiException(ErrorClass.ERR_REQUEST, "start: persistent " + what + " was freed"));
        }
        if (current != null && current.active())
        {
            throw errors.handle(new MpiException(ErrorClass.ERR_REQUEST, "start: persistent " + what + " is still active"));
        }
        current = starter.get();
    }

    @Override
    public Status await()
    {
        checkNotFreed("await");
        if (current == null || !current.active())
        {
            return lastStatus;
        }
        current.registerWaiter(Thread.currentThread());
        engine.await(current);
        return finish();
    }

    @Override
    public boolean test()
    {
        checkNotFreed("test");
        if (current == null || !current.active())
        {
            return true;
        }
        if (!current.isDone())
        {
            engine.pollOnce();
        }
        if (current.isDone())
        {
            finish();
            return true;
        }
        return false;
    }

    @Override
    public Status status()
    {
        if (current == null)
        {
            return lastStatus;
        }
        return current.status();
    }

    @Override
    public void cancel()
    {
        if (current != null && current.active())
        {
            current.cancel();
        }
    }

    @Override
    public void free()
    {
        checkNotFreed("free");
        freed = true;
    }

    /** ERR_REQUEST (through the error handler) when the request was freed. */
    private void checkNotFreed(final String call)
    {
        if (freed)
        {
            throw errors.handle(new MpiException(ErrorClass.ERR_REQUEST, call + ": the persistent request was freed"));
        }
    }

    @Override
    public boolean isPersistent()
    {
        return true;
    }

    @Override
    public boolean active()
    {
        return current != null && current.active();
    }

    @Override
    public boolean done()
    {
        return current != null && current.done();
    }

    @Override
    public ProgressEngine engine()
    {
        return engine;
    }

    @Override
    public void registerWaiter(final Thread thread)
    {
        if (current != null)
        {
            current.registerWaiter(thread);
        }
    }

    @Override
    public Status finish()
    {
        final RequestImpl r = current;
        Status st = null;
        try
        {
            st = r.finish();
        }
        finally
        {
            // a failed run reports through the error handler; its status still becomes the last one
            lastStatus = st != null ? st : r.status() != null ? r.status() : lastStatus;
        }
        return lastStatus;
    }
}
