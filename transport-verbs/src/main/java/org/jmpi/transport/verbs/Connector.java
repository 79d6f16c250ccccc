package org.jmpi.transport.verbs;

import org.jmpi.ErrorClass;
import org.jmpi.MpiException;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.security.MessageDigest;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import static org.jmpi.transport.verbs.ConnectDescriptor.*;

/**
 * The verbs transport's control path on two helper threads, so that a rank's own thread only posts and polls: a
 * pair's queue pairs and frame buffers are created, registered and connected here, at the first message between the
 * two ranks (lazy, the default) or for every pair while opening (eager; {@code jmpi.verbs.connect}).
 * <ol>
 * <li>Open: each rank listens on a TCP port of the address its GID carries (RoCE; else its first IPv4 address) and
 * publishes it with a random secret in its bootstrap record ({@link ConnectionRecord}).</li>
 * <li>{@link #request}: the rank's thread, finding a peer not connected, queues it for the connect thread
 * ({@code verbs-connect-R}), which creates the pair's queue pair (INIT, receives posted) and sends REQUEST with its
 * number and PSN and the peer's secret to the peer's listener.</li>
 * <li>The peer's accept thread ({@code verbs-accept-R}) checks the secret, creates its own queue pair, connects it
 * (RTR, RTS) to the requester's, marks the peer connected and answers ACCEPT with its number and PSN (and the
 * requester's secret); the requester connects its queue pair and marks the peer connected. Both sides are ready to
 * receive before either can send.</li>
 * <li>Two requests that cross (each rank asked the other at once): the lower rank's wins. The higher rank accepts it
 * with the queue pair it had already created; the lower one answers the higher's REQUEST with CROSSED, on which the
 * higher's connect thread waits for its accept thread to finish.</li>
 * <li>A peer that cannot be reached (refused, timed out, its listener gone) is marked failed with the reason: the
 * rank's next offer to it reports the rank's death.</li>
 * </ol>
 * The peer's state ({@link Peer#state}, volatile) publishes everything the helper created to the
 * rank's thread. Threading: {@link #request} from the rank's thread; the rest on the two helper threads;
 * {@link #close} from the rank's thread, which joins them.
 */
final class Connector implements AutoCloseable
{
    private static final long JOIN_MS = 5_000;

    private final VerbsTransport transport;
    private final int rank;
    private final byte[] secret;
    private final ServerSocket server;
    private final int timeoutMs;
    private final LinkedBlockingQueue<Integer> requests = new LinkedBlockingQueue<>();
    private ConnectionRecord[] records;
    private Thread acceptThread;
    private Thread connectThread;
    private volatile boolean closing;
    /** The sockets the helpers are using now: {@link #close} closes them to end a blocked exchange. */
    private volatile Socket connecting;
    private volatile Socket accepting;

    Connector(final VerbsTransport transport, final int rank, final InetAddress address, final byte[] secret, final long timeoutNs)
    {
        this.transport = transport;
        this.rank = rank;
        this.secret = secret.clone();
        this.timeoutMs = (int)Math.min(Integer.MAX_VALUE, Math.max(1, TimeUnit.NANOSECONDS.toMillis(timeoutNs)));
        try
        {
            server = new ServerSocket(0, 64, address);
        }
        catch (final IOException ex)
        {
            throw new MpiException(ErrorClass.ERR_OTHER, "verbs: rank " + rank + " cannot listen for connections on " + address + ": " +
                ex.getMessage(), ex);
        }
    }

    /** The listener's address, for this rank's bootstrap record. */
    InetSocketAddress address()
    {
        return (InetSocketAddress)server.getLocalSocketAddress();
    }

    /** Starts the helper threads once every peer's record is known. */
    void start(final ConnectionRecord[] peerRecords)
    {
        this.records = peerRecords;
        acceptThread = Thread.ofPlatform().daemon().name("verbs-accept-" + rank).start(this::acceptLoop);
        connectThread = Thread.ofPlatform().daemon().name("verbs-connect-" + rank).start(this::connectLoop);
    }

    /** Asks the connect thread to connect to {@code peer} (once; the rank's thread). */
    void request(final int peer)
    {
        requests.add(peer);
    }

    private void connectLoop()
    {
        while (!closing)
        {
            final Integer r;
            try
            {
                r = requests.poll(100, TimeUnit.MILLISECONDS);
            }
            catch (final InterruptedException ex)
            {
                return;
            }
            if (r != null)
            {
                connect(transport.peerSlot(r));
            }
        }
    }

