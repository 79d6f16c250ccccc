package org.jmpi.internal.bootstrap;

import org.jmpi.ErrorClass;
import org.jmpi.MpiException;

import java.util.Map;
import java.util.ServiceLoader;

/**
 * Serves a job's bootstrap from inside one of its ranks, for jobs that no jmpirun started (ranks started
 * by {@code srun}: rank 0 hosts it, see {@link SlurmBootstrap}). The launcher module provides the one
 * implementation, the same server jmpirun runs (so the same wire format, authentication, bounds and
 * refusals: {@link BootstrapProtocolDescriptor}, docs/security.md); core finds it with {@link ServiceLoader}
 * and so never depends on the launcher.
 *
 * <p>Implementations: any thread.
 */
public interface RendezvousHost
{
    /** Told when a rank asks to stop the job (its abort), on a server thread. */
    @FunctionalInterface
    interface AbortHandler
    {
        void onAbort(int rank, int exitCode, String message);
    }

    /** A running server. */
    interface Hosted extends AutoCloseable
    {
        /** Where ranks connect: {@code host:port}, several separated by commas (as {@link BootstrapEnv#BOOTSTRAP_ENV_NAME}). */
        String endpoints();

        /**
         * Waits up to {@code waitNs} until every rank has finalized (so that the last answers reach them),
         * then stops serving. Idempotent.
         */
        void close(long waitNs);

        @Override
        default void close()
        {
            close(0);
        }
    }

    /**
     * Starts serving a job of {@code size} ranks whose single-use tickets are {@code tickets[rank]}.
     *
     * @param acrossHosts listen on every address (or {@code jmpi.bootstrap.if} of {@code params}), else loopback
     */
    Hosted start(int size, String jobId, byte[][] tickets, boolean acrossHosts, Map<String, String> params, AbortHandler onAbort);

    /**
     * The implementation on the class path.
     *
     * @throws MpiException ERR_OTHER naming the missing jar when there is none.
     */
    static RendezvousHost find()
    {
        return ServiceLoader.load(RendezvousHost.class).findFirst().orElseThrow(() -> new MpiException(ErrorClass.ERR_OTHER,
            "a job started by srun needs jmpi's launcher on the class path (jmpi-launcher jar: lib/*.jar of the distribution) " +
                "so that rank 0 can serve the bootstrap; see docs/cluster.md"));
    }
}
