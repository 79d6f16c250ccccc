package org.jmpi.launcher;

import org.jmpi.internal.bootstrap.BootstrapEnv;
import org.jmpi.internal.bootstrap.BootstrapParams;
import org.jmpi.spi.Params;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
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
    /** Exit code when a remote rank's heartbeat stops. */
    static final int LOST_EXIT_CODE = 1;
    /** Exit code when a rank exits 0 after init without finalize. */
    static final int NO_FINALIZE_EXIT_CODE = 1;
    private static final long STOP_WAIT_MS = 10_000;
    private static final long OUTPUT_DRAIN_MS = 2_000;
    /** How often the liveness of remote ranks is checked. */
    private static final long LIVENESS_POLL_NS = TimeUnit.MILLISECONDS.toNanos(200);
    /** Longest wait for the cleanup of remote hosts at the end of a failed job. */
    private static final long REMOTE_CLEANUP_MS = 5_000;

    private sealed interface Event permits Exited, Aborted, ChildStarted, ChildExited
    {
    }

    /** A spawned rank (MPI_Comm_spawn, {@link SpawnService}) started: the job runs until it ends too. */
    private record ChildStarted() implements Event
    {
    }

    private record ChildExited(String name, long pid, int exitCode, BootstrapServer server, int rank) implements Event
    {
    }

    private record Exited(int unit, int exitCode) implements Event
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
    /** The bootstrap servers of spawned jobs: closed, and their files removed, with the job's. */
    private final List<BootstrapServer> spawnedJobs = new ArrayList<>();
    private BootstrapService bootstrap;
    private volatile Map<String, String> resolvedExports = Map.of();
    /** The processes and the ranks each carries; which ranks run on other hosts. */
    private final JobUnits units;
    /** Per unit: "pid N[ on HOST]". */
    private final String[] pids;
    private boolean cleanedUp;
    /** Set by the shutdown hook: exits from now on are the hook's doing and not reported. */
    private volatile boolean interrupted;

    /**
     * @param jmpiClassPath the class path of jmpi itself (the launcher's), before the user's
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
        this.units = new JobUnits(options);
        this.pids = new String[units.count()];
    }

    /** The heartbeat timeout of remote ranks ({@code jmpi.bootstrap.heartbeat.timeout}). */
    private long heartbeatMs()
    {
        return new Params(options.params()).getLong(BootstrapParams.HEARTBEAT_TIMEOUT);
    }

    /** The command line that starts one rank JVM. */
    List<String> command()
    {
        return RankCommands.rank(options, jmpiClassPath);
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
        bootstrap.onSpawn(new SpawnService(options, jmpiClassPath, () -> resolvedExports, new Spawned())::spawn);
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

    /**
     * Starts one process per unit: a rank JVM, or with {@code --threads} across hosts a {@link HostJob}
     * JVM carrying the ranks of one host as threads. A unit on another host goes through the launch
     * agent and gets its tickets on stdin, one line per rank, and a heartbeat; stdin then continues
     * with the launcher's own for the unit holding rank 0.
     */
    private boolean startRanks()
    {
        final Map<String, String> exports = resolveExports();
        resolvedExports = exports;
        final LaunchOptions.Placement placement = options.placement();
        final boolean hybrid = placement != null && options.threads();
        final List<String> command = hybrid ? RankCommands.hostJob(options, jmpiClassPath) : command();
        final int[] allowedCpus = CpuBinding.allowedCpus();
        final int[] cpus = CpuBinding.plan(hybrid ? CpuBinding.NONE : options.bindTo(), units.localCount(), allowedCpus);
        final String taskset = cpus.length > 0 && cpus[0] >= 0 ? CpuBinding.taskset() : null;
        int localUnit = 0;
        for (int unit = 0; unit < units.count(); unit++)
        {
            final int first = units.ranks(unit)[0];
            final Map<String, String> rankEnv = new LinkedHashMap<>(bootstrap.rankEnvironment(first));
            final List<String> tickets = new ArrayList<>();
            if (placement != null)
            {
                rankEnv.put(BootstrapEnv.NODE_ENV_NAME, placement.host(first));
            }
            if (hybrid)
            {
                rankEnv.remove(BootstrapEnv.RANK_ENV_NAME);
                rankEnv.remove(BootstrapEnv.TICKET_ENV_NAME);
                rankEnv.put(HostJob.RANKS_ENV_NAME, units.rankList(unit));
                for (final int rank : units.ranks(unit))
                {
                    tickets.add(bootstrap.rankEnvironment(rank).get(BootstrapEnv.TICKET_ENV_NAME));
                }
            }
            else if (units.remote(first))
            {
                tickets.add(rankEnv.remove(BootstrapEnv.TICKET_ENV_NAME));
            }
            final ProcessBuilder builder;
            if (units.remote(first))
            {
                rankEnv.remove(BootstrapEnv.LAUNCHER_PID_ENV_NAME);
                rankEnv.put(BootstrapEnv.HEARTBEAT_ENV_NAME, Long.toString(heartbeatMs()));
                final Map<String, String> scriptEnv = new LinkedHashMap<>(exports);
                scriptEnv.putAll(rankEnv);
                builder = new ProcessBuilder(placement.launchAgent().command(placement.host(first), LaunchAgent.script(
                    System.getProperty("user.dir"), hybrid ? null : BootstrapEnv.TICKET_ENV_NAME, scriptEnv, command)));
            }
            else
            {
                builder = new ProcessBuilder(CpuBinding.bound(command, cpus[localUnit++], allowedCpus.length, taskset));
                builder.environment().putAll(exports);
                builder.environment().putAll(rankEnv);
            }
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
                err.println("jmpirun: cannot start " + units.name(unit) + " (" + builder.command().get(0) + "): " + ex.getMessage());
                return false;
            }
            pids[unit] = "pid " + process.pid() + (placement == null ? "" : " on " + placement.host(first));
            if (!tickets.isEmpty() && !sendTickets(process, tickets, unit))
            {
                return false;
            }
            final byte[] prefix = !options.tagOutput() ? new byte[0] :
                units.ranks(unit).length == 1 ? LineSink.tag(first) : ("[" + units.rankList(unit) + "] ").getBytes(StandardCharsets.UTF_8);
            synchronized (forwarders)
            {
                forwarders.add(StreamForwarder.start(process.getInputStream(), out, prefix, "jmpirun-stdout-" + first));
                forwarders.add(StreamForwarder.start(process.getErrorStream(), err, prefix, "jmpirun-stderr-" + first));
            }
            if (first == 0)
            {
                startStdinPump(process.getOutputStream());
            }
            else
            {
                closeQuietly(process.getOutputStream());
            }
            final int u = unit;
            process.onExit().thenAccept(p -> events.add(new Exited(u, p.exitValue())));
        }
        return true;
    }

    /** A remote rank reads its ticket from the first line of its stdin (never on a command line); a HostJob one per rank. */
    private boolean sendTickets(final Process process, final List<String> tickets, final int unit)
    {
        try
        {
            process.getOutputStream().write((String.join("\n", tickets) + "\n").getBytes(StandardCharsets.US_ASCII));
            process.getOutputStream().flush();
            return true;
        }
        catch (final IOException ex)
        {
            err.println("jmpirun: cannot hand " + units.name(unit) + " its ticket(s): " + ex.getMessage());
            return false;
        }
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
        int running = units.count();
        int exitCode = 0;
        boolean failed = false;
        final boolean watchRemote = units.anyRemote();
        final long heartbeatMs = heartbeatMs();
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
            if (!failed && watchRemote)
            {
                final int silent = bootstrap.silentRank(TimeUnit.MILLISECONDS.toNanos(heartbeatMs));
                if (silent >= 0)
                {
                    failed = true;
                    exitCode = LOST_EXIT_CODE;
                    err.println("jmpirun: rank " + silent + " (" + pids[units.unitOf(silent)] + ") lost: no heartbeat for " + heartbeatMs +
                        " ms (host down or unreachable?); stopping the job");
                    bootstrap.fail("rank " + silent + " on " + options.placement().host(silent) + " lost (no heartbeat for " +
                        heartbeatMs + " ms)");
                    stopAll();
                    stopDeadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(STOP_WAIT_MS);
                    continue;
                }
            }
            final Event event;
            try
            {
                final long waitNs = deadline == Long.MAX_VALUE ? LIVENESS_POLL_NS :
                    watchRemote && !failed ? Math.min(LIVENESS_POLL_NS, deadline - now) : deadline - now;
                event = deadline == Long.MAX_VALUE && !(watchRemote && !failed) ? events.take() : events.poll(waitNs, TimeUnit.NANOSECONDS);
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
                boolean noFinalize = false;
                for (final int rank : units.ranks(exited.unit()))
                {
                    final boolean unfinished = exited.exitCode() == 0 && bootstrap.initialized(rank) && !bootstrap.finalized(rank);
                    noFinalize |= unfinished;
                    bootstrap.rankExited(rank, unfinished ? how + " after init without finalize" : how);
                }
                if (!failed && !interrupted && (exited.exitCode() != 0 || noFinalize))
                {
                    failed = true;
                    exitCode = exited.exitCode() != 0 ? exited.exitCode() : NO_FINALIZE_EXIT_CODE;
                    err.println("jmpirun: " + units.name(exited.unit()) + " (" + pids[exited.unit()] + ") " + how +
                        (noFinalize ? " after init without finalize" : "") + (running > 0 ? "; stopping the job" : ""));
                    stopAll();
                    stopDeadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(STOP_WAIT_MS);
                }
            }
            else if (event instanceof ChildStarted)
            {
                running++;
            }
            else if (event instanceof ChildExited child)
            {
                running--;
                final String how = ExitStatus.describe(child.exitCode());
                final boolean noFinalize = child.exitCode() == 0 && child.server().initialized(child.rank()) &&
                    !child.server().finalized(child.rank());
                child.server().rankExited(child.rank(), noFinalize ? how + " after init without finalize" : how);
                if (!failed && !interrupted && (child.exitCode() != 0 || noFinalize))
                {
                    failed = true;
                    exitCode = child.exitCode() != 0 ? child.exitCode() : NO_FINALIZE_EXIT_CODE;
                    err.println("jmpirun: " + child.name() + " (pid " + child.pid() + ") " + how + (noFinalize ? " after init without finalize" : "") +
                        (running > 0 ? "; stopping the job" : ""));
                    bootstrap.fail(child.name() + " " + how);
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
        final List<StreamForwarder> all;
        synchronized (forwarders)
        {
            all = List.copyOf(forwarders);
        }
        for (final StreamForwarder forwarder : all)
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
            for (final BootstrapServer spawned : spawnedJobs)
            {
                JobCleanup.run(options.params(), rankEnv, spawned.jobId());
                spawned.close();
            }
            cleanUpRemoteHosts();
            bootstrap.close();
        }
    }

    /**
     * Runs {@link JobCleanup} through the launch agent on every remote host where a rank started but
     * did not complete init (a rank that completed it has seen the node's shared-memory file unlinked),
     * all hosts at once, waiting at most {@link #REMOTE_CLEANUP_MS}.
     */
    private void cleanUpRemoteHosts()
    {
        final LaunchOptions.Placement placement = options.placement();
        if (placement == null)
        {
            return;
        }
        final java.util.Set<String> hosts = new java.util.LinkedHashSet<>();
        for (int rank = 0; rank < units.rankCount(); rank++)
        {
            if (units.remote(rank) && pids[units.unitOf(rank)] != null && !bootstrap.initialized(rank))
            {
                hosts.add(placement.host(rank));
            }
        }
        final List<Process> cleaners = new ArrayList<>();
        for (final String host : hosts)
        {
            final List<String> java = RankCommands.cleanup(options, jmpiClassPath, bootstrap.jobId());
            final ProcessBuilder builder = new ProcessBuilder(placement.launchAgent().command(host,
                LaunchAgent.script(System.getProperty("user.dir"), null, resolvedExports, java)));
            builder.redirectOutput(ProcessBuilder.Redirect.DISCARD).redirectErrorStream(true).redirectInput(ProcessBuilder.Redirect.PIPE);
            try
            {
                final Process cleaner = builder.start();
                cleaner.getOutputStream().close();
                cleaners.add(cleaner);
            }
            catch (final IOException ex)
            {
                err.println("jmpirun: warning: cannot clean up job " + bootstrap.jobId() + " on " + host + ": " + ex.getMessage());
            }
        }
        final long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(REMOTE_CLEANUP_MS);
        for (final Process cleaner : cleaners)
        {
            try
            {
                if (!cleaner.waitFor(Math.max(1, deadline - System.nanoTime()), TimeUnit.NANOSECONDS))
                {
                    cleaner.destroyForcibly();
                }
            }
            catch (final InterruptedException ex)
            {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    /** How spawned ranks join this job: started, killed and cleaned up with its ranks, their failure ending it. */
    private final class Spawned implements SpawnService.Job
    {
        @Override
        public Process start(final ProcessBuilder builder, final String name, final BootstrapServer server, final int rank) throws IOException
        {
            final Process process;
            synchronized (ProcessJob.this)
            {
                if (cleanedUp)
                {
                    throw new IOException("the job has ended");
                }
                process = builder.start();
                processes.add(process);
                events.add(new ChildStarted());
            }
            final byte[] prefix = options.tagOutput() ? SpawnService.tag(server.jobId(), rank) : new byte[0];
            synchronized (forwarders)
            {
                forwarders.add(StreamForwarder.start(process.getInputStream(), out, prefix, "jmpirun-stdout-spawned-" + rank));
                forwarders.add(StreamForwarder.start(process.getErrorStream(), err, prefix, "jmpirun-stderr-spawned-" + rank));
            }
            closeQuietly(process.getOutputStream());
            process.onExit().thenAccept(p -> events.add(new ChildExited(name, p.pid(), p.exitValue(), server, rank)));
            return process;
        }

        @Override
        public void adopt(final BootstrapServer server)
        {
            synchronized (ProcessJob.this)
            {
                spawnedJobs.add(server);
            }
        }

        @Override
        public void onAbort(final int rank, final int exitCode, final String message)
        {
            events.add(new Aborted(rank, exitCode, "(a spawned job) " + message));
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
