package org.jmpi.internal.runtime;

import org.jmpi.internal.bootstrap.TransportSelection;
import org.jmpi.internal.comm.Ports;
import org.jmpi.internal.bootstrap.LocalJob;
import org.jmpi.internal.bootstrap.RankContext;
import org.jmpi.ErrorClass;
import org.jmpi.ErrorHandler;
import org.jmpi.MpiException;
import org.jmpi.ThreadLevel;
import org.jmpi.internal.bootstrap.BootstrapEnv;
import org.jmpi.internal.bootstrap.BootstrapParams;
import org.jmpi.internal.bootstrap.EnvBootstrap;
import org.jmpi.internal.bootstrap.SlurmBootstrap;
import org.jmpi.internal.engine.JitActivity;
import org.jmpi.internal.engine.ProgressEngine;
import org.jmpi.internal.pt2pt.BsendBuffer;
import org.jmpi.internal.pt2pt.CommState;
import org.jmpi.internal.pt2pt.FrameDescriptor;
import org.jmpi.internal.pt2pt.PointToPoint;
import org.jmpi.internal.pt2pt.Protocol;
import org.jmpi.internal.rank.RankServices;
import org.jmpi.internal.rma.OneSided;
import org.jmpi.spi.ArenaMemory;
import org.jmpi.spi.Bootstrap;
import org.jmpi.spi.Doorbell;
import org.jmpi.spi.Params;
import org.jmpi.spi.Transport;
import org.jmpi.spi.TransportContext;
import org.jmpi.spi.TransportProvider;

import java.io.IOException;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;

/**
 * Everything one rank runs on: its bootstrap, transports, protocol and progress engine, and the world
 * and self communicators' state. Made by {@code Mpi.init}, closed by finalize.
 *
 * <p>Init:
 * <ol>
 * <li>Find the job: an in-JVM job (the calling thread's {@link RankContext}), a launcher (environment),
 * or none (a singleton world of one rank).</li>
 * <li>Publish this rank's node and JVM identity; fence; read everyone's.</li>
 * <li>Open every transport whose provider's probe passes, highest priority first; route each peer to
 * the first that reaches it; fence so every rank's transports are up before traffic.</li>
 * <li>Start the progress engine (a progress thread for MULTIPLE or async progress).</li>
 * </ol>
 *
 * <p>Threading: built and closed by the initialising thread; see {@link ProgressEngine} for the rest.
 */
public final class RankRuntime
{
    /** Context ids: world and self take the first two pairs (point-to-point, collective). */
    public static final int WORLD_CONTEXT = 0;
    public static final int SELF_CONTEXT = 2;
    /** The dynamic-process control pair: the roots of connect/accept meet there (org.jmpi.internal.comm.Ports). */
    public static final int DYNAMIC_CONTEXT = 4;
    public static final int FIRST_FREE_CONTEXT = 6;

    private final RankContext rankContext;
    private final Bootstrap bootstrap;
    private final Params params;
    private final int rank;
    private final int size;
    private final String processorName;
    private final ThreadLevel threadLevel;
    private final Thread mainThread;
    private final List<Transport> transports = new ArrayList<>();
    private final Protocol protocol;
    private final ProgressEngine engine;
    private final BsendBuffer bsendBuffer = new BsendBuffer();
    private final RankServices services;
    private final CommState world;
    private final CommState self;
    /** Every rank of the bootstrap on the dynamic-process pair: more than the world for a spawn's joint job. */
    private final CommState control;
    private final long initTimeoutNs;
    /** The runtimes of jobs this rank joined later (a spawn's parents join their children's): finalized before this one. */
    private final List<RankRuntime> joinedRuntimes = new java.util.concurrent.CopyOnWriteArrayList<>();
    /** What runs after the closing thread met the peers: stopping bootstrap services this rank hosts for joint jobs. */
    private final List<Runnable> closedActions = new java.util.concurrent.CopyOnWriteArrayList<>();

