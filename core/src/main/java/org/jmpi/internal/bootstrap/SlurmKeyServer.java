package org.jmpi.internal.bootstrap;

import org.jmpi.ErrorClass;
import org.jmpi.MpiException;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * The rendezvous of a Slurm step without PMI (srun without {@code --mpi=pmi2}): rank 0 listens on a port
 * every task derives from the job and step ids ({@link #candidatePorts}), on the first node of the step,
 * and answers each connection with one line, a MUNGE credential restricted to rank 0's uid whose payload
 * is {@code jmpi-slurm <job id> <step key hex> <bootstrap endpoints>}. A task takes the first answer that
 * {@code unmunge} accepts as made by its own uid for its own job id. So:
 * <ul>
 * <li>another user cannot read the step key (the credential decodes only for the job's uid), nor pose as
 * rank 0 (a credential states its maker's uid, which the client checks), even by taking the port first
 * (the tasks then try the next candidate port);</li>
 * <li>a credential seen on the network cannot be replayed into another job (the job id is inside) nor
 * decoded twice on one node (MUNGE's replay cache); it expires after MUNGE's time to live.</li>
 * </ul>
 * Rank 0 answers one connection at a time (at most 5 s each, one {@code munge} run each) and stops once
 * init has fenced (then every task has its key).
 *
 * <p>Threading: the server runs on one daemon thread; {@link #fetch} on the caller's.
 */
final class SlurmKeyServer implements AutoCloseable
{
    static final String PAYLOAD_PREFIX = "jmpi-slurm ";
    private static final int MAX_LINE_BYTES = 8192;
    private static final int CONNECTION_TIMEOUT_MS = 5000;
    private static final int CONNECT_TIMEOUT_MS = 2000;
    private static final long RETRY_PAUSE_NS = TimeUnit.MILLISECONDS.toNanos(200);
    /** Candidate ports per step: rank 0 takes the first it can bind, tasks try them in order. */
    static final int CANDIDATES = 4;

    private final ServerSocket server;
    private final Thread thread;
    private volatile boolean closed;

    private SlurmKeyServer(final ServerSocket server, final String payload, final long uid, final String mungeSocket)
    {
        this.server = server;
        this.thread = Thread.ofPlatform().daemon().name("jmpi-slurm-rendezvous").unstarted(() -> serve(payload, uid, mungeSocket));
    }

    /**
     * Rank 0: listens on the first of {@code ports} it can bind (every address) and serves the record.
     *
     * @throws MpiException ERR_OTHER when none can be bound, naming them.
     */
    static SlurmKeyServer start(final List<Integer> ports, final String jobId, final String stepKeyHex, final String endpoints,
        final String mungeSocket)
    {
        final long uid = MungeCredential.currentUid();
        // Made once up front so that a missing or broken MUNGE fails rank 0 at once, not its peers after a timeout.
        MungeCredential.encode(PAYLOAD_PREFIX + "probe", uid, mungeSocket);
        final StringBuilder failures = new StringBuilder();
        for (final int port : ports)
        {
            try
            {
                final ServerSocket server = new ServerSocket();
                server.setReuseAddress(true);
                server.bind(new InetSocketAddress(port), 128);
                final SlurmKeyServer keyServer = new SlurmKeyServer(server, PAYLOAD_PREFIX + jobId + " " + stepKeyHex + " " + endpoints,
                    uid, mungeSocket);
                keyServer.thread.start();
                return keyServer;
            }
            catch (final IOException ex)
            {
                failures.append(failures.isEmpty() ? "" : ", ").append(port).append(": ").append(ex.getMessage());
            }
        }
        throw new MpiException(ErrorClass.ERR_OTHER, "slurm: rank 0 cannot listen on any rendezvous port (" + failures +
            "); use srun --mpi=pmi2, or choose other ports with jmpi.slurm.ports");
    }

    /**
     * Any task: the step key and bootstrap endpoints from rank 0 on {@code host}, trying {@code ports} in
     * turn until one answers with a credential this uid accepts for {@code jobId}, until {@code timeoutNs}.
     *
     * @return {step key hex, endpoints}
     * @throws MpiException ERR_OTHER at the deadline, with the last reason.
     */
    static String[] fetch(final String host, final List<Integer> ports, final String jobId, final String mungeSocket, final long timeoutNs)
    {
        final long deadlineNs = System.nanoTime() + timeoutNs;
        final long uid = MungeCredential.currentUid();
        String last = "nothing tried";
        while (true)
        {
            for (final int port : ports)
            {
                try (Socket socket = new Socket())
                {
                    socket.connect(new InetSocketAddress(host, port), CONNECT_TIMEOUT_MS);
                    socket.setSoTimeout(CONNECTION_TIMEOUT_MS);
                    final String line = readLine(socket.getInputStream());
                    final MungeCredential.Decoded decoded = MungeCredential.decode(line, mungeSocket);
                    final String[] words = decoded.payload().strip().split(" ");
                    if (decoded.uid() != uid)
                    {
                        last = host + ":" + port + " is served by uid " + decoded.uid() + ", not this job's " + uid;
                    }
                    else if (words.length != 4 || !(words[0] + " ").equals(PAYLOAD_PREFIX) || !words[1].equals(jobId))
                    {
                        last = host + ":" + port + " serves another job (" + (words.length > 1 ? words[1] : "?") + ")";
                    }
                    else
                    {
                        return new String[] {words[2], words[3]};
                    }
                }
                catch (final IOException | MpiException ex)
                {
                    last = host + ":" + port + ": " + ex.getMessage();
                }
            }
            if (System.nanoTime() - deadlineNs > 0)
            {
                throw new MpiException(ErrorClass.ERR_OTHER, "slurm: no rendezvous from rank 0 on " + host + " ports " + ports +
                    " within the init timeout; last: " + last);
            }
            LockSupport.parkNanos(RETRY_PAUSE_NS);
        }
    }

    /**
     * The ports of a step's rendezvous: the step's reserved ports when Slurm gave some
     * ({@code SLURM_STEP_RESV_PORTS}), else {@link #CANDIDATES} ports of the range {@code [low, high]}
     * chosen from the job and step ids, the same on every node.
     */
    static List<Integer> candidatePorts(final SlurmEnv slurm, final int low, final int high)
    {
        if (!slurm.reservedPorts().isEmpty())
        {
            return slurm.reservedPorts().subList(0, Math.min(CANDIDATES, slurm.reservedPorts().size()));
        }
        final int span = high - low + 1;
        final long mixed = (slurm.slurmJobId() * 0x9E3779B97F4A7C15L) ^ (slurm.slurmStepId() * 0xC2B2AE3D27D4EB4FL);
        final int first = (int)Math.floorMod(mixed ^ (mixed >>> 29), (long)span);
        final List<Integer> ports = new ArrayList<>();
        for (int i = 0; i < Math.min(CANDIDATES, span); i++)
        {
            ports.add(low + (first + i) % span);
        }
        return ports;
    }

    private void serve(final String payload, final long uid, final String mungeSocket)
    {
        while (!closed)
        {
            try (Socket socket = server.accept())
            {
                socket.setSoTimeout(CONNECTION_TIMEOUT_MS);
                final OutputStream out = socket.getOutputStream();
                out.write((MungeCredential.encode(payload, uid, mungeSocket) + "\n").getBytes(StandardCharsets.US_ASCII));
                out.flush();
            }
            catch (final IOException | MpiException ex)
            {
                if (!closed && ex instanceof MpiException)
                {
                    System.err.println("jmpi: rank 0: slurm rendezvous: " + ex.getMessage());
                }
            }
        }
    }

    private static String readLine(final InputStream in) throws IOException
    {
        final StringBuilder line = new StringBuilder();
        try
        {
            for (int b = in.read(); b != '\n'; b = in.read())
            {
                if (b < 0 || line.length() >= MAX_LINE_BYTES)
                {
                    throw new IOException(b < 0 ? "closed without an answer" : "answer longer than " + MAX_LINE_BYTES + " bytes");
                }
                line.append((char)b);
            }
        }
        catch (final SocketTimeoutException ex)
        {
            throw new IOException("no answer within " + CONNECTION_TIMEOUT_MS + " ms", ex);
        }
        return line.toString();
    }

    @Override
    public void close()
    {
        closed = true;
        try
        {
            server.close();
        }
        catch (final IOException ex)
        {
            // closing anyway
        }
    }
}
