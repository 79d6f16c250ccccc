package org.jmpi.internal.bootstrap;

import org.jmpi.spi.ParamSpec;

import java.util.List;

/**
 * The parameters of the launcher's bootstrap server (read by the launcher, not by ranks); see
 * docs/parameters.md and docs/security.md.
 */
public final class BootstrapParams
{
    public static final ParamSpec HANDSHAKE_TIMEOUT = new ParamSpec("jmpi.bootstrap.handshake.timeout", "5000", "ms",
        "Launcher: a bootstrap connection must complete its whole handshake within this time from accept, else it is closed.");
    public static final ParamSpec MAX_UNAUTHENTICATED = new ParamSpec("jmpi.bootstrap.unauthenticated.max", "128", "connections",
        "Launcher: bootstrap connections not yet authenticated held at once; further ones are closed at accept (ranks retry).");
    public static final ParamSpec LOG_INTERVAL = new ParamSpec("jmpi.bootstrap.log.interval", "10000", "ms",
        "Launcher: refused, timed-out and over-cap bootstrap connections and accept errors are reported at most once per interval, with counts and peer addresses.");

    public static final List<ParamSpec> ALL = List.of(HANDSHAKE_TIMEOUT, MAX_UNAUTHENTICATED, LOG_INTERVAL);

    private BootstrapParams()
    {
    }
}