    private RankRuntime(final ThreadLevel level, final RankContext rankContext, final Bootstrap bootstrap, final Params params,
        final int[] worldRanks, final boolean primary)
    {
        final List<TransportProvider> providers = new ArrayList<>();
        ServiceLoader.load(TransportProvider.class).forEach(providers::add);
        if (primary)
        {
            prepareInBackground(List.copyOf(providers));
        }
        this.rankContext = rankContext;
        this.bootstrap = bootstrap;
        this.params = params;
        rank = bootstrap.rank();
        size = bootstrap.size();
        threadLevel = level;
        mainThread = Thread.currentThread();
        initTimeoutNs = TimeUnit.MILLISECONDS.toNanos(params.getLong(CoreParams.INIT_TIMEOUT));
        processorName = hostName();
        final String givenNode = params.get(BootstrapParams.NODE).trim();
        final String slurmNode = bootstrap instanceof SlurmBootstrap slurm ? slurm.node() : "";
        final String nodeId = !givenNode.isEmpty() ? givenNode : !slurmNode.isEmpty() ? slurmNode : processorName;

        final String jvmId = ProcessHandle.current().pid() + "@" + nodeId +
            (params.getBoolean(CoreParams.JVM_ISOLATE) ? "#" + rank : "");
        bootstrap.put("jmpi.node." + rank, nodeId.getBytes(StandardCharsets.UTF_8));
        bootstrap.put("jmpi.jvm." + rank, jvmId.getBytes(StandardCharsets.UTF_8));
        bootstrap.put("jmpi.protocol." + rank, Integer.toString(FrameDescriptor.VERSION).getBytes(StandardCharsets.UTF_8));
        bootstrap.put(BootstrapEnv.INIT_KEY_PREFIX + rank, new byte[] {1});
        bootstrap.fence(initTimeoutNs);
        final String[] nodes
         = new String[size];
        final String[] jvms = new String[size];
        for (int r = 0; r < size; r++)
        {
            nodes[r] = new String(bootstrap.get("jmpi.node." + r, initTimeoutNs), StandardCharsets.UTF_8);
            jvms[r] = new String(bootstrap.get("jmpi.jvm." + r, initTimeoutNs), StandardCharsets.UTF_8);
            final String version = new String(bootstrap.get("jmpi.protocol." + r, initTimeoutNs), StandardCharsets.UTF_8);
            if (!version.equals(Integer.toString(FrameDescriptor.VERSION)))
            {
                throw new MpiException(ErrorClass.ERR_OTHER, "init: rank " + r + " speaks protocol version " + version +
                    ", rank " + rank + " speaks " + FrameDescriptor.VERSION + " (mixed jmpi versions in one job)");
            }
        }
        final EngineWaker waker = new EngineWaker();
        final TransportContext context = new Context(nodes, jvms, waker,
            rankContext != null ? rankContext.job().shared() : new ConcurrentHashMap<>());
        final java.util.Set<String> replaced = new java.util.HashSet<>();
        for (final TransportProvider provider : TransportSelection.select(providers, params.get(CoreParams.TRANSPORTS)))
        {
            if (!replaced.contains(provider.name()) && provider.probe(context) == null)
            {
                for (final String other : provider.replaces())
                {
                    if (transports.stream().anyMatch(t -> t.name().equals(other)))
                    {
                        throw new MpiException(ErrorClass.ERR_ARG, CoreParams.TRANSPORTS.name() + "=" + params.get(CoreParams.TRANSPORTS) +
                            ": " + provider.name() + " carries its frames through " + other + " and must come before it");
                    }
                }
                transports.add(provider.open(context));
                replaced.addAll(provider.replaces());
            }
        }
        final Transport[] routes = new Transport[size];
        for (int r = 0; r < size; r++)
        {
            for (final Transport t : transports)
            {
                if (t.reaches(r))
                {
                    routes[r] = t;
                    break;
                }
            }
            if (routes[r] == null)
            {
                throw new MpiException(ErrorClass.ERR_OTHER, "init: no transport reaches rank " + r + " (node " + nodes[r] +
                    ") from rank " + rank + " (node " + nodes[rank] + "); open transports: " + transportNames());
            }
        }

        if (params.getBoolean(CoreParams.TRANSPORTS_SHOW))
        {
            final StringBuilder line = new StringBuilder("jmpi: rank " + rank + " on node " + nodes[rank] + ": peers");
            for (int r = 0; r < size; r++)
            {
                line.append(' ').append(r).append('=').append(routes[r].name());
            }
            System.err.println(line);
        }

        protocol = new Protocol(routes,
            params.getLong(CoreParams.EAGER_LIMIT),
            (int)Math.min(Integer.MAX_VALUE, params.getLong(CoreParams.FRAGMENT_SIZE)),
            params.getLong(CoreParams.EAGER_WINDOW));
        protocol.splitCopy(parseFraction(params.get(CoreParams.SPLIT)), params.getLong(CoreParams.SPLIT_MIN));
        final String calibration = params.get(CoreParams.PVAS_CALIBRATION).trim();
        protocol.pathSelection(params.get(CoreParams.PVAS_MODE), "startup".equals(calibration) ? "" : calibration,
            (int)Math.min(1000, params.getLong(CoreParams.PVAS_ONLINE_SAMPLES)), params.getLong(CoreParams.PVAS_ONLINE_RECHECK),
            params.getLong(CoreParams.PVAS_ONLINE_DELAY));
        protocol.rdmaRendezvous(params.get(CoreParams.RDMA_RENDEZVOUS), params.getLong(CoreParams.RDMA_READ_MIN),
            params.getLong(CoreParams.RDMA_SGE_MIN));
        final boolean offload = level == ThreadLevel.MULTIPLE || params.getBoolean(CoreParams.ASYNC_PROGRESS);
        engine = new ProgressEngine(protocol, offload, new ProgressEngine.IdleSpec(
            params.getLong(CoreParams.IDLE_SPINS), params.getLong(CoreParams.IDLE_YIELDS),
            spinBurst(params.getLong(CoreParams.IDLE_SPIN_BURST), nodes, rank, Runtime.getRuntime().availableProcessors(), offload),
            params.getLong(CoreParams.IDLE_MIN_PARK), params.getLong(CoreParams.IDLE_MAX_PARK),
            params.getLong(CoreParams.IDLE_SPIN_BURST) < 0 ? TimeUnit.MILLISECONDS.toNanos(params.getLong(CoreParams.IDLE_JIT_WINDOW)) : 0),
            "jmpi-progress-" + rank);
        protocol.engine(engine);
        if (rankContext != null)
        {
            final LocalJob job = rankContext.job();
            engine.abortCheck(job::checkAborted);
        }
        for (final Transport t : transports)
        {
            final Doorbell bell = t.feature(Doorbell.class);
            if (bell != null)
            {
                engine.doorbell(bell);
                break;
            }
        }
        waker.engine = engine;
        engine.start();
        if (primary && rankContext == null && !(bootstrap instanceof SingletonBootstrap))
        {
            abortOnUncaughtException(mainThread);
        }

        final CommState.Aborter aborter = this::abort;
        // Heap-sharing shortcuts (put/get persistent collectives) need every rank of the job in this JVM:
        // not so for the threads of one host of a hybrid job across hosts (jmpi.jvm.isolate's "#rank" aside).
        boolean oneJvm = true;
        for (int r = 0; r < size; r++)
        {
            oneJvm &= jvms[r].split("#")[0].equals(jvms[rank].split("#")[0]);
        }
        services = new RankServices(rank, params, rankContext != null && oneJvm ? rankContext.job().shared() : null, processorName,
            FIRST_FREE_CONTEXT, nodes.clone());
        // A freed communicator's context drops the frames no receive takes, until the id may be chosen again.
        services.contexts().hooks(protocol::contextClosed, protocol::contextOpened);
        // Node collectives across JVMs place their regions in files named after the job (issue 16).
        org.jmpi.internal.coll.node.NodeHost.install(services, bootstrap.jobId(), routes);
        // The one-sided layer registers its frame handlers before any peer can send it a frame (the fence below).
        services.install(OneSided.class, engine.call(() -> new OneSided(protocol, rank, arenaMemory())));
        final int[] members = worldRanks != null ? worldRanks : IntStream.range(0, size).toArray();
        final int worldRank = IntStream.range(0, members.length).filter(i -> members[i] == rank).findFirst().orElseThrow(() ->
            new MpiException(ErrorClass.ERR_OTHER, "init: bootstrap rank " + rank + " is not in its world " + java.util.Arrays.toString(members)));
        world = new CommState(protocol, bsendBuffer, aborter, services, WORLD_CONTEXT, WORLD_CONTEXT + 1, worldRank,
            members, ErrorHandler.ERRORS_ARE_FATAL, "WORLD");
        self = new CommState(protocol, bsendBuffer, aborter, services, SELF_CONTEXT, SELF_CONTEXT + 1, 0,
            new int[] {rank}, ErrorHandler.ERRORS_ARE_FATAL, "SELF");
        control = new CommState(protocol, bsendBuffer, aborter, services, DYNAMIC_CONTEXT,
            DYNAMIC_CONTEXT + 1, rank, IntStream.range(0, size).toArray(), ErrorHandler.ERRORS_RETURN, "DYNAMIC");
        final Ports ports = new Ports(bootstrap, control, new JointJobs(this), params.get(CoreParams.DYN_NAMES));
        services.install(Ports.class, ports);
        closedActions.add(ports::shutdown);
        services.install(RankRuntime.class, this);
        bootstrap.fence(initTimeoutNs);
    }

