package org.jmpi.coll;

import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.jmpi.ErrorClass;
import org.jmpi.ErrorHandler;
import org.jmpi.Mpi;
import org.jmpi.MpiException;
import org.jmpi.Ranks;
import org.jmpi.ThreadLevel;
import org.jmpi.internal.bootstrap.LocalJob;
import org.jmpi.spi.Bootstrap;

/**
 * Ranks as threads of one JVM that count as on the nodes the test names, one name per rank. {@code jmpi.node} is
 * a job parameter (every thread of an in-JVM job reads the same one), so the override sits in the bootstrap, for
 * tests only: each rank publishes its node as usual, and reading rank r's node ({@code jmpi.node.<r>}) yields
 * the name given for r. The JVM identities stay those of one JVM, so the ranks still reach each other through the
 * in-JVM transport and share a heap (node collectives stay available on the nodes' sub-communicators).
 */
final class FakeNodes
{
    private static final String NODE_KEY = "jmpi.node.";

    private FakeNodes()
    {
    }

    /** Runs {@code body} on {@code nodes.length} ranks, rank r on node {@code nodes[r]}; fails with the first rank's failure. */
    static void run(final String[] nodes, final ThreadLevel level, final Map<String, String> params, final Ranks.Body body)
    {
        // The fake nodes are one JVM: its transport must reach every rank even on the transport axes, which make
        // each rank a JVM of its own (jmpi.jvm.isolate) reaching only its node's ranks.
        final Map<String, String> oneJvm = new java.util.HashMap<>(params);
        oneJvm.put("jmpi.jvm.isolate", "false");
        final LocalJob store = LocalJob.create(nodes.length, oneJvm);
        final LocalJob[] job = new LocalJob[1];
        job[0] = LocalJob.forHost(nodes.length, oneJvm, rank -> new NodeNames(store.bootstrap(rank), nodes, job[0]));
        final LocalJob.Outcome outcome = job[0].run(rank ->
        {
            try (Mpi mpi = Mpi.init(new String[0], level))
            {
                mpi.world().setErrorHandler(ErrorHandler.ERRORS_RETURN);
                body.run(mpi, mpi.world());
            }
        }, TimeUnit.SECONDS.toNanos(300));
        final LocalJob.RankOutcome failed = outcome.firstFailure();
        if (failed == null)
        {
            return;
        }
        if (failed.timedOut())
        {
            throw new AssertionError("rank " + failed.rank() + " timed out (job of " + nodes.length + ")");
        }
        Throwable cause = failed.failure();
        for (final LocalJob.RankOutcome r : outcome.ranks())
        {
            if (r.failure() != null && !(r.failure() instanceof MpiException me && me.errorClass() == ErrorClass.ERR_PROC_ABORTED))
            {
                cause = r.failure();
                break;
            }
        }
        if (cause instanceof AssertionError ae)
        {
            throw ae;
        }
        throw new AssertionError("rank " + failed.rank() + " failed (job of " + nodes.length + "): " + cause, cause);
    }

    /** The in-JVM bootstrap of one rank, answering reads of the ranks' nodes with the test's names. */
    private record NodeNames(Bootstrap inner, String[] nodes, LocalJob job) implements Bootstrap
    {
        @Override
        public int rank()
        {
            return inner.rank();
        }

        @Override
        public int size()
        {
            return inner.size();
        }

        @Override
        public String jobId()
        {
            return inner.jobId();
        }

        @Override
        public void put(final String key, final byte[] value)
        {
            inner.put(key, value);
        }

        @Override
        public byte[] get(final String key, final long timeoutNs)
        {
            final byte[] value = inner.get(key, timeoutNs);
            if (key.startsWith(NODE_KEY) && key.substring(NODE_KEY.length()).chars().allMatch(Character::isDigit))
            {
                return nodes[Integer.parseInt(key.substring(NODE_KEY.length()))].getBytes(StandardCharsets.UTF_8);
            }
            return value;
        }

        @Override
        public void fence(final long timeoutNs)
        {
            inner.fence(timeoutNs);
        }

        @Override
        public void abort(final int exitCode, final String message)
        {
            job.abort(inner.rank(), exitCode, message);
        }

        @Override
        public void close()
        {
            inner.close();
        }
    }
}
