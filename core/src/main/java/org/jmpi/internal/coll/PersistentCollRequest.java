package org.jmpi.internal.coll;

import org.jmpi.Request;
import org.jmpi.internal.pt2pt.CommState;
import org.jmpi.internal.pt2pt.PersistentRequestImpl;

/**
 * A persistent collective (MPI-4: MPI_Bcast_init...): arguments are checked, the algorithm chosen, the
 * schedule built, its scratch buffers allocated and its tag fixed once, at init; each {@link #start()}
 * runs the same schedule again. Inactive until started, and again once its completion is reported. When the
 * plan offers a put- or get-based form ({@link DirectPersistent}: barrier, bcast, reduce, allreduce, gather(v),
 * scatter(v) and allgather) and {@code jmpi.coll.persistent.schedule} or the cost model chooses it, that form is built here, at
 * init (collectively: every rank constructs its request in the same order), and run instead.
 *
 * <p>Threading: as {@link Request}.
 */
public final class PersistentCollRequest extends PersistentRequestImpl
{
    /** The put- or get-based form, when the plan offers one and the parameters and cost model choose it; else null. */
    private final DirectPersistent direct;

    public PersistentCollRequest(final CommState comm, final Collectives.Plan plan)
    {
        this(comm, plan, plan.direct() == null ? null : plan.direct().create(plan.tag()));
    }

    private PersistentCollRequest(final CommState comm, final Collectives.Plan plan, final DirectPersistent direct)
    {
        super(comm.engine(), comm::handle, plan.call(), () -> direct != null ? direct.start() : plan.start());
        this.direct = direct;
    }

    @Override
    public void free()
    {
        super.free();
        if (direct != null)
        {
            direct.free();
        }
    }

    /**
     * Under the put or get schedule, the peers whose counters and data this rank reaches directly (every signal and
     * copy a memory operation: threads of one JVM, or the arena across JVMs), once the first start has resolved
     * them; -1 before that and under "p2p" (for tests and benchmarks).
     */
    public int directPeers()
    {
        return direct == null ? -1 : direct.directPeers();
    }

    /** The schedule this request runs: "put", "get" or "p2p" (for tests and benchmarks). */
    public String schedule()
    {
        return direct == null ? "p2p" : direct.mode().name().toLowerCase(java.util.Locale.ROOT);
    }
}
