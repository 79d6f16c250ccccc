package org.jmpi.transport.tcp;

import org.agrona.concurrent.UnsafeBuffer;
import org.jmpi.ErrorClass;
import org.jmpi.MpiException;
import org.jmpi.spi.Bootstrap;
import org.jmpi.spi.TransportContext;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.HexFormat;

import static org.jmpi.transport.tcp.HandshakeDescriptor.*;

/**
 * {@link TcpTransport}'s connection handling: the listener and its address and token on the bootstrap, opening a
 * connection to a peer (its HELLO staged first), accepting and checking the peers' HELLOs (a WELCOME back), the
 * WELCOME check on the connections this rank opened, and which connection the first frame to a peer takes
 * ({@link #route}). The frames themselves, progress and close are {@link TcpTransport}'s.
 *
 * <p>Threading: the transport's progress owner only (the transport calls it from {@code offer}, {@code progress},
 * its constructor and {@code close}). Memory: a connection's stage is made by the transport
 * ({@link TcpTransport#makeStage}), which owns and frees it.
 */
final class TcpConnections
{
    private static final long HANDSHAKE_TIMEOUT_NS = 10_000_000_000L;

    /** A connection to one peer, opened by this rank ({@code nonce} set) or accepted; frames may go both ways. */
    static final class Connection
    {
        final int peer;
        final SocketChannel channel;
        /** The HELLO's nonce when this rank opened the connection (its WELCOME comes first); null when accepted. */
        final byte[] nonce;
        ByteBuffer stage;
        UnsafeBuffer stageView;
        ByteBuffer buffer;
        UnsafeBuffer view;
        boolean welcomed;
        /** BYE read: the peer sends nothing more on this connection and is closing. */
        boolean bye;
        /** Writes given up: the peer left after its BYE. */
        boolean dead;

        Connection(final int peer, final SocketChannel channel, final byte[] nonce)
        {
            this.peer = peer;
            this.channel = channel;
            this.nonce = nonce;
            this.welcomed = nonce == null;
        }
    }

    /** An accepted connection whose HELLO has not arrived yet. */
    static final class Pending
    {
        final SocketChannel channel;
        final ByteBuffer hello = ByteBuffer.allocate(HELLO_LENGTH).order(BYTE_ORDER);
        final long deadlineNs;

        Pending(final SocketChannel channel, final long deadlineNs)
        {
            this.channel = channel;
            this.deadlineNs = deadlineNs;
        }
    }

    private final TcpTransport transport;
    private final TransportContext context;
    private final int rank;
    private final int size;
    private final String jobId;
    private final byte[] token = new byte[TOKEN_LENGTH];
    private final SecureRandom random = new SecureRandom();
    private final InetSocketAddress[] addresses;
    private final byte[][] tokens;
    private final Connection[] opened;
    private final Connection[] accepted;
    /** Connections this rank has (opened, or accepted with their HELLO checked). */
    final ArrayList<Connection> connections = new ArrayList<>();
    private final ArrayList<Pending> pending = new ArrayList<>();
    private final java.util.HashSet<String> noncesSeen = new java.util.HashSet<>();
    private final ServerSocketChannel listener;
    /** Selects the listener and every connection; a key's attachment says which (null: the listener). */
    final Selector selector;
    private long refused;

    TcpConnections(final TcpTransport transport, final TransportContext context)
    {
        this.transport = transport;
        this.context = context;
        this.rank = context.rank();
        this.size = context.size();
        this.jobId = context.jobId();
        this.addresses = new InetSocketAddress[size];
        this.tokens = new byte[size][];
        this.opened = new Connection[size];
        this.accepted = new Connection[size];
        random.nextBytes(token);
        boolean oneNode = true;
        for (int r = 0; r < size; r++)
        {
            oneNode &= context.nodeId(r).equals(context.nodeId(rank));
        }
        final InetAddress bind = TcpAddresses.choose(context.params().get(TcpParams.IF), oneNode);
        try
        {
            selector = Selector.open();
            listener = ServerSocketChannel.open();
            listener.bind(new InetSocketAddress(bind, 0), size);
            listener.configureBlocking(false);
            listener.register(selector, SelectionKey.OP_ACCEPT);
        }
        catch (final IOException ex)
        {
            throw new MpiException(ErrorClass.ERR_OTHER, "tcp: cannot listen on " + bind.getHostAddress() + ": " + ex.getMessage(), ex);
        }
        final Bootstrap bootstrap = context.bootstrap();
        final InetSocketAddress mine = (InetSocketAddress)listenerAddress();
        bootstrap.put("tcp." + rank, (mine.getAddress().getHostAddress() + " " + mine.getPort() + " " +
            HexFormat.of().formatHex(token)).getBytes(StandardCharsets.UTF_8));
        for (int r = 0; r < size; r++)
        {
            if (r != rank)
            {
                final String[] parts = new String(bootstrap.get("tcp." + r, context.initTimeoutNs()), StandardCharsets.UTF_8).split(" ");
                addresses[r] = new InetSocketAddress(parts[0], Integer.parseInt(parts[1]));
                tokens[r] = HexFormat.of().parseHex(parts[2]);
            }
        }
    }

