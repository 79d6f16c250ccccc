package org.jmpi.transport.tcp;

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
import java.util.Iterator;

import static org.jmpi.transport.tcp.HandshakeDescriptor.*;

/**
 * Frames between ranks over TCP. Each rank listens on one socket and publishes its address and a random
 * token on the bootstrap. A rank sends to a peer over a connection it opened itself (at the first frame,
 * or all at open with {@code jmpi.tcp.connect=eager}) and receives over the connections peers opened to
 * it, so every connection carries frames one way and frames of a pair stay in order without any
 * arbitration. A new connection starts with an authenticated HELLO (HMAC with the acceptor's token:
 * {@link HandshakeDescriptor}); the acceptor reads nothing else from it before checking that.
 * <ol>
 * <li>{@link #offer} stages the frame (length, then the bytes the writer puts there) in the peer's send
 * buffer and writes what the socket takes at once; a full stage is back-pressure.</li>
 * <li>{@link #progress} selects without blocking: accepts and checks new connections, reads frames and
 * hands each whole frame to the handler straight from the receive buffer, and flushes staged bytes.</li>
 * <li>A connection that ends without its BYE, or a write that fails before the peer's BYE arrived, is
 * the peer's death: ERR_OTHER naming the rank. {@link #close} flushes, sends BYE and closes.</li>
 * </ol>
 *
 * <p>Threading: the rank's progress owner only, as the SPI says; {@link #wakeup} is a no-op (the engine
 * polls, it never blocks inside this transport).
 */
final class TcpTransport implements Transport
{
    static final int MAX_FRAME_LENGTH = 256 * 1024;
    private static final int RECEIVE_BUFFER = 2 * (MAX_FRAME_LENGTH + FRAME_HEADER_LENGTH);
    private static final long HANDSHAKE_TIMEOUT_NS = 10_000_000_000L;

    /** An outbound connection: frames this rank sends to one peer. */
    private static final class Outbound
    {
        final SocketChannel channel;
        final ByteBuffer stage;
        final UnsafeBuffer view;
        boolean dead;

        Outbound(final SocketChannel channel, final int capacity)
        {
            this.channel = channel;
            this.stage = ByteBuffer.allocateDirect(capacity);
            this.view = new UnsafeBuffer(stage);
        }
    }

    /** An inbound connection: frames one peer sends to this rank. */
    private static final class Inbound
    {
        final int peer;
        final SocketChannel channel;
        final ByteBuffer buffer = ByteBuffer.allocateDirect(RECEIVE_BUFFER);
        final UnsafeBuffer view = new UnsafeBuffer(buffer);
        boolean bye;

        Inbound(final int peer, final SocketChannel channel)
        {
            this.peer = peer;
            this.channel = channel;
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
    private final Outbound[] outbound;
    private final Inbound[] inbound;
    private final ArrayList<Outbound> connected = new ArrayList<>();
    private final ArrayList<Pending> pending = new ArrayList<>();
    private final java.util.HashSet<String> noncesSeen = new java.util.HashSet<>();
    private final ServerSocketChannel listener;
    private final Selector selector;
    private long refused;
    private boolean closed;

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
        this.outbound = new Outbound[size];
        this.inbound = new Inbound[size];
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
            for (int r = 0; r < size; r++)
            {
                if (r != rank)
                {
                    connect(r);
                }
            }
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
        if (closed || !reaches(dstRank) || lengthBytes < 0 || lengthBytes > MAX_FRAME_LENGTH)
        {
            throw new MpiException(ErrorClass.ERR_INTERN, "tcp: bad offer: rank=" + rank + ", dst=" + dstRank + ", length=" +
                lengthBytes + ", maxFrameLength=" + MAX_FRAME_LENGTH + (closed ? ", after close" : ""));
        }
        Outbound o = outbound[dstRank];
        if (o == null)
        {
            o = connect(dstRank);
        }
        if (o.dead)
        {
            return true;
        }
        if (o.stage.remaining() < FRAME_HEADER_LENGTH + lengthBytes)
        {
            flush(dstRank, o);
            if (o.stage.remaining() < FRAME_HEADER_LENGTH + lengthBytes)
            {
                return false;
            }
        }
        final int at = o.stage.position();
        o.view.putInt(at + FRAME_LENGTH_OFFSET, lengthBytes, BYTE_ORDER);
        writer.write(o.view, at + FRAME_HEADER_LENGTH, lengthBytes);
        o.stage.position(at + FRAME_HEADER_LENGTH + lengthBytes);
        flush(dstRank, o);
        return true;
    }

    @Override
    public int progress(final FrameHandler handler)
    {
        int work = 0;
        for (int i = 0; i < connected.size(); i++)
        {
            final Outbound o = connected.get(i);
            if (o.stage.position() > 0 && !o.dead)
            {
                work += flush(indexOf(o), o) ? 1 : 0;
            }
        }
        try
        {
            if (selector.selectNow() == 0)
            {
                return work + expirePending();
            }
        }
        catch (final IOException ex)
        {
            throw new MpiException(ErrorClass.ERR_OTHER, "tcp: select failed on rank " + rank + ": " + ex.getMessage(), ex);
        }
        final Iterator<SelectionKey> keys = selector.selectedKeys().iterator();
        while (keys.hasNext())
        {
            final SelectionKey key = keys.next();
            keys.remove();
            if (!key.isValid())
            {
                continue;
            }
            final Object attachment = key.attachment();
            if (attachment == null)
            {
                work += acceptAll();
            }
            else if (attachment instanceof Pending p)
            {
                work += readHello(key, p);
            }
            else
            {
                work += readFrames((Inbound)attachment, handler);
            }
        }
        return work + expirePending();
    }

