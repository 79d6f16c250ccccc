package org.jmpi.internal.pt2pt;

import org.jmpi.Status;
import org.jmpi.internal.engine.ProgressEngine;

/** A request that is complete when made: operations with PROC_NULL, buffered sends. */
final class CompletedRequest extends RequestImpl
{
    CompletedRequest(final ProgressEngine engine, final ErrorSink errors, final Status status)
    {
        super(engine, errors);
        complete(status, null);
    }

    @Override
    public void cancel()
    {
    }
}
