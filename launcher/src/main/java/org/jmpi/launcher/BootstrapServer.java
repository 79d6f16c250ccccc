package org.jmpi.launcher;

import org.jmpi.internal.bootstrap.BootstrapAuth;
import org.jmpi.internal.bootstrap.BootstrapEnv;
import org.jmpi.internal.bootstrap.BootstrapMessage;
import org.jmpi.internal.bootstrap.BootstrapParams;
import org.jmpi.spi.Params;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
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
 * <p>Parts: {@link BootstrapAcceptor} (the selector thread: accept and handshakes),
 * {@link BootstrapCredentials} (tickets, rank keys, the cap per rank), {@link BootstrapStore} (store,
 * fence, heartbeats, failure); this class starts and stops them and serves authenticated connections.
 *
 * <p>Threading: the selector thread owns the handshakes, the tickets' spent flags and the
 * {@link RefusalLog}; the store and fence state are guarded by the {@link BootstrapStore}'s monitor; waiting
 * gets and fences wait on it and are woken by puts, fence arrivals, failures and {@link #close()}.
 */
public final class BootstrapServer implements BootstrapService
{
    /** Authenticated connections one rank may hold at once (its main one, abort, a few more). */
    static final int MAX_CONNECTIONS_PER_RANK = 8;

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
    private final Listener listener;
    private final Config config;
    private final ServerSocketChannel serverChannel;
    private final BootstrapCredentials credentials;
    private final BootstrapStore store;
    private final BootstrapAcceptor acceptor;
    private final Set<SocketChannel> connections = ConcurrentHashMap.newKeySet();
    private volatile SpawnHandler spawnHandler;
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
        this.credentials = new BootstrapCredentials(size, jobId, givenTickets);
        this.store = new BootstrapStore(size);
        this.acceptor = new BootstrapAcceptor(config, credentials, this::handOff, new RefusalLog(config.logIntervalNs(), log),
            serverChannel, selector);
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
            server.acceptor.start();
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
        return credentials.ticket(rank);
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
            BootstrapEnv.TICKET_ENV_NAME, credentials.encodedTicket(rank),
            BootstrapEnv.LAUNCHER_PID_ENV_NAME, Long.toString(ProcessHandle.current().pid()));
    }

    @Override
    public boolean initialized(final int rank)
    {
        return store.initialized(rank);
    }

    @Override
    public boolean finalized(final int rank)
    {
        return store.finalized(rank);
    }

    @Override
    public void rankExited(final int rank, final String how)
    {
        store.rankExited(rank, how);
    }

    @Override
    public void fail(final String reason)
    {
        store.fail(reason);
    }

    @Override
    public int silentRank(final long silenceNs)
    {
        return store.silentRank(silenceNs);
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
        acceptor.stop();
        connections.forEach(BootstrapServer::closeQuietly);
        try
        {
            acceptor.join(TimeUnit.SECONDS.toMillis(1));
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
        }
    }

    /** On the selector thread, after the connection's key is deregistered: start its thread. */
    private void handOff(final SocketChannel channel, final int rank, final byte[] okFrame)
    {
        try
        {
            channel.configureBlocking(true);
            connections.add(channel);
            if (acceptor.stopping())
            {
                throw new IOException("server closing");
            }
            Thread.ofPlatform().daemon().name("jmpirun-bootstrap-rank-" + rank).stackSize(256 * 1024)
                .start(() -> serve(channel, rank, okFrame));
        }
        catch (final IOException | RuntimeException | OutOfMemoryError ex)
        {
            connections.remove(channel);
            credentials.release(rank);
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
                    case TYPE_PUT -> store.put(request);
                    case TYPE_GET -> store.get(request);
                    case TYPE_FENCE -> store.fence(rank, request.timeoutNs());
                    case TYPE_ABORT -> abort(rank, request);
                    case TYPE_CLOSE -> BootstrapMessage.response(STATUS_OK, null);
                    case TYPE_HEARTBEAT -> store.heartbeat(rank, request.timeoutNs());
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
            credentials.release(rank);
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

    private BootstrapMessage abort(final int rank, final BootstrapMessage request)
    {
        final String message = request.valueText();
        fail("rank " + rank + " called abort with code " + request.code() + ": " + message);
        listener.onAbort(rank, request.code(), message);
        return BootstrapMessage.response(STATUS_OK, null);
    }

    private static void send(final OutputStream out, final BootstrapMessage message) throws IOException
    {
        message.writeTo(out);
        out.flush();
    }

    static void closeQuietly(final AutoCloseable closeable)
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
}
