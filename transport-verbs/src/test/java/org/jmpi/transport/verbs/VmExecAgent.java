package org.jmpi.transport.verbs;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;

/**
 * A launch agent for jmpirun between the two soft-RoCE VMs of {@code rxe-vm-run.sh --nodes 2}, which have no
 * ssh: a server on the second VM runs the commands the first VM's jmpirun hands to its client, with stdin,
 * stdout, stderr and the exit code carried over one TCP connection on the VMs' private link. Test tooling
 * for a throw-away VM only: it authenticates nothing (docs/verbs.md, "Two VMs").
 *
 * <pre>
 *   VmExecAgent --serve PORT                       (node 1) runs until a client sends --shutdown
 *   VmExecAgent --port PORT HOST /bin/sh -c SCRIPT (node 0; jmpirun --launch-agent '... --port PORT', host appended)
 *   VmExecAgent --port PORT HOST --shutdown        stops the server
 *   VmExecAgent --port PORT HOST --clock           prints the server's clock minus this one's, in ms (best of 5 exchanges:
 *                                                  the one with the shortest round trip, its middle taken as the server's moment)
 * </pre>
 *
 * Wire: client to server: the argument count and arguments ({@code writeUTF}), then stdin as chunks
 * {@code [int length > 0][bytes]}, {@code [int 0]} at its end. Server to client: {@code [byte 1|2][int length][bytes]}
 * for stdout or stderr, {@code [byte 0][int code]} when the process has ended. A connection lost before the end
 * kills the process and its descendants (jmpirun stopping a job kills the client).
 * Threading: one thread per connection and one per copied stream; streams are written under the connection's lock.
 */
public final class VmExecAgent
{
    private static final int CHUNK = 8192;

    private VmExecAgent()
    {
    }

    public static void main(final String[] args) throws Exception
    {
        if (args.length == 2 && args[0].equals("--serve"))
        {
            serve(Integer.parseInt(args[1]));
            return;
        }
        if (args.length == 4 && args[0].equals("--port") && args[3].equals("--clock"))
        {
            System.out.println(clockOffsetMs(args[2], Integer.parseInt(args[1])));
            return;
        }
        if (args.length >= 4 && args[0].equals("--port"))
        {
            System.exit(client(args[2], Integer.parseInt(args[1]), List.of(args).subList(3, args.length)));
        }
        System.err.println("usage: VmExecAgent --serve PORT | --port PORT HOST COMMAND...");
        System.exit(2);
    }

    private static void serve(final int port) throws IOException
    {
        try (ServerSocket server = new ServerSocket())
        {
            server.setReuseAddress(true);
            server.bind(new InetSocketAddress(port));
            System.err.println("VmExecAgent: serving on port " + port);
            while (true)
            {
                final Socket socket = server.accept();
                final DataInputStream in = new DataInputStream(socket.getInputStream());
                final int argc = in.readInt();
                final List<String> command = new ArrayList<>();
                for (int i = 0; i < argc; i++)
                {
                    command.add(in.readUTF());
                }
                if (command.equals(List.of("--clock")))
                {
                    final DataOutputStream out = new DataOutputStream(socket.getOutputStream());
                    out.writeLong(System.currentTimeMillis());
                    out.flush();
                    socket.close();
                    continue;
                }
                if (command.equals(List.of("--shutdown")))
                {
                    final DataOutputStream out = new DataOutputStream(socket.getOutputStream());
                    out.writeByte(0);
                    out.writeInt(0);
                    out.flush();
                    socket.close();
                    return;
                }
                Thread.ofPlatform().daemon().name("exec-" + socket.getPort()).start(() -> runOne(socket, in, command));
            }
        }
    }

    private static void runOne(final Socket socket, final DataInputStream in, final List<String> command)
    {
        final Process process;
        final DataOutputStream out;
        try
        {
            out = new DataOutputStream(socket.getOutputStream());
            process = new ProcessBuilder(command).start();
        }
        catch (final IOException ex)
        {
            System.err.println("VmExecAgent: cannot start " + command + ": " + ex);
            closeQuietly(socket);
            return;
        }
        final Thread stdout = pump(process.getInputStream(), out, 1);
        final Thread stderr = pump(process.getErrorStream(), out, 2);
        Thread.ofPlatform().daemon().start(() -> copyStdin(in, process));
        try
        {
            final int code = process.waitFor();
            stdout.join();
            stderr.join();
            synchronized (out)
            {
                out.writeByte(0);
                out.writeInt(code);
                out.flush();
            }
        }
        catch (final IOException | InterruptedException ex)
        {
            killTree(process);
        }
        finally
        {
            closeQuietly(socket);
        }
    }

