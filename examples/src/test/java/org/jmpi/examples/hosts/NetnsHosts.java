package org.jmpi.examples.hosts;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Two "hosts" for tests: network namespaces joined by one veth pair, with private addresses that exist
 * only inside them (10.X.Y.1/24 and .2, X.Y from this JVM's pid). Deleting a namespace deletes its end
 * of the pair, so {@link #close()} leaves nothing; a shutdown hook closes too, should the JVM be stopped.
 *
 * <p>Not thread-safe; one per test class.
 */
final class NetnsHosts implements AutoCloseable
{
    final String hostA;
    final String hostB;
    final String linkB;
    private final Thread hook = new Thread(this::deleteQuietly, "netns-cleanup");
    private boolean closed;

    private NetnsHosts(final String hostA, final String hostB, final String linkB)
    {
        this.hostA = hostA;
        this.hostB = hostB;
        this.linkB = linkB;
    }

    /** Why namespaces cannot be made here, or null when they can (root, and ip on PATH). */
    static String unavailableReason()
    {
        try
        {
            final Process id = new ProcessBuilder("id", "-u").redirectErrorStream(true).start();
            final String uid = new String(id.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
            id.waitFor(10, TimeUnit.SECONDS);
            if (!uid.equals("0"))
            {
                return "network namespaces need root (uid is " + uid + ")";
            }
            if (run(List.of("ip", "netns", "list")) != 0)
            {
                return "the ip command (iproute2) cannot list network namespaces";
            }
            return null;
        }
        catch (final IOException ex)
        {
            return "cannot run id or ip: " + ex.getMessage();
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            return "interrupted";
        }
    }

    /** Creates the two namespaces and the pair; removes whatever was made when a step fails. */
    static NetnsHosts create() throws IOException, InterruptedException
    {
        final long pid = ProcessHandle.current().pid();
        final String prefix = "jmpi" + pid;
        final NetnsHosts hosts = new NetnsHosts(prefix + "a", prefix + "b", "jv" + pid + "b");
        Runtime.getRuntime().addShutdownHook(hosts.hook);
        final String linkA = "jv" + pid + "a";
        final String net = "10." + (100 + pid % 100) + "." + (pid / 100 % 250) + ".";
        try
        {
            ip("netns", "add", hosts.hostA);
            ip("netns", "add", hosts.hostB);
            ip("link", "add", linkA, "type", "veth", "peer", "name", hosts.linkB);
            ip("link", "set", linkA, "netns", hosts.hostA);
            ip("link", "set", hosts.linkB, "netns", hosts.hostB);
            ip("-n", hosts.hostA, "addr", "add", net + "1/24", "dev", linkA);
            ip("-n", hosts.hostB, "addr", "add", net + "2/24", "dev", hosts.linkB);
            for (final String[] nsLink : new String[][] {{hosts.hostA, linkA}, {hosts.hostB, hosts.linkB}, {hosts.hostA, "lo"}, {hosts.hostB, "lo"}})
            {
                ip("-n", nsLink[0], "link", "set", nsLink[1], "up");
            }
            return hosts;
        }
        catch (final IOException | RuntimeException ex)
        {
            hosts.close();
            throw ex;
        }
    }

    /** Takes host B's end of the link down (or up again). */
    void setLinkB(final boolean up) throws IOException, InterruptedException
    {
        ip("-n", hostB, "link", "set", linkB, up ? "up" : "down");
    }

    @Override
    public void close()
    {
        if (closed)
        {
            return;
        }
        closed = true;
        deleteQuietly();
        try
        {
            Runtime.getRuntime().removeShutdownHook(hook);
        }
        catch (final IllegalStateException ex)
        {
            // Shutting down: the hook deletes them.
        }
    }

    /** Whether either namespace still exists (for the test's own check that it left nothing). */
    boolean anyLeft() throws IOException
    {
        return Files.exists(Path.of("/run/netns", hostA)) || Files.exists(Path.of("/run/netns", hostB));
    }

    private void deleteQuietly()
    {
        for (final String ns : new String[] {hostA, hostB})
        {
            try
            {
                run(List.of("ip", "netns", "delete", ns));
            }
            catch (final IOException ex)
            {
                // Best effort: the namespace may not have been made.
            }
            catch (final InterruptedException ex)
            {
                Thread.currentThread().interrupt();
            }
        }
    }

    private static void ip(final String... args) throws IOException, InterruptedException
    {
        final List<String> command = new ArrayList<>(List.of("ip"));
        command.addAll(List.of(args));
        final int code = run(command);
        if (code != 0)
        {
            throw new IOException(String.join(" ", command) + " exited with " + code);
        }
    }

    private static int run(final List<String> command) throws IOException, InterruptedException
    {
        final Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        if (!process.waitFor(20, TimeUnit.SECONDS))
        {
            process.destroyForcibly();
            throw new IOException(String.join(" ", command) + " did not finish in 20 s");
        }
        return process.exitValue();
    }
}
