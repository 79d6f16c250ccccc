package org.jmpi.internal.io;

import org.jmpi.MpiException;
import org.jmpi.Status;
import org.jmpi.internal.engine.ProgressEngine;
import org.jmpi.internal.pt2pt.RequestImpl;

/**
 * The request of a nonblocking file operation ({@code iread}, {@code iwriteAt}...): jmpi performs the I/O in the call
 * that starts it, so the request is complete when made, with the operation's status or its failure (raised through
 * the file's error handler by wait or test, as MPI reports nonblocking errors). Works with {@code Request.waitAll}
 * and the other helpers. Cancel does nothing (the operation is done).
 *
 * <p>Threading: as any jmpi request.
 */
public final class IoRequest extends RequestImpl
{
    /** A request complete with {@code status}, or failed with {@code failure} when that is not null. */
    public IoRequest(final ProgressEngine engine, final ErrorSink errors, final Status status, final MpiException failure)
    {
        super(engine, errors);
        complete(status, failure);
    }

    @Override
    public void cancel()
    {
    }
}