    /**
     * Starts, on a daemon thread, the one-time work that needs no job (the transports' native code, the JIT
     * monitor's management classes), so that it overlaps the bootstrap's round trips instead of following them
     * (docs/performance.md, "Start-up").
     */
    private static void prepareInBackground(final List<TransportProvider> providers)
    {
        Thread.ofPlatform().daemon(true).name("jmpi-prepare").start(() ->
        {
            JitActivity.prepare();
            for (final TransportProvider provider : providers)
            {
                try
                {
                    provider.prepare();
                }
                catch (final RuntimeException | LinkageError ex)
                {
                    // The transport's probe or open reports what is wrong, on the rank's own thread.
                }
            }
        });
    }

    /**
     * The idler's spin burst: as configured, or for -1 {@link ProgressEngine#OVERSUBSCRIBED_SPIN_BURST} when the
     * ranks on this rank's node outnumber the processors this JVM may use, or when a progress thread drives the
     * engine (offload); else 0 (spin without yielding).
     *
     * <p>Offload always yields while spinning: the progress thread shares the cores with the application threads
     * it completes requests for, and a caller it unparks waits for a core. A progress thread spinning without a
     * yield kept a woken caller off the core for most of a time slice: a blocking 8-byte round trip under MULTIPLE
     * between 2 ranks as threads took 340-830 us one-way, with a yield every 64 polls 14-27 us (2 vCPUs, kernel 6.18,
     * loaded machine, 2026-11-26; docs/threads.md).
     */
    static long spinBurst(final long configured, final String[] nodes, final int rank, final int processors,
        final boolean offload)
    {
        if (configured >= 0)
        {
            return configured;
        }
        if (offload)
        {
            return ProgressEngine.OVERSUBSCRIBED_SPIN_BURST;
        }
        long onThisNode = 0;
        for (final String node : nodes)
        {
            onThisNode += node.equals(nodes[rank]) ? 1 : 0;
        }
        return onThisNode > processors ? ProgressEngine.OVERSUBSCRIBED_SPIN_BURST : 0;
    }

