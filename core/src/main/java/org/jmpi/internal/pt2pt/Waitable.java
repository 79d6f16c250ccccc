package org.jmpi.internal.pt2pt;

import org.jmpi.Status;
import org.jmpi.internal.engine.ProgressEngine;

/** What the wait/test helpers need of a request, persistent or not. Every jmpi request implements it. */
public interface Waitable
{
    /** Not yet reported by a wait or test (MPI: not MPI_REQUEST_NULL / not inactive). */
    boolean active();

    /** The operation has completed (its status is ready). */
    boolean done();

    ProgressEngine engine();

    void registerWaiter(Thread thread);

    /** Reports completion: marks inactive, throws a failure through the error handler, returns the status. */
    Status finish();
}
