package org.jmpi.transport.tcp;

import org.agrona.BufferUtil;
import org.agrona.concurrent.UnsafeBuffer;
import org.jmpi.ErrorClass;
import org.jmpi.MpiException;
import org.jmpi.spi.FrameHandler;
import org.jmpi.spi.FrameWriter;
import org.jmpi.spi.Transport;
import org.jmpi.spi.TransportContext;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.util.ArrayList;
import java.util.function.Consumer;

import org.jmpi.transport.tcp.TcpConnections.Connection;
import org.jmpi.transport.tcp.TcpConnections.Pending;

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
 * frames from a connection before that check. Listening, connecting, accepting and those checks are
 * {@link TcpConnections}'; this class moves the frames, makes progress and closes.
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
    private static final long CLOSE_FLUSH_NS = 2_000_000_000L;
    /** How long {@link #close} waits for an {@code offer} or {@code progress} of another thread to return before freeing. */
    private static final long CLOSE_QUIESCE_NS = 2_000_000_000L;

    private final int rank;
    private final int size;
    private final int stageCapacity;
    /** The connection this rank sends to each peer over, fixed at the first frame. */
    private final Connection[] sendVia;
    /** A BYE came from the peer on some connection: it is closing, a failed write to it is no death. */
    private final boolean[] peerBye;
    private final ArrayList<Connection> sending = new ArrayList<>();
    /** Listening, connecting, accepting and the handshakes. */
    private final TcpConnections links;
    private final Selector selector;
    /** The selector's action, made once: no garbage per poll ({@link #progress} sets the two fields below). */
    private final Consumer<SelectionKey> onReady = this::onReady;
    private FrameHandler handler;
    private int readyWork;
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
        this.rank = context.rank();
        this.size = context.size();
        this.stageCapacity = (int)Math.max(MAX_FRAME_LENGTH + FRAME_HEADER_LENGTH,
            Math.min(Integer.MAX_VALUE, context.params().getLong(TcpParams.SEND_BUFFER)));
        this.sendVia = new Connection[size];
        this.peerBye = new boolean[size];
        this.links = new TcpConnections(this, context);
        this.selector = links.selector;
        if ("eager".equalsIgnoreCase(context.params().get(TcpParams.CONNECT)))
        {
            links.connectEagerly(sendVia);
        }
    }

    /** Connections this rank has (opened or accepted, HELLO checked), for tests. */
    int connectionCount()
    {
        return links.connections.size();
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
            c = links.route(dstRank);
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


    /** Gives {@code c} its send stage (direct; this transport owns and frees it). */
    void makeStage(final Connection c)
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
        return work + readyWork + links.expirePending();
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
            readyWork += links.acceptAll();
        }
        else if (attachment instanceof Pending p)
        {
            readyWork += links.readHello(key, p);
        }
        else
        {
            readyWork += readFrames((Connection)attachment, handler);
        }
    }

    /** Writes what the socket takes of {@code c}'s stage; true if anything was written. */
    boolean flush(final Connection c)
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
                TcpConnections.closeQuietly(c.channel);
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
            TcpConnections.closeQuietly(c.channel);
            return 0;
        }
        final int limit = c.buffer.position();
        int at = 0;
        if (!c.welcomed)
        {
            if (!links.welcomed(c, limit))
            {
                return 0;
            }
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
        for (final Connection c : links.connections)
        {
            try
            {
                sayBye(c, deadline);
            }
            catch (final MpiException ex)
            {
                // The peer finished first; nothing more to say to it.
            }
            TcpConnections.closeQuietly(c.channel);
        }
        links.close();
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
        for (final Connection c : links.connections)
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

}
