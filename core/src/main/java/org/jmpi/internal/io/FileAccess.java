package org.jmpi.internal.io;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;

import org.jmpi.Comm;
import org.jmpi.Datatype;
import org.jmpi.File.Whence;
import org.jmpi.ErrorClass;
import org.jmpi.Intracomm;
import org.jmpi.MpiException;
import org.jmpi.Status;

/**
 * One rank's state of an open file and its data access: the view, the individual file pointer, the shared file
 * pointer, atomic mode, and the checks every access makes (MPI 4.1 §14.4). Pointers and offsets count etypes of the
 * current view; statuses count bytes.
 *
 * <p>Threading: any thread; the individual pointer and the view change under one lock, so concurrent accesses through
 * one handle are each atomic with respect to the pointer. Owns the channel (closed by {@link #closeLocal}).
 */
public final class FileAccess
{
    /** MPI_DISPLACEMENT_CURRENT (Open MPI's value). */
    public static final long DISPLACEMENT_CURRENT = -54278278L;

    private final Intracomm comm;
    private final Path path;
    private final int amode;
    private final FileChannel channel;
    private final FileIo io;
    private final SharedPointer shared;
    private final Object lock = new Object();
    private volatile ViewMap view = ViewMap.bytes();
    private long pointer;
    private volatile boolean atomic;

    /** @param comm the file's own communicator (collective steps run on it). */
    public FileAccess(final Intracomm comm, final Opener.Opened opened, final int amode)
    {
        this.comm = comm;
        this.path = opened.path();
        this.amode = amode;
        this.channel = opened.channel();
        this.io = new FileIo(channel, path.toString());
        this.shared = new SharedPointer(path, opened.token(), opened.start());
        this.pointer = opened.start();
    }

    public Path path()
    {
        return path;
    }

    public int amode()
    {
        return amode;
    }

    public ViewMap view()
    {
        return view;
    }

    public boolean atomic()
    {
        return atomic;
    }

    // ------------------------------------------------------------------------------------------ collective state changes

    /** MPI_File_set_view's steps: build and check at every rank, agree, reset both pointers. Collective. */
    public void setView(final String call, final long disp, final Datatype etype, final Datatype filetype, final String datarep)
    {
        ViewMap next = null;
        MpiException local = null;
        try
        {
            long at = disp;
            if (disp == DISPLACEMENT_CURRENT)
            {
                if ((amode & Opener.MODE_SEQUENTIAL) == 0)
                {
                    throw new MpiException(ErrorClass.ERR_ARG, call + ": DISPLACEMENT_CURRENT needs a MODE_SEQUENTIAL file");
                }
                at = view.fileOffset(shared.get(call) * view.etypeBytes());
            }
            next = ViewMap.of(call, at, etype, filetype, datarep);
        }
        catch (final MpiException ex)
        {
            local = ex;
        }
        Agreement.agree(comm, call, local);
        Agreement.checkSame(comm, call, "etype size", next.etypeBytes());
        Agreement.checkSame(comm, call, "data representation", next.external32() ? 1 : 0);
        Agreement.rootValue(comm, call, () ->
        {
            shared.set(call, 0);
            return 0;
        });
        shared.reset(0);
        synchronized (lock)
        {
            view = next;
            pointer = 0;
        }
    }

    /** MPI_File_set_size ({@code truncate}) or MPI_File_preallocate: rank 0 changes the file. Collective. */
    public void resize(final String call, final long sizeBytes, final boolean truncate)
    {
        MpiException local = null;
        try
        {
            checkNotSequential(call);
            checkWritable(call);
            if (sizeBytes < 0)
            {
                throw new MpiException(ErrorClass.ERR_ARG, call + ": size " + sizeBytes + " must be >= 0");
            }
        }
        catch (final MpiException ex)
        {
            local = ex;
        }
        Agreement.agree(comm, call, local);
        Agreement.checkSame(comm, call, "size", sizeBytes);
        Agreement.rootValue(comm, call, () ->
        {
            try
            {
                final long now = channel.size();
                if (truncate && sizeBytes < now)
                {
                    channel.truncate(sizeBytes);
                }
                else if (sizeBytes > now)
                {
                    channel.write(ByteBuffer.allocate(1), sizeBytes - 1);
                }
                return 0;
            }
            catch (final IOException ex)
            {
                throw IoErrors.of(call, path.toString(), ex);
            }
        });
    }

