package org.jmpi.launcher;

import org.jmpi.internal.bootstrap.BootstrapAuth;
import org.jmpi.internal.bootstrap.BootstrapEnv;
import org.jmpi.internal.bootstrap.BootstrapMessage;
import org.jmpi.internal.bootstrap.BootstrapParams;
import org.jmpi.internal.bootstrap.HandshakeFrameDecoder;
import org.jmpi.spi.Params;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;

import static org.jmpi.internal.bootstrap.BootstrapProtocolDescriptor.*;

/**
 * The bootstrap service of a job: a key/value store, a fence and abort, served over TCP to ranks that
 * prove a credential of the job (wire format and conversation: {@code BootstrapProtocolDescriptor};
 * threat model: docs/security.md). Bound to the address of its {@link Config} (loopback for jmpirun).
 *
 * <p>Before authentication a client costs a bounded amount and no thread: one selector thread accepts
 * and runs every handshake, non-blocking, in a fixed buffer per connection sized for the largest valid
 * HELLO (a longer announced frame is refused on its length field); a handshake must complete within
 * {@link Config#handshakeTimeoutNs} of accept; at most {@link Config#maxUnauthenticated} handshakes run
 * at once, further connections are closed at accept; every refusal says only "refused"; what was turned
 * away is reported through {@link RefusalLog}. Accept errors (EMFILE and the like) pause accepting with
 * back-off (10 ms doubling to 1 s) and are reported; the selector loop survives every error. An
 * authenticated connection gets its own platform thread for blocking requests (at most
 * {@link #MAX_CONNECTIONS_PER_RANK} per rank, so at most that many times the job size).
 *
 * <p>Credentials: each rank has a single-use ticket (in its environment) and a rank key, handed over
 * wrapped on the connection that spends the ticket (see {@code BootstrapAuth}).
 *
 * <p>Threading: the selector thread owns the handshakes, the tickets' spent flags and the
 * {@link RefusalLog}; the store and fence state are guarded by this object's monitor; waiting gets and
 * fences wait on it and are woken by puts, fence arrivals, failures and {@link #close()}.
 */
public final class BootstrapServer implements BootstrapService
{
    /** Authenticated connections one rank may hold at once (its main one, abort, a few more). */
    static final int MAX_CONNECTIONS_PER_RANK = 8;
    private static final int ACCEPTS_PER_WAKEUP = 64;
    private static final long ACCEPT_BACKOFF_MIN_NS = TimeUnit.MILLISECONDS.toNanos(10);
    private static final long ACCEPT_BACKOFF_MAX_NS = TimeUnit.SECONDS.toNanos(1);
    private static final byte[] REFUSED_FRAME = BootstrapMessage.failure(STATUS_AUTH_FAILED, REFUSED).encode();

    /**
     * How a server listens and how it bounds clients that have not authenticated.
     *
     * @param bindAddress where to listen (jmpirun: loopback)
     * @param handshakeTimeoutNs from accept to the end of the handshake, for the whole handshake
     * @param maxUnauthenticated handshakes in progress at once; further connections are closed at accept
     * @param logIntervalNs at most one report of turned-away connections per this interval
     */
    public record Config(InetAddress bindAddress, long handshakeTimeoutNs, int maxUnauthenticated, long logIntervalNs)
    {
        public Config
        {
            if (bindAddress == null)
            {
                throw new IllegalArgumentException("bootstrap bind address must be given");
            }
            if (handshakeTimeoutNs <= 0)
            {
                throw new IllegalArgumentException(BootstrapParams.HANDSHAKE_TIMEOUT.name() + " must be positive: " +
                    TimeUnit.NANOSECONDS.toMillis(handshakeTimeoutNs) + " ms");
            }
            if (maxUnauthenticated < 1)
            {
                throw new IllegalArgumentException(BootstrapParams.MAX_UNAUTHENTICATED.name() + " must be at least 1: " + maxUnauthenticated);
            }
            if (logIntervalNs < 0)
            {
                throw new IllegalArgumentException(BootstrapParams.LOG_INTERVAL.name() + " must not be negative: " +
                    TimeUnit.NANOSECONDS.toMillis(logIntervalNs) + " ms");
            }
        }