    /**
     * {@code jmpi.tcp.connect=eager}: one connection per pair, opened by the lower rank.
     * <ol>
     * <li>Connect to every higher rank (this does not wait for them to accept).</li>
     * <li>Accept and check the HELLOs of every lower rank, within the init timeout; frames behind a HELLO stay
     * in the socket for {@link TcpTransport#progress}.</li>
     * </ol>
     */
    void connectEagerly(final Connection[] sendVia)
    {
        for (int r = rank + 1; r < size; r++)
        {
            sendVia[r] = connect(r);
        }
        final long deadline = System.nanoTime() + context.initTimeoutNs();
        int missing = rank;
        while (missing > 0)
        {
            acceptAll();
            for (int i = pending.size() - 1; i >= 0; i--)
            {
                final Pending p = pending.get(i);
                readHello(p.channel.keyFor(selector), p);
            }
            expirePending();
            missing = 0;
            for (int r = 0; r < rank; r++)
            {
                missing += accepted[r] == null ? 1 : 0;
            }
            if (missing > 0 && System.nanoTime() - deadline > 0)
            {
                throw new MpiException(ErrorClass.ERR_OTHER, "tcp: rank " + rank + " has no connection from " + missing +
                    " lower rank(s) within the init timeout (jmpi.tcp.connect=eager)");
            }
            if (missing > 0)
            {
                java.util.concurrent.locks.LockSupport.parkNanos(100_000L);
            }
        }
        for (int r = 0; r < rank; r++)
        {
            sendVia[r] = accepted[r];
        }
    }

    private java.net.SocketAddress listenerAddress()
    {
        try
        {
            return listener.getLocalAddress();
        }
        catch (final IOException ex)
        {
            throw new MpiException(ErrorClass.ERR_OTHER, "tcp: listener has no address: " + ex.getMessage(), ex);
        }
    }

    /** The connection for the first frame to {@code peer}: one already open (the peer's if it checked), else a new one. */
    Connection route(final int peer)
    {
        if (opened[peer] != null)
        {
            return opened[peer];
        }
        if (accepted[peer] != null && !accepted[peer].bye)
        {
            return accepted[peer];
        }
        return connect(peer);
    }

    /**
     * Opens a connection to {@code peer}, stages its HELLO and registers it for the WELCOME and frames back;
     * frames may follow the HELLO at once (the peer need not be polling for the connection to be usable).
     */
    Connection connect(final int peer)
    {
        final long deadline = System.nanoTime() + Math.min(HANDSHAKE_TIMEOUT_NS, context.initTimeoutNs());
        try
        {
            final SocketChannel ch = SocketChannel.open();
            ch.setOption(StandardSocketOptions.TCP_NODELAY, true);
            ch.configureBlocking(false);
            ch.connect(addresses[peer]);
            while (!ch.finishConnect())
            {
                if (System.nanoTime() > deadline)
                {
                    throw new IOException("connect timed out");
                }
                acceptAll();
                Thread.yield();
            }
            final byte[] nonce = new byte[NONCE_LENGTH];
            random.nextBytes(nonce);
            final Connection c = new Connection(peer, ch, nonce);
            transport.makeStage(c);
            c.stage.put(Handshake.hello(rank, peer, nonce, tokens[peer], jobId));
            ch.register(selector, SelectionKey.OP_READ, c);
            opened[peer] = c;
            connections.add(c);
            transport.flush(c);
            return c;
        }
        catch (final IOException ex)
        {
            throw new MpiException(ErrorClass.ERR_OTHER, "tcp: rank " + rank + " cannot connect to rank " + peer + " at " +
                addresses[peer] + ": " + ex.getMessage(), ex);
        }
    }

