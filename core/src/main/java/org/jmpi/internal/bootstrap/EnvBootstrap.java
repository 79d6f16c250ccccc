package org.jmpi.internal.bootstrap;

import org.jmpi.ErrorClass;
import org.jmpi.MpiException;
import org.jmpi.internal.runtime.CoreParams;
import org.jmpi.spi.Bootstrap;
import org.jmpi.spi.Params;

import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * How a rank finds its bootstrap: {@code Mpi.init} calls {@link #fromEnvironment()}. A rank started by
 * jmpirun finds the variables of {@link BootstrapEnv} and connects to the launcher with
 * {@link TcpBootstrap}, spending the rank's single-use ticket; a task of a Slurm step started by
 * {@code srun} (two or more tasks) finds its job with {@link SlurmBootstrap}; a program started any other
 * way runs as a singleton ({@code null}).
 *
 * <p>Stateless; any thread.
 */
public final class EnvBootstrap
{
    private EnvBootstrap()
    {
    }

    /**
     * The bootstrap of a rank started by jmpirun or srun, connected and authenticated, or {@code null} when
     * this process was not started by either. Connecting waits up to {@code jmpi.init.timeout}.
     *
     * @throws MpiException ERR_OTHER when the variables are present but malformed, or the launcher
     * cannot be reached or rejects the secret.
     */
    public static Bootstrap fromEnvironment()
    {
        return fromEnvironment(System.getenv());
    }

    /** As {@link #fromEnvironment()}, reading {@code env} instead of the process environment. */
    public static Bootstrap fromEnvironment(final Map<String, String> env)
    {
        final String endpoint = env.get(BootstrapEnv.BOOTSTRAP_ENV_NAME);
        if (endpoint == null || endpoint.isBlank())
        {
            return SlurmBootstrap.fromEnvironment(env, TimeUnit.MILLISECONDS.toNanos(new Params(Map.of(), env).getLong(CoreParams.INIT_TIMEOUT)));
        }
        final int size = intVar(env, BootstrapEnv.SIZE_ENV_NAME, 1);
        final int rank = intVar(env, BootstrapEnv.RANK_ENV_NAME, 0);
        if (rank >= size)
        {
            throw new MpiException(ErrorClass.ERR_OTHER, "launcher environment: " + BootstrapEnv.RANK_ENV_NAME + "=" + rank +
                " is not below " + BootstrapEnv.SIZE_ENV_NAME + "=" + size);
        }
        final String jobId = required(env, BootstrapEnv.JOB_ID_ENV_NAME);
        if (!BootstrapEnv.JOB_ID_PATTERN.matcher(jobId).matches())
        {
            throw new MpiException(ErrorClass.ERR_OTHER, "launcher environment: " + BootstrapEnv.JOB_ID_ENV_NAME + "=" + jobId +
                " does not match " + BootstrapEnv.JOB_ID_PATTERN.pattern());
        }
        final byte[] ticket;
        try
        {
            ticket = BootstrapAuth.decodeSecret(required(env, BootstrapEnv.TICKET_ENV_NAME));
        }
        catch (final IllegalArgumentException ex)
        {
            throw new MpiException(ErrorClass.ERR_OTHER,
                "launcher environment: " + BootstrapEnv.TICKET_ENV_NAME + " is malformed: " + ex.getMessage());
        }
        final List<InetSocketAddress> addresses = new ArrayList<>();
        for (final String one : endpoint.split(","))
        {
            addresses.add(parseAddress(one.trim()));
        }
        final long heartbeatMs = optionalLong(env, BootstrapEnv.HEARTBEAT_ENV_NAME);
        final long timeoutNs = TimeUnit.MILLISECONDS.toNanos(new Params(Map.of(), env).getLong(CoreParams.INIT_TIMEOUT));
        final TcpBootstrap bootstrap = TcpBootstrap.connect(addresses, rank, size, jobId, ticket, timeoutNs);
        if (heartbeatMs > 0)
        {
            final HeartbeatWatch watch = HeartbeatWatch.start(bootstrap, TimeUnit.MILLISECONDS.toNanos(heartbeatMs));
            bootstrap.onClose(watch::stop);
        }
        final String launcherPid = env.get(BootstrapEnv.LAUNCHER_PID_ENV_NAME);
        if (launcherPid != null && !launcherPid.isBlank())
        {
            LauncherWatch.watch(parsePid(launcherPid), rank);
        }
        return bootstrap;
    }

    /**
     * Joins another job's bootstrap served by the same launcher (a spawn's parents join their children's job) as
     * {@code rank} of {@code size}, with the single-use {@code ticketHex} the launcher handed out for that rank.
     *
     * @param endpoints the launcher's addresses, as in {@link BootstrapEnv#BOOTSTRAP_ENV_NAME}.
     */
    public static TcpBootstrap join(final String endpoints, final int rank, final int size, final String jobId, final String ticketHex,
        final long timeoutNs)
    {
        final List<InetSocketAddress> addresses = new ArrayList<>();
        for (final String one : endpoints.split(","))
        {
            addresses.add(parseAddress(one.trim()));
        }
        return TcpBootstrap.connect(addresses, rank, size, jobId, BootstrapAuth.decodeSecret(ticketHex), timeoutNs);
    }

    static InetSocketAddress parseAddress(final String endpoint)
    {
        final int colon = endpoint.lastIndexOf(':');
        if (colon <= 0 || colon == endpoint.length() - 1)
        {
            throw new MpiException(ErrorClass.ERR_OTHER, "launcher environment: " + BootstrapEnv.BOOTSTRAP_ENV_NAME + "=" + endpoint +
                " is not host:port");
        }
        final int port;
        try
        {
            port = Integer.parseInt(endpoint.substring(colon + 1).trim());
        }
        catch (final NumberFormatException ex)
        {
            throw new MpiException(ErrorClass.ERR_OTHER, "launcher environment: " + BootstrapEnv.BOOTSTRAP_ENV_NAME + "=" + endpoint +
                " has no numeric port");
        }
        if (port < 1 || port > 65535)
        {
            throw new MpiException(ErrorClass.ERR_OTHER, "launcher environment: " + BootstrapEnv.BOOTSTRAP_ENV_NAME + "=" + endpoint +
                " has port out of range");
        }
        return new InetSocketAddress(endpoint.substring(0, colon).trim(), port);
    }

    private static long parsePid(final String text)
    {
        try
        {
            return Long.parseLong(text.trim());
        }
        catch (final NumberFormatException ex)
        {
            throw new MpiException(ErrorClass.ERR_OTHER, "launcher environment: " + BootstrapEnv.LAUNCHER_PID_ENV_NAME + "=" + text +
                " is not a pid");
        }
    }

    /** The value of an optional numeric variable, 0 when absent. */
    private static long optionalLong(final Map<String, String> env, final String name)
    {
        final String text = env.get(name);
        if (text == null || text.isBlank())
        {
            return 0;
        }
        try
        {
            final long value = Long.parseLong(text.trim());
            if (value > 0)
            {
                return value;
            }
        }
        catch (final NumberFormatException ex)
        {
            // Reported below.
        }
        throw new MpiException(ErrorClass.ERR_OTHER, "launcher environment: " + name + "=" + text + " is not a positive number");
    }

    private static String required(final Map<String, String> env, final String name)
    {
        final String value = env.get(name);
        if (value == null || value.isBlank())
        {
            throw new MpiException(ErrorClass.ERR_OTHER, "launcher environment: " + BootstrapEnv.BOOTSTRAP_ENV_NAME +
                " is set but " + name + " is missing");
        }
        return value.trim();
    }

    private static int intVar(final Map<String, String> env, final String name, final int min)
    {
        final String text = required(env, name);
        final int value;
        try
        {
            value = Integer.parseInt(text);
        }
        catch (final NumberFormatException ex)
        {
            throw new MpiException(ErrorClass.ERR_OTHER, "launcher environment: " + name + "=" + text + " is not a number");
        }
        if (value < min)
        {
            throw new MpiException(ErrorClass.ERR_OTHER, "launcher environment: " + name + "=" + text + " is below " + min);
        }
        return value;
    }
}
