package org.jmpi.transport.tcp;

import org.agrona.BufferUtil;
import org.agrona.concurrent.UnsafeBuffer;
import org.jmpi.ErrorClass;
import org.jmpi.MpiException;
import org.jmpi.spi.Bootstrap;
import org.jmpi.spi.FrameHandler;
import org.jmpi.spi.FrameWriter;
import org.jmpi.spi.Transport;
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
import java.util.function.Consumer;

import static org.jmpi.transport.tcp.HandshakeDescriptor.*;

/**
 * Frames between ranks over TCP. Each rank listens on one socket and publishes its address and a random
 * token on the bootstrap. A rank sends to a peer over one connection for good: the one the peer opened to it,
 * if that one is up when the first frame goes, or else one it opens itself (at the first frame, or at open with
 * {@code jmpi.tcp.connect=eager}, where the lower rank of each pair connects). So a pair usually shares one
 * connection both ways, and the kernel's acknowledgements ride on the replies as with any MPI's tcp path;
 * when both connect at once each direction still keeps to one connection, so frames of a pair stay in order
 * without arbitration. A new connection starts with an authenticated HELLO (HMAC with the acceptor's token)
 * answered by a WELCOME (HMAC with the connector's token): {@link HandshakeDescriptor}; neither side reads
 * frames from a connection before that check.
 * <ol>
 * <li>{@link #offer} stages the frame (length, then the bytes the writer puts there) in the connection's send
 * buffer and writes what the socket takes at once; a full stage is back-pressure.</li>
 * <li>{@link #progress} writes staged bytes, then selects without blocking: accepts and checks new connections,
 * reads frames and hands each whole frame to the handler straight from the receive buffer.</li>
 * <li>A connection that ends without its BYE, or a write that fails before the peer's BYE arrived, is
 * the peer's death: ERR_OTHER naming the rank. {@link #close} flushes, sends BYE on every connection and
 * closes.</li>
 * </ol>
 *
 * <p>Threading: the rank's progress owner only, as the SPI says; {@link #wakeup} is a no-op (the engine
 * polls, it never blocks inside this transport). Memory: a connection's send stage and receive buffer are
 * direct buffers made when it first sends or receives, owned by this transport and freed by {@link #close}
 * (a JVM that runs many jobs keeps no direct memory of the closed ones, even while something still holds
 * the transport). {@code close} frees them only once no {@link #offer} or {@link #progress} is running: a
 * call on another thread that has not returned within {@code CLOSE_QUIESCE_NS} leaves them to the garbage
 * collector instead, so no call ever touches freed memory.
 */
final class TcpTransport implements Transport
{
    static final int MAX_FRAME_LENGTH = 256 * 1024;
    private static final int RECEIVE_BUFFER = 2 * (MAX_FRAME_LENGTH + FRAME_HEADER_LENGTH);
    private static final long HANDSHAKE_TIMEOUT_NS = 10_000_000_000L;
    private static final long CLOSE_FLUSH_NS = 2_000_000_000L;
    /** How long {@link #close} waits for an {@code offer} or {@code progress} of another thread to return before freeing. */
    private static final long CLOSE_QUIESCE_NS = 2_000_000_000L;

    /** A connection to one peer, opened by this rank ({@code nonce} set) or accepted; frames may go both ways. */
    private static final class Connection
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
    private static final class Pending
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

    private final TransportContext context;
    private final int rank;
    private final int size;
    private final String jobId;
    private final int stageCapacity;
    private final byte[] token = new byte[TOKEN_LENGTH];
    private final SecureRandom random = new SecureRandom();
    private final InetSocketAddress[] addresses;
    private final byte[][] tokens;
    /** The connection this rank sends to each peer over, fixed at the first frame. */
    private final Connection[] sendVia;
    private final Connection[] opened;
    private final Connection[] accepted;
    /** A BYE came from the peer on some connection: it is closing, a failed write to it is no death. */
    private final boolean[] peerBye;
    private final ArrayList<Connection> connections = new ArrayList<>();
    private final ArrayList<Connection> sending = new ArrayList<>();
    private final ArrayList<Pending> pending = new ArrayList<>();
    private final java.util.HashSet<String> noncesSeen = new java.util.HashSet<>();
    private final ServerSocketChannel listener;
    private final Selector selector;
    /** The selector's action, made once: no garbage per poll ({@link #progress} sets the two fields below). */
    private final Consumer<SelectionKey> onReady = this::onReady;
    private FrameHandler handler;
    private int readyWork;
    private long refused;
    /**
     * Set by {@link #close} before it waits for {@link #busy} to fall to 0; {@code offer} and {@code progress} raise
     * {@code busy} before they read it (both volatile: either the call sees {@code closed}, or {@code close} sees it busy).
     * {@code busy} counts nested calls (a frame handler may offer from inside {@code progress}); only the progress
     * owner writes it.
     */
    private volatile boolean closed;
    private volatile int busy;
    /** Direct bytes this transport holds (stages and receive buffers), for tests. */
    private long directBytes;

