package org.jmpi.internal.io;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.util.concurrent.locks.ReentrantLock;

import org.agrona.concurrent.UnsafeBuffer;
import org.jmpi.Datatype;
import org.jmpi.internal.datatype.BufferView;
import org.jmpi.internal.datatype.Convertor;

/**
 * Moves data between a user buffer and a file through a view, over one {@link FileChannel} with positional reads and
 * writes.
 * <ol>
 *   <li>A convertor over the user's {@code count} items of the memory type packs them into a staging buffer (or
 *       unpacks into them), in external32 order when the view says so, up to {@link #STAGING_BYTES} at a time.</li>
 *   <li>The view's {@link ViewMap#walk} splits each staged stretch into the file runs it covers; each run is one
 *       positional write (read) of that part of the staging buffer.</li>
 *   <li>A read that meets the end of file stops there: the bytes before it are unpacked and counted, the rest of the
 *       buffer is left as it was (MPI's short read).</li>
 * </ol>
 * In atomic mode the whole file range of the access is locked (shared for reads, exclusive for writes) across ranks
 * and JVMs for its duration ({@link RangeLocks}).
 *
 * <p>Threading: any thread; calls on one file are serialised by a lock around the staging buffer. Owns the staging
 * buffer; the channel belongs to the file.
 */
public final class FileIo
{
    /** Staging buffer bytes at most; 1 MiB keeps the copy in cache and the positional calls few (not tuned yet). */
    public static final int STAGING_BYTES = 1 << 20;

    private final FileChannel channel;
    private final String fileName;
    private final ReentrantLock lock = new ReentrantLock();
    private ByteBuffer staging;
    private UnsafeBuffer stagingView;

    public FileIo(final FileChannel channel, final String fileName)
    {
        this.channel = channel;
        this.fileName = fileName;
    }

    /**
     * Writes {@code count} items of {@code type} from {@code buf} (from its element {@code offset}) at view byte
     * {@code viewByte}; returns the bytes written.
     */
    public long write(final String call, final ViewMap view, final long viewByte, final Object buf, final int offset, final int count,
        final Datatype type, final boolean atomic)
    {
        final Convertor items = Convertor.create(BufferView.of(buf, call), offset, count, type, view.external32() ? Convertor.EXTERNAL32 : 0);
        return transfer(call, view, viewByte, items, atomic, true);
    }

    /** Reads up to {@code count} items of {@code type} into {@code buf} from view byte {@code viewByte}; returns the bytes read. */
    public long read(final String call, final ViewMap view, final long viewByte, final Object buf, final int offset, final int count,
        final Datatype type, final boolean atomic)
    {
        final Convertor items = Convertor.create(BufferView.of(buf, call), offset, count, type,
            Convertor.RECEIVE | (view.external32() ? Convertor.EXTERNAL32 : 0));
        return transfer(call, view, viewByte, items, atomic, false);
    }

    private long transfer(final String call, final ViewMap view, final long viewByte, final Convertor items, final boolean atomic,
        final boolean write)
    {
        final long total = items.totalBytes();
        if (total == 0)
        {
            return 0;
        }
        lock.lock();
        try (FileLock range = atomic ? lockRange(view, viewByte, total, !write) : null)
        {
            final int capacity = staging(total);
            long done = 0;
            while (done < total)
            {
                final int want = (int)Math.min(capacity, total - done);
                if (write)
                {
                    items.pack(stagingView, 0, want);
                    view.walk(viewByte + done, want, this::writeRun);
                    done += want;
                }
                else
                {
                    final long got = view.walk(viewByte + done, want, this::readRun);
                    items.unpack(stagingView, 0, (int)got);
                    done += got;
                    if (got < want)
                    {
                        break;
                    }
                }
            }
            return done;
        }
        catch (final IOException ex)
        {
            throw IoErrors.of(call, fileName, ex);
        }
        finally
        {
            lock.unlock();
        }
    }

    private FileLock lockRange(final ViewMap view, final long viewByte, final long total, final boolean shared) throws IOException
    {
        final long first = view.fileOffset(viewByte);
        final long last = view.fileOffset(viewByte + total - 1);
        return RangeLocks.lock(channel, first, last + 1 - first, shared);
    }

    private long writeRun(final long fileOffset, final long streamOffset, final long lengthBytes) throws IOException
    {
        final ByteBuffer run = staging.duplicate().limit((int)(streamOffset + lengthBytes)).position((int)streamOffset);
        while (run.hasRemaining())
        {
            channel.write(run, fileOffset + run.position() - streamOffset);
        }
        return lengthBytes;
    }

    private long readRun(final long fileOffset, final long streamOffset, final long lengthBytes) throws IOException
    {
        final ByteBuffer run = staging.duplicate().limit((int)(streamOffset + lengthBytes)).position((int)streamOffset);
        while (run.hasRemaining())
        {
            if (channel.read(run, fileOffset + run.position() - streamOffset) < 0)
            {
                break;
            }
        }
        return run.position() - streamOffset;
    }

    private int staging(final long total)
    {
        final int wanted = (int)Math.min(STAGING_BYTES, total);
        if (staging == null || staging.capacity() < wanted)
        {
            staging = ByteBuffer.allocateDirect(Math.max(wanted, 4096));
            stagingView = new UnsafeBuffer(staging);
        }
        return staging.capacity();
    }
}
