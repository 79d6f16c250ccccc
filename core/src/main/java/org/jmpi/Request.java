package org.jmpi;

import org.jmpi.internal.pt2pt.Requests;

/**
 * A nonblocking operation in flight (MPI 4.1 §3.7). Complete it with {@link #await()} or
 * {@link #test()}. A persistent request ({@link #isPersistent()}) is started again with
 * {@link #start()} after each completion.
 *
 * <p>Threading: a request may be waited on by one thread at a time; with {@link ThreadLevel#MULTIPLE}
 * any thread may create, start, test or wait on requests.
 */
public interface Request
{
    /**
     * Waits until the operation completes (MPI_Wait). The calling thread idles (spin, yield, park)
     * while the progress engine works; a virtual thread unmounts.
     *
     * @return the status (for sends: source and tag of the send, count of bytes sent).
     * @throws MpiException through the communicator's error handler when the operation failed.
     */
    Status await();

    /** Whether the operation has completed (MPI_Test); makes progress once if not. */
    boolean test();

    /** The status of the completed operation, or {@code null} while it is in flight. */
    Status status();

    /**
     * Asks to cancel (MPI_Cancel). A receive that has not matched is cancelled and completes with
     * {@code status().isCancelled()}. Cancelling a send is deprecated in MPI 4.1; jmpi lets such a
     * cancel fail, so the send completes normally.
     */
    void cancel();

    /** Releases the request (MPI_Request_free): the operation still completes, unobserved. */
    void free();

    /** Whether this is a persistent request (from {@code sendInit}, {@code recvInit}...). */
    boolean isPersistent();

    /**
     * Starts a persistent request (MPI_Start).
     *
     * @throws MpiException ERR_REQUEST when this request is not persistent, or is still active.
     */
    void start();

    /** Waits for all (MPI_Waitall); returns their statuses in order. Throws ERR_IN_STATUS if any failed. */
    static Status[] waitAll(final Request... requests)
    {
        return Requests.waitAll(requests);
    }

    /** Waits for one (MPI_Waitany); returns its index, or {@link Datatype#UNDEFINED} when none is active. */
    static int waitAny(final Request... requests)
    {
        return Requests.waitAny(requests);
    }

    /** Waits for at least one (MPI_Waitsome); returns the indices completed by this call. */
    static int[] waitSome(final Request... requests)
    {
        return Requests.waitSome(requests);
    }

    /** Whether all have completed (MPI_Testall). */
    static boolean testAll(final Request... requests)
    {
        return Requests.testAll(requests);
    }

    /** The index of one completed request, or -1 when none has completed (MPI_Testany). */
    static int testAny(final Request... requests)
    {
        return Requests.testAny(requests);
    }

    /** The indices of the requests completed by this call, possibly none (MPI_Testsome). */
    static int[] testSome(final Request... requests)
    {
        return Requests.testSome(requests);
    }

    /** Starts every persistent request (MPI_Startall). */
    static void startAll(final Request... requests)
    {
        for (final Request r : requests)
        {
            r.start();
        }
    }
}