        /** On loopback, the limits from {@code params} ({@code BootstrapParams}). */
        public static Config loopback(final Params params)
        {
            return new Config(InetAddress.getLoopbackAddress(),
                TimeUnit.MILLISECONDS.toNanos(params.getLong(BootstrapParams.HANDSHAKE_TIMEOUT)),
                params.getInt(BootstrapParams.MAX_UNAUTHENTICATED),
                TimeUnit.MILLISECONDS.toNanos(params.getLong(BootstrapParams.LOG_INTERVAL)));
        }

        /**
         * For a job with ranks on other hosts: on {@code jmpi.bootstrap.if} (every address when empty),
         * the limits from {@code params}.
         *
         * @throws IllegalArgumentException when {@code jmpi.bootstrap.if} matches no address
         */
        public static Config acrossHosts(final Params params)
        {
            final Config limits = loopback(params);
            return new Config(BootstrapAddresses.bindAddress(params.get(BootstrapParams.BIND_IF)),
                limits.handshakeTimeoutNs(), limits.maxUnauthenticated(), limits.logIntervalNs());
        }

        /** On loopback, the parameters' defaults (or system properties and environment variables). */
        public static Config loopbackDefaults()
        {
            return loopback(new Params(Map.of()));
        }
    }

    private final int size;
    private final String jobId;
    private final byte[][] tickets;
    private final byte[][] rankKeys;
    private final BitSet ticketsSpent = new BitSet();
    private final byte[] decoyKey = BootstrapAuth.newSecret();
    private final Listener listener;
    private final Config config;
    private final ServerSocketChannel serverChannel;
    private final Selector selector;
    private final SelectionKey acceptKey;
    private final RefusalLog refusals;
    private final Thread selectorThread;
    private final ArrayDeque<Handshake> handshakes = new ArrayDeque<>();
    private final List<Handshake> authenticated = new ArrayList<>();
    private final AtomicIntegerArray connectionsPerRank;
    private final Set<SocketChannel> connections = ConcurrentHashMap.newKeySet();
    private final Map<String, byte[]> store = new HashMap<>();
    private final BitSet fenceArrived = new BitSet();
    private final BitSet exited = new BitSet();
    /** Per rank: System.nanoTime() of its last heartbeat, 0 before the first (not watched). */
    private final long[] lastHeartbeatNs;
    private int unauthenticated;
    private volatile SpawnHandler spawnHandler;
    private long acceptBackoffNs = ACCEPT_BACKOFF_MIN_NS;
    private long acceptResumeNs;
    private boolean acceptPaused;
    private volatile boolean stopping;
    private long fenceGeneration;
    private String failure;
    private boolean closed;

    private BootstrapServer(final int size, final String jobId, final Listener listener, final Config config,
        final Consumer<String> log, final ServerSocketChannel serverChannel, final Selector selector, final byte[][] givenTickets)
        throws IOException
    {
        this.size = size;
        this.jobId = jobId;
        this.listener = listener;
        this.config = config;
        this.serverChannel = serverChannel;
        this.selector = selector;
        this.tickets = new byte[size][];
        this.rankKeys = new byte[size][];
        for (int rank = 0; rank < size; rank++)
        {
            tickets[rank] = givenTickets != null ? givenTickets[rank].clone() : BootstrapAuth.newSecret();
            rankKeys[rank] = BootstrapAuth.newSecret();
        }
        this.connectionsPerRank = new AtomicIntegerArray(size);
        this.lastHeartbeatNs = new long[size];
        this.refusals = new RefusalLog(config.logIntervalNs(), log);
        this.acceptKey = serverChannel.register(selector, SelectionKey.OP_ACCEPT);
        this.selectorThread = Thread.ofPlatform().daemon().name("jmpirun-bootstrap").unstarted(this::selectLoop);
    }

