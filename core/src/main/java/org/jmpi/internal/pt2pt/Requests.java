package org.jmpi.internal.pt2pt;

import org.jmpi.Datatype;
import org.jmpi.ErrorClass;
import org.jmpi.MpiException;
import org.jmpi.Request;
import org.jmpi.Status;
import org.jmpi.internal.engine.ProgressEngine;

import java.util.Arrays;

/**
 * MPI_Waitall/any/some and MPI_Testall/any/some over jmpi requests. Requests already reported are
 * inactive (MPI's MPI_REQUEST_NULL) and skipped, so the usual "waitAny until UNDEFINED" loops end.
 */
public final class Requests
{
    private Requests()
    {
    }

    public static Status[] waitAll(final Request... requests)
    {
        final ProgressEngine engine = engineOf(requests);
        if (engine != null && !allDone(requests))
        {
            registerWaiter(engine, requests);
            engine.await(() -> allDone(requests));
        }
        final Status[] statuses = new Status[requests.length];
        MpiException first = null;
        int failed = 0;
        StringBuilder failures = null;
        for (int i = 0; i < requests.length; i++)
        {
            final Waitable w = (Waitable)requests[i];
            if (w == null || !w.active())
            {
                statuses[i] = w == null ? null : requests[i].status();
                continue;
            }
            try
            {
                statuses[i] = w.finish();
            }
            catch (final MpiException ex)
            {
                statuses[i] = requests[i].status();
                failed++;
                if (first == null)
                {
                    first = ex;
                    failures = new StringBuilder();
                }
                failures.append(failures.isEmpty() ? "" : "; ").append("request ").append(i).append(": ").append(ex.getMessage());
            }
        }
        if (first != null)
        {
            throw new MpiException(ErrorClass.ERR_IN_STATUS, "waitAll: " + failed + " of " + requests.length + " requests failed: " + failures, first);
        }
        return statuses;
    }

    public static int waitAny(final Request... requests)
    {
        final ProgressEngine engine = engineOf(requests);
        if (engine == null)
        {
            return Datatype.UNDEFINED;
        }
        int found = firstDone(requests);
        if (found < 0)
        {
            registerWaiter(engine, requests);
            engine.await(() -> firstDone(requests) >= 0);
            found = firstDone(requests);
        }
        ((Waitable)requests[found]).finish();
        return found;
    }

    public static int[] waitSome(final Request... requests)
    {
        final ProgressEngine engine = engineOf(requests);
        if (engine == null)
        {
            return new int[0];
        }
        if (firstDone(requests) < 0)
        {
            registerWaiter(engine, requests);
            engine.await(() -> firstDone(requests) >= 0);
        }
        return finishDone(requests);
    }

    /**
     * Offload mode: names the calling thread to the active requests, which unpark it on completion. In direct mode
     * the caller drives the engine while it waits, so nothing needs to wake it (and 64 volatile stores per window of
     * 64 messages were a good part of a message-rate window's wait).
     */
    private static void registerWaiter(final ProgressEngine engine, final Request[] requests)
    {
        if (!engine.offload())
        {
            return;
        }
        final Thread me = Thread.currentThread();
        for (final Request r : requests)
        {
            final Waitable w = (Waitable)r;
            if (w != null && w.active())
            {
                w.registerWaiter(me);
            }
        }
    }

    public static boolean testAll(final Request... requests)
    {
        final ProgressEngine engine = engineOf(requests);
        if (engine == null)
        {
            return true;
        }
        if (!allDone(requests))
        {
            engine.pollOnce();
            if (!allDone(requests))
            {
                return false;
            }
        }
        waitAll(requests);
        return true;
    }

    public static int testAny(final Request... requests)
    {
        final ProgressEngine engine = engineOf(requests);
        if (engine == null)
        {
            return Datatype.UNDEFINED;
        }
        int i = firstDone(requests);
        if (i < 0)
        {
            engine.pollOnce();
            i = firstDone(requests);
        }
        if (i >= 0)
        {
            ((Waitable)requests[i]).finish();
        }
        return i;
    }

    public static int[] testSome(final Request... requests)
    {
        final ProgressEngine engine = engineOf(requests);
        if (engine == null)
        {
            return new int[0];
        }
        if (firstDone(requests) < 0)
        {
            engine.pollOnce();
        }
        return finishDone(requests);
    }

    private static int[] finishDone(final Request[] requests)
    {
        final int[] indices = new int[requests.length];
        int n = 0;
        MpiException first = null;
        for (int i = 0; i < requests.length; i++)
        {
            final Waitable w = (Waitable)requests[i];
            if (w != null && w.active() && w.done())
            {
                indices[n++] = i;
                try
                {
                    w.finish();
                }
                catch (final MpiException ex)
                {
                    first = first == null ? ex : first;
                }
            }
        }
        if (first != null)
        {
            throw new MpiException(ErrorClass.ERR_IN_STATUS, "request failed: " + first.getMessage(), first);
        }
        return Arrays.copyOf(indices, n);
    }

    /**
     * Checks that {@code requests} holds only jmpi requests (nulls allowed) and returns the engine of the first active
     * one, or null when none is active. Allocates nothing: the helpers below cast in place.
     */
    private static ProgressEngine engineOf(final Request[] requests)
    {
        if (requests == null)
        {
            throw new MpiException(ErrorClass.ERR_REQUEST, "request array is null");
        }
        ProgressEngine engine = null;
        for (int i = 0; i < requests.length; i++)
        {
            final Request r = requests[i];
            if (r == null)
            {
                continue;
            }
            if (!(r instanceof Waitable w))
            {
                throw new MpiException(ErrorClass.ERR_REQUEST, "request " + i + " is not a jmpi request: " + r.getClass().getName());
            }
            if (engine == null && w.active())
            {
                engine = w.engine();
            }
        }
        return engine;
    }

    private static boolean allDone(final Request[] requests)
    {
        for (final Request r : requests)
        {
            final Waitable w = (Waitable)r;
            if (w != null && w.active() && !w.done())
            {
                return false;
            }
        }
        return true;
    }

    private static int firstDone(final Request[] requests)
    {
        for (int i = 0; i < requests.length; i++)
        {
            final Waitable w = (Waitable)requests[i];
            if (w != null && w.active() && w.done())
            {
                return i;
            }
        }
        return -1;
    }
}