    private static double parseFraction(final String value)
    {
        try
        {
            return Double.parseDouble(value.trim());
        }
        catch (final NumberFormatException ex)
        {
            throw new MpiException(ErrorClass.ERR_ARG, "jmpi.pvas.split must be a number between 0 and 1, not '" + value + "'");
        }
    }

    /** Initialises this rank. */
    public static RankRuntime start(final ThreadLevel level)
    {
        final RankContext rankContext = RankContext.current();
        if (rankContext != null)
        {
            return new RankRuntime(level, rankContext, rankContext.job().bootstrap(rankContext.rank()), rankContext.job().params(), null, true);
        }
        final Bootstrap launched = EnvBootstrap.fromEnvironment();
        final Bootstrap bootstrap = launched != null ? launched : new SingletonBootstrap();
        final String spawnWorld = launched != null ? System.getenv(BootstrapEnv.SPAWN_WORLD_ENV_NAME) : null;
        int[] world = null;
        if (spawnWorld != null && !spawnWorld.isBlank())
        {
            final int children;
            try
            {
                children = Integer.parseInt(spawnWorld.trim());
            }
            catch (final NumberFormatException ex)
            {
                throw new MpiException(ErrorClass.ERR_OTHER, "launcher environment: " + BootstrapEnv.SPAWN_WORLD_ENV_NAME + "=" +
                    spawnWorld + " is not a number");
            }
            if (children < 1 || children >= bootstrap.size() || bootstrap.rank() >= children)
            {
                throw new MpiException(ErrorClass.ERR_OTHER, "launcher environment: " + BootstrapEnv.SPAWN_WORLD_ENV_NAME + "=" +
                    children + " does not fit rank " + bootstrap.rank() + " of " + bootstrap.size());
            }
            world = IntStream.range(0, children).toArray();
        }
        return new RankRuntime(level, null, bootstrap, new Params(Map.of()), world, true);
    }

