package org.jmpi.internal.runtime;

import java.util.Map;

import org.jmpi.internal.bootstrap.EnvBootstrap;
import org.jmpi.internal.bootstrap.RendezvousHost;
import org.jmpi.internal.comm.Ports;
import org.jmpi.internal.pt2pt.CommState;

/**
 * How a rank takes part in the joint job two jobs' groups meet in (connect/accept between jobs; docs/compat.md,
 * "Dynamic processes"): the accepting root serves the joint job's bootstrap with the launcher's own server
 * ({@link RendezvousHost}, on loopback) until its finalize has met its peers; every member joins with a runtime of its
 * own there ({@link RankRuntime#joined}), finalized before the rank's own.
 *
 * <p>Threading: any thread.
 */
final class JointJobs implements Ports.Joiner
{
    private final RankRuntime runtime;

    JointJobs(final RankRuntime runtime)
    {
        this.runtime = runtime;
    }

    @Override
    public String host(final int size, final String jobId, final byte[][] tickets)
    {
        final RendezvousHost.Hosted hosted = RendezvousHost.find().start(size, jobId, tickets, false, Map.of(),
            (rank, code, message) -> runtime.abort(code, "rank " + rank + " of a joint job with another job aborted: " + message, null));
        runtime.onClosed(() -> hosted.close(runtime.initTimeoutNs()));
        return hosted.endpoints();
    }

    @Override
    public CommState join(final String endpoints, final int rank, final int size, final String jobId, final String ticketHex,
        final int[] groupRanks)
    {
        final RankRuntime joined = RankRuntime.joined(runtime.threadLevel(),
            EnvBootstrap.join(endpoints, rank, size, jobId, ticketHex, runtime.initTimeoutNs()), groupRanks);
        runtime.adopt(joined);
        return joined.world();
    }
}
