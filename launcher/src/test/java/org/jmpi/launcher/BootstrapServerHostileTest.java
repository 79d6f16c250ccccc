package org.jmpi.launcher;

import org.jmpi.internal.bootstrap.BootstrapAuth;
import org.jmpi.internal.bootstrap.BootstrapEnv;
import org.jmpi.internal.bootstrap.BootstrapMessage;
import org.jmpi.internal.bootstrap.TcpBootstrap;
import org.jmpi.spi.Bootstrap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import static org.jmpi.internal.bootstrap.BootstrapProtocolDescriptor.*;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The bootstrap server against clients that do not follow the protocol, in one JVM with short limits.
 * The same attacks against a live job through bin/jmpirun: {@code it.HostileClientIT}.
 */
@Timeout(30)
class BootstrapServerHostileTest
{
    private static final byte[] REFUSED_FRAME = BootstrapMessage.failure(STATUS_AUTH_FAILED, REFUSED).encode();
    private static final long WAIT_NS = TimeUnit.SECONDS.toNanos(20);

    private final List<AutoCloseable> closeables = new ArrayList<>();
    private final List<String> log = new CopyOnWriteArrayList<>();

    @AfterEach
    void closeAll() throws Exception
    {
        for (final AutoCloseable closeable : closeables)
        {
            closeable.close();
        }
    }

