package org.jmpi.internal.coll.node;

import java.nio.file.Path;
import java.util.Locale;
import java.util.Set;

import org.jmpi.ErrorClass;
import org.jmpi.MpiException;
import org.jmpi.internal.pt2pt.CommState;
import org.jmpi.internal.rank.RankServices;
import org.jmpi.spi.ParamSpec;
import org.jmpi.spi.PeerMemory;
import org.jmpi.spi.PeerWaker;
import org.jmpi.spi.Transport;

/**
 * What a rank needs to place node collective regions in files across JVMs: the job's id (the files' prefix),
 * the shm directory, and, per peer, the transport that reaches it (which decides whether a region file can
 * serve it, and how to wake it). Installed once per rank by the runtime ({@link #install}).
 *
 * <p>Threading: immutable; any thread.
 */
public final class NodeHost
{
    public static final ParamSpec REGION = new ParamSpec("jmpi.coll.node.region", "auto", "name",
        "Node collectives: where a communicator's region lies. auto: on the heap where every rank of the job is a thread of this " +
        "JVM, else in a file in jmpi.shm.dir that the ranks map (all of the communicator on one node, reached through shm, pvas " +
        "or jvm); file: in a file always (tests, and ranks as threads measured as if they were JVMs).");
    /** Read, not listed: the region files lie in the shm transport's directory (that transport lists the parameter). */
    static final ParamSpec SHM_DIR = new ParamSpec("jmpi.shm.dir", "/dev/shm", "path", "");
    /**
     * Transports whose peers a region file serves: they share this rank's node and the shm transport's
     * cleanup, which deletes the job's files, is on the class path (pvas carries its frames through shm; jvm
     * reaches threads of this JVM, whose heap would do, but the file serves them alike in a mixed job).
     */
    private static final Set<String> NODE_TRANSPORTS = Set.of("shm", "pvas", "jvm");

    private final String jobId;
    private final Path dir;
    private final Transport[] routes;
    private final PeerWaker[] wakers;
    private final boolean fileForced;
    /** Whether the job's ranks on this node outnumber its processors (every rank of the node computes the same). */
    private final boolean oversubscribed;

    private NodeHost(final String jobId, final Path dir, final Transport[] routes, final boolean fileForced,
        final boolean oversubscribed)
    {
        this.jobId = jobId;
        this.fileForced = fileForced;
        this.oversubscribed = oversubscribed;
        this.dir = dir;
        this.routes = routes.clone();
        this.wakers = new PeerWaker[routes.length];
        for (int r = 0; r < routes.length; r++)
        {
            final PeerWaker waker = routes[r].feature(PeerWaker.class);
            final PeerMemory memory = routes[r].feature(PeerMemory.class);
            wakers[r] = waker != null ? waker : memory != null ? memory::wake : null;
        }
    }

    /** Installs the rank's host: {@code routes[r]} is the transport that reaches world rank {@code r}. */
    public static void install(final RankServices services, final String jobId, final Transport[] routes)
    {
        final String region = services.params().get(REGION).toLowerCase(Locale.ROOT);
        if (!region.equals("auto") && !region.equals("file"))
        {
            throw new MpiException(ErrorClass.ERR_ARG, "parameter " + REGION.name() + "=" + region + " is not one of auto, file");
        }
        final String node = services.nodeOf(services.worldRank());
        int onThisNode = 0;
        for (int w = 0; w < routes.length; w++)
        {
            onThisNode += services.nodeOf(w).equals(node) ? 1 : 0;
        }
        services.install(NodeHost.class, new NodeHost(jobId, Path.of(services.params().get(SHM_DIR)), routes, region.equals("file"),
            onThisNode > Runtime.getRuntime().availableProcessors()));
    }

    /** The rank's host, or null where the runtime installed none (tests that build services by hand). */
    static NodeHost of(final CommState c)
    {
        try
        {
            return c.services().component(NodeHost.class);
        }
        catch (final RuntimeException ex)
        {
            return null;
        }
    }

    /**
     * Whether a region file can serve {@code c}: every member is on this rank's node and reached through a
     * node transport. Every member decides alike (node names and transports are symmetric).
     */
    boolean serves(final CommState c)
    {
        final RankServices s = c.services();
        final String node = s.nodeOf(s.worldRank());
        for (final int w : c.worldRanks())
        {
            if (!s.nodeOf(w).equals(node) || !NODE_TRANSPORTS.contains(routes[w].name()))
            {
                return false;
            }
        }
        return true;
    }

    /**
     * Whether the job's ranks on this node outnumber the processors the JVM reports (the launcher gives every rank
     * JVM of a node the same count, bound or not), so every rank of the node answers alike.
     */
    boolean oversubscribed()
    {
        return oversubscribed;
    }

    /** Whether regions lie in files even where the ranks share the heap ({@code jmpi.coll.node.region=file}). */
    boolean fileForced()
    {
        return fileForced;
    }

    String jobId()
    {
        return jobId;
    }

    Path dir()
    {
        return dir;
    }

    /** Wakes world rank {@code worldRank}'s engine if its transport can (else it sees flags at its next poll). */
    void wake(final int worldRank)
    {
        final PeerWaker waker = wakers[worldRank];
        if (waker != null)
        {
            waker.wake(worldRank);
        }
    }
}