    private void connect(final Peer p)
    {
        synchronized (p)
        {
            if (p.state != Peer.NONE || !create(p))
            {
                return;
            }
        }
        final ConnectionRecord theirs = records[p.rank];
        final InetSocketAddress to = new InetSocketAddress(theirs.host(), theirs.port());
        try (Socket socket = new Socket())
        {
            connecting = socket;
            if (closing)
            {
                return;
            }
            socket.connect(to, timeoutMs);
            socket.setSoTimeout(timeoutMs);
            socket.setTcpNoDelay(true);
            write(socket.getOutputStream(), KIND_REQUEST, p.rank, p.qp.qpNumber(), p.psn, theirs.secret());
            final ByteBuffer answer = read(socket.getInputStream());
            final String bad = check(answer, p.rank);
            if (bad != null)
            {
                fail(p, "its answer to the connection request was bad: " + bad);
                return;
            }
            switch (answer.getInt(KIND_OFFSET))
            {
                case KIND_ACCEPT ->
                {
                    if (!MessageDigest.isEqual(secret(answer), secret))
                    {
                        fail(p, "it answered the connection request without this rank's secret");
                        return;
                    }
                    synchronized (p)
                    {
                        if (closing)
                        {
                            return;
                        }
                        transport.connect(p, answer.getInt(QPN_OFFSET), answer.getInt(PSN_OFFSET));
                        p.state = Peer.CONNECTED;
                    }
                    // The accepter sends nothing before this: a SEND to a queue pair not yet ready to receive is dropped
                    // and waits for the retry timer.
                    write(socket.getOutputStream(), KIND_READY, p.rank, 0, 0, theirs.secret());
                }
                case KIND_CROSSED -> awaitAccepted(p);
                default -> fail(p, "it refused the connection request");
            }
        }
        catch (final IOException | RuntimeException ex)
        {
            fail(p, "cannot connect to its connection address " + to + ": " + ex.getMessage());
        }
    }

    /** After CROSSED: the peer's own REQUEST, which won, is being accepted by this rank's accept thread. */
    private void awaitAccepted(final Peer p)
    {
        final long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
        while (p.state == Peer.CONNECTING && !closing)
        {
            if (System.nanoTime() > deadline)
            {
                fail(p, "its crossing connection request never came");
                return;
            }
            try
            {
                Thread.sleep(1);
            }
            catch (final InterruptedException ex)
            {
                return;
            }
        }
    }

    private void acceptLoop()
    {
        while (!closing)
        {
            try (Socket socket = server.accept())
            {
                accepting = socket;
                if (closing)
                {
                    return;
                }
                socket.setSoTimeout(timeoutMs);
                socket.setTcpNoDelay(true);
                accept(socket);
            }
            catch (final IOException | RuntimeException ex)
            {
                if (!closing && !(ex instanceof IOException))
                {
                    System.err.println("jmpi: verbs: rank " + rank + ": connection request failed: " + ex.getMessage());
                }
            }
        }
    }

    private void accept(final Socket socket) throws IOException
    {
        final ByteBuffer request = read(socket.getInputStream());
        final int from = request.getInt(FROM_OFFSET);
        final OutputStream out = socket.getOutputStream();
        if (check(request, from) != null || request.getInt(KIND_OFFSET) != KIND_REQUEST || !transport.reaches(from) ||
            !MessageDigest.isEqual(secret(request), secret))
        {
            write(out, KIND_REFUSED, from, 0, 0, new byte[SECRET_LENGTH]);
            return;
        }
        final Peer p = transport.peerSlot(from);
        synchronized (p)
        {
            // A higher rank's request that crossed this rank's own (being accepted there, or accepted already while
            // this side waits for READY): its requester waits for this side's exchange instead.
            if ((p.state == Peer.CONNECTING || p.state == Peer.CONNECTED) && from > rank)
            {
                write(out, KIND_CROSSED, from, 0, 0, new byte[SECRET_LENGTH]);
                return;
            }
            if (p.state == Peer.NONE && !create(p) || p.state != Peer.CONNECTING)
            {
                write(out, KIND_REFUSED, from, 0, 0, new byte[SECRET_LENGTH]);
                return;
            }
            try
            {
                transport.connect(p, request.getInt(QPN_OFFSET), request.getInt(PSN_OFFSET));
            }
            catch (final RuntimeException ex)
            {
                p.failure = "cannot connect its queue pair: " + ex.getMessage();
                p.state = Peer.FAILED;
                write(out, KIND_REFUSED, from, 0, 0, new byte[SECRET_LENGTH]);
                return;
            }
        }
        write(out, KIND_ACCEPT, from, p.qp.qpNumber(), p.psn, records[from].secret());
        // Ready to receive already; ready to send once the requester's queue pair is (READY).
        String bad;
        try
        {
            final ByteBuffer ready = read(socket.getInputStream());
            bad = check(ready, from);
            if (bad == null && (ready.getInt(KIND_OFFSET) != KIND_READY || !MessageDigest.isEqual(secret(ready), secret)))
            {
                bad = "kind " + ready.getInt(KIND_OFFSET) + " or a wrong secret";
            }
        }
        catch (final IOException ex)
        {
            bad = ex.getMessage();
        }
        synchronized (p)
        {
            if (bad == null)
            {
                p.state = Peer.CONNECTED;
            }
            else
            {
                p.failure = "its connection exchange ended without READY (" + bad + ")";
                p.state = Peer.FAILED;
            }
        }
    }

