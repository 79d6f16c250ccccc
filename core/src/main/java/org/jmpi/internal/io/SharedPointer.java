package org.jmpi.internal.io;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * A file's shared file pointer (MPI 4.1 §14.4.4), in etypes of the view: one little-endian long at byte 0 of a hidden
 * side file next to the file ({@code .<name>.jmpi-shfp.<token>}, the token agreed at open), read and updated under an
 * exclusive {@link RangeLocks record lock}. So it is shared by ranks that are threads of one JVM, by JVMs on one node,
 * and by hosts whose shared file system implements POSIX locks, without anyone's progress engine (as ROMIO does it).
 *
 * <p>The side file is created by the first rank that uses the pointer (an empty or missing file holds
 * {@link #initial}, the value every rank agreed at open or at the last collective reset) and deleted at close.
 *
 * <p>Threading: any thread; each operation is atomic across all ranks. Owns its channel, closed by {@link #close}.
 */
public final class SharedPointer
{
    private static final long VALUE_OFFSET = 0;
    private static final int VALUE_LENGTH = Long.BYTES;

    private final Path path;
    private final String fileName;
    private volatile long initial;
    private FileChannel channel;

    /** @param file the data file; the side file goes next to it. */
    public SharedPointer(final Path file, final long token, final long initial)
    {
        this.path = file.resolveSibling("." + file.getFileName() + ".jmpi-shfp." + Long.toHexString(token));
        this.fileName = file.toString();
        this.initial = initial;
    }

    /** The side file's path. */
    public Path path()
    {
        return path;
    }

    /** Atomically adds {@code delta} etypes; returns the value before. */
    public long fetchAdd(final String call, final long delta)
    {
        return update(call, delta, false);
    }

    /** The current value. */
    public long get(final String call)
    {
        return update(call, 0, false);
    }

    /**
     * Sets the value (after a collective seek or view change, by one rank while the others wait). Before the side
     * file exists only {@link #initial} changes, which every rank does for itself through {@link #reset}.
     */
    public void set(final String call, final long value)
    {
        if (channel != null || Files.exists(path))
        {
            update(call, value, true);
        }
    }

    /** Every rank's part of a collective reset: the value an absent side file stands for. */
    public void reset(final long value)
    {
        initial = value;
    }

    private synchronized long update(final String call, final long operand, final boolean assign)
    {
        try
        {
            if (channel == null)
            {
                channel = FileChannel.open(path, StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE);
            }
            try (FileLock ignored = RangeLocks.lock(channel, VALUE_OFFSET, VALUE_LENGTH, false))
            {
                final ByteBuffer value = ByteBuffer.allocate(VALUE_LENGTH).order(ByteOrder.LITTLE_ENDIAN);
                int got = 0;
                while (value.hasRemaining())
                {
                    final int n = channel.read(value, VALUE_OFFSET + value.position());
                    if (n < 0)
                    {
                        break;
                    }
                    got += n;
                }
                final long before = got == VALUE_LENGTH ? value.getLong(0) : initial;
                final long after = assign ? operand : before + operand;
                if (after != before || got != VALUE_LENGTH)
                {
                    value.clear();
                    value.putLong(0, after);
                    while (value.hasRemaining())
                    {
                        channel.write(value, VALUE_OFFSET + value.position());
                    }
                }
                return before;
            }
        }
        catch (final IOException ex)
        {
            throw IoErrors.of(call, fileName + " (shared file pointer " + path.getFileName() + ")", ex);
        }
    }

    /** Closes this rank's channel; {@code delete}: removes the side file (one rank, after the others closed theirs). */
    public synchronized void close(final boolean delete)
    {
        try
        {
            if (channel != null)
            {
                channel.close();
                channel = null;
            }
            if (delete)
            {
                Files.deleteIfExists(path);
            }
        }
        catch (final IOException ex)
        {
            throw IoErrors.of("File.close", fileName + " (shared file pointer " + path.getFileName() + ")", ex);
        }
    }

    /** For messages: the pointer's side file. */
    @Override
    public String toString()
    {
        return "SharedPointer[" + path + "]";
    }
}