    /**
     * The runtime of a job this process joins after init: a spawn's parents join their children's job
     * (docs/compat.md, "Dynamic processes"). Its own transports, protocol and engine; its world is {@code worldRanks}
     * of the bootstrap (the parents' group), the control communicator every rank of it.
     */
    public static RankRuntime joined(final ThreadLevel level, final Bootstrap bootstrap, final int[] worldRanks)
    {
        return new RankRuntime(level, null, bootstrap, new Params(Map.of()), worldRanks, false);
    }

    /** This runtime's bootstrap (its job's key/value service). */
    public Bootstrap bootstrap()
    {
        return bootstrap;
    }

    /** The job's init timeout ({@code jmpi.init.timeout}). */
    public long initTimeoutNs()
    {
        return initTimeoutNs;
    }

    /** Runs {@code action} once this runtime's finalize has met its peers (or given up), on the closing thread. */
    public void onClosed(final Runnable action)
    {
        closedActions.add(action);
    }

    /** Keeps {@code joined} (a job this rank joined, {@link #joined}) to finalize it before this runtime. */
    public void adopt(final RankRuntime joined)
    {
        joinedRuntimes.add(joined);
    }

    /** Every rank of this runtime's bootstrap (the dynamic-process control communicator): the world and, after a spawn, the other side. */
    public CommState control()
    {
        return control;
    }

    public CommState world()
    {
        return world;
    }

    public CommState self()
    {
        return self;
    }

    /** What this rank's communicators share. */
    public RankServices services()
    {
        return services;
    }

    public int rank()
    {
        return rank;
    }

    public int size()
    {
        return size;
    }

    public String processorName()
    {
        return processorName;
    }

    public ThreadLevel threadLevel()
    {
        return threadLevel;
    }

    public Thread mainThread()
    {
        return mainThread;
    }

    /** The arena memory of the first open transport that offers it ({@code Mpi.allocMem}), or null. */
    public ArenaMemory arenaMemory()
    {
        for (final Transport t : transports)
        {
            final ArenaMemory arena = t.feature(ArenaMemory.class);
            if (arena != null)
            {
                return arena;
            }
        }
        return null;
    }

    /**
     * {@code Mpi.freeMem}: the application frees {@code memory}; every open transport's remote memory forgets what it
     * cached for it ({@link org.jmpi.spi.RemoteMemory#memoryFreed}), on the engine, before the memory is released.
     */
    public void memoryFreed(final java.nio.ByteBuffer memory)
    {
        for (final Transport t : transports)
        {
            final org.jmpi.spi.RemoteMemory remote = t.feature(org.jmpi.spi.RemoteMemory.class);
            if (remote != null)
            {
                engine.call(() ->
                {
                    remote.memoryFreed(memory);
                    return null;
                });
            }
        }
    }

