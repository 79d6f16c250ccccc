package org.jmpi.internal.bootstrap;

import org.jmpi.spi.ParamSpec;

import java.util.List;

/**
 * The parameters of the launcher's bootstrap server (read by the launcher), and of a rank's place in a
 * job across hosts (its node, its heartbeat); see docs/parameters.md, docs/security.md and docs/cluster.md.
 */
public final class BootstrapParams
{
    public static final ParamSpec HANDSHAKE_TIMEOUT = new ParamSpec("jmpi.bootstrap.handshake.timeout", "5000", "ms",
        "Launcher: a bootstrap connection must complete its whole handshake within this time from accept, else it is closed.");
    public static final ParamSpec MAX_UNAUTHENTICATED = new ParamSpec("jmpi.bootstrap.unauthenticated.max", "128", "connections",
        "Launcher: bootstrap connections not yet authenticated held at once; further ones are closed at accept (ranks retry).");
    public static final ParamSpec LOG_INTERVAL = new ParamSpec("jmpi.bootstrap.log.interval", "10000", "ms",
        "Launcher: refused, timed-out and over-cap bootstrap connections and accept errors are reported at most once per interval, with counts and peer addresses.");

    public static final ParamSpec BIND_IF = new ParamSpec("jmpi.bootstrap.if", "", "interface or CIDR",
        "Launcher: where the bootstrap listens for a job with ranks on other hosts (an interface name or a CIDR); empty: every address, advertised to the ranks non-loopback first. A one-host job always uses 127.0.0.1.");
    public static final ParamSpec HEARTBEAT_TIMEOUT = new ParamSpec("jmpi.bootstrap.heartbeat.timeout", "3000", "ms",
        "Launcher and ranks on other hosts: a remote rank's heartbeat (every third of this) unanswered for this long halts the rank; unheard for this long, the launcher declares the rank lost and stops the job.");
    public static final ParamSpec NODE = new ParamSpec("jmpi.node", "", "name",
        "Rank: the node this rank counts as on (ranks of one node use shared memory, of different nodes tcp); empty: the host name. jmpirun sets it (JMPI_NODE) to the host name given with --host or --hostfile.");

    public static final ParamSpec SLURM_PORTS = new ParamSpec("jmpi.slurm.ports", "41000-48999", "port range",
        "Ranks started by srun without PMI-2: the range from which every task derives the ports of rank 0's rendezvous (from the job and step ids; SLURM_STEP_RESV_PORTS first when Slurm reserved ports). See docs/cluster.md.");
    public static final ParamSpec MUNGE_SOCKET = new ParamSpec("jmpi.slurm.munge.socket", "", "path",
        "Ranks started by srun without PMI-2: the munged socket the munge and unmunge commands use; empty: MUNGE's default.");

    public static final List<ParamSpec> ALL = List.of(HANDSHAKE_TIMEOUT, MAX_UNAUTHENTICATED, LOG_INTERVAL, BIND_IF, HEARTBEAT_TIMEOUT, NODE,
        SLURM_PORTS, MUNGE_SOCKET);

    private BootstrapParams()
    {
    }
}
