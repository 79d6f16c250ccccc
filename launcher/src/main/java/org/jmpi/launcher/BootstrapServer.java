package org.jmpi.launcher;

import org.jmpi.internal.bootstrap.BootstrapAuth;
import org.jmpi.internal.bootstrap.BootstrapEnv;
import org.jmpi.internal.bootstrap.BootstrapMessage;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.util.BitSet;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

import static org.jmpi.internal.bootstrap.BootstrapProtocolDescriptor.*;

/**
 * The bootstrap service of a job on this node: a key/value store, a fence and abort, served over
 * loopback TCP to ranks that prove the job's secret (wire format: {@code BootstrapProtocolDescriptor}).
 * One platform thread accepts; one daemon thread serves each connection (jobs have at most a few
 * hundred ranks, so a thread each is simpler than a selector and just as good).
 *
 * <p>Threading: the store and fence state are guarded by this object's monitor; waiting gets and
 * fences wait on it and are woken by puts, fence arrivals, failures and {@link #close()}.
 */
public final class BootstrapServer implements BootstrapService
{
    private static final int HANDSHAKE_TIMEOUT_MS = 10_000;

    private final int size;
    private final String jobId;
    private final byte[] secret;
    private final Listener listener;
    private final ServerSocket serverSocket;
    private final Thread acceptor;
    private final Set<Socket> connections = ConcurrentHashMap.newKeySet();
    private final Map<String, byte[]> store = new HashMap<>();
    private final BitSet fenceArrived = new BitSet();
    private long fenceGeneration;
    private String failure;
    private boolean closed;

    private BootstrapServer(final int size, final String jobId, final byte[] secret, final Listener listener,
        final ServerSocket serverSocket)
    {
        this.size = size;
        this.jobId = jobId;
        this.secret = secret;
        this.listener = listener;
        this.serverSocket = serverSocket;
        this.acceptor = Thread.ofPlatform().daemon().name("jmpirun-bootstrap-accept").unstarted(this::acceptLoop);
    }

    /**
     * Starts a server for a job of {@code size} ranks on an ephemeral loopback port, with a fresh random
     * secret.
     *
     * @throws UncheckedIOException when no loopback port can be bound.
     */
    public static BootstrapServer start(final int size, final String jobId, final Listener listener)
    {
        if (size < 1)
        {
            throw new IllegalArgumentException("job size must be at least 1: size=" + size);
        }
        if (!BootstrapEnv.JOB_ID_PATTERN.matcher(jobId).matches())
        {
            throw new IllegalArgumentException("job id must match " + BootstrapEnv.JOB_ID_PATTERN.pattern() + ": " + jobId);
        }
        try
        {
            final ServerSocket socket = new ServerSocket();
            socket.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), Math.max(50, size));
            final BootstrapServer server = new BootstrapServer(size, jobId, BootstrapAuth.newSecret(), listener, socket);
            server.acceptor.start();
            return server;
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("jmpirun: cannot bind the bootstrap service on loopback: " + ex.getMessage(), ex);
        }
    }

    /** Where ranks connect. */
    public InetSocketAddress address()
    {
        return (InetSocketAddress)serverSocket.getLocalSocketAddress();
    }

    /** The job's secret; for tests that connect as a rank. */
    byte[] secret()
    {
        return secret.clone();
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
        final InetSocketAddress address = address();
        return Map.of(
            BootstrapEnv.RANK_ENV_NAME, Integer.toString(rank),
            BootstrapEnv.SIZE_ENV_NAME, Integer.toString(size),
            BootstrapEnv.JOB_ID_ENV_NAME, jobId,
            BootstrapEnv.BOOTSTRAP_ENV_NAME, address.getAddress().getHostAddress() + ":" + address.getPort(),
            BootstrapEnv.SECRET_ENV_NAME, BootstrapAuth.encodeSecret(secret),
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
        closeQuietly(serverSocket);
        connections.forEach(BootstrapServer::closeQuietly);
    }

    private void acceptLoop()
    {
        while (!serverSocket.isClosed())
        {
            final Socket socket;
            try
            {
                socket = serverSocket.accept();
            }
            catch (final IOException ex)
            {
                return;
            }
            connections.add(socket);
            if (serverSocket.isClosed())
            {
                closeQuietly(socket);
                return;
            }
            Thread.ofPlatform().daemon().name("jmpirun-bootstrap-conn").stackSize(256 * 1024).start(() -> serve(socket));
        }
    }

    private void serve(final Socket socket)
    {
        try (socket)
        {
            socket.setTcpNoDelay(true);
            socket.setSoTimeout(HANDSHAKE_TIMEOUT_MS);
            final DataInputStream in = new DataInputStream(new BufferedInputStream(socket.getInputStream()));
            final OutputStream out = new BufferedOutputStream(socket.getOutputStream());
            final int rank = handshake(in, out);
            if (rank < 0)
            {
                return;
            }
            socket.setSoTimeout(0);
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
                    case TYPE_GET -> get(rank, request);
                    case TYPE_FENCE -> fence(rank, request.timeoutNs());
                    case TYPE_ABORT -> abort(rank, request);
                    case TYPE_CLOSE -> BootstrapMessage.response(STATUS_OK, null);
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
            connections.remove(socket);
        }
    }

    /** The authenticated rank, or -1 after answering a failed handshake. */
    private int handshake(final DataInputStream in, final OutputStream out) throws IOException
    {
        final byte[] nonce = BootstrapAuth.newNonce();
        send(out, BootstrapMessage.request(TYPE_CHALLENGE, -1, 0, 0, "", nonce));
        final BootstrapMessage hello;
        try
        {
            hello = BootstrapMessage.readFrom(in);
        }
        catch (final IOException ex)
        {
            return -1;
        }
        if (hello == null)
        {
            return -1;
        }
        final String refusal;
        if (hello.version() != VERSION)
        {
            refusal = "protocol version " + hello.version() + " not supported, expected " + VERSION;
        }
        else if (hello.type() != TYPE_HELLO)
        {
            refusal = "expected HELLO, got " + typeName(hello.type());
        }
        else if (!jobId.equals(hello.key()))
        {
            refusal = "wrong job id " + hello.key();
        }
        else if (hello.rank() < 0 || hello.rank() >= size)
        {
            refusal = "rank out of range: rank=" + hello.rank() + ", size=" + size;
        }
        else if (!BootstrapAuth.verify(secret, nonce, jobId, hello.rank(), hello.value()))
        {
            refusal = "wrong secret";
        }
        else
        {
            refusal = null;
        }
        if (refusal != null)
        {
            send(out, BootstrapMessage.failure(STATUS_AUTH_FAILED, refusal));
            return -1;
        }
        send(out, BootstrapMessage.response(STATUS_OK, null));
        return hello.rank();
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

    private synchronized BootstrapMessage get(final int rank, final BootstrapMessage request)
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

    private static void closeQuietly(final AutoCloseable closeable)
    {
        try
        {
            closeable.close();
        }
        catch (final SocketException ex)
        {
            // Already closed.
        }
        catch (final Exception ex)
        {
            // Closing on shutdown: nothing to report.
        }
    }
}
