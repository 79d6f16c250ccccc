package mpi;

import java.util.ArrayList;
import java.util.List;

import org.jmpi.ErrorClass;
import org.jmpi.MpiException;

/**
 * A nonblocking operation (Open MPI Java API) over a jmpi {@link org.jmpi.Request}. Completing a
 * nonpersistent request ({@link #waitFor}, a successful {@link #test}, the static wait/test calls) makes it
 * null ({@link #isNull()}), as MPI sets the handle to MPI_REQUEST_NULL; a {@link Prequest} stays usable.
 * Null entries and null requests in arrays are skipped, as MPI does with MPI_REQUEST_NULL.
 *
 * <p>Threading: one thread at a time per request.
 */
public class Request implements Freeable
{
    org.jmpi.Request request;

    Request(final org.jmpi.Request request)
    {
        this.request = request;
    }

    /** Completion of a nonpersistent request: it becomes null. */
    void completed()
    {
        request = null;
    }

    /** MPI_Request_free: the operation still completes, unobserved. */
    @Override
    public void free() throws MPIException
    {
        final org.jmpi.Request r = request;
        if (r != null)
        {
            MPI.check();
            try
            {
                r.free();
            }
            catch (final MpiException ex)
            {
                throw MPIException.of(ex);
            }
            request = null;
        }
    }

    /** MPI_Cancel. */
    public final void cancel() throws MPIException
    {
        final org.jmpi.Request r = live("cancel");
        try
        {
            r.cancel();
        }
        catch (final MpiException ex)
        {
            throw MPIException.of(ex);
        }
    }

    /** Whether this is MPI_REQUEST_NULL (never started, completed or freed). */
    public final boolean isNull()
    {
        return request == null;
    }

    private org.jmpi.Request live(final String call) throws MPIException
    {
        MPI.check();
        final org.jmpi.Request r = request;
        if (r == null)
        {
            throw MPIException.of(ErrorClass.ERR_REQUEST, call + ": the request is null (completed or freed)");
        }
        return r;
    }

    /** MPI_Wait: waits and returns the status; a null request returns an empty status at once. */
    public final Status waitStatus() throws MPIException
    {
        final org.jmpi.Request r = request;
        if (r == null)
        {
            MPI.check();
            return new Status();
        }
        try
        {
            final Status s = Status.of(r.await());
            completed();
            return s;
        }
        catch (final MpiException ex)
        {
            throw MPIException.of(ex);
        }
    }

    /** MPI_Wait without the status. */
    public final void waitFor() throws MPIException
    {
        final org.jmpi.Request r = request;
        if (r == null)
        {
            MPI.check();
            return;
        }
        try
        {
            r.await();
            completed();
        }
        catch (final MpiException ex)
        {
            throw MPIException.of(ex);
        }
    }

    /** MPI_Test: the status if the operation has completed (the request becomes null), else {@code null}. */
    public final Status testStatus() throws MPIException
    {
        final org.jmpi.Request r = request;
        if (r == null)
        {
            MPI.check();
            return new Status();
        }
        try
        {
            if (!r.test())
            {
                return null;
            }
            final Status s = Status.of(r.await());
            completed();
            return s;
        }
        catch (final MpiException ex)
        {
            throw MPIException.of(ex);
        }
    }

    /** MPI_Request_get_status: the status if complete, else {@code null}; the request stays as it is. */
    public final Status getStatus() throws MPIException
    {
        final org.jmpi.Request r = request;
        if (r == null)
        {
            MPI.check();
            return new Status();
        }
        try
        {
            return r.test() ? Status.of(r.status()) : null;
        }
        catch (final MpiException ex)
        {
            throw MPIException.of(ex);
        }
    }

    /** MPI_Test without the status. */
    public final boolean test() throws MPIException
    {
        return testStatus() != null;
    }

    /** MPI_Waitany: the completed request's status, its index in {@link Status#getIndex()}; an empty status with index UNDEFINED when none is active. */
    public static Status waitAnyStatus(final Request[] requests) throws MPIException
    {
        final int i = waitAny(requests);
        return i == MPI.UNDEFINED ? new Status() : withIndex(requests[i].lastStatus, i);
    }

    /** MPI_Waitany: the index of the completed request, or {@link MPI#UNDEFINED} when none is active. */
    public static int waitAny(final Request[] requests) throws MPIException
    {
        MPI.check();
        final List<Integer> active = active(requests);
        if (active.isEmpty())
        {
            return MPI.UNDEFINED;
        }
        final org.jmpi.Request[] cores = cores(requests, active);
        try
        {
            final int k = org.jmpi.Request.waitAny(cores);
            final int i = active.get(k);
            requests[i].finish(cores[k].status());
            return i;
        }
        catch (final MpiException ex)
        {
            throw MPIException.of(ex);
        }
    }

    /** MPI_Testany: the completed request's status with its index, or {@code null} when none has completed. */
    public static Status testAnyStatus(final Request[] requests) throws MPIException
    {
        final int i = testAny(requests);
        return i == MPI.UNDEFINED ? null : withIndex(requests[i].lastStatus, i);
    }

    /** MPI_Testany: the index of a completed request, or {@link MPI#UNDEFINED}. */
    public static int testAny(final Request[] requests) throws MPIException
    {
        MPI.check();
        final List<Integer> active = active(requests);
        final org.jmpi.Request[] cores = cores(requests, active);
        try
        {
            final int k = cores.length == 0 ? -1 : org.jmpi.Request.testAny(cores);
            if (k < 0)
            {
                return MPI.UNDEFINED;
            }
            final int i = active.get(k);
            requests[i].finish(cores[k].status());
            return i;
        }
        catch (final MpiException ex)
        {
            throw MPIException.of(ex);
        }
    }

