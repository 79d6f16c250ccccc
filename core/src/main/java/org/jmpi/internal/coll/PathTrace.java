package org.jmpi.internal.coll;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import org.jmpi.internal.pt2pt.CommState;

/**
 * {@code jmpi.coll.trace}: which path each collective call takes. Every rank prints one line on stderr the first
 * time a (communicator, call, path) combination occurs, for example
 * {@code jmpi coll trace: rank 1, WORLD: allreduce -> node, file region, 1 round of 4 bytes}, so that a
 * benchmark or an application can see, per size, whether a call ran through the node region (and how) or as a
 * point-to-point schedule. Off by default; when off it costs one boolean test per call.
 *
 * <p>Threading: any thread (a concurrent set of the lines printed).
 */
public final class PathTrace
{
    private static final Set<String> SEEN = ConcurrentHashMap.newKeySet();

    private PathTrace()
    {
    }

    /** Whether {@code jmpi.coll.trace} is on for {@code c}'s job. */
    public static boolean on(final CommState c)
    {
        return CollContext.of(c).params.trace;
    }

    /** Prints {@code call -> path} for {@code c}'s rank once (the caller checked {@link #on}). */
    public static void note(final CommState c, final String call, final String path)
    {
        final String line = "jmpi coll trace: rank " + c.worldRank(c.rank()) + ", " + c.name() + ": " + call + " -> " + path;
        if (SEEN.add(line))
        {
            System.err.println(line);
        }
    }
}
