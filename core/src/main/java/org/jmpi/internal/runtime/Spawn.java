package org.jmpi.internal.runtime;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;

import org.jmpi.Datatype;
import org.jmpi.ErrorClass;
import org.jmpi.Info;
import org.jmpi.MpiException;
import org.jmpi.internal.bootstrap.SpawnWire;
import org.jmpi.internal.bootstrap.TcpBootstrap;
import org.jmpi.internal.coll.Collectives;
import org.jmpi.internal.comm.Ports;
import org.jmpi.internal.pt2pt.CommState;

/**
 * MPI_Comm_spawn and MPI_Comm_spawn_multiple (MPI 4.1 §11.3) through the launcher (docs/compat.md, "Dynamic
 * processes").
 * <ol>
 * <li>The root checks the commands (a main class on the job's class path, or {@code java} with java's arguments),
 * {@code maxprocs} and the info keys, and asks the launcher over its bootstrap connection (a SPAWN request) to start
 * the children as a new job whose bootstrap has room for the parents after them.</li>
 * <li>The root broadcasts the outcome (and the new job's bootstrap, or why it failed) in its group; a failure fails
 * every member alike, with {@code errcodes} set to ERR_SPAWN.</li>
 * <li>Every parent joins the new job's bootstrap as one of its last ranks and opens a runtime there
 * ({@link RankRuntime#joined}: transports, protocol, engine of its own), while the children run their init.</li>
 * <li>Parents (the joint job's ranks after the children) and children (its world) agree two context-id pairs, the
 * leaders (rank 0 of each group) combining over the control communicator ({@link Ports#agree}); each side builds
 * its intercommunicator on them: the parents' result, the children's {@code parent()}.</li>
 * </ol>
 * A job not started by jmpirun in process mode (a singleton, ranks as threads, srun) cannot spawn: ERR_SPAWN.
 *
 * <p>Stateless; any thread.
 */
public final class Spawn
{
    /** How long the root waits for the launcher to start the children's JVMs. */
    private static final long LAUNCH_TIMEOUT_NS = TimeUnit.SECONDS.toNanos(120);
    private static final int OK = 0;

    private Spawn()
    {
    }

    /** One command of a spawn, as the program gave it (significant at the root only). */
    public record Command(String command, String[] argv, int maxprocs, Info info)
    {
    }

