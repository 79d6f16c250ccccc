package org.jmpi.launcher.it;

import org.jmpi.MpiException;
import org.jmpi.internal.bootstrap.BootstrapEnv;
import org.jmpi.internal.bootstrap.EnvBootstrap;
import org.jmpi.spi.Bootstrap;

import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;

/**
 * Uses the launcher's bootstrap as the core does. {@code args[0]}:
 * <ul>
 * <li>{@code exchange}: init, publish a value, fence, read every other rank's value, finalize.</li>
 * <li>{@code abort}: init; rank 1 aborts with code 7 and halts with it as the core does; others fence.</li>
 * <li>{@code nofinalize}: init; rank 0 exits 0 without finalize; others sleep.</li>
 * <li>{@code fencedeath}: init; rank 1 halts with code 5; others fence and report how the fence failed.</li>
 * </ul>
 */
public final class BootstrapProgram
{
    private static final long TIMEOUT_NS = TimeUnit.SECONDS.toNanos(30);

    private BootstrapProgram()
    {
    }

    public static void main(final String[] args)
    {
        final Bootstrap bootstrap = EnvBootstrap.fromEnvironment();
        if (bootstrap == null)
        {
            System.out.println("singleton");
            return;
        }
        final int rank = bootstrap.rank();
        System.out.println("pid=" + ProcessHandle.current().pid() + " rank=" + rank + " size=" + bootstrap.size() + " job=" + bootstrap.jobId());
        bootstrap.put(BootstrapEnv.INIT_KEY_PREFIX + rank, new byte[0]);
        switch (args[0])
        {
            case "exchange" ->
            {
                exchange(bootstrap, TIMEOUT_NS);
                bootstrap.fence(TIMEOUT_NS);
                finalizeRank(bootstrap);
            }
            case "abort" ->
            {
                if (rank == 1)
                {
                    bootstrap.abort(7, "rank 1 gives up");
                    Runtime.getRuntime().halt(7);
                }
                fenceReporting(bootstrap);
                TestRank.sleepMs(60_000);
            }
            case "nofinalize" ->
            {
                if (rank == 0)
                {
                    return;
                }
                TestRank.sleepMs(60_000);
            }
            case "fencedeath" ->
            {
                if (rank == 1)
                {
                    Runtime.getRuntime().halt(5);
                }
                fenceReporting(bootstrap);
                TestRank.sleepMs(60_000);
            }
            default -> throw new IllegalArgumentException(args[0]);
        }
    }

    /** Publishes "hello from RANK", fences, reads every rank's value and prints "rank R got [..][..]". */
    static void exchange(final Bootstrap bootstrap, final long timeoutNs)
    {
        final int rank = bootstrap.rank();
        bootstrap.put("value." + rank, ("hello from " + rank).getBytes(StandardCharsets.UTF_8));
        bootstrap.fence(timeoutNs);
        final StringBuilder got = new StringBuilder();
        for (int peer = 0; peer < bootstrap.size(); peer++)
        {
            got.append('[').append(new String(bootstrap.get("value." + peer, timeoutNs), StandardCharsets.UTF_8)).append(']');
        }
        System.out.println("rank " + rank + " got " + got);
    }

    private static void fenceReporting(final Bootstrap bootstrap)
    {
        try
        {
            bootstrap.fence(TIMEOUT_NS);
            System.out.println("rank " + bootstrap.rank() + " fence passed");
        }
        catch (final MpiException ex)
        {
            System.out.println("rank " + bootstrap.rank() + " fence failed: " + ex.getMessage());
        }
    }

    private static void finalizeRank(final Bootstrap bootstrap)
    {
        bootstrap.put(BootstrapEnv.FINALIZED_KEY_PREFIX + bootstrap.rank(), new byte[0]);
        bootstrap.close();
    }
}
