package org.jmpi.internal.bootstrap;

import org.agrona.UnsafeApi;
import org.jmpi.ErrorClass;
import org.jmpi.MpiException;

import java.io.FileDescriptor;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * A PMI-2 client over the descriptor a process manager hands a task ({@code PMI_FD}: srun with
 * {@code --mpi=pmi2}), speaking the wire protocol of {@link Pmi2Wire}: init, fullinit, kvs-put, kvs-fence,
 * kvs-get, abort, finalize. Slurm's key/value space is fence-based: a value put becomes visible to the
 * other tasks only after a kvs-fence that every task of the step entered.
 *
 * <p>Waiting for an answer polls the descriptor's readable byte count (spin briefly, then park up to 10 ms)
 * so that it can give up at a deadline: a blocking read of an inherited descriptor cannot be interrupted.
 *
 * <p>Threading: every method but {@link #abort} is synchronized; commands and answers never interleave.
 */
public final class Pmi2Client implements AutoCloseable
{
    private static final long MAX_PARK_NS = TimeUnit.MILLISECONDS.toNanos(10);
    private static final int MAX_INIT_LINE_LENGTH = 1024;

    private final InputStream in;
    private final OutputStream out;
    private final int rank;
    private final int size;
    private boolean finalized;

    private Pmi2Client(final InputStream in, final OutputStream out, final int rank, final int size)
    {
        this.in = in;
        this.out = out;
        this.rank = rank;
        this.size = size;
    }

    /**
     * Opens the conversation on the inherited descriptor {@code fd}: the PMI-1 init asking for version 2,
     * then fullinit as {@code pmiRank}.
     *
     * @param pmiJobId the {@code PMI_JOBID} the process manager gave ("1.0" under Slurm), or null
     * @throws MpiException ERR_OTHER when the process manager does not answer within {@code timeoutNs},
     * refuses version 2, or answers malformed.
     */
    public static Pmi2Client connect(final int fd, final int pmiRank, final String pmiJobId, final long timeoutNs)
    {
        final FileDescriptor descriptor = inherited(fd);
        return connect(new FileInputStream(descriptor), new FileOutputStream(descriptor), pmiRank, pmiJobId, timeoutNs);
    }

    /** As {@link #connect(int, int, String, long)} over given streams (the process manager's end of a socket). */
    public static Pmi2Client connect(final InputStream in, final OutputStream out, final int pmiRank, final String pmiJobId,
        final long timeoutNs)
    {
        final long deadlineNs = System.nanoTime() + timeoutNs;
        try
        {
            out.write(Pmi2Wire.INIT_LINE.getBytes(StandardCharsets.US_ASCII));
            out.flush();
            awaitReadable(in, deadlineNs, "init");
            final Map<String, String> init = Pmi2Wire.decodeLine(readLine(in));
            if (!"response_to_init".equals(init.get("cmd")) || !"0".equals(init.get("rc")) || !"2".equals(init.get("pmi_version")))
            {
                throw new MpiException(ErrorClass.ERR_OTHER, "pmi2: the process manager refused PMI version 2.0: " + init);
            }
            // Slurm reads pmijobid as a number; "1.0" reads as 1 there, and it is not used for anything else.
            final String jobId = pmiJobId == null || pmiJobId.isBlank() ? "0" : pmiJobId.trim();
            out.write(Pmi2Wire.encode("fullinit", "pmijobid", jobId, "pmirank", Integer.toString(pmiRank), "threaded", "FALSE"));
            out.flush();
            final Map<String, String> full = readMessage(in, deadlineNs, "fullinit");
            expect(full, "fullinit-response", "fullinit");
            final int rank = Integer.parseInt(full.getOrDefault("rank", "-1"));
            final int size = Integer.parseInt(full.getOrDefault("size", "-1"));
            if (rank != pmiRank || size < 1 || rank >= size)
            {
                throw new MpiException(ErrorClass.ERR_OTHER, "pmi2: fullinit answered rank=" + rank + " size=" + size +
                    " for a task that is rank " + pmiRank);
            }
            return new Pmi2Client(in, out, rank, size);
        }
        catch (final IOException | NumberFormatException ex)
        {
            throw new MpiException(ErrorClass.ERR_OTHER, "pmi2: cannot talk to the process manager: " + ex, ex);
        }
    }

    /** This task's rank as the process manager numbers it. */
    public int rank()
    {
        return rank;
    }

    /** The step's task count. */
    public int size()
    {
        return size;
    }

    /** Stores {@code key} = {@code value} (both as {@link Pmi2Wire} allows), visible to others after the next fence. */
    public synchronized void put(final String key, final String value, final long timeoutNs)
    {
        expect(exchange(Pmi2Wire.encode("kvs-put", "key", key, "value", value), timeoutNs, "kvs-put " + key), "kvs-put-response",
            "kvs-put " + key);
    }

    /** Waits until every task of the step entered the fence; what they put before it is then visible. */
    public synchronized void fence(final long timeoutNs)
    {
        expect(exchange(Pmi2Wire.encode("kvs-fence"), timeoutNs, "kvs-fence"), "kvs-fence-response", "kvs-fence");
    }

    /** The value of {@code key}, or null when no task put it before the last fence. */
    public synchronized String get(final String key, final long timeoutNs)
    {
        final Map<String, String> answer = exchange(Pmi2Wire.encode("kvs-get", "jobid", "", "srcid", "-1", "key", key), timeoutNs,
            "kvs-get " + key);
        expect(answer, "kvs-get-response", "kvs-get " + key);
        return "TRUE".equalsIgnoreCase(answer.get("found")) ? answer.getOrDefault("value", "") : null;
    }

    /**
     * Asks the process manager to kill the whole step (Slurm answers nothing and sends SIGKILL to every
     * task); best effort. Not synchronized: it may come from another thread while the rank's thread waits
     * in a fence (which only reads); the command goes out in one write.
     */
    public void abort(final String message)
    {
        final StringBuilder clean = new StringBuilder();
        for (final char c : message.toCharArray())
        {
            clean.append(c >= 0x20 && c <= 0x7e && c != ';' ? c : '_');
        }
        try
        {
            out.write(Pmi2Wire.encode("abort", "isworld", "TRUE", "msg", clean.length() > 512 ? clean.substring(0, 512) : clean.toString()));
            out.flush();
        }
        catch (final IOException ex)
        {
            // nothing left to tell: the process manager is gone
        }
    }

    /** Says goodbye (finalize); idempotent. The descriptor itself stays open (it belongs to the process). */
    @Override
    public synchronized void close()
    {
        if (!finalized)
        {
            try
            {
                expect(exchange(Pmi2Wire.encode("finalize"), TimeUnit.SECONDS.toNanos(10), "finalize"), "finalize-response", "finalize");
            }
            finally
            {
                finalized = true;
            }
        }
    }

    private Map<String, String> exchange(final byte[] command, final long timeoutNs, final String what)
    {
        if (finalized)
        {
            throw new MpiException(ErrorClass.ERR_OTHER, "pmi2: " + what + " after finalize");
        }
        try
        {
            out.write(command);
            out.flush();
            return readMessage(in, System.nanoTime() + timeoutNs, what);
        }
        catch (final IOException ex)
        {
            throw new MpiException(ErrorClass.ERR_OTHER, "pmi2: " + what + ": lost the process manager: " + ex, ex);
        }
    }

    private static void expect(final Map<String, String> answer, final String command, final String what)
    {
        if (!command.equals(answer.get("cmd")))
        {
            throw new MpiException(ErrorClass.ERR_OTHER, "pmi2: " + what + ": expected " + command + ", got " + answer);
        }
        if (!"0".equals(answer.getOrDefault("rc", "0")))
        {
            throw new MpiException(ErrorClass.ERR_OTHER, "pmi2: " + what + " failed: rc=" + answer.get("rc") +
                (answer.containsKey("errmsg") ? " (" + answer.get("errmsg") + ")" : ""));
        }
    }

    private static Map<String, String> readMessage(final InputStream in, final long deadlineNs, final String what) throws IOException
    {
        awaitReadable(in, deadlineNs, what);
        final byte[] header = readFully(in, Pmi2Wire.LENGTH_FIELD_LENGTH, what);
        final byte[] body = readFully(in, Pmi2Wire.decodeLength(header), what);
        return Pmi2Wire.decode(new String(body, StandardCharsets.US_ASCII));
    }

    private static byte[] readFully(final InputStream in, final int length, final String what) throws IOException
    {
        final byte[] bytes = in.readNBytes(length);
        if (bytes.length != length)
        {
            throw new MpiException(ErrorClass.ERR_OTHER, "pmi2: " + what + ": the process manager closed the connection");
        }
        return bytes;
    }

    private static String readLine(final InputStream in) throws IOException
    {
        final StringBuilder line = new StringBuilder();
        while (line.length() < MAX_INIT_LINE_LENGTH)
        {
            final int b = in.read();
            if (b < 0)
            {
                throw new MpiException(ErrorClass.ERR_OTHER, "pmi2: init: the process manager closed the connection");
            }
            if (b == '\n')
            {
                return line.toString();
            }
            line.append((char)b);
        }
        throw new MpiException(ErrorClass.ERR_OTHER, "pmi2: init: answer longer than " + MAX_INIT_LINE_LENGTH + " bytes");
    }

    /** Spins briefly, then parks (doubling to 10 ms), until a byte is readable or the deadline passes. */
    private static void awaitReadable(final InputStream in, final long deadlineNs, final String what) throws IOException
    {
        long parkNs = 1_000;
        int spins = 0;
        while (in.available() == 0)
        {
            if (System.nanoTime() - deadlineNs > 0)
            {
                throw new MpiException(ErrorClass.ERR_OTHER, "pmi2: " + what + ": no answer from the process manager in time" +
                    " (did every task of the step reach it?)");
            }
            if (spins++ < 100)
            {
                Thread.onSpinWait();
            }
            else
            {
                LockSupport.parkNanos(parkNs);
                parkNs = Math.min(MAX_PARK_NS, parkNs * 2);
            }
        }
    }

    /**
     * A {@link FileDescriptor} for a descriptor this process inherited. The JDK has no public way to wrap
     * a descriptor number other than 0 to 2; its field is set through Agrona's {@code UnsafeApi}, which
     * needs only the export jmpi requires anyway ({@link JvmFlags}).
     */
    static FileDescriptor inherited(final int fd)
    {
        if (fd < 0)
        {
            throw new MpiException(ErrorClass.ERR_OTHER, "pmi2: descriptor " + fd + " is not a descriptor");
        }
        final FileDescriptor descriptor = new FileDescriptor();
        UnsafeApi.putInt(descriptor, UnsafeApi.objectFieldOffset(FileDescriptor.class, "fd"), fd);
        return descriptor;
    }
}
