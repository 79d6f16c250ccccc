package org.jmpi.internal.coll;

import org.jmpi.Comm;
import org.jmpi.ErrorClass;
import org.jmpi.MpiException;
import org.jmpi.Request;
import org.jmpi.Status;
import org.jmpi.internal.engine.ProgressEngine;
import org.jmpi.internal.pt2pt.CommState;
import org.jmpi.internal.pt2pt.RequestImpl;

/**
 * A persistent collective (MPI-4: MPI_Bcast_init...): arguments are checked, the algorithm chosen, the
 * schedule built, its scratch buffers allocated and its tag fixed once, at init; each {@link #start()}
 * runs the same schedule again. Inactive until started, and again once its completion is reported. When the
 * plan offers a put- or get-based form ({@link DirectPersistent}: bcast and allreduce with ranks sharing one
 * heap) and {@code jmpi.coll.persistent.schedule} or the cost model chooses it, that form is built here, at
 * init (collectively: every rank constructs its request in the same order), and run instead.
 *
 * <p>Threading: as {@link Request}. Until the core's {@code Waitable} is public, these requests cannot be
 * passed to {@code Request.waitAll} and friends (issue 4: asked of the lead); await/test work.
 */
public final class PersistentCollRequest implements Request
{
    private static final Status EMPTY = new Status(Comm.ANY_SOURCE, Comm.ANY_TAG, ErrorClass.SUCCESS, false, 0);

    private final CommState comm;
    private final Collectives.Plan plan;
    /** The put- or get-based form, when the plan offers one and the parameters and cost model choose it; else null. */
    private final DirectPersistent direct;
    private RequestImpl current;
    private Status lastStatus = EMPTY;
    private boolean freed;

    public PersistentCollRequest(final CommState comm, final Collectives.Plan plan)
    {
        this.comm = comm;
        this.plan = plan;
        this.direct = plan.direct() == null ? null : plan.direct().create(plan.tag());
    }

    @Override
    public void start()
    {
        if (freed)
        {
            throw comm.handle(new MpiException(ErrorClass.ERR_REQUEST, "start: persistent " + plan.call() + " was freed"));
        }
        if (current != null && current.active())
        {
            throw comm.handle(new MpiException(ErrorClass.ERR_REQUEST, "start: persistent " + plan.call() + " is still active"));
        }
        current = direct != null ? direct.start() : plan.start();
    }

    @Override
    public Status await()
    {
        if (current == null || !current.active())
        {
            return lastStatus;
        }
        current.registerWaiter(Thread.currentThread());
        comm.engine().await(current::isDone);
        return finish();
    }

    @Override
    public boolean test()
    {
        if (current == null || !current.active())
        {
            return true;
        }
        if (!current.isDone())
        {
            comm.engine().pollOnce();
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
        return current == null ? lastStatus : current.status();
    }

    @Override
    public void cancel()
    {
        // Collective operations cannot be cancelled.
    }

    @Override
    public void free()
    {
        freed = true;
    }

    @Override
    public boolean isPersistent()
    {
        return true;
    }

    /** The schedule this request runs: "put", "get" or "p2p" (for tests and benchmarks). */
    public String schedule()
    {
        return direct == null ? "p2p" : direct.mode().name().toLowerCase(java.util.Locale.ROOT);
    }

    public boolean active()
    {
        return current != null && current.active();
    }

    public boolean done()
    {
        return current != null && current.done();
    }

    public ProgressEngine engine()
    {
        return comm.engine();
    }

    public void registerWaiter(final Thread thread)
    {
        if (current != null)
        {
            current.registerWaiter(thread);
        }
    }

    public Status finish()
    {
        final RequestImpl r = current;
        try
        {
            lastStatus = r.finish();
        }
        finally
        {
            if (r.status() != null)
            {
                lastStatus = r.status();
            }
        }
        return lastStatus;
    }
}
