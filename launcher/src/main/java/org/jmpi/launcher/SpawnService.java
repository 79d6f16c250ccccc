package org.jmpi.launcher;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

import org.jmpi.internal.bootstrap.BootstrapEnv;
import org.jmpi.internal.bootstrap.SpawnWire;
import org.jmpi.spi.Params;

/**
 * jmpirun's side of MPI_Comm_spawn (docs/compat.md, "Dynamic processes"): a rank's SPAWN request starts the children
 * as a new job on this node.
 * <ol>
 * <li>Decode and check the request (the "host" info key must name this node).</li>
 * <li>Open a bootstrap server for the joint job: the children are its ranks {@code 0 .. children - 1} (their world,
 * {@link BootstrapEnv#SPAWN_WORLD_ENV_NAME}), the parents the ranks after them. It serves SPAWN too, so children can
 * spawn in turn.</li>
 * <li>Start one JVM per child: the job's JVM options, parameters and exports, jmpi's class path then the command's
 * (or the job's), the command's main class and arguments, in the "wdir" directory if given. The {@link Job} supervises
 * them as it does its ranks: a child that fails ends the whole job with its exit code.</li>
 * <li>Answer with the joint job's id, address and the parents' tickets; or, when anything failed before a child ran,
 * why (no child is left running then).</li>
 * </ol>
 *
 * <p>Threading: any thread (each request on its bootstrap connection's thread); requests are served one at a time.
 */
final class SpawnService
{
    /** What the job running the parents does with the children. */
    interface Job
    {
        /** Starts {@code builder}'s process as a child (killed with the job, supervised as its ranks); false once the job ended. */
        Process start(ProcessBuilder builder, String name, BootstrapServer server, int rank) throws IOException;

        /** Takes the joint job's bootstrap server, to fail and close with the job and clean its files. */
        void adopt(BootstrapServer server);

        /** A rank of the joint job asked to abort the job. */
        void onAbort(int rank, int exitCode, String message);
    }

    private final LaunchOptions options;
    private final List<String> jmpiClassPath;
    private final Supplier<Map<String, String>> exports;
    private final Job job;

    SpawnService(final LaunchOptions options, final List<String> jmpiClassPath, final Supplier<Map<String, String>> exports, final Job job)
    {
        this.options = options;
        this.jmpiClassPath = jmpiClassPath;
        this.exports = exports;
        this.job = job;
    }

    /** Serves one SPAWN request: the encoded {@link SpawnWire.Reply}. */
    synchronized byte[] spawn(final int requester, final byte[] encodedRequest)
    {
        final SpawnWire.Request request;
        try
        {
            request = SpawnWire.Request.decode(encodedRequest);
        }
        catch (final IllegalArgumentException ex)
        {
            return SpawnWire.Reply.failed(ex.getMessage()).encode();
        }
        for (final SpawnWire.App app : request.apps())
        {
            if (app.mainClass().isBlank() || app.mainClass().startsWith("-"))
            {
                return SpawnWire.Reply.failed("'" + app.mainClass() + "' is not a main class").encode();
            }
            if (app.count() < 1)
            {
                return SpawnWire.Reply.failed("maxprocs " + app.count() + " for " + app.mainClass()).encode();
            }
            if (!app.host().isEmpty() && !Hosts.isLocal(app.host()))
            {
                return SpawnWire.Reply.failed("info host=" + app.host() + ": children start on the launcher's node only").encode();
            }
        }
        final int children = request.children();
        final int size = children + request.parents();
        final BootstrapServer server;
        try
        {
            server = BootstrapServer.start(size, BootstrapEnv.newJobId(), job::onAbort,
                BootstrapServer.Config.loopback(new Params(options.params())), System.err::println);
        }
        catch (final RuntimeException ex)
        {
            return SpawnWire.Reply.failed("cannot open the children's bootstrap service: " + ex.getMessage()).encode();
        }
        server.onSpawn(this::spawn);
        job.adopt(server);
        final List<Process> started = new ArrayList<>();
        int rank = 0;
        for (final SpawnWire.App app : request.apps())
        {
            for (int k = 0; k < app.count(); k++, rank++)
            {
                final ProcessBuilder builder = new ProcessBuilder(command(app));
                builder.environment().putAll(exports.get());
                builder.environment().putAll(server.rankEnvironment(rank));
                builder.environment().put(BootstrapEnv.SPAWN_WORLD_ENV_NAME, Integer.toString(children));
                if (!app.wdir().isEmpty())
                {
                    builder.directory(new File(app.wdir()));
                }
                try
                {
                    started.add(job.start(builder, "spawned rank " + rank + " of job " + server.jobId() + " (" + app.mainClass() + ", from rank " +
                        requester + ")", server, rank));
                }
                catch (final IOException | RuntimeException ex)
                {
                    server.fail("spawn failed: " + ex.getMessage());
                    started.forEach(Process::destroyForcibly);
                    return SpawnWire.Reply.failed("cannot start child " + rank + " (" + app.mainClass() + "): " + ex.getMessage()).encode();
                }
            }
        }
        final List<String> tickets = new ArrayList<>();
        for (int parent = children; parent < size; parent++)
        {
            tickets.add(server.rankEnvironment(parent).get(BootstrapEnv.TICKET_ENV_NAME));
        }
        return new SpawnWire.Reply(true, "", server.jobId(), server.rankEnvironment(children).get(BootstrapEnv.BOOTSTRAP_ENV_NAME), size,
            tickets).encode();
    }

    /** A child's command line: as a rank's ({@link RankCommands#rank}) with the app's options, class path and main class. */
    List<String> command(final SpawnWire.App app)
    {
        final List<String> command = RankCommands.java(options);
        command.addAll(app.jvmArgs());
        // Absolute: a child may run in another directory (info "wdir").
        final List<String> classPath = new ArrayList<>();
        for (final String entry : jmpiClassPath)
        {
            classPath.add(Path.of(entry).toAbsolutePath().toString());
        }
        for (final String entry : app.classPath().isEmpty() ? options.classPath() : app.classPath())
        {
            classPath.add(Path.of(entry.isEmpty() ? "." : entry).toAbsolutePath().toString());
        }
        command.add("-cp");
        command.add(String.join(File.pathSeparator, classPath));
        command.add(app.mainClass());
        command.addAll(app.args());
        return command;
    }

    /** The output prefix of a child with {@code --tag-output}. */
    static byte[] tag(final String jobId, final int rank)
    {
        return ("[" + jobId.substring(0, Math.min(6, jobId.length())) + "." + rank + "] ").getBytes(StandardCharsets.UTF_8);
    }
}
