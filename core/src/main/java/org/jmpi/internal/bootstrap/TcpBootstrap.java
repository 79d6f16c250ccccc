package org.jmpi.internal.bootstrap;

import org.jmpi.ErrorClass;
import org.jmpi.MpiException;
import org.jmpi.spi.Bootstrap;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import static org.jmpi.internal.bootstrap.BootstrapProtocolDescriptor.*;

/**
 * A rank's client of the launcher's bootstrap service over TCP (see {@link BootstrapProtocolDescriptor}).
 * One connection carries put, get, fence and close, one request at a time; {@link #abort} opens its own
 * short connection so it works while another thread is blocked in {@link #get} or {@link #fence}.
 *
 * <p>Credentials: {@link #connect} proves the rank's single-use ticket and receives the rank key, which
 * this object keeps (in memory only) to prove on every later connection ({@link #abort},
 * {@link #newConnection}). Connecting is retried with back-off until its deadline while the server
 * closes the connection before its challenge (its cap on connections not yet authenticated is full, for
 * example under a flood of hostile clients); a refused connect (no launcher there) and a refused proof
 * are final.
 *
 * <p>Threading: requests are serialised on this object; {@link #abort} may be called from any thread.
 */
public final class TcpBootstrap implements Bootstrap
{
    /** Extra socket read time beyond a request's own timeout, for the server to answer. */
    private static final long RESPONSE_SLACK_MS = 10_000;
    private static final long ABORT_TIMEOUT_NS = TimeUnit.SECONDS.toNanos(5);
    private static final long RETRY_MIN_NS = TimeUnit.MILLISECONDS.toNanos(20);
    private static final long RETRY_MAX_NS = TimeUnit.MILLISECONDS.toNanos(500);
    /** Connect time allowed to each advertised address but the last, which gets what is left. */
    private static final long CONNECT_TRY_MS = 2_000;

    private final InetSocketAddress address;
    private final int rank;
    private final int size;
    private final String jobId;
    private final byte[] rankKey;
    private final Socket socket;
    private final DataInputStream in;
    private final OutputStream out;
    private boolean closed;
    private volatile Runnable onClose;

    private TcpBootstrap(final InetSocketAddress address, final int rank, final int size, final String jobId,
        final byte[] rankKey, final Connection connection)
    {
        this.address = address;
        this.rank = rank;
        this.size = size;
        this.jobId = jobId;
        this.rankKey = rankKey;
        this.socket = connection.socket;
        this.in = connection.in;
        this.out = connection.out;
    }

    /** An open socket and its streams. */
    private record Connection(Socket socket, DataInputStream in, OutputStream out)
    {
    }

    /** The address did not take the TCP connection (refused, no route, or not within its time). */
    private static final class Unreachable extends IOException
    {
        Unreachable(final IOException cause)
        {
            super(cause.getMessage(), cause);
        }
    }

    /** The server closed before it challenged (its cap was full): worth another try. */
    private static final class Unanswered extends IOException
    {
        Unanswered(final String message, final Throwable cause)
        {
            super(message, cause);
        }
    }

    /**
     * Connects and authenticates with the rank's single-use {@code ticket}.
     *
     * @throws MpiException ERR_OTHER when the service cannot be reached within {@code timeoutNs} or
     * refuses this rank's proof.
     */
    public static TcpBootstrap connect(final InetSocketAddress address, final int rank, final int size, final String jobId,
        final byte[] ticket, final long timeoutNs)
    {
        return connect(List.of(address), rank, size, jobId, ticket, timeoutNs);
    }

    /**
     * As {@link #connect(InetSocketAddress, int, int, String, byte[], long)}, trying the launcher's
     * {@code addresses} in order (each but the last for at most 2 s) until one accepts the connection;
     * that one serves this rank from then on.
     */
    public static TcpBootstrap connect(final List<InetSocketAddress> addresses, final int rank, final int size, final String jobId,
        final byte[] ticket, final long timeoutNs)
    {
        if (rank < 0 || rank >= size)
        {
            throw new MpiException(ErrorClass.ERR_ARG, "bootstrap rank out of range: rank=" + rank + ", size=" + size);
        }
        if (addresses.isEmpty())
        {
            throw new MpiException(ErrorClass.ERR_ARG, "bootstrap: no launcher address given: rank=" + rank);
        }
        final byte[][] rankKey = new byte[1][];
        final InetSocketAddress[] used = new InetSocketAddress[1];
        final long deadlineNs = System.nanoTime() + Math.max(0, timeoutNs);
        Connection connection = null;
        for (int i = 0; connection == null; i++)
        {
            final boolean last = i == addresses.size() - 1;
            try
            {
                connection = open(addresses.get(i), rank, jobId, CREDENTIAL_TICKET, ticket, deadlineNs - System.nanoTime(),
                    last ? Long.MAX_VALUE : CONNECT_TRY_MS, rankKey);
                used[0] = addresses.get(i);
            }
            catch (final MpiException ex)
            {
                // Only an address that did not take the connection is passed over: once connected, the
                // ticket may be spent, so a failure after that is final.
                if (last || !(ex.getCause() instanceof Unreachable))
                {
                    throw ex;
                }
            }
        }
        return new TcpBootstrap(used[0], rank, size, jobId, rankKey[0], connection);
    }

