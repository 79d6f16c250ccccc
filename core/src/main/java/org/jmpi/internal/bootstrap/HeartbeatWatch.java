package org.jmpi.internal.bootstrap;

import java.io.IOException;
import java.util.concurrent.TimeUnit;

import static org.jmpi.internal.bootstrap.BootstrapProtocolDescriptor.STATUS_JOB_FAILED;

/**
 * The heartbeat of a rank on another host than its launcher, where the launcher can neither signal the
 * rank's process nor see it exit. On a bootstrap connection of its own, a daemon thread sends a
 * {@code HEARTBEAT} every third of the timeout; the launcher counts the rank alive while they arrive.
 * The rank halts with code 1 when
 * <ol>
 *   <li>the answer is {@code JOB_FAILED} (another rank died or aborted, the launcher is stopping the
 *       job or timed it out): the launcher's way of stopping a remote rank;</li>
 *   <li>no answer comes within the interval plus the timeout, or the connection breaks: the launcher
 *       is gone or unreachable (a link down), so nobody would ever stop this rank.</li>
 * </ol>
 * {@link #stop()} (at the bootstrap's close, after finalize) ends the watch without halting.
 *
 * <p>Threading: one daemon thread per watch; {@link #stop()} from any thread.
 */
final class HeartbeatWatch
{
    /** Exit code of a rank halted by its watch. */
    static final int HALT_EXIT_CODE = 1;

    private final TcpBootstrap connection;
    private final long timeoutNs;
    private volatile boolean stopped;

    private HeartbeatWatch(final TcpBootstrap connection, final long timeoutNs)
    {
        this.connection = connection;
        this.timeoutNs = timeoutNs;
    }

    /** Opens the watch's own connection of {@code bootstrap}'s rank and starts beating. */
    static HeartbeatWatch start(final TcpBootstrap bootstrap, final long timeoutNs)
    {
        final HeartbeatWatch watch = new HeartbeatWatch(bootstrap.newConnection(timeoutNs), timeoutNs);
        Thread.ofPlatform().daemon().name("jmpi-heartbeat").start(watch::run);
        return watch;
    }

    /** Ends the watch; the launcher sees the connection close after the rank finalized. */
    void stop()
    {
        stopped = true;
        connection.abandon();
    }

    private void run()
    {
        final long intervalNs = Math.max(1, timeoutNs / 3);
        final String[] reason = new String[1];
        try
        {
            while (!stopped)
            {
                if (connection.heartbeat(intervalNs, timeoutNs, reason) == STATUS_JOB_FAILED && !stopped)
                {
                    halt("the job is being stopped (" + reason[0] + ")");
                }
            }
        }
        catch (final IOException | RuntimeException ex)
        {
            if (!stopped)
            {
                halt("lost the launcher at " + connection.address().getHostString() + ":" + connection.address().getPort() +
                    " (no heartbeat answer within " + TimeUnit.NANOSECONDS.toMillis(intervalNs + timeoutNs) + " ms: " + ex.getMessage() + ")");
            }
        }
    }

    private void halt(final String why)
    {
        System.err.println("jmpi: rank " + connection.rank() + ": " + why + "; halting");
        System.err.flush();
        Runtime.getRuntime().halt(HALT_EXIT_CODE);
    }
}