    public BsendBuffer bsendBuffer()
    {
        return bsendBuffer;
    }

    public ProgressEngine engine()
    {
        return engine;
    }

    public Params params()
    {
        return params;
    }

    /** The key under which this rank's {@code Mpi} is kept: its in-JVM rank context, or the process. */
    public static Object instanceKey()
    {
        final RankContext context = RankContext.current();
        return context != null ? context : RankRuntime.class;
    }

    /**
     * Finalize, completing locally so that a failing rank never hangs its job:
     * <ol>
     * <li>Mark the rank finalized (every later MPI call raises ERR_OTHER), wait for its buffered sends, and arrange
     * to tell the other ranks (a BYE frame behind everything sent to each) if the closing thread's barrier still
     * waits after twice {@link CoreParams#FINALIZE_WAIT}, so that their receives from this rank alone fail instead
     * of waiting forever. Not at once: a rank whose code threw must first get its exception out and end the
     * job, or its peers would end it first on the BYE and its exception would go unprinted.</li>
     * <li>A closing thread runs the world barrier, drains the protocol's output, fences, and closes the engine
     * and transports, as before.</li>
     * <li>The caller waits for it at most {@link CoreParams#FINALIZE_WAIT}: in a job whose ranks all finalize
     * it is done by then; otherwise finalize returns and the closing thread finishes once the others arrive
     * (a non-daemon thread: the process stays until then). So a rank whose code threw inside
     * {@code try (Mpi mpi = Mpi.init(args))}, while its peers wait for it in a collective, gets its exception out
     * of {@code main}: as a process, the uncaught-exception handler installed at init prints it with the rank
     * and aborts the job; as a thread, its {@link LocalJob} aborts the job.</li>
     * </ol>
     */
    public void finish()
    {
        for (final RankRuntime joined : joinedRuntimes)
        {
            joined.finish();
        }
        services.markFinalized();
        engine.await(bsendBuffer::isEmpty);
        final long waitMs = Math.max(1, params.getLong(CoreParams.FINALIZE_WAIT));
        final long byeAt = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(2 * waitMs);
        engine.execute(() -> protocol.announceFinalizedAt(rank, WORLD_CONTEXT + 1, byeAt));
        final Thread closer = Thread.ofPlatform().name("jmpi-finalize-" + rank).daemon(false).start(this::closeWithPeers);
        try
        {
            closer.join(Math.max(1, params.getLong(CoreParams.FINALIZE_WAIT)));
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
        }
    }

    /** The collective part of finalize, then the local teardown; the teardown runs even if the job aborted. */
    private void closeWithPeers()
    {
        try
        {
            PointToPoint.barrier(world.size() == size ? world : control);
            drainOutput();
            bootstrap.fence(initTimeoutNs);
        }
        catch (final RuntimeException ex)
        {
            if (!(ex instanceof MpiException me && me.errorClass() == ErrorClass.ERR_PROC_ABORTED))
            {
                System.err.println("jmpi: rank " + rank + ": finalize could not meet the other ranks: " + ex);
            }
        }
        finally
        {
            engine.close();
            if (params.getBoolean(CoreParams.PVAS_STATS))
            {
                System.err.println(protocol.pathStats(rank));
            }
            for (final Transport t : transports)
            {
                t.close();
            }
            try
            {
                bootstrap.put(BootstrapEnv.FINALIZED_KEY_PREFIX + rank, new byte[] {1});
                bootstrap.close();
            }
            catch (final RuntimeException ex)
            {
                // the launcher is gone (the job was aborted): nothing left to tell it
            }
            closedActions.forEach(Runnable::run);
        }
    }

    /**
     * For a rank that is a process: an exception escaping the thread that called init is printed with the rank
     * and aborts the job (as Boost.MPI's environment does), instead of leaving the other ranks waiting for it.
     */
    private void abortOnUncaughtException(final Thread thread)
    {
        final Thread.UncaughtExceptionHandler previous = thread.getUncaughtExceptionHandler();
        thread.setUncaughtExceptionHandler((t, ex) ->
        {
            System.err.println("jmpi: rank " + rank + ": uncaught exception in thread \"" + t.getName() + "\", aborting the job:");
            ex.printStackTrace();
            System.err.flush();
            try
            {
                abort(1, "rank " + rank + " failed: " + ex, ex);
            }
            catch (final RuntimeException again)
            {
                previous.uncaughtException(t, ex);
            }
        });
    }

