package org.jmpi.internal.coll;

import java.util.List;

import org.jmpi.Comm;
import org.jmpi.ErrorClass;
import org.jmpi.MpiException;
import org.jmpi.Status;
import org.jmpi.internal.coll.node.CallFailure;
import org.jmpi.internal.pt2pt.CommState;
import org.jmpi.internal.pt2pt.PointToPoint;
import org.jmpi.internal.pt2pt.RequestImpl;
import org.jmpi.internal.pt2pt.SendMode;
import org.jmpi.internal.engine.ProgressEngine;

/**
 * One execution of a {@link Schedule}: a request that is also a protocol {@link ProgressEngine.Activity}, so
 * whoever polls the engine (a waiting caller in direct mode, the progress thread in offload mode) moves it
 * on, round by round, without blocking. Blocking collectives start one and wait for it.
 *
 * <p>Threading: constructed by the caller; {@link #progress()} runs on the engine thread only; completion
 * is published by {@link RequestImpl}.
 */
public final class CollRequest extends RequestImpl implements ProgressEngine.Activity
{
    private static final Status OK = new Status(Comm.ANY_SOURCE, Comm.ANY_TAG, ErrorClass.SUCCESS, false, 0);

    private final CommState comm;
    private final String call;
    private final List<Schedule.Round> rounds;
    private final int tag;
    private int round;
    private RequestImpl[] pending;
    private Schedule.Transfer[] pendingTransfers;
    /** The first failure; the schedule still runs to its end, so that peers waiting on this rank are not left hanging. */
    private MpiException failure;

    CollRequest(final CommState comm, final String call, final Schedule schedule, final int tag)
    {
        super(comm.engine(), comm::handle);
        this.comm = comm;
        this.call = call;
        this.rounds = schedule.rounds();
        this.tag = tag;
    }

    /** Posts the first round on the engine; the rest follows as the engine polls. Returns this. */
    CollRequest launch()
    {
        comm.engine().execute(() ->
        {
            if (!progress())
            {
                comm.protocol().engine().addActivity(this);
            }
        });
        return this;
    }

    @Override
    public boolean progress()
    {
        try
        {
            while (true)
            {
                if (pending != null)
                {
                    for (final RequestImpl r : pending)
                    {
                        if (!r.isDone())
                        {
                            return false;
                        }
                    }
                    checkRound();
                    pending = null;
                    pendingTransfers = null;
                    round++;
                }
                if (round == rounds.size())
                {
                    complete(OK, failure);
                    return true;
                }
                final Schedule.Round r = rounds.get(round);
                for (final Runnable local : r.locals)
                {
                    try
                    {
                        local.run();
                    }
                    catch (final Schedule.Stop stop)
                    {
                        fail(stop.error);
                        complete(OK, failure);
                        return true;
                    }
                    catch (final RuntimeException ex)
                    {
                        fail(ex);
                    }
                }
                final int n = r.transfers.size();
                if (n == 0)
                {
                    round++;
                    continue;
                }
                final RequestImpl[] requests = new RequestImpl[n];
                final Schedule.Transfer[] transfers = r.transfers.toArray(new Schedule.Transfer[0]);
                for (int i = 0; i < n; i++)
                {
                    final Schedule.Transfer t = transfers[i];
                    if (!t.send())
                    {
                        requests[i] = PointToPoint.irecv(comm, comm.collContextId(), t.buf(), t.offset(), t.count(), t.type(), t.peer(), tag);
                    }
                }
                for (int i = 0; i < n; i++)
                {
                    final Schedule.Transfer t = transfers[i];
                    if (t.send())
                    {
                        requests[i] = PointToPoint.isend(comm, comm.collContextId(), t.buf(), t.offset(), t.count(), t.type(), t.peer(), tag,
                            SendMode.STANDARD);
                    }
                }
                pending = requests;
                pendingTransfers = transfers;
            }
        }
        catch (final RuntimeException ex)
        {
            fail(ex);
            complete(OK, failure);
            return true;
        }
    }

    /** Keeps the first failure, named after the call. */
    private void fail(final RuntimeException ex)
    {
        if (failure == null)
        {
            failure = CallFailure.of(call, comm.name(), ex);
        }
    }

    private void checkRound()
    {
        for (int i = 0; i < pending.length; i++)
        {
            final RequestImpl r = pending[i];
            final MpiException transferFailure = r.failure();
            if (transferFailure != null)
            {
                fail(transferFailure);
                continue;
            }
            final Schedule.Transfer t = pendingTransfers[i];
            if (!t.send() && r.status().countBytes() != t.expectedBytes())
            {
                fail(new MpiException(ErrorClass.ERR_TRUNCATE, "received " + r.status().countBytes() + " bytes from rank " + t.peer() +
                    ", expected " + t.expectedBytes() + " (do all ranks pass matching counts, types and root?)"));
            }
        }
    }

    @Override
    public void cancel()
    {
        // Collective operations cannot be cancelled (MPI 4.1 §3.8.4); the request completes normally.
    }
}