    /** Creates the pair's queue pair and buffers (holding {@code p}'s lock); false, and {@code p} failed, when that fails. */
    private boolean create(final Peer p)
    {
        try
        {
            transport.setUp(p);
            p.state = Peer.CONNECTING;
            return true;
        }
        catch (final RuntimeException ex)
        {
            p.failure = "cannot create its queue pair: " + ex.getMessage();
            p.state = Peer.FAILED;
            return false;
        }
    }

    private void fail(final Peer p, final String why)
    {
        synchronized (p)
        {
            if (p.state != Peer.CONNECTED)
            {
                p.failure = why;
                p.state = Peer.FAILED;
            }
        }
    }

    /** Null when {@code m} is of this version, addressed to this rank, from {@code from}; else what is wrong. */
    private String check(final ByteBuffer m, final int from)
    {
        if (m.getInt(VERSION_OFFSET) != VERSION)
        {
            return "version " + Integer.toHexString(m.getInt(VERSION_OFFSET)) + ", expected " + Integer.toHexString(VERSION);
        }
        if (m.getInt(TO_OFFSET) != rank || m.getInt(FROM_OFFSET) != from)
        {
            return "from rank " + m.getInt(FROM_OFFSET) + " to rank " + m.getInt(TO_OFFSET) + ", expected " + from + " to " + rank;
        }
        return null;
    }

    private static byte[] secret(final ByteBuffer m)
    {
        final byte[] s = new byte[SECRET_LENGTH];
        m.get(SECRET_OFFSET, s);
        return s;
    }

    private void write(final OutputStream out, final int kind, final int to, final int qpn, final int psn, final byte[] theirSecret)
        throws IOException
    {
        final ByteBuffer m = ByteBuffer.allocate(LENGTH).order(BYTE_ORDER);
        m.putInt(VERSION_OFFSET, VERSION).putInt(KIND_OFFSET, kind).putInt(FROM_OFFSET, rank).putInt(TO_OFFSET, to)
            .putInt(QPN_OFFSET, qpn).putInt(PSN_OFFSET, psn).put(SECRET_OFFSET, theirSecret);
        out.write(m.array());
        out.flush();
    }

    private static ByteBuffer read(final InputStream in) throws IOException
    {
        final byte[] bytes = new byte[LENGTH];
        new DataInputStream(in).readFully(bytes);
        return ByteBuffer.wrap(bytes).order(BYTE_ORDER);
    }

    /**
     * Stops the helper threads: closes the listener and any socket in use, then waits (bounded) for them.
     *
     * @return true when both ended, so nothing touches the device through them any more.
     */
    boolean stop()
    {
        closing = true;
        closeQuietly(server);
        closeQuietly(connecting);
        closeQuietly(accepting);
        boolean stopped = true;
        // A closing thread that was interrupted (a job stopping its ranks) still waits for the helpers: the device
        // must not be destroyed under them. Its interrupt is restored afterwards.
        final boolean interrupted = Thread.interrupted();
        for (final Thread t : new Thread[] {acceptThread, connectThread})
        {
            if (t != null)
            {
                t.interrupt();
                final long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(JOIN_MS);
                while (t.isAlive() && System.nanoTime() < deadline)
                {
                    try
                    {
                        t.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
                    }
                    catch (final InterruptedException ex)
                    {
                        // Keep waiting (bounded); restored below.
                    }
                }
                if (t.isAlive())
                {
                    stopped = false;
                    final StringBuilder stack = new StringBuilder();
                    for (final StackTraceElement e : t.getStackTrace())
                    {
                        stack.append("\n    at ").append(e);
                    }
                    System.err.println("jmpi: verbs: rank " + rank + ": " + t.getName() + " did not stop:" + stack);
                }
            }
        }
        if (interrupted)
        {
            Thread.currentThread().interrupt();
        }
        return stopped;
    }

    @Override
    public void close()
    {
        stop();
    }

    private static void closeQuietly(final AutoCloseable c)
    {
        try
        {
            if (c != null)
            {
                c.close();
            }
        }
        catch (final Exception ex)
        {
            // Closing anyway.
        }
    }
}
