package org.jmpi.internal.comm;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;

import org.jmpi.ErrorClass;
import org.jmpi.MpiException;

/**
 * Where connection requests from another job reach a rank's ports (docs/compat.md, "Dynamic processes"): one loopback
 * TCP listener per rank, opened with its first port, whose address and a per-port token are part of the port's name.
 * A connecting root of another job sends one line, {@code CONNECT <sequence> <token> <group size>}; the door checks
 * the token and queues the request for the port's {@link Ports#accept}, which answers on the same socket with one line,
 * {@code OK <joint job id> <endpoints> <joint size> <ticket>...} or {@code REFUSED <why>}.
 *
 * <p>Threading: a daemon thread accepts and reads the request lines; {@link #poll} and {@link #refuseAll} from any
 * thread.
 */
final class PortDoor
{
    private static final int REQUEST_READ_MS = 5_000;
    private static final int MAX_LINE_CHARS = 256;

    /** A request that passed the token check, waiting for an accept on its port. */
    record Request(Socket socket, int groupSize)
    {
        void answer(final String line)
        {
            try (Socket s = socket)
            {
                final OutputStream out = s.getOutputStream();
                out.write((line + "\n").getBytes(StandardCharsets.UTF_8));
                out.flush();
            }
            catch (final IOException ex)
            {
                // The connecting root went away; its job learns nothing more from this port.
            }
        }
    }

    private final ServerSocket server;
    private final Map<Integer, String> tokens = new ConcurrentHashMap<>();
    private final Map<Integer, LinkedBlockingQueue<Request>> pending = new ConcurrentHashMap<>();
    private volatile boolean closed;

    private PortDoor(final ServerSocket server)
    {
        this.server = server;
        Thread.ofPlatform().daemon().name("jmpi-port-door").start(this::serve);
    }

    static PortDoor open()
    {
        try
        {
            final ServerSocket server = new ServerSocket();
            server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 64);
            return new PortDoor(server);
        }
        catch (final IOException ex)
        {
            throw new MpiException(ErrorClass.ERR_PORT, "openPort: cannot listen on loopback for other jobs' connections: " + ex.getMessage());
        }
    }

    /** {@code host:port} of the door. */
    String address()
    {
        return server.getInetAddress().getHostAddress() + "/" + server.getLocalPort();
    }

    void admit(final int sequence, final String token)
    {
        pending.computeIfAbsent(sequence, s -> new LinkedBlockingQueue<>());
        tokens.put(sequence, token);
    }

    /** The next request for port {@code sequence}, or null. */
    Request poll(final int sequence)
    {
        final LinkedBlockingQueue<Request> queue = pending.get(sequence);
        return queue == null ? null : queue.poll();
    }

    /** The port closed: refuses what waits and every later request. */
    void refuseAll(final int sequence)
    {
        tokens.remove(sequence);
        final LinkedBlockingQueue<Request> queue = pending.remove(sequence);
        Request r;
        while (queue != null && (r = queue.poll()) != null)
        {
            r.answer("REFUSED the port was closed before an accept took the connection");
        }
    }

    private void serve()
    {
        while (!closed)
        {
            final Socket socket;
            try
            {
                socket = server.accept();
            }
            catch (final IOException ex)
            {
                return;
            }
            Thread.ofVirtual().name("jmpi-port-door-request").start(() -> take(socket));
        }
    }

    /** Reads one request line; queues it when its token is right, else answers REFUSED. */
    private void take(final Socket socket)
    {
        try
        {
            socket.setSoTimeout(REQUEST_READ_MS);
            final String line = new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.UTF_8)).readLine();
            final String[] parts = line == null || line.length() > MAX_LINE_CHARS ? new String[0] : line.split(" ");
            if (parts.length == 4 && "CONNECT".equals(parts[0]))
            {
                final int sequence = Integer.parseInt(parts[1]);
                final int groupSize = Integer.parseInt(parts[3]);
                final String token = tokens.get(sequence);
                final LinkedBlockingQueue<Request> queue = pending.get(sequence);
                if (token != null && queue != null && java.security.MessageDigest.isEqual(token.getBytes(StandardCharsets.US_ASCII),
                    parts[2].getBytes(StandardCharsets.US_ASCII)) && groupSize > 0)
                {
                    socket.setSoTimeout(0);
                    queue.add(new Request(socket, groupSize));
                    return;
                }
            }
            new Request(socket, 0).answer("REFUSED unknown or closed port");
        }
        catch (final IOException | NumberFormatException ex)
        {
            new Request(socket, 0).answer("REFUSED malformed request");
        }
    }

    /** Sends a request line to the door at {@code address} and waits for the answer line (the accept's). */
    static String request(final String address, final String line, final java.util.function.BooleanSupplier stillWanted)
    {
        final int slash = address.lastIndexOf('/');
        try (Socket socket = new Socket())
        {
            socket.connect(new InetSocketAddress(address.substring(0, slash), Integer.parseInt(address.substring(slash + 1))), 5_000);
            socket.getOutputStream().write((line + "\n").getBytes(StandardCharsets.UTF_8));
            socket.getOutputStream().flush();
            socket.setSoTimeout((int)Ports.CLOSED_CHECK_MS);
            final BufferedReader in = new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.UTF_8));
            while (true)
            {
                try
                {
                    final String answer = in.readLine();
                    if (answer == null)
                    {
                        throw new MpiException(ErrorClass.ERR_PORT, "connect: the accepting job closed the connection (it ended?)");
                    }
                    return answer;
                }
                catch (final SocketTimeoutException ex)
                {
                    if (!stillWanted.getAsBoolean())
                    {
                        throw new MpiException(ErrorClass.ERR_PORT, "connect: gave up waiting for the accept");
                    }
                }
            }
        }
        catch (final IOException | RuntimeException ex)
        {
            if (ex instanceof MpiException me)
            {
                throw me;
            }
            throw new MpiException(ErrorClass.ERR_PORT, "connect: cannot reach the port's job at " + address + ": " + ex.getMessage());
        }
    }

    /** At finalize: refuses what waits on every port and stops listening. */
    void shutdown()
    {
        closed = true;
        pending.keySet().forEach(this::refuseAll);
        try (ServerSocket listening = server)
        {
            assert listening.isBound();
        }
        catch (final IOException ex)
        {
            // Not listening any more either way.
        }
    }
}