    /** MPI_Waitall: the statuses in order (an empty status for null entries). */
    public static Status[] waitAllStatus(final Request[] requests) throws MPIException
    {
        MPI.check();
        final Status[] out = new Status[requests.length];
        MPIException first = null;
        for (int i = 0; i < requests.length; i++)
        {
            final Request r = requests[i];
            try
            {
                out[i] = r == null ? new Status() : r.waitStatus();
            }
            catch (final MPIException ex)
            {
                first = first == null ? ex : first;
            }
        }
        if (first != null)
        {
            throw first;
        }
        return out;
    }

    /** MPI_Waitall without the statuses. */
    public static void waitAll(final Request[] requests) throws MPIException
    {
        // As waitAllStatus without a Status per request and their array (1.8 KB per osu_bw window of 64).
        MPI.check();
        MPIException first = null;
        for (final Request r : requests)
        {
            try
            {
                if (r != null)
                {
                    r.waitFor();
                }
            }
            catch (final MPIException ex)
            {
                first = first == null ? ex : first;
            }
        }
        if (first != null)
        {
            throw first;
        }
    }

    /** MPI_Testall: the statuses if all have completed (they become null), else {@code null} and nothing changes. */
    public static Status[] testAllStatus(final Request[] requests) throws MPIException
    {
        return testAll(requests) ? lastStatuses(requests) : null;
    }

    /** MPI_Testall without the statuses. */
    public static boolean testAll(final Request[] requests) throws MPIException
    {
        MPI.check();
        final List<Integer> active = active(requests);
        final org.jmpi.Request[] cores = cores(requests, active);
        try
        {
            if (!org.jmpi.Request.testAll(cores))
            {
                return false;
            }
            for (int k = 0; k < cores.length; k++)
            {
                requests[active.get(k)].finish(cores[k].status());
            }
            return true;
        }
        catch (final MpiException ex)
        {
            throw MPIException.of(ex);
        }
    }

    /** MPI_Waitsome: the statuses of the requests completed by this call (indices in {@link Status#getIndex()}), or {@code null} when none is active. */
    public static Status[] waitSomeStatus(final Request[] requests) throws MPIException
    {
        final int[] done = waitSome(requests);
        return done == null ? null : statusesOf(requests, done);
    }

    /** MPI_Waitsome: the indices completed by this call, or {@code null} when none is active. */
    public static int[] waitSome(final Request[] requests) throws MPIException
    {
        return some(requests, true);
    }

    /** MPI_Testsome: the statuses of the requests completed by this call (possibly none), or {@code null} when none is active. */
    public static Status[] testSomeStatus(final Request[] requests) throws MPIException
    {
        final int[] done = testSome(requests);
        return done == null ? null : statusesOf(requests, done);
    }

    /** MPI_Testsome: the indices completed by this call (possibly none), or {@code null} when none is active. */
    public static int[] testSome(final Request[] requests) throws MPIException
    {
        return some(requests, false);
    }

    private static int[] some(final Request[] requests, final boolean wait) throws MPIException
    {
        MPI.check();
        final List<Integer> active = active(requests);
        if (active.isEmpty())
        {
            return null;
        }
        final org.jmpi.Request[] cores = cores(requests, active);
        try
        {
            final int[] ks = wait ? org.jmpi.Request.waitSome(cores) : org.jmpi.Request.testSome(cores);
            final int[] out = new int[ks.length];
            for (int j = 0; j < ks.length; j++)
            {
                out[j] = active.get(ks[j]);
                requests[out[j]].finish(cores[ks[j]].status());
            }
            return out;
        }
        catch (final MpiException ex)
        {
            throw MPIException.of(ex);
        }
    }

    /** The status of the last completion by a static call (kept for the *Status variants). */
    private Status lastStatus;

    private void finish(final org.jmpi.Status status)
    {
        lastStatus = Status.of(status);
        if (!(this instanceof Prequest))
        {
            completed();
        }
    }

    private static Status withIndex(final Status s, final int index)
    {
        return s == null ? new Status() : new Status(s.core(), index);
    }

    private static Status[] statusesOf(final Request[] requests, final int[] indices)
    {
        final Status[] out = new Status[indices.length];
        for (int j = 0; j < indices.length; j++)
        {
            out[j] = withIndex(requests[indices[j]].lastStatus, indices[j]);
        }
        return out;
    }

    private static Status[] lastStatuses(final Request[] requests)
    {
        final Status[] out = new Status[requests.length];
        for (int i = 0; i < requests.length; i++)
        {
            out[i] = requests[i] == null || requests[i].lastStatus == null ? new Status() : requests[i].lastStatus;
        }
        return out;
    }

    private static List<Integer> active(final Request[] requests) throws MPIException
    {
        if (requests == null)
        {
            throw MPIException.of(ErrorClass.ERR_ARG, "the request array is null");
        }
        final List<Integer> active = new ArrayList<>(requests.length);
        for (int i = 0; i < requests.length; i++)
        {
            if (requests[i] != null && requests[i].request != null)
            {
                requests[i].lastStatus = null;
                active.add(i);
            }
        }
        return active;
    }

    private static org.jmpi.Request[] cores(final Request[] requests, final List<Integer> active)
    {
        final org.jmpi.Request[] cores = new org.jmpi.Request[active.size()];
        for (int k = 0; k < cores.length; k++)
        {
            cores[k] = requests[active.get(k)].request;
        }
        return cores;
    }
}