    /**
     * The parents' side, collective over {@code parents}: see the class comment.
     *
     * @param commands significant at {@code root} only.
     * @param rootFailure when not null, the root's check of the arguments failed already: every member throws it.
     * @param errcodes {@code null}, or at least as long as the children: SUCCESS (0) per child, or ERR_SPAWN for all.
     * @return the intercommunicator's agreed contexts, on the world of the joint job's runtime (the parents' group).
     * @throws MpiException ERR_ROOT, ERR_ARG (maxprocs below 1, too short errcodes), ERR_SPAWN (the command cannot
     *                      run, the job cannot spawn, the launcher could not start the children), on every member.
     */
    public static Ports.Joined spawn(final String call, final CommState parents, final List<Command> commands, final MpiException rootFailure,
        final int root, final int[] errcodes)
    {
        if (root < 0 || root >= parents.size())
        {
            throw new MpiException(ErrorClass.ERR_ROOT, call + ": invalid root " + root + " (communicator size " + parents.size() + ")");
        }
        final RankRuntime runtime = parents.services().component(RankRuntime.class);
        byte[] payload = new byte[0];
        int status = OK;
        if (parents.rank() == root)
        {
            try
            {
                if (rootFailure != null)
                {
                    throw rootFailure;
                }
                final SpawnWire.Request request = new SpawnWire.Request(parents.size(), apps(call, commands));
                if (errcodes != null && errcodes.length < request.children())
                {
                    throw new MpiException(ErrorClass.ERR_ARG, call + ": errcodes has " + errcodes.length + " entries, " +
                        request.children() + " children are asked for");
                }
                if (!(runtime.bootstrap() instanceof TcpBootstrap tcp))
                {
                    throw new MpiException(ErrorClass.ERR_SPAWN, call + ": this job cannot start processes: spawn needs ranks started by " +
                        "bin/jmpirun as processes (not a singleton, not --threads, not srun); bootstrap: " +
                        runtime.bootstrap().getClass().getSimpleName());
                }
                final SpawnWire.Reply reply = tcp.spawn(request, LAUNCH_TIMEOUT_NS);
                if (!reply.ok())
                {
                    throw new MpiException(ErrorClass.ERR_SPAWN, call + ": the launcher did not start the children: " + reply.message());
                }
                payload = reply.encode();
            }
            catch (final MpiException ex)
            {
                status = ex.errorClass().code();
                payload = ex.getMessage().getBytes(StandardCharsets.UTF_8);
            }
        }
        final int[] header = {status, payload.length};
        Collectives.bcast(parents, header, 0, 2, Datatype.INT, root).start().await();
        if (parents.rank() != root)
        {
            payload = new byte[header[1]];
        }
        Collectives.bcast(parents, payload, 0, payload.length, Datatype.BYTE, root).start().await();
        if (header[0] != OK)
        {
            if (errcodes != null)
            {
                Arrays.fill(errcodes, ErrorClass.ERR_SPAWN.code());
            }
            throw new MpiException(ErrorClass.of(header[0]), new String(payload, StandardCharsets.UTF_8));
        }
        final SpawnWire.Reply reply = SpawnWire.Reply.decode(payload);
        final int children = reply.size() - parents.size();
        final int me = children + parents.rank();
        final CommState world = new JointJobs(runtime).join(reply.endpoints(), me, reply.size(), reply.jobId(),
            reply.parentTickets().get(parents.rank()), IntStream.range(children, reply.size()).toArray());
        final Ports.Joined contexts = Ports.of(world).agree(world, 0, IntStream.range(0, children).toArray(), 0, Ports.SPAWN_SEQUENCE);
        if (errcodes != null)
        {
            Arrays.fill(errcodes, 0, children, ErrorClass.SUCCESS.code());
        }
        return contexts;
    }

    /**
     * The children's side, at init of a rank whose world is the first ranks of its job's bootstrap (see
     * {@code BootstrapEnv.SPAWN_WORLD_ENV_NAME}): the contexts of the intercommunicator to the parents, or {@code null}
     * for a rank that was not spawned.
     */
    public static Ports.Joined parent(final RankRuntime runtime)
    {
        final CommState world = runtime.world();
        if (world.size() == runtime.size())
        {
            return null;
        }
        return Ports.of(world).agree(world, 0, IntStream.range(world.size(), runtime.size()).toArray(), world.size(), Ports.SPAWN_SEQUENCE);
    }

    /** The root's check of the commands: what the launcher is asked to start. */
    static List<SpawnWire.App> apps(final String call, final List<Command> commands)
    {
        if (commands == null || commands.isEmpty())
        {
            throw new MpiException(ErrorClass.ERR_ARG, call + ": no command given");
        }
        final List<SpawnWire.App> apps = new ArrayList<>();
        for (int k = 0; k < commands.size(); k++)
        {
            final Command c = commands.get(k);
            final String which = commands.size() == 1 ? "" : " (command " + k + ")";
            if (c == null || c.command() == null || c.command().isBlank())
            {
                throw new MpiException(ErrorClass.ERR_SPAWN, call + ": command is null or empty" + which);
            }
            if (c.maxprocs() < 1)
            {
                throw new MpiException(ErrorClass.ERR_ARG, call + ": maxprocs must be at least 1, not " + c.maxprocs() + which +
                    " (command '" + c.command() + "')");
            }
            final String host = value(c.info(), "host");
            final String wdir = value(c.info(), "wdir");
            if (!wdir.isEmpty() && !Files.isDirectory(Path.of(wdir)))
            {
                throw new MpiException(ErrorClass.ERR_SPAWN, call + ": info wdir='" + wdir + "' is not a directory" + which);
            }
            apps.add(JavaCommand.parse(call + which, c.command(), c.argv() == null ? new String[0] : c.argv(), c.maxprocs(), host, wdir));
        }
        return apps;
    }

    private static String value(final Info info, final String key)
    {
        final String v = info == null ? null : info.get(key);
        return v == null ? "" : v.trim();
    }
}