    /**
     * Starts a server for a job of {@code size} ranks on an ephemeral loopback port with the default
     * limits, reporting turned-away connections on stderr.
     *
     * @throws UncheckedIOException when no loopback port can be bound.
     */
    public static BootstrapServer start(final int size, final String jobId, final Listener listener)
    {
        return start(size, jobId, listener, Config.loopbackDefaults(), System.err::println);
    }

    /**
     * Starts a server for a job of {@code size} ranks on an ephemeral port of {@code config}'s address,
     * with fresh random credentials; {@code log} receives the launcher's reports (one line each).
     *
     * @throws UncheckedIOException when the address cannot be bound.
     */
    public static BootstrapServer start(final int size, final String jobId, final Listener listener, final Config config,
        final Consumer<String> log)
    {
        return start(size, jobId, listener, config, log, null);
    }

    /**
     * As {@link #start(int, String, Listener, Config, Consumer)} with the ranks' tickets given
     * ({@code tickets[rank]}, {@link BootstrapAuth#SECRET_LENGTH} bytes each) instead of drawn: for a job
     * whose ranks derive their tickets themselves (ranks started by srun, {@link HostedRendezvous}).
     */
    static BootstrapServer start(final int size, final String jobId, final Listener listener, final Config config,
        final Consumer<String> log, final byte[][] tickets)
    {
        if (tickets != null && (tickets.length != size ||
            java.util.Arrays.stream(tickets).anyMatch(t -> t == null || t.length != BootstrapAuth.SECRET_LENGTH)))
        {
            throw new IllegalArgumentException("need " + size + " tickets of " + BootstrapAuth.SECRET_LENGTH + " bytes");
        }
        if (size < 1)
        {
            throw new IllegalArgumentException("job size must be at least 1: size=" + size);
        }
        if (!BootstrapEnv.JOB_ID_PATTERN.matcher(jobId).matches())
        {
            throw new IllegalArgumentException("job id must match " + BootstrapEnv.JOB_ID_PATTERN.pattern() + ": " + jobId);
        }
        ServerSocketChannel channel = null;
        Selector selector = null;
        try
        {
            channel = ServerSocketChannel.open();
            channel.bind(new InetSocketAddress(config.bindAddress(), 0), Math.max(128, size));
            channel.configureBlocking(false);
            selector = Selector.open();
            final BootstrapServer server = new BootstrapServer(size, jobId, listener, config, log, channel, selector, tickets);
            server.selectorThread.start();
            return server;
        }
        catch (final IOException ex)
        {
            closeQuietly(channel);
            closeQuietly(selector);
            throw new UncheckedIOException("jmpirun: cannot bind the bootstrap service on " + config.bindAddress().getHostAddress() +
                ": " + ex.getMessage(), ex);
        }
    }

    /** Where ranks connect. */
    public InetSocketAddress address()
    {
        try
        {
            return (InetSocketAddress)serverChannel.getLocalAddress();
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("bootstrap server closed", ex);
        }
    }

    /** Rank {@code rank}'s single-use ticket; for tests that connect as a rank. */
    byte[] ticket(final int rank)
    {
        return tickets[rank].clone();
    }

    @Override
    public String jobId()
    {
        return jobId;
    }

    @Override
    public Map<String, String> rankEnvironment(final int rank)
    {
        if (rank < 0 || rank >= size)
        {
            throw new IllegalArgumentException("rank out of range: rank=" + rank + ", size=" + size);
        }
        final int port = address().getPort();
        final StringBuilder endpoints = new StringBuilder();
        for (final InetAddress advertised : BootstrapAddresses.advertised(config.bindAddress()))
        {
            endpoints.append(endpoints.isEmpty() ? "" : ",").append(advertised.getHostAddress()).append(':').append(port);
        }
        return Map.of(
            BootstrapEnv.RANK_ENV_NAME, Integer.toString(rank),
            BootstrapEnv.SIZE_ENV_NAME, Integer.toString(size),
            BootstrapEnv.JOB_ID_ENV_NAME, jobId,
            BootstrapEnv.BOOTSTRAP_ENV_NAME, endpoints.toString(),
            BootstrapEnv.TICKET_ENV_NAME, BootstrapAuth.encodeSecret(tickets[rank]),
            BootstrapEnv.LAUNCHER_PID_ENV_NAME, Long.toString(ProcessHandle.current().pid()));
    }