    /** Copies the client's stdin chunks into the process; a connection lost before the end marker kills it. */
    private static void copyStdin(final DataInputStream in, final Process process)
    {
        final OutputStream toProcess = process.getOutputStream();
        boolean open = true;
        try
        {
            final byte[] chunk = new byte[CHUNK];
            for (int length = in.readInt(); length > 0; length = in.readInt())
            {
                in.readFully(chunk, 0, length);
                if (open)
                {
                    try
                    {
                        toProcess.write(chunk, 0, length);
                        toProcess.flush();
                    }
                    catch (final IOException ex)
                    {
                        open = false; // the process closed its stdin or ended: drop the rest
                    }
                }
            }
            toProcess.close();
        }
        catch (final IOException ex)
        {
            killTree(process); // the client is gone: jmpirun stopped the job
        }
    }

    private static Thread pump(final InputStream from, final DataOutputStream to, final int stream)
    {
        return Thread.ofPlatform().daemon().start(() ->
        {
            final byte[] chunk = new byte[CHUNK];
            try (from)
            {
                for (int length = from.read(chunk); length >= 0; length = from.read(chunk))
                {
                    synchronized (to)
                    {
                        to.writeByte(stream);
                        to.writeInt(length);
                        to.write(chunk, 0, length);
                        to.flush();
                    }
                }
            }
            catch (final IOException ex)
            {
                // The connection is gone: the stdin copier kills the process.
            }
        });
    }

    private static void killTree(final Process process)
    {
        process.descendants().forEach(ProcessHandle::destroyForcibly);
        process.destroyForcibly();
    }

    private static int client(final String host, final int port, final List<String> command) throws IOException
    {
        try (Socket socket = new Socket(host, port))
        {
            final DataOutputStream out = new DataOutputStream(socket.getOutputStream());
            out.writeInt(command.size());
            for (final String word : command)
            {
                out.writeUTF(word);
            }
            out.flush();
            Thread.ofPlatform().daemon().start(() ->
            {
                final byte[] chunk = new byte[CHUNK];
                try
                {
                    for (int length = System.in.read(chunk); length >= 0; length = System.in.read(chunk))
                    {
                        if (length > 0)
                        {
                            out.writeInt(length);
                            out.write(chunk, 0, length);
                            out.flush();
                        }
                    }
                    out.writeInt(0);
                    out.flush();
                }
                catch (final IOException ex)
                {
                    // The connection ended: the main thread reports it.
                }
            });
            final DataInputStream in = new DataInputStream(socket.getInputStream());
            final byte[] chunk = new byte[CHUNK];
            while (true)
            {
                final int stream = in.readByte();
                final int length = in.readInt();
                if (stream == 0)
                {
                    System.out.flush();
                    return length;
                }
                in.readFully(chunk, 0, length);
                final OutputStream sink = stream == 1 ? System.out : System.err;
                sink.write(chunk, 0, length);
                sink.flush();
            }
        }
        catch (final EOFException ex)
        {
            System.err.println("VmExecAgent: connection to " + host + ":" + port + " lost before the command ended");
            return 255;
        }
    }

    private static long clockOffsetMs(final String host, final int port) throws IOException
    {
        long bestRtt = Long.MAX_VALUE;
        long offset = 0;
        for (int i = 0; i < 5; i++)
        {
            try (Socket socket = new Socket(host, port))
            {
                final DataOutputStream out = new DataOutputStream(socket.getOutputStream());
                final long before = System.currentTimeMillis();
                out.writeInt(1);
                out.writeUTF("--clock");
                out.flush();
                final long theirs = new DataInputStream(socket.getInputStream()).readLong();
                final long after = System.currentTimeMillis();
                if (after - before < bestRtt)
                {
                    bestRtt = after - before;
                    offset = theirs - (before + after) / 2;
                }
            }
        }
        return offset;
    }

    private static void closeQuietly(final Socket socket)
    {
        try
        {
            socket.close();
        }
        catch (final IOException ex)
        {
            // Nothing left to tell.
        }
    }
}