    /** Waits until no frame waits for room in a transport (bounded by the init timeout). */
    private void drainOutput()
    {
        final long deadline = System.nanoTime() + initTimeoutNs;
        final java.util.concurrent.atomic.AtomicBoolean empty = new java.util.concurrent.atomic.AtomicBoolean();
        while (System.nanoTime() < deadline)
        {
            engine.execute(() -> empty.set(!protocol.hasPendingOutput()));
            if (empty.get())
            {
                return;
            }
            if (engine.offload())
            {
                Thread.onSpinWait();
            }
            else
            {
                engine.pollOnce();
            }
        }
    }

    /**
     * Aborts the job: asks the job's owner to stop every rank with {@code code}. A rank that is a
     * thread returns the exception its thread must throw; a process halts.
     */
    public MpiException abort(final int code, final String message, final Throwable cause)
    {
        if (rankContext != null)
        {
            rankContext.job().abort(rank, code, message);
            return new MpiException(ErrorClass.ERR_PROC_ABORTED, "rank " + rank + " aborted the job with code " + code + ": " + message, cause);
        }
        try
        {
            bootstrap.abort(code, message);
        }
        catch (final RuntimeException ex)
        {
            System.err.println("jmpi: could not reach the launcher to abort: " + ex.getMessage());
        }
        System.out.flush();
        System.err.flush();
        Runtime.getRuntime().halt(code);
        throw new IllegalStateException("unreachable");
    }

    private String transportNames()
    {
        final StringBuilder sb = new StringBuilder();
        for (final Transport t : transports)
        {
            sb.append(sb.isEmpty() ? "" : ", ").append(t.name());
        }
        return sb.toString();
    }

    private static String hostName()
    {
        try
        {
            final String name = Files.readString(Path.of("/proc/sys/kernel/hostname")).trim();
            if (!name.isEmpty())
            {
                return name;
            }
        }
        catch (final IOException | RuntimeException ignored)
        {
            // not Linux: ask the resolver
        }
        try
        {
            return InetAddress.getLocalHost().getHostName();
        }
        catch (final IOException ex)
        {
            return "localhost";
        }
    }

    /** What transports are told at open. */
    /** Wakes the engine once it exists; transports get it when they open, before the engine is made. */
    private static final class EngineWaker implements Runnable
    {
        volatile ProgressEngine engine;

        @Override
        public void run()
        {
            final ProgressEngine e = engine;
            if (e != null)
            {
                e.wakeup();
            }
        }
    }

    private final class Context implements TransportContext
    {
        private final String[] nodes;
        private final String[] jvms;
        private final Runnable waker;
        private final ConcurrentMap<String, Object> jvmShared;

        Context(final String[] nodes, final String[] jvms, final Runnable waker, final ConcurrentMap<String, Object> jvmShared)
        {
            this.nodes = nodes;
            this.jvms = jvms;
            this.waker = waker;
            this.jvmShared = jvmShared;
        }

        @Override
        public Runnable waker()
        {
            return waker;
        }

        @Override
        public long initTimeoutNs()
        {
            return initTimeoutNs;
        }

        @Override
        public ConcurrentMap<String, Object> jvmShared()
        {
            return jvmShared;
        }

        @Override
        public int rank()
        {
            return rank;
        }

        @Override
        public int size()
        {
            return size;
        }

        @Override
        public String jobId()
        {
            return bootstrap.jobId();
        }

        @Override
        public Bootstrap bootstrap()
        {
            return bootstrap;
        }

        @Override
        public Params params()
        {
            return params;
        }

        @Override
        public String nodeId(final int r)
        {
            return nodes[r];
        }

        @Override
        public String jvmId(final int r)
        {
            return jvms[r];
        }
    }
}