    @Override
    public synchronized boolean initialized(final int rank)
    {
        return store.containsKey(BootstrapEnv.INIT_KEY_PREFIX + rank);
    }

    @Override
    public synchronized boolean finalized(final int rank)
    {
        return store.containsKey(BootstrapEnv.FINALIZED_KEY_PREFIX + rank);
    }

    @Override
    public synchronized void rankExited(final int rank, final String how)
    {
        exited.set(rank);
        if (!finalized(rank))
        {
            fail("rank " + rank + " " + how);
        }
    }

    @Override
    public synchronized void fail(final String reason)
    {
        if (failure == null)
        {
            failure = reason;
        }
        notifyAll();
    }

    @Override
    public void close()
    {
        synchronized (this)
        {
            if (closed)
            {
                return;
            }
            closed = true;
            fail("the launcher is stopping the job");
        }
        stopping = true;
        closeQuietly(serverChannel);
        selector.wakeup();
        connections.forEach(BootstrapServer::closeQuietly);
        try
        {
            selectorThread.join(TimeUnit.SECONDS.toMillis(1));
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
        }
    }

    /** The selector thread: runs until {@link #close()}, whatever goes wrong in a step. */
    private void selectLoop()
    {
        long errorBackoffNs = ACCEPT_BACKOFF_MIN_NS;
        while (!stopping)
        {
            try
            {
                step();
                errorBackoffNs = ACCEPT_BACKOFF_MIN_NS;
            }
            catch (final Throwable ex)
            {
                if (stopping)
                {
                    break;
                }
                // Whatever it was (an I/O error of the selector, OutOfMemoryError elsewhere in the JVM), the
                // service must go on: report it like a failed accept, back off, try again.
                try
                {
                    refusals.acceptFailed("bootstrap selector: " + ex);
                    refusals.poll(System.nanoTime());
                }
                catch (final Throwable ignored)
                {
                    // Reporting failed too (no memory); backing off is all that is left.
                }
                LockSupport.parkNanos(errorBackoffNs);
                errorBackoffNs = Math.min(ACCEPT_BACKOFF_MAX_NS, errorBackoffNs * 2);
            }
        }
        for (final Handshake handshake : handshakes)
        {
            closeQuietly(handshake.channel);
        }
        handshakes.clear();
        closeQuietly(selector);
        refusals.flush(System.nanoTime());
    }

    /**
     * 1. Close handshakes past their deadline; resume accepting when a back-off has run out.
     * 2. Report turned-away connections if due.
     * 3. Wait for readiness until the earliest of: the next deadline, the end of the back-off, the next report.
     * 4. Accept new connections; advance handshakes that can read or write.
     * 5. Hand authenticated connections to their threads (their keys deregistered first).
     */
    private void step() throws IOException
    {
        final long nowNs = System.nanoTime();
        long waitNs = expireHandshakes(nowNs);
        if (acceptPaused)
        {
            if (nowNs - acceptResumeNs >= 0)
            {
                acceptPaused = false;
                acceptKey.interestOps(SelectionKey.OP_ACCEPT);
            }
            else
            {
                waitNs = Math.min(waitNs, acceptResumeNs - nowNs);
            }
        }
        waitNs = Math.min(waitNs, refusals.poll(nowNs));
        if (waitNs == Long.MAX_VALUE)
        {
            selector.select();
        }
        else
        {
            selector.select(Math.max(1, TimeUnit.NANOSECONDS.toMillis(waitNs + 999_999)));
        }
        final Iterator<SelectionKey> ready = selector.selectedKeys().iterator();
        while (ready.hasNext())
        {
            final SelectionKey key = ready.next();
            ready.remove();
            if (key == acceptKey)
            {
                if (key.isValid())
                {
                    acceptReady();
                }
            }
            else if (key.attachment() instanceof Handshake handshake)
            {
                handshake.onReady(key);
            }
        }
        if (!authenticated.isEmpty())
        {
            selector.selectNow();
            for (final Handshake handshake : authenticated)
            {
                handOff(handshake);
            }
            authenticated.clear();
        }
    }