    TcpTransport(final TransportContext context)
    {
        this.context = context;
        this.rank = context.rank();
        this.size = context.size();
        this.jobId = context.jobId();
        this.stageCapacity = (int)Math.max(MAX_FRAME_LENGTH + FRAME_HEADER_LENGTH,
            Math.min(Integer.MAX_VALUE, context.params().getLong(TcpParams.SEND_BUFFER)));
        this.addresses = new InetSocketAddress[size];
        this.tokens = new byte[size][];
        this.sendVia = new Connection[size];
        this.opened = new Connection[size];
        this.accepted = new Connection[size];
        this.peerBye = new boolean[size];
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
        if ("eager".equalsIgnoreCase(context.params().get(TcpParams.CONNECT)))
        {
            connectEagerly();
        }
    }

    /**
     * {@code jmpi.tcp.connect=eager}: one connection per pair, opened by the lower rank.
     * <ol>
     * <li>Connect to every higher rank (this does not wait for them to accept).</li>
     * <li>Accept and check the HELLOs of every lower rank, within the init timeout; frames behind a HELLO stay
     * in the socket for {@link #progress}.</li>
     * </ol>
     */
    private void connectEagerly()
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

    /** Connections this rank has (opened or accepted, HELLO checked), for tests. */
    int connectionCount()
    {
        return connections.size();
    }

    @Override
    public String name()
    {
        return TcpTransportProvider.NAME;
    }

    @Override
    public int maxFrameLength()
    {
        return MAX_FRAME_LENGTH;
    }

    @Override
    public boolean reaches(final int r)
    {
        return r >= 0 && r < size && r != rank;
    }

    @Override
    public boolean offer(final int dstRank, final int lengthBytes, final FrameWriter writer)
    {
        busy = busy + 1;
        try
        {
            return stage(dstRank, lengthBytes, writer);
        }
        finally
        {
            busy = busy - 1;
        }
    }

    private boolean stage(final int dstRank, final int lengthBytes, final FrameWriter writer)
    {
        if (closed || !reaches(dstRank) || lengthBytes < 0 || lengthBytes > MAX_FRAME_LENGTH)
        {
            throw new MpiException(ErrorClass.ERR_INTERN, "tcp: bad offer: rank=" + rank + ", dst=" + dstRank + ", length=" +
                lengthBytes + ", maxFrameLength=" + MAX_FRAME_LENGTH + (closed ? ", after close" : ""));
        }
        Connection c = sendVia[dstRank];
        if (c == null)
        {
            c = route(dstRank);
            sendVia[dstRank] = c;
        }
        if (c.dead)
        {
            return true;
        }
        if (c.stage == null)
        {
            makeStage(c);
        }
        if (c.stage.remaining() < FRAME_HEADER_LENGTH + lengthBytes)
        {
            flush(c);
            if (c.stage.remaining() < FRAME_HEADER_LENGTH + lengthBytes)
            {
                return false;
            }
        }
        final int at = c.stage.position();
        c.stageView.putInt(at + FRAME_LENGTH_OFFSET, lengthBytes, BYTE_ORDER);
        writer.write(c.stageView, at + FRAME_HEADER_LENGTH, lengthBytes);
        c.stage.position(at + FRAME_HEADER_LENGTH + lengthBytes);
        flush(c);
        return true;
    }

    /** The connection for the first frame to {@code peer}: one already open (the peer's if it checked), else a new one. */
    private Connection route(final int peer)
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

    private void makeStage(final Connection c)
    {
        c.stage = ByteBuffer.allocateDirect(stageCapacity);
        c.stageView = new UnsafeBuffer(c.stage);
        directBytes += stageCapacity;
        sending.add(c);
    }

    @Override
    public int progress(final FrameHandler frameHandler)
    {
        busy = busy + 1;
        try
        {
            return closed ? 0 : poll(frameHandler);
        }
        finally
        {
            busy = busy - 1;
        }
    }