    /**
     * A second, independent connection of this rank, authenticated with the rank key (for a thread that
     * must not wait behind this connection's requests).
     *
     * @throws MpiException ERR_OTHER when the service cannot be reached within {@code timeoutNs} or
     * refuses the proof.
     */
    public TcpBootstrap newConnection(final long timeoutNs)
    {
        final Connection connection = open(address, rank, jobId, CREDENTIAL_RANK_KEY, rankKey, timeoutNs, Long.MAX_VALUE, null);
        return new TcpBootstrap(address, rank, size, jobId, rankKey, connection);
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
        return jobId;
    }

    @Override
    public void put(final String key, final byte[] value)
    {
        request(BootstrapMessage.request(TYPE_PUT, rank, 0, 0, key, value), 0);
    }

    @Override
    public byte[] get(final String key, final long timeoutNs)
    {
        return request(BootstrapMessage.request(TYPE_GET, rank, 0, Math.max(0, timeoutNs), key, null), timeoutNs).value();
    }

    @Override
    public void fence(final long timeoutNs)
    {
        request(BootstrapMessage.request(TYPE_FENCE, rank, 0, Math.max(0, timeoutNs), "", null), timeoutNs);
    }

    /**
     * Asks the launcher to start the children of a spawn ({@link SpawnWire}); waits while it starts their JVMs.
     *
     * @return the launcher's reply, decoded.
     * @throws MpiException ERR_SPAWN when the launcher does not serve spawn requests (an older one), ERR_OTHER when
     *                      it cannot be reached.
     */
    public SpawnWire.Reply spawn(final SpawnWire.Request request, final long timeoutNs)
    {
        final BootstrapMessage response;
        try
        {
            response = request(BootstrapMessage.request(TYPE_SPAWN, rank, 0, Math.max(0, timeoutNs), "", request.encode()), timeoutNs);
        }
        catch (final MpiException ex)
        {
            if (ex.getMessage().contains("rejected (ERROR)"))
            {
                throw new MpiException(ErrorClass.ERR_SPAWN, "spawn: the launcher does not start processes for a running job: " +
                    ex.getMessage(), ex);
            }
            throw ex;
        }
        return SpawnWire.Reply.decode(response.value());
    }

    @Override
    public void abort(final int exitCode, final String message)
    {
        try
        {
            final Connection connection = open(address, rank, jobId, CREDENTIAL_RANK_KEY, rankKey, ABORT_TIMEOUT_NS, Long.MAX_VALUE, null);
            try (Socket abortSocket = connection.socket)
            {
                final byte[] text = (message == null ? "" : message).getBytes(StandardCharsets.UTF_8);
                BootstrapMessage.request(TYPE_ABORT, rank, exitCode, 0, "", text).writeTo(connection.out);
                connection.out.flush();
                BootstrapMessage.readFrom(connection.in);
            }
        }
        catch (final IOException | RuntimeException ex)
        {
            System.err.println("jmpi: rank " + rank + ": could not deliver abort to the launcher at " + format(address) + ": " + ex);
        }
    }

    /**
     * One heartbeat on this connection (which should serve nothing else): tells the launcher this rank
     * is alive and waits for its answer, which comes after {@code waitNs} or as soon as the job fails.
     *
     * @return the answer's status ({@code STATUS_OK} or {@code STATUS_JOB_FAILED}); its text in {@code reason[0]}
     * @throws IOException when no answer came within {@code waitNs + silenceNs}, or the connection broke
     */
    synchronized byte heartbeat(final long waitNs, final long silenceNs, final String[] reason) throws IOException
    {
        socket.setSoTimeout((int)Math.max(1, TimeUnit.NANOSECONDS.toMillis(waitNs + silenceNs)));
        BootstrapMessage.request(TYPE_HEARTBEAT, rank, 0, waitNs, "", null).writeTo(out);
        out.flush();
        final BootstrapMessage response = BootstrapMessage.readFrom(in);
        if (response == null)
        {
            throw new IOException("the launcher closed the connection");
        }
        reason[0] = response.valueText();
        return response.status();
    }