    /** Closes every handshake past its deadline; returns nanoseconds until the next deadline. */
    private long expireHandshakes(final long nowNs)
    {
        while (!handshakes.isEmpty())
        {
            final Handshake first = handshakes.peekFirst();
            if (first.done)
            {
                handshakes.pollFirst();
                continue;
            }
            if (nowNs - first.deadlineNs < 0)
            {
                return first.deadlineNs - nowNs;
            }
            handshakes.pollFirst();
            first.finish(RefusalLog.Kind.TIMED_OUT);
        }
        return Long.MAX_VALUE;
    }

    private void acceptReady()
    {
        for (int accepted = 0; accepted < ACCEPTS_PER_WAKEUP; accepted++)
        {
            final SocketChannel channel;
            try
            {
                channel = serverChannel.accept();
            }
            catch (final IOException ex)
            {
                if (stopping)
                {
                    return;
                }
                refusals.acceptFailed(String.valueOf(ex.getMessage()));
                acceptKey.interestOps(0);
                acceptPaused = true;
                acceptResumeNs = System.nanoTime() + acceptBackoffNs;
                acceptBackoffNs = Math.min(ACCEPT_BACKOFF_MAX_NS, acceptBackoffNs * 2);
                return;
            }
            if (channel == null)
            {
                return;
            }
            acceptBackoffNs = ACCEPT_BACKOFF_MIN_NS;
            final String peer = peerAddress(channel);
            if (unauthenticated >= config.maxUnauthenticated())
            {
                refusals.record(RefusalLog.Kind.OVER_CAP, peer);
                closeQuietly(channel);
                continue;
            }
            try
            {
                channel.configureBlocking(false);
                channel.setOption(StandardSocketOptions.TCP_NODELAY, true);
                final Handshake handshake = new Handshake(channel, peer, System.nanoTime() + config.handshakeTimeoutNs());
                handshake.key = channel.register(selector, SelectionKey.OP_READ, handshake);
                unauthenticated++;
                handshakes.addLast(handshake);
                handshake.write();
            }
            catch (final IOException | RuntimeException ex)
            {
                refusals.record(RefusalLog.Kind.CLOSED_EARLY, peer);
                closeQuietly(channel);
            }
        }
    }

    /**
     * Checks a complete HELLO. Every check runs whatever the earlier ones found (the proof is computed,
     * with a decoy key if need be), and every failure gets the same answer, so a client learns nothing
     * but "refused".
     *
     * @return the OK frame to send (with the wrapped rank key for a ticket), or null to refuse.
     */
    private byte[] verify(final BootstrapMessage hello, final byte[] nonce)
    {
        final int rank = hello.rank();
        final boolean rankValid = rank >= 0 && rank < size;
        final boolean ticket = hello.code() == CREDENTIAL_TICKET;
        final byte[] key = !rankValid ? decoyKey : ticket ? tickets[rank] : rankKeys[rank];
        final boolean proofValid = BootstrapAuth.verify(key, nonce, jobId, rank, hello.value());
        boolean ok = proofValid & rankValid & hello.version() == VERSION & hello.type() == TYPE_HELLO &
            jobId.equals(hello.key()) & (ticket || hello.code() == CREDENTIAL_RANK_KEY);
        ok = ok && (ticket ? !ticketsSpent.get(rank) : true);
        ok = ok && connectionsPerRank.get(rank) < MAX_CONNECTIONS_PER_RANK;
        if (!ok)
        {
            return null;
        }
        connectionsPerRank.incrementAndGet(rank);
        if (ticket)
        {
            ticketsSpent.set(rank);
            return BootstrapMessage.response(STATUS_OK, BootstrapAuth.wrapRankKey(rankKeys[rank], tickets[rank], nonce, jobId, rank)).encode();
        }
        return BootstrapMessage.response(STATUS_OK, null).encode();
    }

