package org.jmpi.launcher;

import org.jmpi.internal.bootstrap.BootstrapAuth;
import org.jmpi.internal.bootstrap.BootstrapMessage;
import org.jmpi.internal.bootstrap.HandshakeFrameDecoder;

import java.io.IOException;
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
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import static org.jmpi.internal.bootstrap.BootstrapProtocolDescriptor.*;
import static org.jmpi.launcher.BootstrapServer.closeQuietly;

/**
 * The front door of a {@link BootstrapServer}: one selector thread that accepts connections and runs
 * every handshake non-blocking, in a fixed buffer per connection, within the limits of the server's
 * {@link BootstrapServer.Config} (deadline from accept, cap on handshakes in progress, accept back-off of
 * 10 ms doubling to 1 s after an accept error). A connection whose HELLO {@link BootstrapCredentials}
 * accepts is handed to the server's {@link Handoff}; every other one is answered "refused" (if the
 * socket takes it at once) and closed, and reported through the {@link RefusalLog}.
 *
 * <p>Threading: the selector thread owns the handshakes, the refusal log and the accept state;
 * {@link #stop()} and {@link #stopping()} may be called from any thread.
 */
final class BootstrapAcceptor
{
    /** Receives authenticated connections, on the selector thread, their selection keys cancelled. */
    interface Handoff
    {
        /** {@code channel} (still non-blocking) proved itself {@code rank}; {@code okFrame} is its answer, not yet sent. */
        void onAuthenticated(SocketChannel channel, int rank, byte[] okFrame);
    }

    private static final int ACCEPTS_PER_WAKEUP = 64;
    private static final long ACCEPT_BACKOFF_MIN_NS = TimeUnit.MILLISECONDS.toNanos(10);
    private static final long ACCEPT_BACKOFF_MAX_NS = TimeUnit.SECONDS.toNanos(1);
    private static final byte[] REFUSED_FRAME = BootstrapMessage.failure(STATUS_AUTH_FAILED, REFUSED).encode();

    private final BootstrapServer.Config config;
    private final BootstrapCredentials credentials;
    private final Handoff handoff;
    private final ServerSocketChannel serverChannel;
    private final Selector selector;
    private final SelectionKey acceptKey;
    private final RefusalLog refusals;
    private final Thread selectorThread;
    private final ArrayDeque<Handshake> handshakes = new ArrayDeque<>();
    private final List<Handshake> authenticated = new ArrayList<>();
    private int unauthenticated;
    private long acceptBackoffNs = ACCEPT_BACKOFF_MIN_NS;
    private long acceptResumeNs;
    private boolean acceptPaused;
    private volatile boolean stopping;

    /** Registers {@code serverChannel} (non-blocking) with {@code selector}; the thread starts with {@link #start()}. */
    BootstrapAcceptor(final BootstrapServer.Config config, final BootstrapCredentials credentials, final Handoff handoff,
        final RefusalLog refusals, final ServerSocketChannel serverChannel, final Selector selector) throws IOException
    {
        this.config = config;
        this.credentials = credentials;
        this.handoff = handoff;
        this.refusals = refusals;
        this.serverChannel = serverChannel;
        this.selector = selector;
        this.acceptKey = serverChannel.register(selector, SelectionKey.OP_ACCEPT);
        this.selectorThread = Thread.ofPlatform().daemon().name("jmpirun-bootstrap").unstarted(this::selectLoop);
    }

    void start()
    {
        selectorThread.start();
    }

    /** Closes the listening socket and ends the selector thread (it closes the handshakes still running). */
    void stop()
    {
        stopping = true;
        closeQuietly(serverChannel);
        selector.wakeup();
    }

    /** Whether {@link #stop()} was called. */
    boolean stopping()
    {
        return stopping;
    }

    /** Waits at most {@code timeoutMs} for the selector thread to end. */
    void join(final long timeoutMs) throws InterruptedException
    {
        selectorThread.join(timeoutMs);
    }

    /** The selector thread: runs until {@link #stop()}, whatever goes wrong in a step. */
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
     * 5. Hand authenticated connections to the server (their keys deregistered first).
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
                handoff.onAuthenticated(handshake.channel, handshake.rank, handshake.okFrame);
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
            final byte[] ok = credentials.verify(hello, nonce);
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
