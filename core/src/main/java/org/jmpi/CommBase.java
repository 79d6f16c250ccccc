package org.jmpi;

import java.util.function.Supplier;

import org.jmpi.internal.coll.CollectiveOps;
import org.jmpi.internal.coll.Collectives;
import org.jmpi.internal.coll.PersistentCollRequest;
import org.jmpi.internal.pt2pt.CommState;

/**
 * What every part of a {@link Comm} stands on: its point-to-point and local states, its collective operations, and
 * the one way its calls check liveness and meet errors ({@link #live}, {@link #call}, and the plan runners of the
 * collectives). The public calls sit in the layers above, one concern each: {@link CommPointToPoint},
 * {@link CommCollectives}, then {@link Comm} (constants, identity, management, attributes and info). The layers are
 * package-private so that the API is {@link Comm}'s alone: a program sees one class.
 *
 * <p><b>Threading</b>: as {@link Comm}'s. The fields are final; the states they name do their own locking.
 */
abstract sealed class CommBase permits CommPointToPoint
{
    /** Point-to-point state: the ranks this rank sends to (the group; for an intercommunicator, the remote group). */
    final CommState state;
    /** The local group: for an intracommunicator {@link #state} itself. */
    final CommState local;
    /** The collectives over this communicator's groups. */
    final CollectiveOps coll;

    CommBase(final CommState state, final CommState local, final CollectiveOps coll)
    {
        this.state = state;
        this.local = local;
        this.coll = coll;
    }

    /** The states this communicator is made of (one; an intercommunicator's several parts), for free and the error handler. */
    abstract CommState[] parts();

    /**
     * The checks every call makes first: after finalize, MpiException ERR_OTHER "MPI is finalized" naming the
     * call (not through the error handler: the job may be gone); on a freed communicator, ERR_COMM naming it.
     *
     * @return the point-to-point state, to use.
     */
    final CommState live(final String call)
    {
        final CommState s = state;
        s.services().checkLive(call);
        if (s.freed())
        {
            throw s.handle(new MpiException(ErrorClass.ERR_COMM, call + ": communicator " + s.name() + " was freed"));
        }
        return s;
    }

    /**
     * The one place this communicator's calls meet errors: {@link #live} checks, then {@code body}; an
     * MpiException it throws goes through the error handler (ERRORS_RETURN: thrown to the caller; ERRORS_ARE_FATAL:
     * the job aborts).
     */
    final <T> T call(final String call, final Supplier<T> body)
    {
        final CommState s = live(call);
        try
        {
            return body.get();
        }
        catch (final MpiException ex)
        {
            throw s.handle(ex);
        }
    }

    /** As {@link #call}, for a body with no result. */
    final void call(final String call, final Runnable body)
    {
        call(call, () ->
        {
            body.run();
            return null;
        });
    }

    /** Builds a collective's plan and runs it to completion. */
    final void run(final String call, final Supplier<Collectives.Plan> plan)
    {
        call(call, () -> plan.get().start().await());
    }

    /** Builds a collective's plan and starts it (the nonblocking form). */
    final Request begin(final String call, final Supplier<Collectives.Plan> plan)
    {
        return call(call, () -> plan.get().start());
    }

    /** Builds a collective's plan once, as a persistent request (the {@code ...Init} form). */
    final Request persistent(final String call, final Supplier<Collectives.Plan> plan)
    {
        return call(call, () ->
        {
            final Collectives.Plan p = plan.get();
            return new PersistentCollRequest(p.comm(), p);
        });
    }

}