    /** MPI_File_set_atomicity. Collective. */
    public void setAtomicity(final String call, final boolean atomic)
    {
        Agreement.checkSame(comm, call, "atomicity", atomic ? 1 : 0);
        this.atomic = atomic;
    }

    /** MPI_File_sync: force this rank's writes, then agree. Collective. */
    public void sync(final String call)
    {
        MpiException local = null;
        try
        {
            channel.force(true);
        }
        catch (final IOException ex)
        {
            local = IoErrors.of(call, path.toString(), ex);
        }
        Agreement.agree(comm, call, local);
    }

    /** MPI_File_seek_shared. Collective. */
    public void seekShared(final String call, final long offset, final Whence whence)
    {
        Agreement.checkSame(comm, call, "offset", offset);
        Agreement.checkSame(comm, call, "whence", whence == null ? -1 : whence.ordinal());
        final long value = Agreement.rootValue(comm, call, () ->
        {
            final long next = target(call, offset, whence, whence == Whence.CUR ? shared.get(call) : 0);
            shared.set(call, next);
            return next;
        });
        shared.reset(value);
    }

    /**
     * MPI_File_close's steps: close this rank's channels, agree, then rank 0 removes the side file and, with
     * MODE_DELETE_ON_CLOSE, the file. Collective.
     */
    public void close(final String call)
    {
        Opener.unregister(path);
        MpiException local = null;
        try
        {
            channel.close();
            shared.close(false);
        }
        catch (final IOException ex)
        {
            local = IoErrors.of(call, path.toString(), ex);
        }
        catch (final MpiException ex)
        {
            local = ex;
        }
        Agreement.agree(comm, call, local);
        Agreement.rootValue(comm, call, () ->
        {
            shared.close(true);
            if ((amode & Opener.MODE_DELETE_ON_CLOSE) != 0)
            {
                Opener.deletePath(call, path);
            }
            return 0;
        });
    }

    // ------------------------------------------------------------------------------------------ pointers

    /** MPI_File_seek. */
    public void seek(final String call, final long offset, final Whence whence)
    {
        checkNotSequential(call);
        synchronized (lock)
        {
            pointer = target(call, offset, whence, pointer);
        }
    }

    /** MPI_File_get_position. */
    public long position(final String call)
    {
        checkNotSequential(call);
        synchronized (lock)
        {
            return pointer;
        }
    }

    /** MPI_File_get_position_shared. */
    public long positionShared(final String call)
    {
        return shared.get(call);
    }

    /** MPI_File_get_size. */
    public long size(final String call)
    {
        try
        {
            return channel.size();
        }
        catch (final IOException ex)
        {
            throw IoErrors.of(call, path.toString(), ex);
        }
    }

    private long target(final String call, final long offset, final Whence whence, final long current)
    {
        if (whence == null)
        {
            throw new MpiException(ErrorClass.ERR_ARG, call + ": whence is null");
        }
        final ViewMap v = view;
        final long base = switch (whence)
        {
            case SET -> 0;
            case CUR -> current;
            case END -> etypes(v, v.viewBytesBelow(size(call)));
        };
        final long next = base + offset;
        if (next < 0)
        {
            throw new MpiException(ErrorClass.ERR_ARG, call + ": offset " + offset + " from " + whence + " (" + base + ") is the " +
                "negative position " + next);
        }
        return next;
    }

    // ------------------------------------------------------------------------------------------ data access

    /** Explicit offset (etypes). */
    public Status at(final String call, final boolean write, final long offset, final Object buf, final int bufOffset, final int count,
        final Datatype type)
    {
        checkNotSequential(call);
        if (offset < 0)
        {
            throw new MpiException(ErrorClass.ERR_ARG, call + ": offset " + offset + " must be >= 0");
        }
        final ViewMap v = view;
        return transfer(call, write, v, Math.multiplyExact(offset, v.etypeBytes()), buf, bufOffset, count, type);
    }

    /** Individual file pointer: accesses there and advances it past the etypes accessed. */
    public Status individual(final String call, final boolean write, final Object buf, final int bufOffset, final int count,
        final Datatype type)
    {
        checkNotSequential(call);
        synchronized (lock)
        {
            final ViewMap v = view;
            final Status status = transfer(call, write, v, Math.multiplyExact(pointer, v.etypeBytes()), buf, bufOffset, count, type);
            pointer += etypes(v, status.countBytes());
            return status;
        }
    }

