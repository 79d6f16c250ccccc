package org.jmpi.transport.shm;

import org.jmpi.ErrorClass;
import org.jmpi.MpiException;
import org.jmpi.spi.Bootstrap;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.HexFormat;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * Test-only bootstrap between JVMs over files in a shared directory: a key is a file, published by an
 * atomic rename, and read by polling. Stands in for the launcher's TCP bootstrap in the two-process test.
 *
 * <p>Threading: one thread per rank.
 */
final class FileBootstrap implements Bootstrap
{
    private static final long POLL_NS = TimeUnit.MICROSECONDS.toNanos(50);
    private static final String ABORT_KEY = "abort";

    private final Path dir;
    private final int rank;
    private final int size;
    private final String jobId;
    private int fenceGeneration;

    FileBootstrap(final Path dir, final int rank, final int size, final String jobId)
    {
        this.dir = dir;
        this.rank = rank;
        this.size = size;
        this.jobId = jobId;
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

    private Path file(final String key)
    {
        return dir.resolve("k-" + HexFormat.of().formatHex(key.getBytes(StandardCharsets.UTF_8)));
    }

    @Override
    public void put(final String key, final byte[] value)
    {
        try
        {
            final Path tmp = dir.resolve("tmp-" + rank + "-" + System.nanoTime());
            Files.write(tmp, value);
            Files.move(tmp, file(key), StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("bootstrap put " + key, ex);
        }
    }

    @Override
    public byte[] get(final String key, final long timeoutNs)
    {
        final long deadline = System.nanoTime() + timeoutNs;
        final Path file = file(key);
        final Path abort = file(ABORT_KEY);
        while (true)
        {
            try
            {
                return Files.readAllBytes(file);
            }
            catch (final NoSuchFileException ex)
            {
                if (Files.exists(abort))
                {
                    throw new MpiException(ErrorClass.ERR_PROC_ABORTED, "bootstrap get " + key + ": job aborted");
                }
                if (System.nanoTime() - deadline > 0)
                {
                    throw new MpiException(ErrorClass.ERR_OTHER, "bootstrap get timed out: key=" + key + ", rank=" + rank);
                }
                LockSupport.parkNanos(POLL_NS);
            }
            catch (final IOException ex)
            {
                throw new UncheckedIOException("bootstrap get " + key, ex);
            }
        }
    }

    @Override
    public void fence(final long timeoutNs)
    {
        final int generation = fenceGeneration++;
        put("fence." + generation + "." + rank, new byte[0]);
        for (int r = 0; r < size; r++)
        {
            get("fence." + generation + "." + r, timeoutNs);
        }
    }

    @Override
    public void abort(final int exitCode, final String message)
    {
        put(ABORT_KEY, (rank + ":" + exitCode + ":" + message).getBytes(StandardCharsets.UTF_8));
    }

    @Override
    public void close()
    {
    }
}
