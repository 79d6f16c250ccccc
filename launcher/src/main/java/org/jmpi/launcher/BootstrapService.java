package org.jmpi.launcher;

import java.util.Map;

/**
 * The launcher's side of the bootstrap: what ranks need to find it, and what the launcher learns from
 * it. {@link BootstrapServer} serves ranks on this node over loopback; a resource-manager launcher
 * (Slurm, later) supplies its own.
 *
 * <p>Threading: every method may be called from any thread.
 */
public interface BootstrapService extends AutoCloseable
{
    /** Told when a rank asks the launcher to stop the job. */
    @FunctionalInterface
    interface Listener
    {
        /** Called on a service thread before the aborting rank gets its answer. */
        void onAbort(int rank, int exitCode, String message);
    }

    /** Serves a rank's SPAWN request (MPI_Comm_spawn): {@link SpawnService}. */
    @FunctionalInterface
    interface SpawnHandler
    {
        /** The encoded {@code SpawnWire.Reply} to rank {@code rank}'s encoded request; called on a service thread. */
        byte[] spawn(int rank, byte[] request);
    }

    /**
     * Serves SPAWN requests with {@code handler} from now on; a service without one answers that it cannot spawn.
     * Services that cannot serve them ignore it.
     */
    default void onSpawn(final SpawnHandler handler)
    {
    }

    /** The job's id, {@code [A-Za-z0-9-]+}. */
    String jobId();

    /** Environment variables (see {@code org.jmpi.internal.bootstrap.BootstrapEnv}) that rank {@code rank} needs. */
    Map<String, String> rankEnvironment(int rank);

    /** Whether {@code rank} completed init (published {@code jmpi.init.<rank>}). */
    boolean initialized(int rank);

    /** Whether {@code rank} completed finalize (published {@code jmpi.finalized.<rank>}). */
    boolean finalized(int rank);

    /**
     * Records that {@code rank}'s process ended, {@code how} being for example "exited with code 3".
     * Unless the rank had finalized, the job has failed: every pending and later get or fence of the
     * other ranks fails with that reason instead of waiting.
     */
    void rankExited(int rank, String how);

    /**
     * A rank that sends heartbeats (ranks on other hosts do), has neither exited nor finalized, and has
     * not been heard from for more than {@code silenceNs}; -1 when there is none.
     */
    default int silentRank(final long silenceNs)
    {
        return -1;
    }

    /** Fails every pending and later get or fence with {@code reason}. */
    void fail(String reason);

    /** Stops serving and drops every connection. Idempotent. */
    @Override
    void close();
}
