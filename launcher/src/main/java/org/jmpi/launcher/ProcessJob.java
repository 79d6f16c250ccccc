package org.jmpi.launcher;

import org.jmpi.internal.runtime.JvmFlags;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/**
 * A job of one JVM per rank on this node: starts the ranks, forwards their output line by line and the
 * launcher's stdin to rank 0, and supervises them. The first rank to fail (nonzero exit, a signal,
 * exit after init without finalize, abort, or the job's timeout) decides the exit code; the launcher
 * then stops the others (SIGTERM, SIGKILL after {@link #KILL_GRACE_MS}) and removes the job's
 * /dev/shm files, also when the launcher itself is interrupted.
 *
 * <p>Threading: {@link #run} on one thread; process exits and aborts arrive from other threads as
 * events on a queue that only {@link #run} consumes.
 */
final class ProcessJob
{
    /** Between SIGTERM and SIGKILL when stopping ranks. */
    static final long KILL_GRACE_MS = 2_000;
    /** Exit code of a job stopped by {@code --timeout} (as timeout(1)). */
    static final int TIMEOUT_EXIT_CODE = 124;
    /** Exit code when a rank exits 0 after init without finalize. */
    static final int NO_FINALIZE_EXIT_CODE = 1;
    private static final long STOP_WAIT_MS = 10_000;
    private static final long OUTPUT_DRAIN_MS = 2_000;

    private sealed interface Event permits Exited, Aborted
    {
    }

    private record Exited(int rank, long pid, int exitCode) implements Event
    {
    }

    private record Aborted(int rank, int exitCode, String message) implements Event
    {
    }

    private final LaunchOptions options;
    private final LineSink out;
    private final LineSink err;
    private final InputStream stdin;
    private final List<String> jmpiClassPath;
    private final Function<BootstrapService.Listener, BootstrapService> bootstrapFactory;
    private final LinkedBlockingQueue<Event> events = new LinkedBlockingQueue<>();
    private final List<Process> processes = new ArrayList<>();
    private final List<StreamForwarder> forwarders = new ArrayList<>();
    private BootstrapService bootstrap;
    private volatile Map<String, String> resolvedExports = Map.of();
    private boolean cleanedUp;
    /** Set by the shutdown hook: exits from now on are the hook's doing and not reported. */
    private volatile boolean interrupted;

    /**
     * @param jmpiClassPath the class path of jmpi itself (the launcher's), appended to the user's
     * @param bootstrapFactory opens the job's bootstrap service, reporting aborts to the listener
     */
    ProcessJob(final LaunchOptions options, final LineSink out, final LineSink err, final InputStream stdin,
        final List<String> jmpiClassPath, final Function<BootstrapService.Listener, BootstrapService> bootstrapFactory)
    {
        this.options = options;
        this.out = out;
        this.err = err;
        this.stdin = stdin;
        this.jmpiClassPath = jmpiClassPath;
        this.bootstrapFactory = bootstrapFactory;
    }

    /** The command line that starts one rank JVM. */
    List<String> command()
    {
        final List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(JvmFlags.FLAGS);
        command.addAll(options.jvmArgs());
        options.params().forEach((name, value) -> command.add("-D" + name + "=" + value));
        final List<String> classPath = new ArrayList<>(options.classPath());
        classPath.addAll(jmpiClassPath);
        command.add("-cp");
        command.add(String.join(File.pathSeparator, classPath));
        command.add(options.mainClass());
        command.addAll(options.appArgs());
        return command;
    }

    /** Runs the job to its end and returns the launcher's exit code. */
    int run()
    {
        try
        {
            bootstrap = bootstrapFactory.apply((rank, code, message) -> events.add(new Aborted(rank, code, message)));
        }
        catch (final RuntimeException ex)
        {
            // A malformed jmpi.bootstrap.* parameter, or no port to bind: nothing has started yet.
            err.println("jmpirun: cannot start the bootstrap service: " + ex.getMessage());
            return 1;
        }
        final Thread hook = new Thread(this::onShutdown, "jmpirun-shutdown");
        Runtime.getRuntime().addShutdownHook(hook);
        try
        {
            if (!startRanks())
            {
                stopAll();
                awaitAll(System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(STOP_WAIT_MS));
                return 1;
            }
            return supervise();
        }
        finally
        {
            drainOutput();
            cleanUp();
            try
            {
                Runtime.getRuntime().removeShutdownHook(hook);
            }
            catch (final IllegalStateException ex)
            {
                // Already shutting down: the hook is running or has run.
            }
        }
    }