    /** On the selector thread, after the connection's key is deregistered: start its thread. */
    private void handOff(final Handshake handshake)
    {
        final SocketChannel channel = handshake.channel;
        try
        {
            channel.configureBlocking(true);
            connections.add(channel);
            if (stopping)
            {
                throw new IOException("server closing");
            }
            Thread.ofPlatform().daemon().name("jmpirun-bootstrap-rank-" + handshake.rank).stackSize(256 * 1024)
                .start(() -> serve(channel, handshake.rank, handshake.okFrame));
        }
        catch (final IOException | RuntimeException | OutOfMemoryError ex)
        {
            connections.remove(channel);
            connectionsPerRank.decrementAndGet(handshake.rank);
            closeQuietly(channel);
        }
    }

    /** An authenticated connection, on its own thread: answer the handshake, then serve requests until close. */
    private void serve(final SocketChannel channel, final int rank, final byte[] okFrame)
    {
        try (channel)
        {
            final DataInputStream in = new DataInputStream(new BufferedInputStream(channel.socket().getInputStream()));
            final OutputStream out = new BufferedOutputStream(channel.socket().getOutputStream());
            out.write(okFrame);
            out.flush();
            while (true)
            {
                final BootstrapMessage request = BootstrapMessage.readFrom(in);
                if (request == null)
                {
                    return;
                }
                if (request.version() != VERSION)
                {
                    send(out, BootstrapMessage.failure(STATUS_ERROR,
                        "protocol version " + request.version() + " not supported, expected " + VERSION));
                    return;
                }
                final BootstrapMessage response = switch (request.type())
                {
                    case TYPE_PUT -> put(request);
                    case TYPE_GET -> get(request);
                    case TYPE_FENCE -> fence(rank, request.timeoutNs());
                    case TYPE_ABORT -> abort(rank, request);
                    case TYPE_CLOSE -> BootstrapMessage.response(STATUS_OK, null);
                    case TYPE_HEARTBEAT -> heartbeat(rank, request.timeoutNs());
                    case TYPE_SPAWN -> spawn(rank, request);
                    default -> BootstrapMessage.failure(STATUS_ERROR, "unexpected request " + typeName(request.type()));
                };
                send(out, response);
                if (request.type() == TYPE_CLOSE || response.status() == STATUS_ERROR)
                {
                    return;
                }
            }
        }
        catch (final IOException ex)
        {
            // The rank went away or the server is closing; its process exit is what the launcher acts on.
        }
        finally
        {
            connections.remove(channel);
            connectionsPerRank.decrementAndGet(rank);
        }
    }

    @Override
    public void onSpawn(final SpawnHandler handler)
    {
        spawnHandler = handler;
    }

    /** Not synchronized: starting the children takes a while and must not hold up the other ranks' requests. */
    private BootstrapMessage spawn(final int rank, final BootstrapMessage request)
    {
        final SpawnHandler handler = spawnHandler;
        final byte[] reply = handler == null ?
            org.jmpi.internal.bootstrap.SpawnWire.Reply.failed("this launcher does not start processes for a running job").encode() :
            handler.spawn(rank, request.value());
        return BootstrapMessage.response(STATUS_OK, reply);
    }

    private synchronized BootstrapMessage put(final BootstrapMessage request)
    {
        if (request.key().isEmpty())
        {
            return BootstrapMessage.failure(STATUS_ERROR, "put with an empty key");
        }
        store.put(request.key(), request.value());
        notifyAll();
        return BootstrapMessage.response(STATUS_OK, null);
    }

