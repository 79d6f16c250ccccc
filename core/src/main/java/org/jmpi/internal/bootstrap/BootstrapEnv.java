package org.jmpi.internal.bootstrap;

import java.util.HexFormat;
import java.util.regex.Pattern;

/**
 * The contract between a launcher and the ranks it starts: the environment variables jmpirun sets in
 * every rank JVM, and the bootstrap keys by which the core reports a rank's progress through init and
 * finalize (the launcher tells a rank that exited properly from one that did not by them).
 *
 * <p>Constants only; immutable.
 */
public final class BootstrapEnv
{
    /** This rank's number in the world communicator, {@code 0..size-1}. */
    public static final String RANK_ENV_NAME = "JMPI_RANK";
    /** Number of ranks in the job. */
    public static final String SIZE_ENV_NAME = "JMPI_SIZE";
    /** The job's id, {@code [A-Za-z0-9-]+}: unique per job, used in /dev/shm file names. */
    public static final String JOB_ID_ENV_NAME = "JMPI_JOB_ID";
    /**
     * Where the launcher's bootstrap service listens: {@code host:port}, or several separated by commas
     * (a launcher on another host lists its addresses, the rank takes the first that answers).
     */
    public static final String BOOTSTRAP_ENV_NAME = "JMPI_BOOTSTRAP";
    /**
     * This rank's single-use ticket, hex ({@link BootstrapAuth#SECRET_LENGTH} bytes): the rank's first
     * bootstrap connection proves it and receives the rank key, which later connections prove. Spent
     * from then on, so processes the rank starts inherit nothing that authenticates.
     */
    public static final String TICKET_ENV_NAME = "JMPI_TICKET";
    /**
     * Optional: the launcher's pid. While a rank's bootstrap is open, the rank halts (exit code 1) when
     * that process ends, so a launcher killed with SIGKILL leaves no orphan ranks.
     */
    public static final String LAUNCHER_PID_ENV_NAME = "JMPI_LAUNCHER_PID";

    /**
     * Optional: the heartbeat timeout in ms, set for ranks on another host than the launcher: the rank
     * runs a heartbeat watch (see {@code HeartbeatWatch}, docs/launcher.md).
     */
    public static final String HEARTBEAT_ENV_NAME = "JMPI_HEARTBEAT";
    /** Optional: the node this rank counts as on (the parameter {@code jmpi.node}); jmpirun sets it for --host jobs. */
    public static final String NODE_ENV_NAME = "JMPI_NODE";

    /**
     * Optional: set for the children of a spawn (MPI_Comm_spawn): how many of the job's bootstrap ranks, from 0, are
     * the children's world; the ranks after them are the parents, which join the same bootstrap
     * (docs/compat.md, "Dynamic processes").
     */
    public static final String SPAWN_WORLD_ENV_NAME = "JMPI_SPAWN_WORLD";

    /** The core puts {@code INIT_KEY_PREFIX + rank} when the rank's init completes. */
    public static final String INIT_KEY_PREFIX = "jmpi.init.";
    /** The core puts {@code FINALIZED_KEY_PREFIX + rank} when the rank's finalize completes. */
    public static final String FINALIZED_KEY_PREFIX = "jmpi.finalized.";

    /** What a job id must match. */
    public static final Pattern JOB_ID_PATTERN = Pattern.compile("[A-Za-z0-9-]{1,64}");

    private BootstrapEnv()
    {
    }

    /** A random job id of 16 lowercase hex digits (64 bits). */
    public static String newJobId()
    {
        return HexFormat.of().formatHex(BootstrapAuth.randomBytes(8));
    }
}
