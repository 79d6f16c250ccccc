package org.jmpi.internal.comm;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

import org.jmpi.Datatype;
import org.jmpi.ErrorClass;
import org.jmpi.MpiException;
import org.jmpi.internal.coll.Collectives;
import org.jmpi.internal.pt2pt.CommState;
import org.jmpi.internal.pt2pt.PointToPoint;
import org.jmpi.internal.pt2pt.RequestImpl;
import org.jmpi.internal.pt2pt.SendMode;
import org.jmpi.spi.Bootstrap;

/**
 * Ports, connect/accept and the name service of one rank (MPI 4.1 §11.4; design in docs/compat.md, "Dynamic
 * processes"). A port is named {@code jmpi-port:<job id>:<world rank of its owner>:<sequence>}; its state and the
 * published service names live in the job's bootstrap store (the launcher's key/value service), so every rank of the
 * job can tell an open port from a closed or unknown one, and look a name up, without a message to the owner.
 *
 * <p>The two roots of a connect/accept meet on the rank's <em>control</em> communicator: the world's ranks on a
 * context pair of its own ({@code RankRuntime.DYNAMIC_CONTEXT}), so no user or collective receive can take its
 * messages. Tags: the port with sequence {@code s} takes connection requests on {@code 2s} (any source) and everything
 * between a pair of roots on {@code 2s + 1} (their source names the pair).
 * <ol>
 * <li>The connecting root checks the port is open in the store, sends the owner {@code {its group's size}} on
 * {@code 2s} and its group's world ranks on {@code 2s + 1}; it waits for the answer, checking the store every
 * {@value #CLOSED_CHECK_MS} ms so that a port closed meanwhile ends the wait with ERR_PORT.</li>
 * <li>The accepting root (the port's owner) takes the next request of that port, answers {@code {0, its group's
 * size}} and its group's world ranks (or {@code {REFUSED, 0}} when {@link #close} drains the port).</li>
 * <li>Each root broadcasts the outcome and the other group's world ranks in its group; both groups then agree two
 * context-id pairs with {@link InterContextIdAgreement}, the roots combining over the control communicator, and
 * each member builds the intercommunicator on them.</li>
 * </ol>
 * A port of another job (on this node) is reached through its owner's {@link PortDoor}, whose address and the port's
 * token are in the port's name ({@code jmpi-port:<job>:<owner>:<sequence>:<door>:<token>}): the connecting root sends
 * its group's size there; the accepting root serves the bootstrap of a <em>joint job</em> of both groups (its own first)
 * in its process ({@link Joiner#host}) and answers with the joint job's address and the other group's tickets; every
 * member of both groups joins the joint job ({@link Joiner#join}: a runtime of its own there, as a spawn's parents do)
 * and the groups agree their contexts in it. With {@code jmpi.dyn.names} set, names are files in that directory, shared
 * by the jobs given the same one ({@link NameDirectory}).
 *
 * <p>Threading: any thread; the bootstrap serialises its own requests. Accepts on one port from several threads
 * take one connection each.
 */
public final class Ports
{
    /** The prefix of every port name jmpi makes. */
    public static final String PORT_PREFIX = "jmpi-port:";