    private synchronized BootstrapMessage get(final BootstrapMessage request)
    {
        final long deadlineNs = System.nanoTime() + clampTimeout(request.timeoutNs());
        byte[] value;
        while ((value = store.get(request.key())) == null)
        {
            if (failure != null)
            {
                return BootstrapMessage.failure(STATUS_JOB_FAILED, failure);
            }
            final long leftNs = deadlineNs - System.nanoTime();
            if (leftNs <= 0)
            {
                return BootstrapMessage.failure(STATUS_TIMEOUT, "key " + request.key() + " not published");
            }
            if (!await(leftNs))
            {
                return BootstrapMessage.failure(STATUS_JOB_FAILED, "interrupted");
            }
        }
        return BootstrapMessage.response(STATUS_OK, value);
    }

    /**
     * 1. Fail at once if the job has failed or the rank is already waiting (a protocol error).
     * 2. Mark the rank arrived; the last arrival starts the next generation and wakes everyone.
     * 3. Otherwise wait for the generation to change, the job to fail, or the timeout; a rank that times
     *    out withdraws its arrival so a retry counts once.
     */
    private synchronized BootstrapMessage fence(final int rank, final long timeoutNs)
    {
        if (failure != null)
        {
            return BootstrapMessage.failure(STATUS_JOB_FAILED, failure);
        }
        if (fenceArrived.get(rank))
        {
            return BootstrapMessage.failure(STATUS_ERROR, "rank " + rank + " entered the fence twice");
        }
        final long generation = fenceGeneration;
        fenceArrived.set(rank);
        if (fenceArrived.cardinality() == size)
        {
            fenceArrived.clear();
            fenceGeneration++;
            notifyAll();
            return BootstrapMessage.response(STATUS_OK, null);
        }
        final long deadlineNs = System.nanoTime() + clampTimeout(timeoutNs);
        while (fenceGeneration == generation)
        {
            final long leftNs = deadlineNs - System.nanoTime();
            if (failure != null || leftNs <= 0 || !await(leftNs))
            {
                fenceArrived.clear(rank);
                return failure != null ?
                    BootstrapMessage.failure(STATUS_JOB_FAILED, failure) :
                    BootstrapMessage.failure(STATUS_TIMEOUT, "fence: " + fenceArrived.cardinality() + " of " + size + " ranks arrived");
            }
        }
        return BootstrapMessage.response(STATUS_OK, null);
    }

    /** Notes {@code rank} as heard from now; answers after {@code timeoutNs}, or at once when the job fails. */
    private synchronized BootstrapMessage heartbeat(final int rank, final long timeoutNs)
    {
        lastHeartbeatNs[rank] = System.nanoTime() | 1;
        final long deadlineNs = System.nanoTime() + clampTimeout(timeoutNs);
        while (failure == null)
        {
            final long leftNs = deadlineNs - System.nanoTime();
            if (leftNs <= 0 || !await(leftNs))
            {
                break;
            }
        }
        return failure != null ? BootstrapMessage.failure(STATUS_JOB_FAILED, failure) : BootstrapMessage.response(STATUS_OK, null);
    }

    @Override
    public synchronized int silentRank(final long silenceNs)
    {
        final long now = System.nanoTime();
        for (int rank = 0; rank < size; rank++)
        {
            if (lastHeartbeatNs[rank] != 0 && now - lastHeartbeatNs[rank] > silenceNs && !exited.get(rank) && !finalized(rank))
            {
                return rank;
            }
        }
        return -1;
    }

    private BootstrapMessage abort(final int rank, final BootstrapMessage request)
    {
        final String message = request.valueText();
        fail("rank " + rank + " called abort with code " + request.code() + ": " + message);
        listener.onAbort(rank, request.code(), message);
        return BootstrapMessage.response(STATUS_OK, null);
    }

