package org.jmpi.internal.pt2pt;

import org.jmpi.ErrorClass;
import org.jmpi.Status;
import org.jmpi.internal.engine.ProgressEngine;

/**
 * A blocking probe waiting for a matching message (probe, or mprobe when {@code remove}): it
 * completes when a matching unexpected message exists, without receiving it.
 *
 * <p>Threading: engine thread completes; the caller reads after completion.
 */
final class ProbeRequestImpl extends RequestImpl
{
    final int contextId;
    final int source;
    final int tag;
    final boolean remove;
    Unexpected message;
    /** The world rank of each source rank of the communicator (its remote group for an intercommunicator). */
    final int[] sourcesWorld;

    ProbeRequestImpl(
        final ProgressEngine engine,
        final ErrorSink errors,
        final int contextId,
        final int source,
        final int tag,
        final boolean remove,
        final int[] sourcesWorld)
    {
        super(engine, errors);
        this.sourcesWorld = sourcesWorld;
        this.contextId = contextId;
        this.source = source;
        this.tag = tag;
        this.remove = remove;
    }

    boolean accepts(final Unexpected u)
    {
        return u.contextId == contextId &&
            (source == org.jmpi.Comm.ANY_SOURCE || source == u.source) &&
            (tag == org.jmpi.Comm.ANY_TAG || tag == u.tag);
    }

    void completeWith(final Unexpected u)
    {
        message = u;
        complete(new Status(u.source, u.tag, ErrorClass.SUCCESS, false, u.length), null);
    }

    /** Fails the probe: the ranks it waits for have finalized and nothing they sent matches. Engine thread. */
    void completeSourceFinalized(final String detail)
    {
        complete(new Status(source, tag, ErrorClass.ERR_OTHER, false, 0),
            new org.jmpi.MpiException(ErrorClass.ERR_OTHER, (remove ? "mprobe: " : "probe: ") + detail + ", tag=" + tag));
    }

    @Override
    public void cancel()
    {
        // Probes are not cancellable requests in MPI; nothing to do.
    }
}
