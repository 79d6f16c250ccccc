package org.jmpi.internal.rank;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

import org.jmpi.ErrorClass;
import org.jmpi.MpiException;
import org.jmpi.spi.Params;

/**
 * What one rank's communicators share: the job's parameters, the structures its ranks share when they are
 * threads of one JVM, the context ids and which of them are live, and whether the rank has finalized. Made
 * once by the runtime at init; every communicator state refers to it, so code running on any thread (a pool
 * thread, the common fork-join pool, a thread that inherited nothing) finds its rank's state through the
 * communicator it was given, never through the calling thread.
 *
 * <p>Threading: immutable but for the finalized flag (volatile); any thread.
 */
public final class RankServices
{
    private final int worldRank;
    private final Params params;
    private final ConcurrentMap<String, Object> jobShared;
    private final String processorName;
    private final String[] nodes;
    private final ContextIdPool contextIds;
    private final ContextRegistry contexts = new ContextRegistry();
    private final ConcurrentHashMap<Class<?>, Object> components = new ConcurrentHashMap<>();
    private volatile boolean finalized;

    /**
     * @param jobShared  the map the ranks of an in-JVM job share (one per job), or {@code null} when this
     *                   rank's peers may live in other JVMs.
     * @param firstFreeContext the first context id left for communicators made after init.
     */
    public RankServices(final int worldRank, final Params params, final ConcurrentMap<String, Object> jobShared,
        final String processorName, final int firstFreeContext)
    {
        this(worldRank, params, jobShared, processorName, firstFreeContext, null);
    }

    /**
     * @param nodes the node identity of every world rank ({@code jmpi.node}, given by the launcher, else the host
     *              name), or {@code null} when all share this rank's processor name.
     */
    public RankServices(final int worldRank, final Params params, final ConcurrentMap<String, Object> jobShared,
        final String processorName, final int firstFreeContext, final String[] nodes)
    {
        this.nodes = nodes;
        this.worldRank = worldRank;
        this.params = params;
        this.jobShared = jobShared;
        this.processorName = processorName;
        this.contextIds = new ContextIdPool(firstFreeContext);
        contextIds.onOffered(contexts::reopenClosed);
    }

    /** This rank's rank in the job (its world rank). */
    public int worldRank()
    {
        return worldRank;
    }

    /** The job's parameters as this rank sees them. */
    public Params params()
    {
        return params;
    }

    /** True when every rank of the job is a thread of this JVM and their heaps are one. */
    public boolean sharedHeap()
    {
        return jobShared != null;
    }

    /** The structures the ranks of this in-JVM job share; only when {@link #sharedHeap()}. */
    public ConcurrentMap<String, Object> jobShared()
    {
        assert jobShared != null : "jobShared() outside an in-JVM job";
        return jobShared;
    }

    /**
     * The node identity of world rank {@code rank}: what split_type SHARED groups by. The launcher names each host's
     * node ({@code jmpi.node}), so ranks on two network namespaces of one machine are on two nodes.
     */
    public String nodeOf(final int rank)
    {
        return nodes == null ? processorName : nodes[rank];
    }

    /** This node's name, as MPI_Get_processor_name gives it. */
    public String processorName()
    {
        return processorName;
    }

    /** This rank's pool of context ids, shared by all its communicators. */
    public ContextIdPool contextIds()
    {
        return contextIds;
    }

    /** Which context ids are live on this rank. */
    public ContextRegistry contexts()
    {
        return contexts;
    }

    /**
     * Installs the rank's one instance of a layer above this package (the one-sided layer), so that code
     * holding any of the rank's communicators finds it; the runtime does, at init.
     */
    public <T> void install(final Class<T> type, final T component)
    {
        if (components.putIfAbsent(type, component) != null)
        {
            throw new MpiException(ErrorClass.ERR_INTERN, "rank " + worldRank + " has a " + type.getSimpleName() + " already");
        }
    }

    /** The rank's instance of {@code type} that the runtime installed. */
    public <T> T component(final Class<T> type)
    {
        final Object c = components.get(type);
        if (c == null)
        {
            throw new MpiException(ErrorClass.ERR_INTERN, "rank " + worldRank + " has no " + type.getSimpleName());
        }
        return type.cast(c);
    }

    /** Marks the rank finalized: every MPI call after this raises {@link #checkLive}'s error. */
    public void markFinalized()
    {
        finalized = true;
    }

    /** Whether the rank has begun finalize. */
    public boolean finalized()
    {
        return finalized;
    }

    /** Throws ERR_OTHER "MPI is finalized" naming {@code call} once the rank has finalized. */
    public void checkLive(final String call)
    {
        if (finalized)
        {
            throw new MpiException(ErrorClass.ERR_OTHER, call + ": MPI is finalized on rank " + worldRank);
        }
    }
}
