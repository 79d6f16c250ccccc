package org.jmpi.internal.bootstrap;

import org.jmpi.ErrorClass;
import org.jmpi.MpiException;
import org.jmpi.spi.Bootstrap;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;

import static org.jmpi.internal.bootstrap.BootstrapProtocolDescriptor.*;

/**
 * A rank's client of the launcher's bootstrap service over TCP (see {@link BootstrapProtocolDescriptor}).
 * One connection carries put, get, fence and close, one request at a time; {@link #abort} opens its own
 * short connection so it works while another thread is blocked in {@link #get} or {@link #fence}.
 *
 * <p>Threading: requests are serialised on this object; {@link #abort} may be called from any thread.
 */
public final class TcpBootstrap implements Bootstrap
{
    /** Extra socket read time beyond a request's own timeout, for the server to answer. */
    private static final long RESPONSE_SLACK_MS = 10_000;
    private static final int ABORT_TIMEOUT_MS = 5_000;

    private final InetSocketAddress address;
    private final int rank;
    private final int size;
    private final String jobId;
    private final byte[] secret;
    private final Socket socket;
    private final DataInputStream in;
    private final OutputStream out;
    private boolean closed;

    private TcpBootstrap(final InetSocketAddress address, final int rank, final int size, final String jobId,
        final byte[] secret, final Socket socket) throws IOException
    {
        this.address = address;
        this.rank = rank;
        this.size = size;
        this.jobId = jobId;
        this.secret = secret.clone();
        this.socket = socket;
        this.in = new DataInputStream(new BufferedInputStream(socket.getInputStream()));
        this.out = new BufferedOutputStream(socket.getOutputStream());
    }

    /**
     * Connects and authenticates.
     *
     * @throws MpiException ERR_OTHER when the service cannot be reached within {@code timeoutNs} or
     * rejects this rank's proof.
     */
    public static TcpBootstrap connect(final InetSocketAddress address, final int rank, final int size, final String jobId,
        final byte[] secret, final long timeoutNs)
    {
        if (rank < 0 || rank >= size)
        {
            throw new MpiException(ErrorClass.ERR_ARG, "bootstrap rank out of range: rank=" + rank + ", size=" + size);
        }
        final int timeoutMs = (int)Math.max(1, Math.min(Integer.MAX_VALUE, TimeUnit.NANOSECONDS.toMillis(timeoutNs)));
        Socket socket = null;
        try
        {
            socket = open(address, timeoutMs);
            final TcpBootstrap bootstrap = new TcpBootstrap(address, rank, size, jobId, secret, socket);
            bootstrap.handshake();
            socket.setSoTimeout(0);
            return bootstrap;
        }
        catch (final IOException ex)
        {
            closeQuietly(socket);
            throw new MpiException(ErrorClass.ERR_OTHER, "bootstrap connect failed: address=" + format(address) +
                ", rank=" + rank + ": " + ex.getMessage(), ex);
        }
        catch (final RuntimeException ex)
        {
            closeQuietly(socket);
            throw ex;
        }
    }

    @Override
    public int rank()
    {
        return rank;
    }

    @Override
    public int size()
    {
        return size;
    }

    @Override
    public String jobId()
    {
        return jobId;
    }

    @Override
    public void put(final String key, final byte[] value)
    {
        request(BootstrapMessage.request(TYPE_PUT, rank, 0, 0, key, value), 0);
    }

    @Override
    public byte[] get(final String key, final long timeoutNs)
    {
        return request(BootstrapMessage.request(TYPE_GET, rank, 0, Math.max(0, timeoutNs), key, null), timeoutNs).value();
    }

    @Override
    public void fence(final long timeoutNs)
    {
        request(BootstrapMessage.request(TYPE_FENCE, rank, 0, Math.max(0, timeoutNs), "", null), timeoutNs);
    }

    @Override
    public void abort(final int exitCode, final String message)
    {
        try (Socket abortSocket = open(address, ABORT_TIMEOUT_MS))
        {
            final DataInputStream abortIn = new DataInputStream(new BufferedInputStream(abortSocket.getInputStream()));
            final OutputStream abortOut = new BufferedOutputStream(abortSocket.getOutputStream());
            handshake(abortIn, abortOut);
            final byte[] text = (message == null ? "" : message).getBytes(StandardCharsets.UTF_8);
            BootstrapMessage.request(TYPE_ABORT, rank, exitCode, 0, "", text).writeTo(abortOut);
            abortOut.flush();
            BootstrapMessage.readFrom(abortIn);
        }
        catch (final IOException | RuntimeException ex)
        {
            System.err.println("jmpi: rank " + rank + ": could not deliver abort to the launcher at " + format(address) + ": " + ex);
        }
    }