    private boolean await(final long leftNs)
    {
        try
        {
            TimeUnit.NANOSECONDS.timedWait(this, Math.max(1, leftNs));
            return true;
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private static long clampTimeout(final long timeoutNs)
    {
        return Math.max(0, Math.min(timeoutNs, TimeUnit.DAYS.toNanos(365)));
    }

    private static void send(final OutputStream out, final BootstrapMessage message) throws IOException
    {
        message.writeTo(out);
        out.flush();
    }

    private static String peerAddress(final SocketChannel channel)
    {
        try
        {
            final SocketAddress remote = channel.getRemoteAddress();
            return remote instanceof InetSocketAddress inet ? inet.getAddress().getHostAddress() : String.valueOf(remote);
        }
        catch (final IOException ex)
        {
            return "unknown";
        }
    }

    private static void closeQuietly(final AutoCloseable closeable)
    {
        if (closeable == null)
        {
            return;
        }
        try
        {
            closeable.close();
        }
        catch (final Exception ex)
        {
            // Closing a connection that is gone or a server that is stopping: nothing to report.
        }
    }

    /**
     * One connection between accept and the end of its handshake, on the selector thread: the challenge
     * being written, the HELLO being gathered in a fixed buffer.
     */
    private final class Handshake
    {
        final SocketChannel channel;
        final String peer;
        final long deadlineNs;
        final byte[] nonce = BootstrapAuth.newNonce();
        final HandshakeFrameDecoder decoder = new HandshakeFrameDecoder();
        final ByteBuffer out;
        SelectionKey key;
        boolean done;
        int rank;
        byte[] okFrame;

        Handshake(final SocketChannel channel, final String peer, final long deadlineNs)
        {
            this.channel = channel;
            this.peer = peer;
            this.deadlineNs = deadlineNs;
            this.out = ByteBuffer.wrap(BootstrapMessage.request(TYPE_CHALLENGE, -1, 0, 0, "", nonce).encode());
        }

        /** Writes what is left of the challenge; asks for writability while some is. */
        void write() throws IOException
        {
            channel.write(out);
            key.interestOps(out.hasRemaining() ? SelectionKey.OP_READ | SelectionKey.OP_WRITE : SelectionKey.OP_READ);
        }

        void onReady(final SelectionKey readyKey)
        {
            if (done)
            {
                return;
            }
            try
            {
                if (readyKey.isValid() && readyKey.isWritable() && out.hasRemaining())
                {
                    write();
                }
                if (!readyKey.isValid() || !readyKey.isReadable())
                {
                    return;
                }
                final ByteBuffer in = decoder.buffer();
                final int read = in.hasRemaining() ? channel.read(in) : 0;
                if (read < 0)
                {
                    finish(RefusalLog.Kind.CLOSED_EARLY);
                    return;
                }
                switch (decoder.update())
                {
                    case INCOMPLETE ->
                    {
                    }
                    case MALFORMED -> refuse();
                    case COMPLETE -> complete();
                }
            }
            catch (final IOException ex)
            {
                finish(RefusalLog.Kind.CLOSED_EARLY);
            }
        }

        private void complete() throws IOException
        {
            final BootstrapMessage hello;
            try
            {
                hello = decoder.message();
            }
            catch (final IOException ex)
            {
                refuse();
                return;
            }
            if (out.hasRemaining())
            {
                // A HELLO before the whole challenge was sent cannot answer it.
                refuse();
                return;
            }
            final byte[] ok = verify(hello, nonce);
            if (ok == null)
            {
                refuse();
                return;
            }
            done = true;
            unauthenticated--;
            rank = hello.rank();
            okFrame = ok;
            key.cancel();
            authenticated.add(this);
        }

        /** Answers "refused" if the socket takes it at once (never waits for that), and closes. */
        private void refuse()
        {
            try
            {
                channel.write(ByteBuffer.wrap(REFUSED_FRAME));
            }
            catch (final IOException ex)
            {
                // Gone already; closing is all that is left.
            }
            finish(RefusalLog.Kind.REFUSED);
        }

        void finish(final RefusalLog.Kind why)
        {
            if (done)
            {
                return;
            }
            done = true;
            unauthenticated--;
            refusals.record(why, peer);
            closeQuietly(channel);
        }
    }
}