    /** Closes the socket at once, without the lock (a thread may be blocked on it) and without CLOSE. */
    void abandon()
    {
        closeQuietly(socket);
    }

    /** Runs {@code action} first thing in {@link #close()} (stops the heartbeat watch). */
    void onClose(final Runnable action)
    {
        onClose = action;
    }

    /** Where this rank's launcher was reached. */
    InetSocketAddress address()
    {
        return address;
    }

    @Override
    public synchronized void close()
    {
        if (closed)
        {
            return;
        }
        closed = true;
        final Runnable action = onClose;
        if (action != null)
        {
            action.run();
        }
        try
        {
            socket.setSoTimeout((int)TimeUnit.NANOSECONDS.toMillis(ABORT_TIMEOUT_NS));
            BootstrapMessage.request(TYPE_CLOSE, rank, 0, 0, "", null).writeTo(out);
            out.flush();
            BootstrapMessage.readFrom(in);
        }
        catch (final IOException ex)
        {
            // The launcher may already be gone at finalize; closing is all that is left to do.
        }
        finally
        {
            closeQuietly(socket);
        }
    }

    private synchronized BootstrapMessage request(final BootstrapMessage request, final long timeoutNs)
    {
        final String what = typeName(request.type()) + (request.key().isEmpty() ? "" : " key=" + request.key());
        if (closed)
        {
            throw new MpiException(ErrorClass.ERR_OTHER, "bootstrap " + what + " after close: rank=" + rank);
        }
        final BootstrapMessage response;
        try
        {
            final long waitMs = TimeUnit.NANOSECONDS.toMillis(Math.max(0, timeoutNs)) + RESPONSE_SLACK_MS;
            socket.setSoTimeout((int)Math.min(Integer.MAX_VALUE, waitMs));
            request.writeTo(out);
            out.flush();
            response = BootstrapMessage.readFrom(in);
        }
        catch (final SocketTimeoutException ex)
        {
            throw new MpiException(ErrorClass.ERR_OTHER, "bootstrap " + what + ": launcher did not answer: rank=" + rank, ex);
        }
        catch (final IOException ex)
        {
            throw new MpiException(ErrorClass.ERR_OTHER, "bootstrap " + what + ": connection to the launcher at " +
                format(address) + " failed: rank=" + rank + ": " + ex.getMessage(), ex);
        }
        if (response == null)
        {
            throw new MpiException(ErrorClass.ERR_OTHER, "bootstrap " + what + ": the launcher closed the connection: rank=" + rank);
        }
        return switch (response.status())
        {
            case STATUS_OK -> response;
            case STATUS_TIMEOUT -> throw new MpiException(ErrorClass.ERR_OTHER,
                "bootstrap " + what + " timed out: rank=" + rank + ", timeoutNs=" + timeoutNs);
            case STATUS_JOB_FAILED -> throw new MpiException(ErrorClass.ERR_PROC_ABORTED,
                "bootstrap " + what + ": " + response.valueText() + ": rank=" + rank);
            default -> throw new MpiException(ErrorClass.ERR_OTHER,
                "bootstrap " + what + " rejected (" + statusName(response.status()) + "): " + response.valueText() + ": rank=" + rank);
        };
    }

    /**
     * 1. Connect and run the handshake, proving {@code credential} of kind {@code credentialKind}.
     * 2. When the server closed before its challenge, wait (20 ms doubling to 500 ms) and try again,
     *    until {@code timeoutNs} has passed since the first try.
     * 3. Anything else (connect refused, proof refused, protocol mismatch, the deadline) ends at once.
     *
     * @param connectTimeoutMs at most this long for the TCP connect itself (then {@link Unreachable})
     * @param rankKeyOut when not null, receives the rank key the server handed over (ticket credential).
     */
    private static Connection open(final InetSocketAddress address, final int rank, final String jobId, final int credentialKind,
        final byte[] credential, final long timeoutNs, final long connectTimeoutMs, final byte[][] rankKeyOut)
    {
        final long deadlineNs = System.nanoTime() + Math.max(0, timeoutNs);
        long backoffNs = RETRY_MIN_NS;
        while (true)
        {
            Socket socket = null;
            try
            {
                socket = new Socket();
                socket.setTcpNoDelay(true);
                try
                {
                    socket.connect(address, (int)Math.min(connectTimeoutMs, remainingMs(deadlineNs)));
                }
                catch (final IOException ex)
                {
                    throw new Unreachable(ex);
                }
                final Connection connection = new Connection(socket,
                    new DataInputStream(new BufferedInputStream(socket.getInputStream())),
                    new BufferedOutputStream(socket.getOutputStream()));
                final byte[] rankKey = handshake(connection, address, rank, jobId, credentialKind, credential, deadlineNs);
                if (rankKeyOut != null)
                {
                    rankKeyOut[0] = rankKey;
                }
                socket.setSoTimeout(0);
                return connection;
            }
            catch (final Unanswered ex)
            {
                closeQuietly(socket);
                final long leftNs = deadlineNs - System.nanoTime();
                if (leftNs <= 0)
                {
                    throw new MpiException(ErrorClass.ERR_OTHER, "bootstrap connect failed: address=" + format(address) +
                        ", rank=" + rank + ": " + ex.getMessage(), ex);
                }
                LockSupport.parkNanos(Math.min(backoffNs, leftNs));
                backoffNs = Math.min(RETRY_MAX_NS, backoffNs * 2);
            }
            catch (final IOException ex)
            {
                closeQuietly(socket);
                throw new MpiException(ErrorClass.ERR_OTHER, "bootstrap connect failed: address=" + format(address) +
                    ", rank=" + rank + ": " + ex.getMessage(), ex);
            }
            catch (final RuntimeException ex)
            {
                closeQuietly(socket);
                throw ex;
            }
        }
    }

