package org.jmpi.internal.pt2pt;

import org.jmpi.ErrorClass;
import org.jmpi.internal.engine.ProgressEngine;

/**
 * What a nonblocking standard send hands its caller when the message went eager and completed while it was posted
 * (direct mode): a request complete when made, with the send's status ({@code dest}, {@code tag}, bytes). The
 * {@link SendRequestImpl} that carried the message goes back to its communicator for the next send
 * ({@link PointToPoint#isend}), so a window of eager sends makes only these small handles, a third of a send
 * request's bytes (issue 12, item 3). The handle itself cannot be reused: the caller may keep it and ask for its
 * status, test or wait on it again, as on any request.
 *
 * <p>Threading: made on the thread driving the engine; then as any request.
 */
final class SentRequest extends RequestImpl
{
    SentRequest(final ProgressEngine engine, final ErrorSink errors, final int dest, final int tag, final long bytes)
    {
        super(engine, errors);
        complete(dest, tag, ErrorClass.SUCCESS, bytes, null);
    }

    /** A send that completed cannot be cancelled (MPI 4.1 lets a cancel fail): nothing to do. */
    @Override
    public void cancel()
    {
    }
}
