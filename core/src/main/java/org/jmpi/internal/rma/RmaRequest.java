package org.jmpi.internal.rma;

import java.util.function.UnaryOperator;

import org.jmpi.ErrorClass;
import org.jmpi.MpiException;
import org.jmpi.Request;
import org.jmpi.Status;
import org.jmpi.internal.engine.ProgressEngine;
import org.jmpi.internal.pt2pt.Waitable;

/**
 * The request of a request-based RMA operation (MPI_Rput, MPI_Rget, MPI_Raccumulate, MPI_Rget_accumulate): complete
 * when its operation is complete at the target (stronger than MPI's local completion for rput, which it implies).
 * Works with {@link Request#waitAll} and the other helpers.
 *
 * <p>Threading: the owner's thread; completion is read through the operation's volatile flag.
 */
public final class RmaRequest implements Request, Waitable
{
    private static final Status OK = new Status(-1, -1, ErrorClass.SUCCESS, false, 0);

    private final Completion completion;
    private final ProgressEngine engine;
    private final UnaryOperator<MpiException> errors;
    private final long bytes;
    private boolean active = true;

    /** @param errors the window's error handler (returns what to throw). */
    public RmaRequest(final Completion completion, final ProgressEngine engine, final UnaryOperator<MpiException> errors, final long bytes)
    {
        this.completion = completion;
        this.engine = engine;
        this.errors = errors;
        this.bytes = bytes;
    }

    @Override
    public Status await()
    {
        completion.wakeOnDone(Thread.currentThread());
        engine.await(completion::isDone);
        return finish();
    }

    @Override
    public boolean test()
    {
        if (!completion.isDone())
        {
            engine.pollOnce();
        }
        if (completion.isDone())
        {
            finish();
            return true;
        }
        return false;
    }

    @Override
    public Status status()
    {
        return completion.isDone() ? new Status(-1, -1, completion.failure() == null ? ErrorClass.SUCCESS :
            completion.failure().errorClass(), false, bytes) : null;
    }

    /** RMA operations cannot be cancelled (MPI 4.1 §12.3.5): nothing happens and the operation completes. */
    @Override
    public void cancel()
    {
    }

    @Override
    public void free()
    {
        active = false;
    }

    @Override
    public boolean isPersistent()
    {
        return false;
    }

    @Override
    public void start()
    {
        throw new MpiException(ErrorClass.ERR_REQUEST, "start: an RMA request is not persistent");
    }

    @Override
    public boolean active()
    {
        return active;
    }

    @Override
    public boolean done()
    {
        return completion.isDone();
    }

    @Override
    public ProgressEngine engine()
    {
        return engine;
    }

    @Override
    public void registerWaiter(final Thread thread)
    {
        completion.wakeOnDone(thread);
    }

    @Override
    public Status finish()
    {
        active = false;
        if (completion.failure() != null)
        {
            throw errors.apply(completion.failure());
        }
        return status() == null ? OK : status();
    }
}
