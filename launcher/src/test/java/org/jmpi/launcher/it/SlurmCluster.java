package org.jmpi.launcher.it;

import org.junit.jupiter.api.Assumptions;

import java.io.File;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A private Slurm for the Slurm ITs, started by {@code src/test/slurm/slurm-up.sh} in a temporary directory
 * with ports of its own and stopped by {@code slurm-down.sh}: one node (this host), or two nodes as network
 * namespaces whose first is the login node. Commands run through the cluster's {@code login} script, so a test
 * writes {@code srun ...} whatever the shape. Skips (JUnit assumptions) without Linux, root or the packages.
 *
 * <p>Threading: one test thread. Logs: {@code target/it-logs/NAME.out|.err}, the daemons' under
 * {@code target/it-logs/slurm-daemons-N}.
 */
final class SlurmCluster
{
    static final Path SCRIPTS = Path.of("src/test/slurm").toAbsolutePath();

    /** How a command ended. */
    record Run(int exitCode, String stdout, String stderr, long elapsedMs)
    {
        @Override
        public String toString()
        {
            return "exit=" + exitCode + " elapsedMs=" + elapsedMs + "\n--- stdout\n" + stdout + "--- stderr\n" + stderr;
        }
    }

    final Path state;
    final int nodes;
    final Map<String, String> env;

    private SlurmCluster(final Path state, final int nodes)
    {
        this.state = state;
        this.nodes = nodes;
        this.env = Map.of("SLURM_CONF", state.resolve("slurm.conf").toString());
    }

    /** Starts a cluster of {@code nodes} (1 or 2) or skips the test class with the reason. */
    static SlurmCluster start(final int nodes) throws IOException, InterruptedException
    {
        Assumptions.assumeTrue(System.getProperty("os.name").toLowerCase().contains("linux"), "Slurm tests need Linux");
        Assumptions.assumeTrue("root".equals(System.getProperty("user.name")), "Slurm tests need root (slurmd, munged" +
            (nodes > 1 ? ", network namespaces" : "") + "); running as " + System.getProperty("user.name"));
        final SlurmCluster cluster = new SlurmCluster(Files.createTempDirectory("jmpi-slurm-"), nodes);
        final Run up = exec("slurm-up-" + nodes, Map.of(), 300_000, SCRIPTS.resolve("slurm-up.sh").toString(),
            cluster.state.toString(), Integer.toString(freePortPair()), Integer.toString(nodes));
        if (up.exitCode() == 3)
        {
            cluster.stop();
            Assumptions.abort("Slurm tests need slurm-wlm, munge and iproute2, which could not be installed: " + up.stderr());
        }
        if (up.exitCode() != 0)
        {
            cluster.stop();
        }
        assertEquals(0, up.exitCode(), "slurm-up.sh failed: " + up);
        return cluster;
    }

    /** Stops the daemons (and a two-node cluster's namespaces), keeps their logs, removes the state directory. */
    void stop() throws IOException, InterruptedException
    {
        exec("slurm-down-" + nodes, Map.of(), 60_000, SCRIPTS.resolve("slurm-down.sh").toString(), state.toString());
        final Path logs = Jmpirun.LOG_DIR.resolve("slurm-daemons-" + nodes);
        Files.createDirectories(logs);
        if (Files.isDirectory(state.resolve("log")))
        {
            try (var files = Files.list(state.resolve("log")))
            {
                for (final Path log : files.toList())
                {
                    Files.copy(log, logs.resolve(log.getFileName()), StandardCopyOption.REPLACE_EXISTING);
                }
            }
        }
        exec("slurm-rm-" + nodes, Map.of(), 60_000, "rm", "-rf", state.toString());
    }

    /** {@code command} on the login node with SLURM_CONF and {@code extraEnv} set. */
    Run login(final String name, final Map<String, String> extraEnv, final long limitMs, final String... command)
        throws IOException, InterruptedException
    {
        final List<String> full = new ArrayList<>();
        full.add(state.resolve("login").toString());
        full.addAll(List.of(command));
        final Map<String, String> all = new java.util.HashMap<>(env);
        all.putAll(extraEnv);
        return exec(name, all, limitMs, full.toArray(String[]::new));
    }

    /** The java command line of a rank started by srun itself: jmpi's JVM flags, the test and launcher class path. */
    static List<String> rankJava(final List<String> jvmArgs, final String mainClass, final String... args)
    {
        final List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
            "--add-exports", "java.base/jdk.internal.misc=ALL-UNNAMED", "--enable-native-access=ALL-UNNAMED"));
        command.addAll(jvmArgs);
        command.add("-cp");
        command.add(Jmpirun.TEST_CLASSES + File.pathSeparator + Path.of("target/classes").toAbsolutePath() + File.pathSeparator +
            Path.of("target/lib").toAbsolutePath() + File.separator + "*");
        command.add(mainClass);
        command.addAll(List.of(args));
        return command;
    }

    /** Every rank of a {@link SlurmProgram} job of {@code size} ranks printed its line with the right sum. */
    static void assertRanksOk(final int size, final Run run)
    {
        final long sum = (long)size * (size - 1) / 2;
        for (int rank = 0; rank < size; rank++)
        {
            assertTrue(run.stdout().contains("slurm-program: rank " + rank + " of " + size + " on ") && run.stdout().contains("sum=" + sum + " ok"),
                "rank " + rank + " did not complete: " + run);
        }
    }

    static Run exec(final String name, final Map<String, String> env, final long limitMs, final String... command)
        throws IOException, InterruptedException
    {
        Files.createDirectories(Jmpirun.LOG_DIR);
        final Path out = Jmpirun.LOG_DIR.resolve(name + ".out");
        final Path err = Jmpirun.LOG_DIR.resolve(name + ".err");
        final ProcessBuilder builder = new ProcessBuilder(command).redirectOutput(out.toFile()).redirectError(err.toFile())
            .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
        builder.environment().putAll(env);
        final long start = System.nanoTime();
        final Process process = builder.start();
        if (!process.waitFor(limitMs, TimeUnit.MILLISECONDS))
        {
            process.descendants().forEach(ProcessHandle::destroyForcibly);
            process.destroyForcibly().waitFor();
            throw new AssertionError(name + ": " + String.join(" ", command) + " did not end within " + limitMs + " ms; output in " + out);
        }
        return new Run(process.exitValue(), Files.readString(out, StandardCharsets.UTF_8), Files.readString(err, StandardCharsets.UTF_8),
            TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start));
    }

    /** A port p with p + 1 free too (slurmctld and slurmd); best effort, like any ephemeral choice. */
    private static int freePortPair() throws IOException
    {
        for (int attempt = 0; attempt < 50; attempt++)
        {
            try (ServerSocket first = new ServerSocket(0))
            {
                final int port = first.getLocalPort();
                if (port < 65535)
                {
                    try (ServerSocket second = new ServerSocket(port + 1))
                    {
                        return port;
                    }
                    catch (final IOException ex)
                    {
                        // taken: try another
                    }
                }
            }
        }
        throw new IOException("no free pair of ports");
    }
}
