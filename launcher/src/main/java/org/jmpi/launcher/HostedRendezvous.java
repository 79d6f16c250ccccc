package org.jmpi.launcher;

import org.jmpi.internal.bootstrap.BootstrapEnv;
import org.jmpi.internal.bootstrap.RendezvousHost;
import org.jmpi.spi.Params;

import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * jmpirun's {@link BootstrapServer} run inside rank 0 of a job that srun started (core's
 * {@code SlurmBootstrap} finds it as a {@link RendezvousHost} service): the ranks' tickets are derived
 * from the step key, so the server takes them instead of drawing its own.
 *
 * <p>Threading: see {@link BootstrapServer}.
 */
public final class HostedRendezvous implements RendezvousHost
{
    private static final long POLL_NS = TimeUnit.MILLISECONDS.toNanos(20);

    /** For {@link java.util.ServiceLoader}. */
    public HostedRendezvous()
    {
    }

    @Override
    public Hosted start(final int size, final String jobId, final byte[][] tickets, final boolean acrossHosts, final Map<String, String> params,
        final AbortHandler onAbort)
    {
        final Params values = new Params(params);
        final BootstrapServer server = BootstrapServer.start(size, jobId, onAbort::onAbort,
            acrossHosts ? BootstrapServer.Config.acrossHosts(values) : BootstrapServer.Config.loopback(values),
            line -> System.err.println("jmpi: rank 0: " + line), tickets);
        final String endpoints = server.rankEnvironment(0).get(BootstrapEnv.BOOTSTRAP_ENV_NAME);
        return new Hosted()
        {
            @Override
            public String endpoints()
            {
                return endpoints;
            }

            @Override
            public void close(final long waitNs)
            {
                final long deadlineNs = System.nanoTime() + waitNs;
                while (!allFinalized(server, size) && System.nanoTime() - deadlineNs < 0)
                {
                    LockSupport.parkNanos(POLL_NS);
                }
                server.close();
            }
        };
    }

    private static boolean allFinalized(final BootstrapServer server, final int size)
    {
        for (int rank = 0; rank < size; rank++)
        {
            if (!server.finalized(rank))
            {
                return false;
            }
        }
        return true;
    }
}