    @Test
    void shouldRefuseAFrameAnnouncedLargerThanTheLargestHelloOnItsLengthField() throws IOException
    {
        final BootstrapServer server = server(2, 10_000, 16, 0);
        try (Socket socket = client(server))
        {
            readChallenge(socket);
            socket.getOutputStream().write(ByteBuffer.allocate(4).order(BYTE_ORDER).putInt(0, MAX_FRAME_LENGTH).array());
            final long start = System.nanoTime();
            assertArrayEquals(REFUSED_FRAME, readToEnd(socket));
            assertTrue(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start) < 5_000, "refusal waited for the handshake deadline");
        }
    }

    @Test
    void shouldAnswerEveryBadHelloWithTheSameBytes() throws IOException
    {
        final BootstrapServer server = server(2, 10_000, 16, 0);
        final List<byte[]> answers = new ArrayList<>();
        for (final int variant : new int[] {0, 1, 2, 3, 4, 5})
        {
            try (Socket socket = client(server))
            {
                final byte[] nonce = readChallenge(socket).value();
                final byte[] ticket = server.ticket(0);
                final BootstrapMessage hello = switch (variant)
                {
                    case 0 -> BootstrapMessage.request(TYPE_HELLO, 0, CREDENTIAL_TICKET, 0, server.jobId(), new byte[PROOF_LENGTH]);
                    case 1 -> BootstrapMessage.request(TYPE_HELLO, 0, CREDENTIAL_TICKET, 0, "otherjob",
                        BootstrapAuth.proof(ticket, nonce, "otherjob", 0));
                    case 2 -> BootstrapMessage.request(TYPE_HELLO, 99, CREDENTIAL_TICKET, 0, server.jobId(),
                        BootstrapAuth.proof(ticket, nonce, server.jobId(), 99));
                    case 3 -> BootstrapMessage.request(TYPE_PUT, 0, CREDENTIAL_TICKET, 0, server.jobId(),
                        BootstrapAuth.proof(ticket, nonce, server.jobId(), 0));
                    case 4 -> new BootstrapMessage((short)1, TYPE_HELLO, STATUS_NONE, 0, CREDENTIAL_TICKET, 0, server.jobId(),
                        BootstrapAuth.proof(ticket, nonce, server.jobId(), 0));
                    default -> BootstrapMessage.request(TYPE_HELLO, 0, 77, 0, server.jobId(),
                        BootstrapAuth.proof(ticket, nonce, server.jobId(), 0));
                };
                socket.getOutputStream().write(hello.encode());
                answers.add(readToEnd(socket));
            }
        }
        for (final byte[] answer : answers)
        {
            assertArrayEquals(REFUSED_FRAME, answer);
        }
        connectRank(server, 0);
    }

    @Test
    void shouldCloseAHandshakeTricklingBytesAtItsDeadlineFromAccept() throws Exception
    {
        final BootstrapServer server = server(2, 400, 16, 0);
        try (Socket socket = client(server))
        {
            final long acceptedNs = System.nanoTime();
            final byte[] nonce = readChallenge(socket).value();
            final byte[] hello = BootstrapMessage.request(TYPE_HELLO, 0, CREDENTIAL_TICKET, 0, server.jobId(),
                BootstrapAuth.proof(server.ticket(0), nonce, server.jobId(), 0)).encode();
            int sent = 0;
            try
            {
                // One byte every 50 ms: each read is quick, the whole would take 6 s.
                while (sent < hello.length - 1)
                {
                    socket.getOutputStream().write(hello[sent++]);
                    socket.getOutputStream().flush();
                    Thread.sleep(50);
                }
            }
            catch (final SocketException ex)
            {
                // Closed by the server while trickling: expected.
            }
            final byte[] rest = readToEnd(socket);
            final long closedMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - acceptedNs);
            assertEquals(0, rest.length);
            assertTrue(closedMs >= 350 && closedMs < 3_000, "closed after " + closedMs + " ms, sent " + sent + " bytes");
            assertTrue(sent < hello.length - 1, "the whole trickled hello was accepted");
        }
        awaitLog("timed out");
    }

    @Test
    void shouldCloseConnectionsOverTheCapAtOnceAndLetARankInOnceTheyExpire() throws Exception
    {
        final BootstrapServer server = server(2, 500, 3, 0);
        final List<Socket> idle = new ArrayList<>();
        for (int i = 0; i < 3; i++)
        {
            final Socket socket = client(server);
            readChallenge(socket);
            idle.add(socket);
        }
        try (Socket over = client(server))
        {
            over.setSoTimeout(2_000);
            final int first;
            try
            {
                first = over.getInputStream().read();
            }
            catch (final SocketTimeoutException ex)
            {
                throw new AssertionError("a connection over the cap was left open", ex);
            }
            catch (final SocketException ex)
            {
                // Reset: closed at once, which is what the cap does.
                return;
            }
            assertEquals(-1, first, "a connection over the cap got a challenge");
        }
        final Bootstrap rank = connectRank(server, 1);
        rank.put("in", new byte[0]);
        idle.forEach(BootstrapServerHostileTest::closeQuietly);
        awaitLog("over the cap");
    }

    @Test
    void shouldHoldHundredsOfIdleConnectionsWithoutAThreadEach() throws Exception
    {
        final BootstrapServer server = server(2, 10_000, 500, 0);
        final int before = ManagementFactory.getThreadMXBean().getThreadCount();
        final List<Socket> idle = new ArrayList<>();
        try
        {
            for (int i = 0; i < 300; i++)
            {
                final Socket socket = client(server);
                socket.getOutputStream().write(ByteBuffer.allocate(2).putShort((short)0).array());
                idle.add(socket);
            }
            final Bootstrap rank = connectRank(server, 0);
            rank.put("k", new byte[1]);
            final int during = ManagementFactory.getThreadMXBean().getThreadCount();
            assertTrue(during - before <= 4, "threads before=" + before + ", with 300 idle connections=" + during);
        }
        finally
        {
            idle.forEach(BootstrapServerHostileTest::closeQuietly);
        }
    }

    @Test
    void shouldReportTurnedAwayConnectionsWithCountAndPeer() throws Exception
    {
        final BootstrapServer server = server(2, 10_000, 16, 0);
        for (int i = 0; i < 3; i++)
        {
            try (Socket socket = client(server))
            {
                readChallenge(socket);
                socket.getOutputStream().write(new byte[] {0x7f, 0, 0, 0});
                readToEnd(socket);
            }
        }
        awaitLog("refused");
        final String all = String.join("\n", log);
        assertTrue(all.contains("127.0.0.1"), all);
        assertTrue(all.startsWith("jmpirun: bootstrap: turned away "), all);
    }

    private void awaitLog(final String text) throws InterruptedException
    {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (log.stream().noneMatch(line -> line.contains(text)))
        {
            assertTrue(System.nanoTime() - deadline < 0, "no report containing '" + text + "' in " + log);
            Thread.sleep(10);
        }
    }

    private BootstrapServer server(final int size, final long handshakeTimeoutMs, final int maxUnauthenticated, final long logIntervalMs)
    {
        final BootstrapServer.Config config = new BootstrapServer.Config(InetAddress.getLoopbackAddress(),
            TimeUnit.MILLISECONDS.toNanos(handshakeTimeoutMs), maxUnauthenticated, TimeUnit.MILLISECONDS.toNanos(logIntervalMs));
        final BootstrapServer server = BootstrapServer.start(size, BootstrapEnv.newJobId(), (rank, code, message) -> { }, config, log::add);
        closeables.add(server);
        return server;
    }

    private Bootstrap connectRank(final BootstrapServer server, final int rank)
    {
        final TcpBootstrap bootstrap = TcpBootstrap.connect(server.address(), rank, 2, server.jobId(), server.ticket(rank), WAIT_NS);
        closeables.add(0, bootstrap);
        return bootstrap;
    }

    private Socket client(final BootstrapServer server) throws IOException
    {
        final Socket socket = new Socket(server.address().getAddress(), server.address().getPort());
        socket.setSoTimeout(10_000);
        closeables.add(socket);
        return socket;
    }

    private static BootstrapMessage readChallenge(final Socket socket) throws IOException
    {
        final BootstrapMessage challenge = BootstrapMessage.readFrom(new DataInputStream(socket.getInputStream()), MAX_HANDSHAKE_FRAME_LENGTH);
        assertEquals(TYPE_CHALLENGE, challenge.type());
        return challenge;
    }

    /** What the server sends until it closes (a reset counts as the end). */
    private static byte[] readToEnd(final Socket socket) throws IOException
    {
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        final InputStream in = socket.getInputStream();
        final byte[] buffer = new byte[256];
        try
        {
            int read;
            while ((read = in.read(buffer)) >= 0)
            {
                bytes.write(buffer, 0, read);
            }
        }
        catch (final SocketException ex)
        {
            // Connection reset after the answer.
        }
        return bytes.toByteArray();
    }

    private static void closeQuietly(final Socket socket)
    {
        try
        {
            socket.close();
        }
        catch (final IOException ex)
        {
            // Test cleanup.
        }
    }

    @SuppressWarnings("unused")
    private static String text(final byte[] bytes)
    {
        return new String(bytes, StandardCharsets.UTF_8) + Arrays.toString(bytes);
    }
}
