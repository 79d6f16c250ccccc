package org.jmpi.launcher.it;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * Runs bin/jmpirun as a real process for the launcher ITs: output goes to files under target/it-logs
 * (kept for inspection), stdin is given or empty, and a run that outlives its limit is killed with its
 * whole process tree and reported.
 *
 * <p>Threading: one test thread.
 */
final class Jmpirun
{
    /** How a run ended. */
    record Result(int exitCode, String stdout, String stderr, long elapsedMs)
    {
        List<String> stdoutLines()
        {
            return stdout.lines().toList();
        }

        @Override
        public String toString()
        {
            return "exit=" + exitCode + " elapsedMs=" + elapsedMs + "\n--- stdout\n" + stdout + "--- stderr\n" + stderr;
        }
    }

    static final Path SCRIPT = Path.of(System.getProperty("jmpi.jmpirun", "../bin/jmpirun")).toAbsolutePath().normalize();
    static final String TEST_CLASSES = Path.of(System.getProperty("jmpi.testClasses", "target/test-classes")).toAbsolutePath().toString();
    static final Path LOG_DIR = Path.of(System.getProperty("jmpi.itLogDir", "target/it-logs")).toAbsolutePath();
    static final long DEFAULT_LIMIT_MS = 60_000;

    private Jmpirun()
    {
    }

    /** {@code bin/jmpirun args} with the environment as the test JVM's and no stdin. */
    static Result run(final String name, final String... args) throws IOException, InterruptedException
    {
        return run(name, env -> { }, null, DEFAULT_LIMIT_MS, List.of(args));
    }

    /** {@code bin/jmpirun args}; {@code envEditor} may change the environment, {@code stdin} may be null. */
    static Result run(final String name, final Consumer<Map<String, String>> envEditor, final String stdin,
        final long limitMs, final List<String> args) throws IOException, InterruptedException
    {
        Files.createDirectories(LOG_DIR);
        final Path stdoutFile = LOG_DIR.resolve(name + ".out");
        final Path stderrFile = LOG_DIR.resolve(name + ".err");
        final List<String> command = new ArrayList<>();
        command.add(SCRIPT.toString());
        command.addAll(args);
        final ProcessBuilder builder = new ProcessBuilder(command)
            .redirectOutput(stdoutFile.toFile())
            .redirectError(stderrFile.toFile());
        if (stdin == null)
        {
            builder.redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()));
        }
        envEditor.accept(builder.environment());
        final long start = System.nanoTime();
        final Process process = builder.start();
        if (stdin != null)
        {
            try (OutputStream in = process.getOutputStream())
            {
                in.write(stdin.getBytes(StandardCharsets.UTF_8));
            }
        }
        if (!process.waitFor(limitMs, TimeUnit.MILLISECONDS))
        {
            killTree(process.toHandle());
            throw new AssertionError("jmpirun " + args + " still running after " + limitMs + " ms; killed. stdout:\n" +
                Files.readString(stdoutFile) + "\nstderr:\n" + Files.readString(stderrFile));
        }
        final long elapsedMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
        return new Result(process.exitValue(), Files.readString(stdoutFile), Files.readString(stderrFile), elapsedMs);
    }

    /** Kills every process this test JVM started, and theirs; returns how many were still alive. */
    static int killStragglers()
    {
        final List<ProcessHandle> alive = ProcessHandle.current().descendants().filter(ProcessHandle::isAlive).toList();
        alive.forEach(ProcessHandle::destroyForcibly);
        return alive.size();
    }

    private static void killTree(final ProcessHandle root)
    {
        root.descendants().forEach(ProcessHandle::destroyForcibly);
        root.destroyForcibly();
    }

    /** The pids a program printed as {@code pid=N}. */
    static List<Long> pids(final Result result)
    {
        final List<Long> pids = new ArrayList<>();
        for (final String line : result.stdoutLines())
        {
            final int at = line.indexOf("pid=");
            if (at >= 0)
            {
                final String rest = line.substring(at + 4);
                final int end = rest.indexOf(' ');
                pids.add(Long.parseLong(end < 0 ? rest : rest.substring(0, end)));
            }
        }
        return pids;
    }

    /** Waits briefly for each pid to be gone; fails naming the survivors. */
    static void assertAllGone(final List<Long> pids) throws InterruptedException
    {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(2);
        for (final long pid : pids)
        {
            while (ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false))
            {
                if (System.nanoTime() - deadline > 0)
                {
                    throw new AssertionError("rank process " + pid + " is still alive after jmpirun exited");
                }
                Thread.sleep(20);
            }
        }
    }
}
