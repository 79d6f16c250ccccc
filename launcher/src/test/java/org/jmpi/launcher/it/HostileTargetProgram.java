package org.jmpi.launcher.it;

import org.jmpi.MpiException;
import org.jmpi.internal.bootstrap.BootstrapEnv;
import org.jmpi.internal.bootstrap.EnvBootstrap;
import org.jmpi.internal.bootstrap.TcpBootstrap;
import org.jmpi.spi.Bootstrap;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * The job {@code HostileClientIT} attacks: each rank connects as the core does; rank 1 starts a child
 * process and prints the ticket the child inherited; after a fence rank 0 prints where the bootstrap
 * listens. Then every rank waits for the file {@code args[0]} (the attack runs meanwhile), exchanges
 * values through the bootstrap, opens a fresh authenticated connection and uses it, and fences; rank 1
 * then aborts with code 7 while the others wait in a fence.
 */
public final class HostileTargetProgram
{
    private static final long TIMEOUT_NS = TimeUnit.SECONDS.toNanos(60);

    private HostileTargetProgram()
    {
    }

    public static void main(final String[] args) throws IOException, InterruptedException
    {
        final Path go = Path.of(args[0]);
        final Bootstrap bootstrap = EnvBootstrap.fromEnvironment();
        final int rank = bootstrap.rank();
        bootstrap.put(BootstrapEnv.INIT_KEY_PREFIX + rank, new byte[0]);
        if (rank == 1)
        {
            final Process child = new ProcessBuilder("/bin/sh", "-c", "printf '%s' \"$" + BootstrapEnv.TICKET_ENV_NAME + "\"").start();
            final String inherited = new String(child.getInputStream().readAllBytes(), StandardCharsets.US_ASCII);
            child.waitFor();
            System.out.println("child-ticket=" + inherited);
        }
        bootstrap.fence(TIMEOUT_NS);
        if (rank == 0)
        {
            System.out.println("ready bootstrap=" + System.getenv(BootstrapEnv.BOOTSTRAP_ENV_NAME) + " job=" + bootstrap.jobId() +
                " launcher=" + System.getenv(BootstrapEnv.LAUNCHER_PID_ENV_NAME));
        }
        final long deadline = System.nanoTime() + TIMEOUT_NS;
        while (!Files.exists(go))
        {
            if (System.nanoTime() - deadline > 0)
            {
                throw new IllegalStateException("no go file " + go + " within 60 s");
            }
            Thread.sleep(20);
        }
        BootstrapProgram.exchange(bootstrap, TIMEOUT_NS);
        try (TcpBootstrap fresh = ((TcpBootstrap)bootstrap).newConnection(TIMEOUT_NS))
        {
            fresh.put("fresh." + rank, new byte[] {(byte)rank});
            final byte[] back = bootstrap.get("fresh." + rank, TIMEOUT_NS);
            System.out.println("rank " + rank + " fresh connection " + (back.length == 1 && back[0] == rank ? "ok" : "wrong"));
        }
        bootstrap.fence(TIMEOUT_NS);
        if (rank == 1)
        {
            bootstrap.abort(7, "after the attack");
            Runtime.getRuntime().halt(7);
        }
        try
        {
            bootstrap.fence(TIMEOUT_NS);
            System.out.println("rank " + rank + " last fence passed");
        }
        catch (final MpiException ex)
        {
            System.out.println("rank " + rank + " last fence failed: " + ex.getMessage());
        }
        TestRank.sleepMs(60_000);
    }
}