    private int poll(final FrameHandler frameHandler)
    {
        int work = 0;
        for (int i = 0; i < sending.size(); i++)
        {
            final Connection c = sending.get(i);
            if (c.stage.position() > 0 && !c.dead)
            {
                work += flush(c) ? 1 : 0;
            }
        }
        handler = frameHandler;
        readyWork = 0;
        try
        {
            selector.selectNow(onReady);
        }
        catch (final IOException ex)
        {
            throw new MpiException(ErrorClass.ERR_OTHER, "tcp: select failed on rank " + rank + ": " + ex.getMessage(), ex);
        }
        finally
        {
            handler = null;
        }
        return work + readyWork + expirePending();
    }

    private void onReady(final SelectionKey key)
    {
        if (!key.isValid())
        {
            return;
        }
        final Object attachment = key.attachment();
        if (attachment == null)
        {
            readyWork += acceptAll();
        }
        else if (attachment instanceof Pending p)
        {
            readyWork += readHello(key, p);
        }
        else
        {
            readyWork += readFrames((Connection)attachment, handler);
        }
    }

    /** Writes what the socket takes of {@code c}'s stage; true if anything was written. */
    private boolean flush(final Connection c)
    {
        if (c.stage.position() == 0)
        {
            return false;
        }
        c.stage.flip();
        try
        {
            final int written = c.channel.write(c.stage);
            return written > 0;
        }
        catch (final IOException ex)
        {
            if (c.bye || peerBye[c.peer])
            {
                c.dead = true;
                c.stage.clear();
                return false;
            }
            throw new MpiException(ErrorClass.ERR_OTHER, "tcp: rank " + c.peer + " is gone (write from rank " + rank + " failed: " +
                ex.getMessage() + ")", ex);
        }
        finally
        {
            if (!c.dead)
            {
                c.stage.compact();
            }
        }
    }