    private boolean startRanks()
    {
        final List<String> command = command();
        final Map<String, String> exports = resolveExports();
        resolvedExports = exports;
        for (int rank = 0; rank < options.rankCount(); rank++)
        {
            final ProcessBuilder builder = new ProcessBuilder(command);
            builder.environment().putAll(exports);
            builder.environment().putAll(bootstrap.rankEnvironment(rank));
            final Process process;
            try
            {
                synchronized (this)
                {
                    if (cleanedUp)
                    {
                        return false;
                    }
                    process = builder.start();
                    processes.add(process);
                }
            }
            catch (final IOException ex)
            {
                err.println("jmpirun: cannot start rank " + rank + " (" + command.get(0) + "): " + ex.getMessage());
                return false;
            }
            final byte[] prefix = options.tagOutput() ? LineSink.tag(rank) : new byte[0];
            forwarders.add(StreamForwarder.start(process.getInputStream(), out, prefix, "jmpirun-stdout-" + rank));
            forwarders.add(StreamForwarder.start(process.getErrorStream(), err, prefix, "jmpirun-stderr-" + rank));
            if (rank == 0)
            {
                startStdinPump(process.getOutputStream());
            }
            else
            {
                closeQuietly(process.getOutputStream());
            }
            final int r = rank;
            final long pid = process.pid();
            process.onExit().thenAccept(p -> events.add(new Exited(r, pid, p.exitValue())));
        }
        return true;
    }

    /**
     * 1. Take events until every rank has exited.
     * 2. The first failure (nonzero exit or signal, exit without finalize after init, abort, timeout)
     *    fixes the exit code, is reported, and stops the other ranks; later exits are not reported.
     * 3. Once stopping, wait at most {@link #STOP_WAIT_MS} for the exits.
     */
    private int supervise()
    {
        final long timeoutDeadline = options.timeoutNs() > 0 ? System.nanoTime() + options.timeoutNs() : Long.MAX_VALUE;
        long stopDeadline = Long.MAX_VALUE;
        int running = options.rankCount();
        int exitCode = 0;
        boolean failed = false;
        while (running > 0)
        {
            final long now = System.nanoTime();
            final long deadline = failed ? stopDeadline : timeoutDeadline;
            if (deadline != Long.MAX_VALUE && now - deadline >= 0)
            {
                if (failed)
                {
                    err.println("jmpirun: " + running + " rank(s) did not stop; giving up on them");
                    break;
                }
                err.println("jmpirun: job timed out after " + LaunchOptions.formatSeconds(options.timeoutNs()) + " s; stopping " +
                    running + " rank(s)");
                exitCode = TIMEOUT_EXIT_CODE;
                failed = true;
                bootstrap.fail("the job timed out");
                stopAll();
                stopDeadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(STOP_WAIT_MS);
                continue;
            }
            final Event event;
            try
            {
                event = deadline == Long.MAX_VALUE ? events.take() : events.poll(deadline - now, TimeUnit.NANOSECONDS);
            }
            catch (final InterruptedException ex)
            {
                Thread.currentThread().interrupt();
                stopAll();
                return 1;
            }
            if (event == null)
            {
                continue;
            }
            if (event instanceof Exited exited)
            {
                running--;
                final String how = ExitStatus.describe(exited.exitCode());
                final boolean noFinalize = exited.exitCode() == 0 && bootstrap.initialized(exited.rank()) && !bootstrap.finalized(exited.rank());
                bootstrap.rankExited(exited.rank(), noFinalize ? how + " after init without finalize" : how);
                if (!failed && !interrupted && (exited.exitCode() != 0 || noFinalize))
                {
                    failed = true;
                    exitCode = exited.exitCode() != 0 ? exited.exitCode() : NO_FINALIZE_EXIT_CODE;
                    err.println("jmpirun: rank " + exited.rank() + " (pid " + exited.pid() + ") " + how +
                        (noFinalize ? " after init without finalize" : "") + (running > 0 ? "; stopping the job" : ""));
                    stopAll();
                    stopDeadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(STOP_WAIT_MS);
                }
            }
            else if (event instanceof Aborted aborted && !failed)
            {
                failed = true;
                exitCode = aborted.exitCode();
                err.println("jmpirun: rank " + aborted.rank() + " called abort with code " + aborted.exitCode() + ": " + aborted.message());
                stopAll();
                stopDeadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(STOP_WAIT_MS);
            }
        }
        return exitCode;
    }