    private int indexOf(final Outbound o)
    {
        for (int r = 0; r < size; r++)
        {
            if (outbound[r] == o)
            {
                return r;
            }
        }
        return -1;
    }

    /** Writes what the socket takes of {@code o}'s stage; true if anything was written. */
    private boolean flush(final int peer, final Outbound o)
    {
        if (o.stage.position() == 0)
        {
            return false;
        }
        o.stage.flip();
        try
        {
            final int written = o.channel.write(o.stage);
            return written > 0;
        }
        catch (final IOException ex)
        {
            if (inbound[peer] != null && inbound[peer].bye)
            {
                o.dead = true;
                o.stage.clear();
                return false;
            }
            throw new MpiException(ErrorClass.ERR_OTHER, "tcp: rank " + peer + " is gone (write from rank " + rank + " failed: " +
                ex.getMessage() + ")", ex);
        }
        finally
        {
            if (!o.dead)
            {
                o.stage.compact();
            }
        }
    }

    /**
     * Opens this rank's connection to {@code peer} and stages its HELLO; frames may follow at once (the
     * peer need not be polling for the connection to be usable).
     */
    private Outbound connect(final int peer)
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
            final Outbound o = new Outbound(ch, stageCapacity);
            o.stage.put(Handshake.hello(rank, peer, nonce, tokens[peer], jobId));
            outbound[peer] = o;
            connected.add(o);
            flush(peer, o);
            return o;
        }
        catch (final IOException ex)
        {
            throw new MpiException(ErrorClass.ERR_OTHER, "tcp: rank " + rank + " cannot connect to rank " + peer + " at " +
                addresses[peer] + ": " + ex.getMessage(), ex);
        }
    }

    private int acceptAll()
    {
        int accepted = 0;
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
                accepted++;
            }
        }
        catch (final IOException ex)
        {
            System.err.println("jmpi: tcp: rank " + rank + ": accept failed: " + ex.getMessage());
        }
        return accepted;
    }

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
            if (peer < 0 || peer == rank || inbound[peer] != null || !noncesSeen.add(HexFormat.of().formatHex(Handshake.nonce(p.hello))))
            {
                refuse(key, p, "refused");
                return 0;
            }
            pending.remove(p);
            final Inbound in = new Inbound(peer, p.channel);
            inbound[peer] = in;
            key.attach(in);
            return 0;
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

    private int readFrames(final Inbound in, final FrameHandler handler)
    {
        final int read;
        try
        {
            read = in.channel.read(in.buffer);
        }
        catch (final IOException ex)
        {
            throw gone(in, ex.getMessage());
        }
        if (read < 0)
        {
            if (!in.bye)
            {
                throw gone(in, "connection closed without BYE");
            }
            in.channel.keyFor(selector).cancel();
            closeQuietly(in.channel);
            return 0;
        }
        final int limit = in.buffer.position();
        int at = 0;
        int frames = 0;
        while (limit - at >= FRAME_HEADER_LENGTH)
        {
            final int length = in.view.getInt(at + FRAME_LENGTH_OFFSET, BYTE_ORDER);
            if (length == 0)
            {
                in.bye = true;
                at += FRAME_HEADER_LENGTH;
                continue;
            }
            if (length < 0 || length > MAX_FRAME_LENGTH)
            {
                throw new MpiException(ErrorClass.ERR_INTERN, "tcp: frame of " + length + " bytes from rank " + in.peer +
                    " (at most " + MAX_FRAME_LENGTH + "): the stream is corrupt");
            }
            if (limit - at - FRAME_HEADER_LENGTH < length)
            {
                break;
            }
            handler.onFrame(in.peer, in.view, at + FRAME_HEADER_LENGTH, length);
            at += FRAME_HEADER_LENGTH + length;
            frames++;
        }
        in.buffer.limit(limit).position(at);
        in.buffer.compact();
        return frames + (in.buffer.position() > 0 ? 1 : 0);
    }

    private MpiException gone(final Inbound in, final String why)
    {
        return new MpiException(ErrorClass.ERR_OTHER, "tcp: rank " + in.peer + " is gone (" + why + ", seen by rank " + rank + ")");
    }

    @Override
    public void wakeup()
    {
        // The engine never blocks inside this transport.
    }

    /** Flushes every connection (for a bounded time), says BYE, and closes everything. */
    @Override
    public void close()
    {
        if (closed)
        {
            return;
        }
        closed = true;
        final long deadline = System.nanoTime() + 2_000_000_000L;
        for (int r = 0; r < size; r++)
        {
            final Outbound o = outbound[r];
            if (o == null || o.dead)
            {
                continue;
            }
            try
            {
                if (o.stage.remaining() < FRAME_HEADER_LENGTH)
                {
                    while (o.stage.position() > 0 && System.nanoTime() < deadline)
                    {
                        flush(r, o);
                    }
                }
                o.stage.putInt(0);
                while (o.stage.position() > 0 && !o.dead && System.nanoTime() < deadline)
                {
                    flush(r, o);
                }
            }
            catch (final MpiException ex)
            {
                // The peer finished first; nothing more to say to it.
            }
            closeQuietly(o.channel);
        }
        for (final Inbound in : inbound)
        {
            if (in != null)
            {
                closeQuietly(in.channel);
            }
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
