package org.jmpi.internal.comm;

import java.util.function.Consumer;

import org.jmpi.Comm;
import org.jmpi.ErrorClass;
import org.jmpi.MpiException;
import org.jmpi.Status;
import org.jmpi.internal.coll.ContextAgreement;
import org.jmpi.internal.pt2pt.CommState;
import org.jmpi.internal.pt2pt.Protocol;
import org.jmpi.internal.pt2pt.RequestImpl;

/**
 * MPI_Comm_idup: the context-id agreement of {@code dup}, made nonblocking. Since other communicators may be
 * created on this rank while it is in flight, the agreed id is checked before it is taken:
 * <ol>
 * <li>Propose this rank's lowest free id and reserve it (and its pair) at once.</li>
 * <li>Agree the maximum proposal M (a nonblocking allreduce on the parent, under a tag fixed at the call).</li>
 * <li>Each rank checks that M and M+1 are still free here (its lowest free id is at most M, or M is its own
 * proposal) and, if so, reserves them.</li>
 * <li>Agree that every rank could (allreduce of the flags). If not, start again from 1 with fresh proposals;
 * otherwise the new communicator takes M.</li>
 * </ol>
 * Attributes are copied when it completes (their copy callbacks may then run on the progress thread).
 *
 * <p>Threading: made by the caller; advanced on the engine thread only.
 */
public final class IdupRequest extends RequestImpl implements Protocol.Activity
{
    private static final Status OK = new Status(Comm.ANY_SOURCE, Comm.ANY_TAG, ErrorClass.SUCCESS, false, 0);

    private final CommState parent;
    private final int tag;
    private final Consumer<CommState> onDone;
    private ContextAgreement agreement;
    private int proposal;
    private int agreed;
    private boolean checking;

    private IdupRequest(final CommState parent, final int tag, final Consumer<CommState> onDone)
    {
        super(parent.engine(), parent::handle);
        this.parent = parent;
        this.tag = tag;
        this.onDone = onDone;
    }

    /** Starts an idup of {@code parent}; {@code onDone} receives the new state on the engine thread before completion. */
    public static IdupRequest start(final CommState parent, final Consumer<CommState> onDone)
    {
        final IdupRequest r = new IdupRequest(parent, ContextAgreement.reserveTag(parent), onDone);
        parent.engine().execute(() ->
        {
            r.propose();
            if (!r.progress())
            {
                parent.protocol().addActivity(r);
            }
        });
        return r;
    }

    private void propose()
    {
        proposal = parent.nextContextId();
        parent.reserveContextIds(proposal + 2);
        checking = false;
        agreement = ContextAgreement.max(parent, tag, proposal);
    }

    @Override
    public boolean progress()
    {
        try
        {
            while (agreement.done())
            {
                final int value = agreement.value();
                if (!checking)
                {
                    agreed = value;
                    final boolean free = agreed == proposal || parent.nextContextId() <= agreed;
                    if (free)
                    {
                        parent.reserveContextIds(agreed + 2);
                    }
                    checking = true;
                    agreement = ContextAgreement.max(parent, tag, free ? 0 : 1);
                }
                else if (value == 0)
                {
                    final CommState dup = parent.derive(agreed, agreed + 1, parent.rank(), parent.worldRanks(), parent.name() + ".idup");
                    onDone.accept(dup);
                    complete(OK, null);
                    return true;
                }
                else
                {
                    propose();
                }
            }
            return false;
        }
        catch (final RuntimeException ex)
        {
            complete(OK, ex instanceof MpiException me ? me : new MpiException(ErrorClass.ERR_OTHER, "idup failed: " + ex, ex));
            return true;
        }
    }

    @Override
    public void cancel()
    {
        // Collective operations cannot be cancelled.
    }
}