    int acceptAll()
    {
        int acceptedNow = 0;
        try
        {
            SocketChannel ch;
            while ((ch = listener.accept()) != null)
            {
                ch.configureBlocking(false);
                ch.setOption(StandardSocketOptions.TCP_NODELAY, true);
                final Pending p = new Pending(ch, System.nanoTime() + HANDSHAKE_TIMEOUT_NS);
                ch.register(selector, SelectionKey.OP_READ, p);
                pending.add(p);
                acceptedNow++;
            }
        }
        catch (final IOException ex)
        {
            System.err.println("jmpi: tcp: rank " + rank + ": accept failed: " + ex.getMessage());
        }
        return acceptedNow;
    }

    /** Reads a pending connection's HELLO; once it checks, the connection is the peer's and gets its WELCOME. */
    int readHello(final SelectionKey key, final Pending p)
    {
        try
        {
            if (p.channel.read(p.hello) < 0)
            {
                refuse(key, p, "closed");
                return 0;
            }
            if (p.hello.hasRemaining())
            {
                return 0;
            }
            final int peer = Handshake.checkHello(p.hello, rank, token, jobId, size);
            final byte[] nonce = Handshake.nonce(p.hello);
            if (peer < 0 || peer == rank || accepted[peer] != null || !noncesSeen.add(HexFormat.of().formatHex(nonce)))
            {
                refuse(key, p, "refused");
                return 0;
            }
            pending.remove(p);
            final Connection c = new Connection(peer, p.channel, null);
            accepted[peer] = c;
            connections.add(c);
            key.attach(c);
            final ByteBuffer welcome = Handshake.welcome(rank, peer, nonce, tokens[peer], jobId);
            p.channel.write(welcome);
            if (welcome.hasRemaining())
            {
                transport.makeStage(c);
                c.stage.put(welcome);
            }
            return 1;
        }
        catch (final IOException ex)
        {
            refuse(key, p, ex.getMessage());
            return 0;
        }
    }

    private void refuse(final SelectionKey key, final Pending p, final String why)
    {
        pending.remove(p);
        if (key != null)
        {
            key.cancel();
        }
        closeQuietly(p.channel);
        refused++;
        System.err.println("jmpi: tcp: rank " + rank + " refused a connection (" + why + "; " + refused + " so far)");
    }

    int expirePending()
    {
        if (pending.isEmpty())
        {
            return 0;
        }
        final long now = System.nanoTime();
        for (int i = pending.size() - 1; i >= 0; i--)
        {
            final Pending p = pending.get(i);
            if (now > p.deadlineNs)
            {
                refuse(p.channel.keyFor(selector), p, "handshake timed out");
            }
        }
        return 0;
    }

    /**
     * The WELCOME at the start of what {@code c} (a connection this rank opened) received, {@code limit} bytes so far:
     * false while it is incomplete; a WELCOME that does not check is the peer's failure (ERR_OTHER).
     */
    boolean welcomed(final Connection c, final int limit)
    {
        if (limit < WELCOME_LENGTH)
        {
            return false;
        }
        if (!Handshake.checkWelcome(c.view, 0, c.peer, rank, c.nonce, token, jobId))
        {
            throw new MpiException(ErrorClass.ERR_OTHER, "tcp: rank " + rank + "'s connection to rank " + c.peer + " at " +
                addresses[c.peer] + " was answered without the peer's WELCOME: not the job's rank, or a corrupt stream");
        }
        c.welcomed = true;
        return true;
    }

    /** Closes the connections still in their handshake, the listener and the selector (the transport closed the others). */
    void close()
    {
        for (final Pending p : pending)
        {
            closeQuietly(p.channel);
        }
        closeQuietly(listener);
        try
        {
            selector.close();
        }
        catch (final IOException ex)
        {
            // closing anyway
        }
    }

    static void closeQuietly(final java.io.Closeable c)
    {
        try
        {
            c.close();
        }
        catch (final IOException ex)
        {
            // closing anyway
        }
    }
}