    @Override
    public synchronized void close()
    {
        if (closed)
        {
            return;
        }
        closed = true;
        try
        {
            socket.setSoTimeout(ABORT_TIMEOUT_MS);
            BootstrapMessage.request(TYPE_CLOSE, rank, 0, 0, "", null).writeTo(out);
            out.flush();
            BootstrapMessage.readFrom(in);
        }
        catch (final IOException ex)
        {
            // The launcher may already be gone at finalize; closing is all that is left to do.
        }
        finally
        {
            closeQuietly(socket);
        }
    }

    private synchronized BootstrapMessage request(final BootstrapMessage request, final long timeoutNs)
    {
        final String what = typeName(request.type()) + (request.key().isEmpty() ? "" : " key=" + request.key());
        if (closed)
        {
            throw new MpiException(ErrorClass.ERR_OTHER, "bootstrap " + what + " after close: rank=" + rank);
        }
        final BootstrapMessage response;
        try
        {
            final long waitMs = TimeUnit.NANOSECONDS.toMillis(Math.max(0, timeoutNs)) + RESPONSE_SLACK_MS;
            socket.setSoTimeout((int)Math.min(Integer.MAX_VALUE, waitMs));
            request.writeTo(out);
            out.flush();
            response = BootstrapMessage.readFrom(in);
        }
        catch (final SocketTimeoutException ex)
        {
            throw new MpiException(ErrorClass.ERR_OTHER, "bootstrap " + what + ": launcher did not answer: rank=" + rank, ex);
        }
        catch (final IOException ex)
        {
            throw new MpiException(ErrorClass.ERR_OTHER, "bootstrap " + what + ": connection to the launcher at " +
                format(address) + " failed: rank=" + rank + ": " + ex.getMessage(), ex);
        }
        if (response == null)
        {
            throw new MpiException(ErrorClass.ERR_OTHER, "bootstrap " + what + ": the launcher closed the connection: rank=" + rank);
        }
        return switch (response.status())
        {
            case STATUS_OK -> response;
            case STATUS_TIMEOUT -> throw new MpiException(ErrorClass.ERR_OTHER,
                "bootstrap " + what + " timed out: rank=" + rank + ", timeoutNs=" + timeoutNs);
            case STATUS_JOB_FAILED -> throw new MpiException(ErrorClass.ERR_PROC_ABORTED,
                "bootstrap " + what + ": " + response.valueText() + ": rank=" + rank);
            default -> throw new MpiException(ErrorClass.ERR_OTHER,
                "bootstrap " + what + " rejected (" + statusName(response.status()) + "): " + response.valueText() + ": rank=" + rank);
        };
    }

    private void handshake() throws IOException
    {
        handshake(in, out);
    }

    private void handshake(final DataInputStream input, final OutputStream output) throws IOException
    {
        final BootstrapMessage challenge = BootstrapMessage.readFrom(input);
        if (challenge == null || challenge.type() != TYPE_CHALLENGE || challenge.version() != VERSION)
        {
            throw new IOException("expected a version " + VERSION + " challenge, got " + challenge);
        }
        final byte[] proof = BootstrapAuth.proof(secret, challenge.value(), jobId, rank);
        BootstrapMessage.request(TYPE_HELLO, rank, 0, 0, jobId, proof).writeTo(output);
        output.flush();
        final BootstrapMessage response = BootstrapMessage.readFrom(input);
        if (response == null)
        {
            throw new IOException("the launcher closed the connection during the handshake");
        }
        if (response.status() == STATUS_AUTH_FAILED)
        {
            throw new MpiException(ErrorClass.ERR_OTHER, "bootstrap authentication failed: address=" + format(address) +
                ", rank=" + rank + ", jobId=" + jobId + ": " + response.valueText());
        }
        if (response.status() != STATUS_OK)
        {
            throw new IOException("handshake rejected (" + statusName(response.status()) + "): " + response.valueText());
        }
    }

    private static Socket open(final InetSocketAddress address, final int timeoutMs) throws IOException
    {
        final Socket socket = new Socket();
        try
        {
            socket.setTcpNoDelay(true);
            socket.connect(address, timeoutMs);
            socket.setSoTimeout(timeoutMs);
            return socket;
        }
        catch (final IOException ex)
        {
            closeQuietly(socket);
            throw ex;
        }
    }

    private static String format(final InetSocketAddress address)
    {
        return address.getHostString() + ":" + address.getPort();
    }

    private static void closeQuietly(final Socket socket)
    {
        if (socket != null)
        {
            try
            {
                socket.close();
            }
            catch (final IOException ex)
            {
                // Nothing useful to do with a failure to close.
            }
        }
    }
}
