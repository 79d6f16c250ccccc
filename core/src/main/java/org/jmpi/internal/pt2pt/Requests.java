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
        final Waitable[] ws = waitables(requests);
        final ProgressEngine engine = engineOf(ws);
        if (engine != null)
        {
            final Thread me = Thread.currentThread();
            for (final Waitable w : ws)
            {
                if (w != null && w.active())
                {
                    w.registerWaiter(me);
                }
            }
            engine.await(() -> allDone(ws));
        }
        final Status[] statuses = new Status[ws.length];
        MpiException first = null;
        int failed = 0;
        final StringBuilder failures = new StringBuilder();
        for (int i = 0; i < ws.length; i++)
        {
            if (ws[i] == null || !ws[i].active())
            {
                statuses[i] = ws[i] == null ? null : ((Request)ws[i]).status();
                continue;
            }
            try
            {
                statuses[i] = ws[i].finish();
            }
            catch (final MpiException ex)
            {
                statuses[i] = ((Request)ws[i]).status();
                failed++;
                if (first == null)
                {
                    first = ex;
                }
                failures.append(failures.isEmpty() ? "" : "; ").append("request ").append(i).append(": ").append(ex.getMessage());
            }
        }
        if (first != null)
        {
            throw new MpiException(ErrorClass.ERR_IN_STATUS, "waitAll: " + failed + " of " + ws.length + " requests failed: " + failures, first);
        }
        return statuses;
    }

    public static int waitAny(final Request... requests)
    {
        final Waitable[] ws = waitables(requests);
        final ProgressEngine engine = engineOf(ws);
        if (engine == null)
        {
            return Datatype.UNDEFINED;
        }
        final Thread me = Thread.currentThread();
        for (final Waitable w : ws)
        {
            if (w != null && w.active())
            {
                w.registerWaiter(me);
            }
        }
        final int[] found = {-1};
        engine.await(() -> (found[0] = firstDone(ws)) >= 0);
        ws[found[0]].finish();
        return found[0];
    }

    public static int[] waitSome(final Request... requests)
    {
        final Waitable[] ws = waitables(requests);
        final ProgressEngine engine = engineOf(ws);
        if (engine == null)
        {
            return new int[0];
        }
        final Thread me = Thread.currentThread();
        for (final Waitable w : ws)
        {
            if (w != null && w.active())
            {
                w.registerWaiter(me);
            }
        }
        engine.await(() -> firstDone(ws) >= 0);
        return finishDone(ws);
    }

    public static boolean testAll(final Request... requests)
    {
        final Waitable[] ws = waitables(requests);
        final ProgressEngine engine = engineOf(ws);
        if (engine == null)
        {
            return true;
        }
        if (!allDone(ws))
        {
            engine.pollOnce();
            if (!allDone(ws))
            {
                return false;
            }
        }
        waitAll(requests);
        return true;
    }

    public static int testAny(final Request... requests)
    {
        final Waitable[] ws = waitables(requests);
        final ProgressEngine engine = engineOf(ws);
        if (engine == null)
        {
            return Datatype.UNDEFINED;
        }
        int i = firstDone(ws);
        if (i < 0)
        {
            engine.pollOnce();
            i = firstDone(ws);
        }
        if (i >= 0)
        {
            ws[i].finish();
        }
        return i;
    }

    public static int[] testSome(final Request... requests)
    {
        final Waitable[] ws = waitables(requests);
        final ProgressEngine engine = engineOf(ws);
        if (engine == null)
        {
            return new int[0];
        }
        if (firstDone(ws) < 0)
        {
            engine.pollOnce();
        }
        return finishDone(ws);
    }

    private static int[] finishDone(final Waitable[] ws)
    {
        final int[] indices = new int[ws.length];
        int n = 0;
        MpiException first = null;
        for (int i = 0; i < ws.length; i++)
        {
            if (ws[i] != null && ws[i].active() && ws[i].done())
            {
                indices[n++] = i;
                try
                {
                    ws[i].finish();
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

    private static Waitable[] waitables(final Request[] requests)
    {
        if (requests == null)
        {
            throw new MpiException(ErrorClass.ERR_REQUEST, "request array is null");
        }
        final Waitable[] ws = new Waitable[requests.length];
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
            ws[i] = w;
        }
        return ws;
    }

    private static ProgressEngine engineOf(final Waitable[] ws)
    {
        for (final Waitable w : ws)
        {
            if (w != null && w.active())
            {
                return w.engine();
            }
        }
        return null;
    }

    private static boolean allDone(final Waitable[] ws)
    {
        for (final Waitable w : ws)
        {
            if (w != null && w.active() && !w.done())
            {
                return false;
            }
        }
        return true;
    }

    private static int firstDone(final Waitable[] ws)
    {
        for (int i = 0; i < ws.length; i++)
        {
            if (ws[i] != null && ws[i].active() && ws[i].done())
            {
                return i;
            }
        }
        return -1;
    }
}