    /** The rank key handed over for a ticket credential, else null. */
    private static byte[] handshake(final Connection connection, final InetSocketAddress address, final int rank,
        final String jobId, final int credentialKind, final byte[] credential, final long deadlineNs) throws IOException
    {
        connection.socket.setSoTimeout(remainingMs(deadlineNs));
        final BootstrapMessage challenge;
        try
        {
            challenge = BootstrapMessage.readFrom(connection.in, MAX_HANDSHAKE_FRAME_LENGTH);
        }
        catch (final SocketException ex)
        {
            throw new Unanswered("the launcher closed the connection before its challenge: " + ex.getMessage(), ex);
        }
        if (challenge == null)
        {
            throw new Unanswered("the launcher closed the connection before its challenge", null);
        }
        if (challenge.type() != TYPE_CHALLENGE || challenge.version() != VERSION || challenge.value().length != NONCE_LENGTH)
        {
            throw new MpiException(ErrorClass.ERR_OTHER, "bootstrap connect failed: address=" + format(address) + ", rank=" + rank +
                ": expected a version " + VERSION + " challenge, got " + challenge);
        }
        final byte[] nonce = challenge.value();
        final byte[] proof = BootstrapAuth.proof(credential, nonce, jobId, rank);
        BootstrapMessage.request(TYPE_HELLO, rank, credentialKind, 0, jobId, proof).writeTo(connection.out);
        connection.out.flush();
        connection.socket.setSoTimeout(remainingMs(deadlineNs));
        final BootstrapMessage response = BootstrapMessage.readFrom(connection.in, MAX_HANDSHAKE_FRAME_LENGTH);
        if (response == null)
        {
            throw new IOException("the launcher closed the connection during the handshake");
        }
        if (response.status() == STATUS_AUTH_FAILED)
        {
            throw new MpiException(ErrorClass.ERR_OTHER, "bootstrap authentication failed: address=" + format(address) +
                ", rank=" + rank + ", jobId=" + jobId + ", credential=" +
                (credentialKind == CREDENTIAL_TICKET ? "ticket" : "rank key") + ": " + response.valueText() +
                (credentialKind == CREDENTIAL_TICKET ? " (a ticket opens one connection only; was it used already?)" : ""));
        }
        if (response.status() != STATUS_OK)
        {
            throw new IOException("handshake rejected (" + statusName(response.status()) + "): " + response.valueText());
        }
        if (credentialKind != CREDENTIAL_TICKET)
        {
            return null;
        }
        if (response.value().length != BootstrapAuth.SECRET_LENGTH)
        {
            throw new IOException("handshake answer carries no rank key: valueBytes=" + response.value().length);
        }
        return BootstrapAuth.unwrapRankKey(response.value(), credential, nonce, jobId, rank);
    }

    private static int remainingMs(final long deadlineNs)
    {
        final long leftMs = TimeUnit.NANOSECONDS.toMillis(deadlineNs - System.nanoTime());
        return (int)Math.max(1, Math.min(Integer.MAX_VALUE, leftMs));
    }

    private static String format(final InetSocketAddress address)
    {
        return address.getHostString() + ":" + address.getPort();
    }

    private static void closeQuietly(final Socket socket)
    {
        if (socket != null)
        {
            try
            {
                socket.close();
            }
            catch (final IOException ex)
            {
                // Nothing useful to do with a failure to close.
            }
        }
    }
}