    /** Shared file pointer: advances it by the etypes requested, atomically across ranks, and accesses where it was. */
    public Status shared(final String call, final boolean write, final Object buf, final int bufOffset, final int count,
        final Datatype type)
    {
        final ViewMap v = view;
        checkAccess(call, write);
        final long start = shared.fetchAdd(call, etypes(v, requestBytes(call, v, count, type)));
        return transfer(call, write, v, Math.multiplyExact(start, v.etypeBytes()), buf, bufOffset, count, type);
    }

    /**
     * The ordered forms. 1. Every rank learns every rank's request (allgather). 2. Rank 0 advances the shared pointer
     * by the sum and broadcasts where it was. 3. Each rank accesses the file from there plus the requests of the
     * ranks before it. Collective.
     */
    public Status ordered(final String call, final boolean write, final Object buf, final int bufOffset, final int count,
        final Datatype type)
    {
        final ViewMap v = view;
        long mine = -1;
        MpiException local = null;
        try
        {
            checkAccess(call, write);
            mine = etypes(v, requestBytes(call, v, count, type));
        }
        catch (final MpiException ex)
        {
            local = ex;
        }
        Agreement.agree(comm, call, local);
        final long[] all = new long[comm.size()];
        comm.allgather(new long[] {mine}, 0, 1, Datatype.LONG, all, 0, 1, Datatype.LONG);
        long before = 0;
        long total = 0;
        for (int r = 0; r < all.length; r++)
        {
            before += r < comm.rank() ? all[r] : 0;
            total += all[r];
        }
        final long sum = total;
        final long base = Agreement.rootValue(comm, call, () -> shared.fetchAdd(call, sum));
        return transfer(call, write, v, Math.multiplyExact(base + before, v.etypeBytes()), buf, bufOffset, count, type);
    }

    private Status transfer(final String call, final boolean write, final ViewMap v, final long viewByte, final Object buf,
        final int bufOffset, final int count, final Datatype type)
    {
        checkAccess(call, write);
        requestBytes(call, v, count, type);
        final long bytes = write ? io.write(call, v, viewByte, buf, bufOffset, count, type, atomic)
            : io.read(call, v, viewByte, buf, bufOffset, count, type, atomic);
        return new Status(Comm.ANY_SOURCE, Comm.ANY_TAG, ErrorClass.SUCCESS, false, bytes);
    }

    private void checkAccess(final String call, final boolean write)
    {
        if (write)
        {
            checkWritable(call);
        }
        else if ((amode & Opener.MODE_WRONLY) != 0)
        {
            throw new MpiException(ErrorClass.ERR_ACCESS, call + ": " + path + " was opened MODE_WRONLY");
        }
    }

    /** Bytes of {@code count} items of {@code type}, which must be whole etypes of the view (ERR_TYPE). */
    private static long requestBytes(final String call, final ViewMap v, final int count, final Datatype type)
    {
        if (type == null)
        {
            throw new MpiException(ErrorClass.ERR_TYPE, call + ": datatype is null");
        }
        if (count < 0)
        {
            throw new MpiException(ErrorClass.ERR_COUNT, call + ": count " + count + " must be >= 0");
        }
        final long bytes = Math.multiplyExact(type.size(), (long)count);
        if (bytes % v.etypeBytes() != 0)
        {
            throw new MpiException(ErrorClass.ERR_TYPE, call + ": " + count + " x " + type.name() + " = " + bytes + " bytes is not a " +
                "whole number of the view's " + v.etypeBytes() + "-byte etypes (" + v.etype().name() + ")");
        }
        return bytes;
    }

    /** Etypes covering {@code bytes} (a short read may end inside one: it counts as accessed). */
    private static long etypes(final ViewMap v, final long bytes)
    {
        return (bytes + v.etypeBytes() - 1) / v.etypeBytes();
    }

    private void checkNotSequential(final String call)
    {
        if ((amode & Opener.MODE_SEQUENTIAL) != 0)
        {
            throw new MpiException(ErrorClass.ERR_UNSUPPORTED_OPERATION, call + ": " + path + " was opened MODE_SEQUENTIAL; only the " +
                "shared file pointer may be used");
        }
    }

    private void checkWritable(final String call)
    {
        if ((amode & Opener.MODE_RDONLY) != 0)
        {
            throw new MpiException(ErrorClass.ERR_READ_ONLY, call + ": " + path + " was opened MODE_RDONLY");
        }
    }
}
