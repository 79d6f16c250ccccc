package org.jmpi.internal.comm;

import java.util.function.Consumer;

import org.jmpi.internal.coll.ContextAgreement;
import org.jmpi.internal.pt2pt.CommState;

/**
 * MPI_Comm_idup: the context-id agreement of {@code dup} ({@link ContextIdAgreement}), run as a request.
 * <ol>
 * <li>At the call: take the parent's next collective tag (so later collectives on the parent keep their
 * sequence) and start the agreement's first round on the engine.</li>
 * <li>The engine advances the rounds while the caller goes on; other communicators may be made on this rank
 * meanwhile, by this thread or others, without conflict.</li>
 * <li>Once agreed: derive the new communicator over the same members and hand it to {@code onDone} (which
 * copies the attributes: their copy callbacks may then run on the progress thread); then the request
 * completes.</li>
 * </ol>
 *
 * <p>Threading: made by the caller; advanced on the engine thread only.
 */
public final class IdupRequest extends ContextIdAgreement
{
    private final Consumer<CommState> onDone;

    private IdupRequest(final CommState parent, final int tag, final Consumer<CommState> onDone)
    {
        super(parent, tag);
        this.onDone = onDone;
    }

    /** Starts an idup of {@code parent}; {@code onDone} receives the new state on the engine thread before completion. */
    public static IdupRequest start(final CommState parent, final Consumer<CommState> onDone)
    {
        final IdupRequest r = new IdupRequest(parent, ContextAgreement.reserveTag(parent), onDone);
        r.launch();
        return r;
    }

    @Override
    protected void onAgreed(final int contextId)
    {
        onDone.accept(over.deriveOwning(contextId, over.rank(), over.worldRanks(), over.name() + ".idup"));
    }
}