    /**
     * Opens a connection to {@code peer}, stages its HELLO and registers it for the WELCOME and frames back;
     * frames may follow the HELLO at once (the peer need not be polling for the connection to be usable).
     */
    private Connection connect(final int peer)
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
            makeStage(c);
            c.stage.put(Handshake.hello(rank, peer, nonce, tokens[peer], jobId));
            ch.register(selector, SelectionKey.OP_READ, c);
            opened[peer] = c;
            connections.add(c);
            flush(c);
            return c;
        }
        catch (final IOException ex)
        {
            throw new MpiException(ErrorClass.ERR_OTHER, "tcp: rank " + rank + " cannot connect to rank " + peer + " at " +
                addresses[peer] + ": " + ex.getMessage(), ex);
        }
    }

    private int acceptAll()
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
    private int readHello(final SelectionKey key, final Pending p)
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
                makeStage(c);
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

    private int expirePending()
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

    private int readFrames(final Connection c, final FrameHandler frameHandler)
    {
        if (c.buffer == null)
        {
            c.buffer = ByteBuffer.allocateDirect(RECEIVE_BUFFER);
            c.view = new UnsafeBuffer(c.buffer);
            directBytes += RECEIVE_BUFFER;
        }
        final int read;
        try
        {
            read = c.channel.read(c.buffer);
        }
        catch (final IOException ex)
        {
            if (c.bye)
            {
                // reset after its BYE: the peer closed with our last bytes unread
                c.channel.keyFor(selector).cancel();
                closeQuietly(c.channel);
                return 0;
            }
            throw gone(c, ex.getMessage());
        }
        if (read < 0)
        {
            if (!c.bye)
            {
                throw gone(c, "connection closed without BYE");
            }
            c.channel.keyFor(selector).cancel();
            closeQuietly(c.channel);
            return 0;
        }
        final int limit = c.buffer.position();
        int at = 0;
        if (!c.welcomed)
        {
            if (limit < WELCOME_LENGTH)
            {
                return 0;
            }
            if (!Handshake.checkWelcome(c.view, 0, c.peer, rank, c.nonce, token, jobId))
            {
                throw new MpiException(ErrorClass.ERR_OTHER, "tcp: rank " + rank + "'s connection to rank " + c.peer + " at " +
                    addresses[c.peer] + " was answered without the peer's WELCOME: not the job's rank, or a corrupt stream");
            }
            c.welcomed = true;
            at = WELCOME_LENGTH;
        }
        int frames = 0;
        while (limit - at >= FRAME_HEADER_LENGTH)
        {
            final int length = c.view.getInt(at + FRAME_LENGTH_OFFSET, BYTE_ORDER);
            if (length == 0)
            {
                c.bye = true;
                peerBye[c.peer] = true;
                at += FRAME_HEADER_LENGTH;
                continue;
            }
            if (length < 0 || length > MAX_FRAME_LENGTH)
            {
                throw new MpiException(ErrorClass.ERR_INTERN, "tcp: frame of " + length + " bytes from rank " + c.peer +
                    " (at most " + MAX_FRAME_LENGTH + "): the stream is corrupt");
            }
            if (limit - at - FRAME_HEADER_LENGTH < length)
            {
                break;
            }
            frameHandler.onFrame(c.peer, c.view, at + FRAME_HEADER_LENGTH, length);
            at += FRAME_HEADER_LENGTH + length;
            frames++;
        }
        if (at == limit)
        {
            c.buffer.clear();
        }
        else
        {
            c.buffer.limit(limit).position(at);
            c.buffer.compact();
        }
        return frames + (c.buffer.position() > 0 ? 1 : 0);
    }

    private MpiException gone(final Connection c, final String why)
    {
        return new MpiException(ErrorClass.ERR_OTHER, "tcp: rank " + c.peer + " is gone (" + why + ", seen by rank " + rank + ")");
    }

    @Override
    public void wakeup()
    {
        // The engine never blocks inside this transport.
    }

    /**
     * Flushes every connection (for a bounded time), says BYE on each, closes everything and frees the direct buffers.
     * <ol>
     * <li>Mark the transport closed, then wait (bounded) until no {@code offer} or {@code progress} runs.</li>
     * <li>Flush, BYE and close every connection, the pending ones and the listener, then the selector.</li>
     * <li>Free every stage and receive buffer (step 1 ended quiet), or leave them to the garbage collector.</li>
     * </ol>
     */
    @Override
    public void close()
    {
        if (closed)
        {
            return;
        }
        closed = true;
        final boolean quiet = awaitQuiet();
        final long deadline = System.nanoTime() + CLOSE_FLUSH_NS;
        for (final Connection c : connections)
        {
            try
            {
                sayBye(c, deadline);
            }
            catch (final MpiException ex)
            {
                // The peer finished first; nothing more to say to it.
            }
            closeQuietly(c.channel);
        }
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
        if (quiet)
        {
            freeBuffers();
        }
        else
        {
            System.err.println("jmpi: tcp: rank " + rank + ": a call on another thread did not return within " +
                CLOSE_QUIESCE_NS / 1_000_000 + " ms of close; its buffers are left to the garbage collector");
        }
    }

    /** Waits until no {@code offer} or {@code progress} runs (bounded); true if none does. */
    private boolean awaitQuiet()
    {
        final long deadline = System.nanoTime() + CLOSE_QUIESCE_NS;
        while (busy > 0)
        {
            if (System.nanoTime() - deadline > 0)
            {
                return false;
            }
            Thread.yield();
        }
        return true;
    }

    /** Frees every connection's stage and receive buffer; the connections keep no reference to them. */
    private void freeBuffers()
    {
        for (final Connection c : connections)
        {
            free(c);
        }
        for (final Connection c : sending)
        {
            free(c);
        }
        sending.clear();
        assert directBytes == 0 : directBytes;
    }

    private void free(final Connection c)
    {
        if (c.stage != null)
        {
            c.stageView = null;
            BufferUtil.free(c.stage);
            c.stage = null;
            directBytes -= stageCapacity;
        }
        if (c.buffer != null)
        {
            c.view = null;
            BufferUtil.free(c.buffer);
            c.buffer = null;
            directBytes -= RECEIVE_BUFFER;
        }
    }

    /** Direct bytes held by the stages and receive buffers (0 after {@link #close}), for tests. */
    long directBytes()
    {
        return directBytes;
    }

    /** Writes what is staged on {@code c}, then BYE, until {@code deadline}. */
    private void sayBye(final Connection c, final long deadline)
    {
        if (c.dead || !c.channel.isOpen())
        {
            return;
        }
        if (c.stage == null)
        {
            final ByteBuffer bye = ByteBuffer.allocate(FRAME_HEADER_LENGTH);
            try
            {
                while (bye.hasRemaining() && System.nanoTime() < deadline)
                {
                    c.channel.write(bye);
                }
            }
            catch (final IOException ex)
            {
                // the peer is gone or left first: nothing more to say to it
            }
            return;
        }
        while (c.stage.remaining() < FRAME_HEADER_LENGTH && c.stage.position() > 0 && System.nanoTime() < deadline)
        {
            flush(c);
        }
        if (c.stage.remaining() < FRAME_HEADER_LENGTH)
        {
            return;
        }
        c.stage.putInt(0);
        while (c.stage.position() > 0 && !c.dead && System.nanoTime() < deadline)
        {
            flush(c);
        }
    }

    private static void closeQuietly(final java.io.Closeable c)
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