    /** SIGTERM to every live rank and its descendants now, SIGKILL to the survivors after the grace period. */
    private void stopAll()
    {
        final List<ProcessHandle> targets = new ArrayList<>();
        synchronized (this)
        {
            for (final Process process : processes)
            {
                if (process.isAlive())
                {
                    process.descendants().forEach(targets::add);
                    targets.add(process.toHandle());
                }
            }
        }
        if (targets.isEmpty())
        {
            return;
        }
        targets.forEach(ProcessHandle::destroy);
        Thread.ofPlatform().daemon().name("jmpirun-killer").start(() ->
        {
            final long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(KILL_GRACE_MS);
            for (final ProcessHandle target : targets)
            {
                final long leftMs = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
                try
                {
                    target.onExit().get(Math.max(1, leftMs), TimeUnit.MILLISECONDS);
                }
                catch (final Exception ex)
                {
                    target.destroyForcibly();
                }
            }
        });
    }

    private void awaitAll(final long deadlineNs)
    {
        for (final Process process : snapshot())
        {
            try
            {
                process.waitFor(Math.max(1, deadlineNs - System.nanoTime()), TimeUnit.NANOSECONDS);
            }
            catch (final InterruptedException ex)
            {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    /** Shutdown hook: jmpirun got SIGINT or SIGTERM (or exits): stop the ranks and clean up. */
    private void onShutdown()
    {
        final boolean anyAlive = snapshot().stream().anyMatch(Process::isAlive);
        if (anyAlive)
        {
            interrupted = true;
            err.println("jmpirun: interrupted; stopping the job");
            if (bootstrap != null)
            {
                bootstrap.fail("the launcher was interrupted");
            }
            stopAll();
            awaitAll(System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(KILL_GRACE_MS + 1_000));
            for (final Process process : snapshot())
            {
                process.destroyForcibly();
            }
        }
        cleanUp();
    }

    private synchronized List<Process> snapshot()
    {
        return List.copyOf(processes);
    }

    private void drainOutput()
    {
        final long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(OUTPUT_DRAIN_MS);
        for (final StreamForwarder forwarder : forwarders)
        {
            try
            {
                forwarder.await(TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime()));
            }
            catch (final InterruptedException ex)
            {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    /**
     * Removes the job's shm files and closes the bootstrap, once. Holds the lock throughout, so the
     * shutdown hook cannot return (and the JVM halt) while the main thread is half-way through.
     */
    private synchronized void cleanUp()
    {
        if (cleanedUp)
        {
            return;
        }
        cleanedUp = true;
        if (bootstrap != null)
        {
            final Map<String, String> rankEnv = new HashMap<>(System.getenv());
            rankEnv.putAll(resolvedExports);
            JobCleanup.run(options.params(), rankEnv, bootstrap.jobId());
            bootstrap.close();
        }
    }

    private Map<String, String> resolveExports()
    {
        final Map<String, String> resolved = new LinkedHashMap<>();
        options.exports().forEach((name, value) ->
        {
            final String actual = value != null ? value : System.getenv(name);
            if (actual == null)
            {
                err.println("jmpirun: warning: -x " + name + ": not set in jmpirun's environment; not exported");
            }
            else
            {
                resolved.put(name, actual);
            }
        });
        return resolved;
    }

    private void startStdinPump(final OutputStream rankStdin)
    {
        Thread.ofPlatform().daemon().name("jmpirun-stdin").start(() ->
        {
            final byte[] buffer = new byte[8192];
            try (rankStdin)
            {
                int read;
                while ((read = stdin.read(buffer)) >= 0)
                {
                    rankStdin.write(buffer, 0, read);
                    rankStdin.flush();
                }
            }
            catch (final IOException ex)
            {
                // Rank 0 exited or closed its stdin: nothing more to deliver.
            }
        });
    }

    private static void closeQuietly(final OutputStream stream)
    {
        try
        {
            stream.close();
        }
        catch (final IOException ex)
        {
            // The rank may already be gone.
        }
    }
}