    static final long CLOSED_CHECK_MS = 100;
    private static final String PORT_KEY = "jmpi.dyn.port.";
    private static final String NAME_KEY = "jmpi.dyn.name.";
    private static final byte[] OPEN = "open".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] CLOSED = "closed".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] UNPUBLISHED = new byte[0];
    private static final int MAX_SEQUENCE = (1 << 29) - 1;
    /** The sequence whose pair tag a spawn's agreement uses; {@link #open} stops below it. */
    public static final int SPAWN_SEQUENCE = MAX_SEQUENCE;
    private static final int MAX_KEY_CHARS = 1024;

    /** Outcomes a root broadcasts to its group: these, or the code of the error class that failed it. */
    private static final int OK = 0;
    private static final int REFUSED = 1;

    /** Outcomes' kinds: the groups are ranks of this job, or meet in a joint job (another job's port). */
    private static final int SAME_JOB = 0;
    private static final int JOINT_JOB = 1;

    /**
     * How a rank takes part in a joint job of two groups of different jobs (connect/accept between jobs): the runtime
     * installs it ({@code RankRuntime}), so this package needs no runtime.
     */
    public interface Joiner
    {
        /** Serves the bootstrap of a joint job of {@code size} ranks in this process; returns its endpoints. */
        String host(int size, String jobId, byte[][] tickets);

        /**
         * Joins the joint job as {@code rank} with the single-use {@code ticketHex} and opens a runtime on it whose world
         * is {@code groupRanks}; returns that world.
         */
        CommState join(String endpoints, int rank, int size, String jobId, String ticketHex, int[] groupRanks);
    }

    private final Bootstrap bootstrap;
    private final CommState control;
    private final String jobId;
    private final Joiner joiner;
    private final NameDirectory names;
    private final AtomicInteger nextSequence = new AtomicInteger();
    private final Set<String> open = ConcurrentHashMap.newKeySet();
    private PortDoor door;

    /**
     * @param control the world's ranks on the dynamic context pair, errors returned.
     * @param joiner  how this rank joins another job's group (null: ports of this job only).
     * @param nameDirectory {@code jmpi.dyn.names}: where names are shared with other jobs, or blank.
     */
    public Ports(final Bootstrap bootstrap, final CommState control, final Joiner joiner, final String nameDirectory)
    {
        this.bootstrap = bootstrap;
        this.control = control;
        this.jobId = bootstrap.jobId();
        this.joiner = joiner;
        this.names = nameDirectory == null || nameDirectory.isBlank() ? null : new NameDirectory(nameDirectory.trim());
    }

    /** The rank's ports, installed by the runtime at init. */
    public static Ports of(final CommState c)
    {
        return c.services().component(Ports.class);
    }

    /**
     * A port name parsed: the job, the owner's world rank and the port's sequence on the owner; the owner's door
     * ({@link PortDoor}, {@code host/port}) and the port's token, or empty for a name without them.
     */
    record Port(String jobId, int owner, int sequence, String door, String token)
    {
        int requestTag()
        {
            return 2 * sequence;
        }

        int pairTag()
        {
            return 2 * sequence + 1;
        }
    }

    /** MPI_Open_port: a new port owned by this rank, open until {@link #close}. */
    public String open()
    {
        final int sequence = nextSequence.getAndIncrement();
        if (sequence >= SPAWN_SEQUENCE)
        {
            throw new MpiException(ErrorClass.ERR_PORT, "openPort: rank " + control.rank() + " has opened " + SPAWN_SEQUENCE +
                " ports, no more names are left");
        }
        final String token = java.util.HexFormat.of().formatHex(org.jmpi.internal.bootstrap.BootstrapAuth.newSecret());
        final PortDoor d = door();
        d.admit(sequence, token);
        final String name = PORT_PREFIX + jobId + ":" + control.rank() + ":" + sequence + ":" + d.address() + ":" + token;
        bootstrap.put(PORT_KEY + name, OPEN);
        open.add(name);
        return name;
    }

    /** At finalize: another job's connection requests to this rank's ports are refused from now on. */
    public void shutdown()
    {
        final PortDoor d;
        synchronized (this)
        {
            d = door;
        }
        if (d != null)
        {
            d.shutdown();
        }
    }

    private synchronized PortDoor door()
    {
        if (door == null)
        {
            door = PortDoor.open();
        }
        return door;
    }

    /**
     * MPI_Close_port: the port stops taking connections; connection requests that reached it and no accept took are
     * refused (their connect fails with ERR_PORT), and so is every later connect.
     */
    public void close(final String name)
    {
        if (name == null || !open.remove(name))
        {
            throw new MpiException(ErrorClass.ERR_PORT, "closePort: port '" + name + "' is not open on this rank (world rank " +
                control.rank() + ")");
        }
        bootstrap.put(PORT_KEY + name, CLOSED);
        final Port port = parse("closePort", name);
        door().refuseAll(port.sequence());
        while (PointToPoint.iprobe(control, org.jmpi.Comm.ANY_SOURCE, port.requestTag()) != null)
        {
            final int[] header = new int[1];
            final org.jmpi.Status st = PointToPoint.irecv(control, header, 0, 1, Datatype.INT, org.jmpi.Comm.ANY_SOURCE,
                port.requestTag()).await();
            final int[] theirs = new int[header[0]];
            PointToPoint.irecv(control, theirs, 0, theirs.length, Datatype.INT, st.source(), port.pairTag()).await();
            send(st.source(), new int[] {REFUSED, 0}, port.pairTag());
        }
    }

    /** Parses a port name jmpi made; ERR_PORT naming it otherwise. */
    Port parse(final String call, final String name)
    {
        if (name == null || !name.startsWith(PORT_PREFIX))
        {
            throw new MpiException(ErrorClass.ERR_PORT, call + ": '" + name + "' is not a port name (a jmpi port name starts with '" +
                PORT_PREFIX + "'; get one from openPort)");
        }
        final String[] parts = name.substring(PORT_PREFIX.length()).split(":", -1);
        try
        {
            if ((parts.length == 3 || parts.length == 5) && !parts[0].isEmpty())
            {
                final Port p = new Port(parts[0], Integer.parseInt(parts[1]), Integer.parseInt(parts[2]),
                    parts.length == 5 ? parts[3] : "", parts.length == 5 ? parts[4] : "");
                if (p.owner() >= 0 && p.sequence() >= 0 && p.sequence() <= MAX_SEQUENCE)
                {
                    return p;
                }
            }
        }
        catch (final NumberFormatException ex)
        {
            // reported below
        }
        throw new MpiException(ErrorClass.ERR_PORT, call + ": malformed port name '" + name + "'");
    }

    /** The value under {@code key} in the store now, or {@code null} if none was ever put. */
    private byte[] peek(final String key)
    {
        try
        {
            return bootstrap.get(key, 0);
        }
        catch (final MpiException ex)
        {
            if (ex.errorClass() == ErrorClass.ERR_OTHER)
            {
                return null;
            }
            throw ex;
        }
    }

    private static String checkService(final String call, final String service)
    {
        if (service == null || service.isEmpty() || service.length() > MAX_KEY_CHARS)
        {
            throw new MpiException(ErrorClass.ERR_ARG, call + ": service name must have 1 to " + MAX_KEY_CHARS + " characters, not " +
                (service == null ? "null" : service.length()));
        }
        return NAME_KEY + service;
    }

    /** MPI_Publish_name: ERR_SERVICE when the name is published already (by any rank of the job). */
    public void publish(final String service, final String port)
    {
        final String key = checkService("publishName", service);
        if (port == null || port.isEmpty())
        {
            throw new MpiException(ErrorClass.ERR_PORT, "publishName: port name is null or empty");
        }
        if (names != null)
        {
            names.publish(service, port);
            return;
        }
        final byte[] now = peek(key);
        if (now != null && now.length > 0)
        {
            throw new MpiException(ErrorClass.ERR_SERVICE, "publishName: service '" + service + "' is published already (port '" +
                new String(now, StandardCharsets.UTF_8) + "')");
        }
        bootstrap.put(key, port.getBytes(StandardCharsets.UTF_8));
    }

    /** MPI_Unpublish_name: ERR_SERVICE when the name is not published with that port. */
    public void unpublish(final String service, final String port)
    {
        final String key = checkService("unpublishName", service);
        if (names != null)
        {
            names.unpublish(service, port);
            return;
        }
        final byte[] now = peek(key);
        if (now == null || now.length == 0)
        {
            throw new MpiException(ErrorClass.ERR_SERVICE, "unpublishName: service '" + service + "' is not published");
        }
        final String published = new String(now, StandardCharsets.UTF_8);
        if (port != null && !published.equals(port))
        {
            throw new MpiException(ErrorClass.ERR_SERVICE, "unpublishName: service '" + service + "' is published with port '" +
                published + "', not '" + port + "'");
        }
        bootstrap.put(key, UNPUBLISHED);
    }

    /** MPI_Lookup_name: the port published under the name; ERR_NAME when none is. */
    public String lookup(final String service)
    {
        final String key = checkService("lookupName", service);
        if (names != null)
        {
            return names.lookup(service);
        }
        final byte[] now = peek(key);
        if (now == null || now.length == 0)
        {
            throw new MpiException(ErrorClass.ERR_NAME, "lookupName: no port is published under service '" + service + "'");
        }
        return new String(now, StandardCharsets.UTF_8);
    }

    /** What connect/accept made: the other group's world ranks and the two agreed context-id pairs. */
    /**
     * What connect/accept made: the other group's world ranks and the two agreed context-id pairs, all of
     * {@code local}'s runtime: the caller's communicator, or the world of the joint job two jobs' groups met in.
     */
    public record Joined(int[] remoteWorld, int context, int groupContext, CommState local)
    {
    }

    /**
     * A root's part of connect or accept: meets the other root, sets {@code outcome}; returns the other group (same
     * job), or sets {@code joint[0]} to this group's part of a joint job ({@code <job id> <endpoints> <size> <first
     * rank> <ticket>...}).
     */
    @FunctionalInterface
    private interface RootStep
    {
        int[] meet(Port port, int[] outcome, String[] joint);
    }

    /**
     * MPI_Comm_accept over {@code local} (collective; {@code port} significant at {@code root} only, which must
     * have opened it).
     */
    public Joined accept(final CommState local, final String name, final int root)
    {
        return join("accept", local, root, name, (port, outcome, joint) ->
        {
            while (true)
            {
                if (!open.contains(name))
                {
                    throw new MpiException(ErrorClass.ERR_PORT, "accept: port '" + name + "' is not open on this rank (world rank " +
                        control.rank() + ")");
                }
                if (PointToPoint.iprobe(control, org.jmpi.Comm.ANY_SOURCE, port.requestTag()) != null)
                {
                    final int[] header = new int[1];
                    final org.jmpi.Status st = PointToPoint.irecv(control, header, 0, 1, Datatype.INT, org.jmpi.Comm.ANY_SOURCE,
                        port.requestTag()).await();
                    final int[] remoteWorld = new int[header[0]];
                    PointToPoint.irecv(control, remoteWorld, 0, remoteWorld.length, Datatype.INT, st.source(), port.pairTag()).await();
                    send(st.source(), new int[] {OK, local.size()}, port.pairTag());
                    send(st.source(), local.worldRanks(), port.pairTag());
                    outcome[1] = remoteWorld.length;
                    outcome[2] = st.source();
                    return remoteWorld;
                }
                final PortDoor.Request request = door().poll(port.sequence());
                if (request != null)
                {
                    joint[0] = hostJoint(local.size(), request);
                    return null;
                }
                LockSupport.parkNanos(TimeUnit.MICROSECONDS.toNanos(200));
            }
        });
    }

    /**
     * The accepting root of a connection from another job: serves the joint job's bootstrap (this group first, then
     * theirs), answers the other root with its group's part and returns this group's.
     */
    private String hostJoint(final int mine, final PortDoor.Request request)
    {
        final int size = mine + request.groupSize();
        final String joint = org.jmpi.internal.bootstrap.BootstrapEnv.newJobId();
        final byte[][] tickets = new byte[size][];
        final StringBuilder ours = new StringBuilder();
        final StringBuilder theirs = new StringBuilder();
        for (int r = 0; r < size; r++)
        {
            tickets[r] = org.jmpi.internal.bootstrap.BootstrapAuth.newSecret();
            (r < mine ? ours : theirs).append(' ').append(org.jmpi.internal.bootstrap.BootstrapAuth.encodeSecret(tickets[r]));
        }
        final String endpoints;
        try
        {
            endpoints = joiner.host(size, joint, tickets);
        }
        catch (final RuntimeException ex)
        {
            request.answer("REFUSED the accepting job cannot serve a joint job: " + ex.getMessage());
            throw new MpiException(ErrorClass.ERR_PORT, "accept: cannot serve the joint job of a connection from another job: " + ex.getMessage());
        }
        request.answer("OK " + joint + " " + endpoints + " " + size + " " + mine + theirs);
        return joint + " " + endpoints + " " + size + " 0" + ours;
    }

    /** MPI_Comm_connect over {@code local} (collective; {@code port} significant at {@code root} only). */
    public Joined connect(final CommState local, final String name, final int root)
    {
        return join("connect", local, root, name, (port, outcome, joint) ->
        {
            if (port.jobId().equals(jobId))
            {
                return request(local, port, name, outcome);
            }
            if (port.door().isEmpty())
            {
                throw new MpiException(ErrorClass.ERR_PORT, "connect: port '" + name + "' belongs to another job (" + port.jobId() +
                    ") and names no address to reach it");
            }
            final String answer = PortDoor.request(port.door(), "CONNECT " + port.sequence() + " " + port.token() + " " + local.size(),
                () -> true);
            if (!answer.startsWith("OK "))
            {
                throw new MpiException(ErrorClass.ERR_PORT, "connect: port '" + name + "' of job " + port.jobId() + ": " + answer);
            }
            joint[0] = answer.substring(3);
            return null;
        });
    }

    /** The connecting root's exchange with the port's owner; sets {@code outcome} to {status, remote size, owner}. */
    private int[] request(final CommState local, final Port port, final String name, final int[] outcome)
    {
        if (port.owner() >= control.size())
        {
            throw new MpiException(ErrorClass.ERR_PORT, "connect: port '" + name + "' names world rank " + port.owner() +
                " (world size " + control.size() + ")");
        }
        if (!Arrays.equals(peek(PORT_KEY + name), OPEN))
        {
            throw new MpiException(ErrorClass.ERR_PORT, "connect: port '" + name + "' is not open");
        }
        send(port.owner(), new int[] {local.size()}, port.requestTag());
        send(port.owner(), local.worldRanks(), port.pairTag());
        final int[] answer = new int[2];
        final RequestImpl r = PointToPoint.irecv(control, answer, 0, 2, Datatype.INT, port.owner(), port.pairTag());
        long checkAt = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(CLOSED_CHECK_MS);
        while (!r.test())
        {
            if (System.nanoTime() - checkAt >= 0)
            {
                checkAt = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(CLOSED_CHECK_MS);
                if (!Arrays.equals(peek(PORT_KEY + name), OPEN))
                {
                    r.cancel();
                    if (r.await().isCancelled())
                    {
                        throw new MpiException(ErrorClass.ERR_PORT, "connect: port '" + name + "' was closed before an accept took the connection");
                    }
                    break;
                }
            }
            LockSupport.parkNanos(TimeUnit.MICROSECONDS.toNanos(200));
        }
        if (answer[0] != OK)
        {
            throw new MpiException(ErrorClass.ERR_PORT, "connect: port '" + name + "' was closed before an accept took the connection");
        }
        final int[] remoteWorld = new int[answer[1]];
        PointToPoint.irecv(control, remoteWorld, 0, remoteWorld.length, Datatype.INT, port.owner(), port.pairTag()).await();
        outcome[1] = remoteWorld.length;
        outcome[2] = port.owner();
        return remoteWorld;
    }

    /**
     * The part both sides share: the root parses the port and runs its step; it broadcasts {status, remote size, other
     * root, sequence} and the remote group; a failure at the root fails every member alike; then both groups agree two
     * context-id pairs.
     */
    private Joined join(final String call, final CommState local, final int root, final String name, final RootStep step)
    {
        if (root < 0 || root >= local.size())
        {
            throw new MpiException(ErrorClass.ERR_ROOT, call + ": invalid root " + root + " (communicator size " + local.size() + ")");
        }
        final int[] outcome = {OK, 0, -1};
        final String[] joint = new String[1];
        byte[] jointPart = new byte[0];
        int[] rootRemote = new int[0];
        int sequence = 0;
        String failure = null;
        if (local.rank() == root)
        {
            try
            {
                final Port port = parse(call, name);
                sequence = port.sequence();
                rootRemote = step.meet(port, outcome, joint);
                if (joint[0] != null)
                {
                    jointPart = joint[0].getBytes(java.nio.charset.StandardCharsets.UTF_8);
                    outcome[1] = jointPart.length;
                }
            }
            catch (final MpiException ex)
            {
                outcome[0] = ex.errorClass().code();
                failure = ex.getMessage();
            }
        }
        final int[] header = {outcome[0], outcome[1], outcome[2], sequence, joint[0] != null ? JOINT_JOB : SAME_JOB};
        Collectives.bcast(local, header, 0, header.length, Datatype.INT, root).start().await();
        if (header[0] != OK)
        {
            throw new MpiException(ErrorClass.of(header[0]), failure != null ? failure : call + ": failed at the root (rank " + root + "): " +
                ErrorClass.of(header[0]) + " (a bad or closed port, or the other job could not be reached)");
        }
        if (header[4] == JOINT_JOB)
        {
            if (local.rank() != root)
            {
                jointPart = new byte[header[1]];
            }
            Collectives.bcast(local, jointPart, 0, jointPart.length, Datatype.BYTE, root).start().await();
            return joinJoint(local, new String(jointPart, java.nio.charset.StandardCharsets.UTF_8));
        }
        final int[] remoteWorld = local.rank() == root ? rootRemote : new int[header[1]];
        Collectives.bcast(local, remoteWorld, 0, remoteWorld.length, Datatype.INT, root).start().await();
        return agree(local, root, remoteWorld, header[2], header[3]);
    }

    /**
     * Every member of a group that meets another job's: joins the joint job ({@code part}: {@code <job id> <endpoints>
     * <size> <first rank> <ticket per member>}) through the {@link Joiner}, then both groups agree their contexts there,
     * the leaders being each group's first rank.
     */
    private Joined joinJoint(final CommState local, final String part)
    {
        final String[] f = part.split(" ");
        final int size = Integer.parseInt(f[2]);
        final int first = Integer.parseInt(f[3]);
        final CommState world = joiner.join(f[1], first + local.rank(), size, f[0], f[4 + local.rank()],
            java.util.stream.IntStream.range(first, first + local.size()).toArray());
        final int[] remote = first == 0 ? java.util.stream.IntStream.range(local.size(), size).toArray() :
            java.util.stream.IntStream.range(0, first).toArray();
        return Ports.of(world).agree(world, 0, remote, first == 0 ? local.size() : 0, SPAWN_SEQUENCE);
    }

    /**
     * The last step of connect/accept, and of a spawn (whose two groups are the joint job's world and the rest of its
     * control communicator): both groups agree two context-id pairs, the leaders combining over the control
     * communicator on the pair tag of {@code sequence}. Collective over {@code local}.
     *
     * @param leader      the rank in {@code local} that speaks for it.
     * @param remoteWorld the other group's ranks in this runtime's world numbering (the control communicator's).
     * @param otherLeader the other group's leader, a rank of the control communicator.
     */
    public Joined agree(final CommState local, final int leader, final int[] remoteWorld, final int otherLeader, final int sequence)
    {
        final int pairTag = 2 * sequence + 1;
        final InterContextIdAgreement.LeaderExchange overControl = (out, in) ->
        {
            final RequestImpl r = PointToPoint.irecv(control, in, 0, in.length, Datatype.LONG, otherLeader, pairTag);
            PointToPoint.isend(control, out, 0, out.length, Datatype.LONG, otherLeader, pairTag, SendMode.STANDARD).await();
            r.await();
        };
        final int context = InterContextIdAgreement.agree(local, leader, sequence, overControl);
        try
        {
            return new Joined(remoteWorld, context, InterContextIdAgreement.agree(local, leader, sequence, overControl), local);
        }
        catch (final MpiException ex)
        {
            local.contextIds().free(local.contextIds().slot(context));
            throw ex;
        }
    }

    private void send(final int worldRank, final int[] values, final int tag)
    {
        PointToPoint.isend(control, values, 0, values.length, Datatype.INT, worldRank, tag, SendMode.STANDARD).await();
    }
}
