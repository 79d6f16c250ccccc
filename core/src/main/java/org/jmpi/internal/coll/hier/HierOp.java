package org.jmpi.internal.coll.hier;

import java.util.List;

import org.jmpi.Comm;
import org.jmpi.ErrorClass;
import org.jmpi.MpiException;
import org.jmpi.Status;
import org.jmpi.internal.coll.node.CallFailure;
import org.jmpi.internal.engine.ProgressEngine;
import org.jmpi.internal.pt2pt.RequestImpl;

/**
 * One two-level collective call: a request that runs its stages one after the other on the engine, each stage
 * a collective on one of the sub-communicators (or a local step), so blocking, nonblocking and persistent calls
 * all progress as the engine polls, without blocking a thread.
 * <ol>
 * <li>Wait until the communicator's previous two-level call has completed: the sub-communicators' calls then
 * start in the same order on every rank, whichever calls are in flight together.</li>
 * <li>Start the next stage; when its request completes, start the one after; a stage that fails is recorded
 * and the rest still run, so that no peer waiting on this rank is left hanging.</li>
 * <li>Complete with the first failure, named after the call and the communicator.</li>
 * </ol>
 * The stages' plans are built by the caller (argument checks, tags in call order); only their starts wait.
 *
 * <p>Threading: constructed and launched by the caller; {@link #progress()} on the engine thread only.
 */
final class HierOp extends RequestImpl implements ProgressEngine.Activity
{
    /** A stage: starts its sub-collective and returns the request, or does local work and returns null. Engine thread. */
    @FunctionalInterface
    interface Stage
    {
        RequestImpl run();
    }

    private static final Status OK = new Status(Comm.ANY_SOURCE, Comm.ANY_TAG, ErrorClass.SUCCESS, false, 0);

    private final HierComm hier;
    private final String call;
    private Stage[] stages;
    private HierOp previous;
    private int next;
    private RequestImpl current;
    private MpiException failure;

    HierOp(final HierComm hier, final String call, final List<Stage> stages)
    {
        super(hier.comm.engine(), hier.comm::handle);
        this.hier = hier;
        this.call = call;
        this.stages = stages.toArray(new Stage[0]);
    }

    /** Queues this call behind the communicator's previous two-level call and starts it on the engine. Returns this. */
    HierOp launch()
    {
        previous = hier.enqueue(this);
        engine.execute(() ->
        {
            if (!progress())
            {
                engine.addActivity(this);
            }
        });
        return this;
    }

    @Override
    public boolean progress()
    {
        if (previous != null)
        {
            if (!previous.isDone())
            {
                return false;
            }
            previous = null;
        }
        while (true)
        {
            if (current != null)
            {
                if (!current.isDone())
                {
                    return false;
                }
                if (current.failure() != null)
                {
                    fail(current.failure());
                }
                current = null;
            }
            if (next == stages.length)
            {
                stages = null;
                complete(OK, failure);
                return true;
            }
            try
            {
                current = stages[next++].run();
            }
            catch (final RuntimeException ex)
            {
                fail(ex);
            }
        }
    }

    private void fail(final RuntimeException ex)
    {
        if (failure == null)
        {
            failure = CallFailure.of(call, hier.comm.name(), ex);
        }
    }

    @Override
    public void cancel()
    {
        // Collective operations cannot be cancelled (MPI 4.1 §3.8.4); the request completes normally.
    }
}
