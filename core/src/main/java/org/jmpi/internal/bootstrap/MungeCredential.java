package org.jmpi.internal.bootstrap;

import org.jmpi.ErrorClass;
import org.jmpi.MpiException;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * MUNGE credentials through the {@code munge} and {@code unmunge} commands (the authentication service
 * every Slurm cluster with {@code auth/munge} runs on each node): a credential carries a payload and the
 * uid and gid of the process that made it, sealed with the cluster's key; {@code unmunge} checks it,
 * refuses a replay (each credential decodes once per node) or one older than its time to live (300 s by
 * default), and, for a credential made with {@code --restrict-uid}, decodes only for that uid.
 *
 * <p>Stateless; any thread. Each call runs one short-lived process.
 */
final class MungeCredential
{
    private static final long COMMAND_TIMEOUT_MS = 10_000;
    private static final int MAX_OUTPUT_BYTES = 1 << 16;

    /** A decoded credential: who made it and what it carries. */
    record Decoded(long uid, String payload)
    {
    }

    private MungeCredential()
    {
    }

    /**
     * A credential carrying {@code payload} that only {@code uid} can decode.
     *
     * @param socket munged's socket, or empty for munge's default
     * @throws MpiException ERR_OTHER when {@code munge} is missing or fails.
     */
    static String encode(final String payload, final long uid, final String socket)
    {
        final List<String> command = command("munge", socket);
        command.add("--restrict-uid=" + uid);
        command.add("--string=" + payload);
        final Result result = run(command, null);
        if (result.exitCode != 0 || !result.stdout.startsWith("MUNGE:"))
        {
            throw new MpiException(ErrorClass.ERR_OTHER, "munge failed (exit " + result.exitCode + "): " + result.stdout.strip());
        }
        return result.stdout.strip();
    }

    /**
     * The maker's uid and the payload of {@code credential}.
     *
     * @throws MpiException ERR_OTHER when {@code unmunge} is missing or refuses the credential (forged,
     * replayed, expired, restricted to another uid), with its status line.
     */
    static Decoded decode(final String credential, final String socket)
    {
        final Result result = run(command("unmunge", socket), credential + "\n");
        final String out = result.stdout;
        final int blank = out.indexOf("\n\n");
        String status = "";
        long uid = -1;
        for (final String line : (blank < 0 ? out : out.substring(0, blank)).split("\n"))
        {
            if (line.startsWith("STATUS:"))
            {
                status = line.substring("STATUS:".length()).strip();
            }
            else if (line.startsWith("UID:"))
            {
                final int open = line.lastIndexOf('(');
                final int close = line.lastIndexOf(')');
                if (open > 0 && close > open)
                {
                    uid = Long.parseLong(line.substring(open + 1, close).strip());
                }
            }
        }
        if (result.exitCode != 0 || !status.startsWith("Success") || uid < 0 || blank < 0)
        {
            throw new MpiException(ErrorClass.ERR_OTHER, "unmunge refused the credential (exit " + result.exitCode + "): " +
                (status.isEmpty() ? out.strip() : status));
        }
        return new Decoded(uid, out.substring(blank + 2));
    }

    /** This process's uid (the owner of /proc/self). */
    static long currentUid()
    {
        try
        {
            return ((Number)Files.getAttribute(Path.of("/proc/self"), "unix:uid")).longValue();
        }
        catch (final IOException | UnsupportedOperationException ex)
        {
            throw new MpiException(ErrorClass.ERR_OTHER, "cannot find this process's uid: " + ex, ex);
        }
    }

    private static List<String> command(final String program, final String socket)
    {
        final List<String> command = new ArrayList<>();
        command.add(program);
        if (socket != null && !socket.isBlank())
        {
            command.add("--socket=" + socket.strip());
        }
        return command;
    }

    private record Result(int exitCode, String stdout)
    {
    }

    private static Result run(final List<String> command, final String stdin)
    {
        try
        {
            final Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
            try
            {
                if (stdin != null)
                {
                    process.getOutputStream().write(stdin.getBytes(StandardCharsets.US_ASCII));
                }
                process.getOutputStream().close();
                final byte[] out = process.getInputStream().readNBytes(MAX_OUTPUT_BYTES);
                if (!process.waitFor(COMMAND_TIMEOUT_MS, TimeUnit.MILLISECONDS))
                {
                    throw new MpiException(ErrorClass.ERR_OTHER, command.get(0) + " did not finish within " + COMMAND_TIMEOUT_MS + " ms");
                }
                return new Result(process.exitValue(), new String(out, StandardCharsets.UTF_8));
            }
            finally
            {
                process.destroyForcibly();
            }
        }
        catch (final IOException ex)
        {
            throw new MpiException(ErrorClass.ERR_OTHER, "cannot run " + command.get(0) + " (is MUNGE installed? srun --mpi=pmi2 needs none): " +
                ex.getMessage(), ex);
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            throw new MpiException(ErrorClass.ERR_OTHER, "interrupted while running " + command.get(0), ex);
        }
    }
}
