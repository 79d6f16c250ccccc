package org.jmpi;

import java.nio.file.Path;
import java.util.function.Supplier;

import org.jmpi.internal.io.FileAccess;
import org.jmpi.internal.io.IoRequest;
import org.jmpi.internal.io.Opener;
import org.jmpi.internal.io.ViewMap;

/**
 * An MPI file (MPI 4.1 ch. 14, MPI-IO): a file opened collectively by the ranks of a communicator, read and written
 * through a view (displacement, etype, filetype, data representation) with explicit offsets, an individual file
 * pointer per rank, or the file pointer the ranks share. See docs/io.md.
 *
 * <p>Each rank reaches the file through its own {@code FileChannel} with positional reads and writes, so ranks may be
 * threads of one JVM, JVMs on one node, or hosts sharing a file system. Data goes through the datatype engine: the
 * memory type's items are packed into a staging buffer, and the view's filetype, compiled to runs, places them in the
 * file (one positional call per contiguous run). The shared file pointer lives in a small side file next to the file,
 * updated under a record lock (see {@code SharedPointer}).
 *
 * <p>Offsets and pointers count etypes of the current view. Nonblocking forms ({@code iread}...) and split collectives
 * ({@code readAllBegin}...) do their I/O in the starting call; the request is complete when returned. Collective forms
 * ({@code readAll}...) do each rank's I/O independently (no aggregation between ranks) and do not synchronise.
 *
 * <p>Errors: a file's error handler starts as {@link ErrorHandler#ERRORS_RETURN} (MPI's default for files); errors of
 * {@link #open} and {@link #delete} are always thrown. Classes: ERR_AMODE, ERR_NO_SUCH_FILE, ERR_FILE_EXISTS,
 * ERR_BAD_FILE, ERR_ACCESS (also: reading a file opened write-only), ERR_READ_ONLY (also: writing a file opened
 * read-only), ERR_NO_SPACE, ERR_QUOTA, ERR_IO, ERR_FILE (a closed file), ERR_FILE_IN_USE, ERR_UNSUPPORTED_DATAREP,
 * ERR_UNSUPPORTED_OPERATION (positioned access on a MODE_SEQUENTIAL file), ERR_NOT_SAME (collective arguments that
 * differ between ranks), ERR_TYPE, ERR_ARG.
 *
 * <p>Threading: at ThreadLevel.MULTIPLE several threads may use one file; each data access is serialised per file.
 * The file owns its channel, staging buffer and communicator (a dup of the one given), released by {@link #close}.
 */
public final class File implements AutoCloseable
{
    /** MPI_MODE_CREATE: create the file if it does not exist. */
    public static final int MODE_CREATE = Opener.MODE_CREATE;
    /** MPI_MODE_RDONLY. */
    public static final int MODE_RDONLY = Opener.MODE_RDONLY;
    /** MPI_MODE_WRONLY. */
    public static final int MODE_WRONLY = Opener.MODE_WRONLY;
    /** MPI_MODE_RDWR. */
    public static final int MODE_RDWR = Opener.MODE_RDWR;
    /** MPI_MODE_DELETE_ON_CLOSE: delete the file at {@link #close}. */
    public static final int MODE_DELETE_ON_CLOSE = Opener.MODE_DELETE_ON_CLOSE;
    /** MPI_MODE_UNIQUE_OPEN: nobody else opens the file meanwhile (a hint; accepted). */
    public static final int MODE_UNIQUE_OPEN = Opener.MODE_UNIQUE_OPEN;
    /** MPI_MODE_EXCL: with MODE_CREATE, ERR_FILE_EXISTS when the file exists. */
    public static final int MODE_EXCL = Opener.MODE_EXCL;
    /** MPI_MODE_APPEND: both file pointers start at the end of the file. */
    public static final int MODE_APPEND = Opener.MODE_APPEND;
    /** MPI_MODE_SEQUENTIAL: only shared-pointer access (no explicit offsets, no individual pointer). */
    public static final int MODE_SEQUENTIAL = Opener.MODE_SEQUENTIAL;
    /** MPI_DISPLACEMENT_CURRENT: {@link #setView}'s displacement on a MODE_SEQUENTIAL file: where the shared pointer is. */
    public static final long DISPLACEMENT_CURRENT = FileAccess.DISPLACEMENT_CURRENT;

    /** Where {@link #seek} counts from (MPI_SEEK_SET, MPI_SEEK_CUR, MPI_SEEK_END). */
    public enum Whence
    {
        SET, CUR, END
    }

    /** A file view (MPI_File_get_view). */
    public record View(long disp, Datatype etype, Datatype filetype, String datarep)
    {
    }

    private final Intracomm comm;
    private final FileAccess access;
    private final Object splitLock = new Object();
    private volatile boolean closed;
    private Info info;
    private Split split;

    /** A split collective begun and not yet ended: its kind and status. */
    private record Split(String kind, Status status)
    {
    }

    private File(final Intracomm comm, final FileAccess access, final Info info)
    {
        this.comm = comm;
        this.access = access;
        this.info = info == null ? new Info() : info.dup();
    }

    // ------------------------------------------------------------------------------------------ open, close, delete

    /**
     * MPI_File_open: every rank of {@code comm} opens {@code filename} with access mode {@code amode} (MODE_* bits:
     * exactly one of RDONLY, WRONLY, RDWR; CREATE and EXCL not with RDONLY; SEQUENTIAL not with RDWR). Collective; the
     * amode and the file name must be the same at every rank (ERR_NOT_SAME). The view starts as bytes from 0.
     *
     * @throws MpiException ERR_AMODE, ERR_NO_SUCH_FILE, ERR_FILE_EXISTS, ERR_BAD_FILE, ERR_ACCESS, ERR_READ_ONLY,
     *                      ERR_NOT_SAME, ERR_IO; at every rank when any rank failed.
     */
    public static File open(final Intracomm comm, final String filename, final int amode, final Info info)
    {
        if (comm == null)
        {
            throw new MpiException(ErrorClass.ERR_COMM, "File.open: communicator is null");
        }
        comm.live("File.open");
        final Opener.Opened opened = Opener.open(comm, filename, amode);
        final Intracomm dup = comm.dup();
        dup.setErrorHandler(ErrorHandler.ERRORS_RETURN);
        Opener.register(opened.path());
        return new File(dup, new FileAccess(dup, opened, amode), info);
    }

    /**
     * MPI_File_close: collective. Waits for every rank, removes the shared pointer's side file and, with
     * MODE_DELETE_ON_CLOSE, the file. Later calls on this file raise ERR_FILE.
     */
    public void close()
    {
        call("File.close", () ->
        {
            closed = true;
            try
            {
                access.close("File.close");
            }
            finally
            {
                comm.free();
            }
        });
    }

    /**
     * MPI_File_delete: removes the file (not collective; {@code info} is accepted and not acted on).
     *
     * @throws MpiException ERR_NO_SUCH_FILE; ERR_FILE_IN_USE while a rank sharing this JVM's jmpi classes has it open;
     *                      ERR_BAD_FILE for a directory or a bad name; ERR_ACCESS, ERR_IO.
     */
    public static void delete(final String filename, final Info info)
    {
        Opener.delete("File.delete", filename);
    }

    /** Whether {@link #close()} has run. */
    public boolean isClosed()
    {
        return closed;
    }

    // ------------------------------------------------------------------------------------------ file attributes

    /** MPI_File_get_size: bytes in the file now. */
    public long size()
    {
        return call("File.size", () -> access.size("File.size"));
    }

    /**
     * MPI_File_set_size: truncates or extends the file to {@code sizeBytes} (extended bytes read as zeros). Collective,
     * same size at every rank (ERR_NOT_SAME); ERR_READ_ONLY on a read-only file, ERR_UNSUPPORTED_OPERATION on a
     * sequential one.
     */
    public void setSize(final long sizeBytes)
    {
        resize("File.setSize", sizeBytes, true);
    }

    /** MPI_File_preallocate: makes the file at least {@code sizeBytes} long (never shorter). Collective, as {@link #setSize}. */
    public void preallocate(final long sizeBytes)
    {
        resize("File.preallocate", sizeBytes, false);
    }

    private void resize(final String call, final long sizeBytes, final boolean truncate)
    {
        call(call, () -> access.resize(call, sizeBytes, truncate));
    }

    /** MPI_File_get_group: the ranks that opened the file. */
    public Group group()
    {
        return call("File.group", comm::group);
    }

    /** MPI_File_get_amode: the access mode given to {@link #open}. */
    public int amode()
    {
        return call("File.amode", access::amode);
    }

    /** MPI_File_get_info: a copy of the hints (jmpi acts on none; they are kept and returned). */
    public Info getInfo()
    {
        return call("File.getInfo", () -> info.dup());
    }

    /** MPI_File_set_info. Collective in MPI; here local. */
    public void setInfo(final Info info)
    {
        call("File.setInfo", () ->
        {
            this.info = info == null ? new Info() : info.dup();
        });
    }

    /** The file's path (absolute). */
    public Path path()
    {
        return access.path();
    }

    // ------------------------------------------------------------------------------------------ views

    /**
     * MPI_File_set_view: data of this rank is the {@code filetype} tiled from byte {@code disp}, in units of
     * {@code etype}, stored as {@code datarep} ("native", "internal" = native, or "external32": big-endian). Resets
     * both file pointers to 0. Collective; etype size and datarep must be the same at every rank (ERR_NOT_SAME).
     *
     * @param disp bytes from the start of the file, or {@link #DISPLACEMENT_CURRENT} (MODE_SEQUENTIAL files only).
     * @throws MpiException ERR_TYPE (uncommitted type, filetype not made of etypes, negative or decreasing
     *                      displacements), ERR_UNSUPPORTED_DATAREP, ERR_ARG (negative displacement).
     */
    public void setView(final long disp, final Datatype etype, final Datatype filetype, final String datarep, final Info info)
    {
        call("File.setView", () ->
        {
            access.setView("File.setView", disp, etype, filetype, datarep);
            if (info != null)
            {
                this.info = info.dup();
            }
        });
    }

    /** MPI_File_get_view. */
    public View view()
    {
        return call("File.view", () ->
        {
            final ViewMap v = access.view();
            return new View(v.disp(), v.etype(), v.filetype(), v.datarep());
        });
    }

    /** MPI_File_get_type_extent: bytes {@code type} spans in the file (Java types have the same sizes in every datarep). */
    public long typeExtent(final Datatype type)
    {
        return call("File.typeExtent", () ->
        {
            if (type == null)
            {
                throw new MpiException(ErrorClass.ERR_TYPE, "File.typeExtent: datatype is null");
            }
            return type.extent();
        });
    }

    // ------------------------------------------------------------------------------------------ explicit offsets

    /** MPI_File_read_at: reads up to {@code count} items at view offset {@code offset} (etypes); the status counts bytes read. */
    public Status readAt(final long offset, final Object buf, final int bufOffset, final int count, final Datatype type)
    {
        return call("File.readAt", () -> access.at("File.readAt", false, offset, buf, bufOffset, count, type));
    }

    /** MPI_File_read_at_all: {@link #readAt}, collective. */
    public Status readAtAll(final long offset, final Object buf, final int bufOffset, final int count, final Datatype type)
    {
        return call("File.readAtAll", () -> access.at("File.readAtAll", false, offset, buf, bufOffset, count, type));
    }

    /** MPI_File_write_at: writes {@code count} items at view offset {@code offset} (etypes). */
    public Status writeAt(final long offset, final Object buf, final int bufOffset, final int count, final Datatype type)
    {
        return call("File.writeAt", () -> access.at("File.writeAt", true, offset, buf, bufOffset, count, type));
    }

    /** MPI_File_write_at_all: {@link #writeAt}, collective. */
    public Status writeAtAll(final long offset, final Object buf, final int bufOffset, final int count, final Datatype type)
    {
        return call("File.writeAtAll", () -> access.at("File.writeAtAll", true, offset, buf, bufOffset, count, type));
    }

    /** MPI_File_iread_at: {@link #readAt} as a request (complete when returned). */
    public Request ireadAt(final long offset, final Object buf, final int bufOffset, final int count, final Datatype type)
    {
        return request("File.ireadAt", () -> access.at("File.ireadAt", false, offset, buf, bufOffset, count, type));
    }

    /** MPI_File_iread_at_all. */
    public Request ireadAtAll(final long offset, final Object buf, final int bufOffset, final int count, final Datatype type)
    {
        return request("File.ireadAtAll", () -> access.at("File.ireadAtAll", false, offset, buf, bufOffset, count, type));
    }

    /** MPI_File_iwrite_at. */
    public Request iwriteAt(final long offset, final Object buf, final int bufOffset, final int count, final Datatype type)
    {
        return request("File.iwriteAt", () -> access.at("File.iwriteAt", true, offset, buf, bufOffset, count, type));
    }

    /** MPI_File_iwrite_at_all. */
    public Request iwriteAtAll(final long offset, final Object buf, final int bufOffset, final int count, final Datatype type)
    {
        return request("File.iwriteAtAll", () -> access.at("File.iwriteAtAll", true, offset, buf, bufOffset, count, type));
    }

    // ------------------------------------------------------------------------------------------ individual file pointer

    /** MPI_File_read: reads at the individual file pointer and advances it past the etypes read. */
    public Status read(final Object buf, final int bufOffset, final int count, final Datatype type)
    {
        return call("File.read", () -> access.individual("File.read", false, buf, bufOffset, count, type));
    }

    /** MPI_File_read_all: {@link #read}, collective. */
    public Status readAll(final Object buf, final int bufOffset, final int count, final Datatype type)
    {
        return call("File.readAll", () -> access.individual("File.readAll", false, buf, bufOffset, count, type));
    }

    /** MPI_File_write: writes at the individual file pointer and advances it. */
    public Status write(final Object buf, final int bufOffset, final int count, final Datatype type)
    {
        return call("File.write", () -> access.individual("File.write", true, buf, bufOffset, count, type));
    }

    /** MPI_File_write_all: {@link #write}, collective. */
    public Status writeAll(final Object buf, final int bufOffset, final int count, final Datatype type)
    {
        return call("File.writeAll", () -> access.individual("File.writeAll", true, buf, bufOffset, count, type));
    }

    /** MPI_File_iread. */
    public Request iread(final Object buf, final int bufOffset, final int count, final Datatype type)
    {
        return request("File.iread", () -> access.individual("File.iread", false, buf, bufOffset, count, type));
    }

    /** MPI_File_iread_all. */
    public Request ireadAll(final Object buf, final int bufOffset, final int count, final Datatype type)
    {
        return request("File.ireadAll", () -> access.individual("File.ireadAll", false, buf, bufOffset, count, type));
    }

    /** MPI_File_iwrite. */
    public Request iwrite(final Object buf, final int bufOffset, final int count, final Datatype type)
    {
        return request("File.iwrite", () -> access.individual("File.iwrite", true, buf, bufOffset, count, type));
    }

    /** MPI_File_iwrite_all. */
    public Request iwriteAll(final Object buf, final int bufOffset, final int count, final Datatype type)
    {
        return request("File.iwriteAll", () -> access.individual("File.iwriteAll", true, buf, bufOffset, count, type));
    }

    /** MPI_File_seek: moves the individual file pointer (etypes); a negative result is ERR_ARG. */
    public void seek(final long offset, final Whence whence)
    {
        call("File.seek", () -> access.seek("File.seek", offset, whence));
    }

    /** MPI_File_get_position: the individual file pointer, in etypes of the view. */
    public long position()
    {
        return call("File.position", () -> access.position("File.position"));
    }

    /** MPI_File_get_byte_offset: the file byte of view offset {@code offset} (etypes). */
    public long byteOffset(final long offset)
    {
        return call("File.byteOffset", () ->
        {
            if (offset < 0)
            {
                throw new MpiException(ErrorClass.ERR_ARG, "File.byteOffset: offset " + offset + " must be >= 0");
            }
            final ViewMap v = access.view();
            return v.fileOffset(Math.multiplyExact(offset, v.etypeBytes()));
        });
    }

    // ------------------------------------------------------------------------------------------ shared file pointer

    /** MPI_File_read_shared: reads at the shared file pointer, which advances by the etypes requested. */
    public Status readShared(final Object buf, final int bufOffset, final int count, final Datatype type)
    {
        return call("File.readShared", () -> access.shared("File.readShared", false, buf, bufOffset, count, type));
    }

    /** MPI_File_write_shared: writes at the shared file pointer, which advances by the etypes written. */
    public Status writeShared(final Object buf, final int bufOffset, final int count, final Datatype type)
    {
        return call("File.writeShared", () -> access.shared("File.writeShared", true, buf, bufOffset, count, type));
    }

    /** MPI_File_iread_shared. */
    public Request ireadShared(final Object buf, final int bufOffset, final int count, final Datatype type)
    {
        return request("File.ireadShared", () -> access.shared("File.ireadShared", false, buf, bufOffset, count, type));
    }

    /** MPI_File_iwrite_shared. */
    public Request iwriteShared(final Object buf, final int bufOffset, final int count, final Datatype type)
    {
        return request("File.iwriteShared", () -> access.shared("File.iwriteShared", true, buf, bufOffset, count, type));
    }

    /** MPI_File_read_ordered: collective; the ranks read one after another in rank order from the shared pointer. */
    public Status readOrdered(final Object buf, final int bufOffset, final int count, final Datatype type)
    {
        return call("File.readOrdered", () -> access.ordered("File.readOrdered", false, buf, bufOffset, count, type));
    }

    /** MPI_File_write_ordered: collective; the ranks' data lands in rank order at the shared pointer. */
    public Status writeOrdered(final Object buf, final int bufOffset, final int count, final Datatype type)
    {
        return call("File.writeOrdered", () -> access.ordered("File.writeOrdered", true, buf, bufOffset, count, type));
    }

    /** MPI_File_seek_shared: collective, same arguments at every rank (ERR_NOT_SAME). */
    public void seekShared(final long offset, final Whence whence)
    {
        call("File.seekShared", () -> access.seekShared("File.seekShared", offset, whence));
    }

    /** MPI_File_get_position_shared: the shared file pointer, in etypes of the view. */
    public long positionShared()
    {
        return call("File.positionShared", () -> access.positionShared("File.positionShared"));
    }

    // ------------------------------------------------------------------------------------------ split collectives

    /** MPI_File_read_at_all_begin: does the read; {@link #readAtAllEnd} returns its status. One split collective at a time (ERR_IO). */
    public void readAtAllBegin(final long offset, final Object buf, final int bufOffset, final int count, final Datatype type)
    {
        begin("File.readAtAllBegin", "readAtAll", () -> access.at("File.readAtAllBegin", false, offset, buf, bufOffset, count, type));
    }

    /** MPI_File_read_at_all_end. */
    public Status readAtAllEnd(final Object buf)
    {
        return end("File.readAtAllEnd", "readAtAll");
    }

    /** MPI_File_write_at_all_begin. */
    public void writeAtAllBegin(final long offset, final Object buf, final int bufOffset, final int count, final Datatype type)
    {
        begin("File.writeAtAllBegin", "writeAtAll", () -> access.at("File.writeAtAllBegin", true, offset, buf, bufOffset, count, type));
    }

    /** MPI_File_write_at_all_end. */
    public Status writeAtAllEnd(final Object buf)
    {
        return end("File.writeAtAllEnd", "writeAtAll");
    }

    /** MPI_File_read_all_begin. */
    public void readAllBegin(final Object buf, final int bufOffset, final int count, final Datatype type)
    {
        begin("File.readAllBegin", "readAll", () -> access.individual("File.readAllBegin", false, buf, bufOffset, count, type));
    }

    /** MPI_File_read_all_end. */
    public Status readAllEnd(final Object buf)
    {
        return end("File.readAllEnd", "readAll");
    }

    /** MPI_File_write_all_begin. */
    public void writeAllBegin(final Object buf, final int bufOffset, final int count, final Datatype type)
    {
        begin("File.writeAllBegin", "writeAll", () -> access.individual("File.writeAllBegin", true, buf, bufOffset, count, type));
    }

    /** MPI_File_write_all_end. */
    public Status writeAllEnd(final Object buf)
    {
        return end("File.writeAllEnd", "writeAll");
    }

    /** MPI_File_read_ordered_begin. */
    public void readOrderedBegin(final Object buf, final int bufOffset, final int count, final Datatype type)
    {
        begin("File.readOrderedBegin", "readOrdered", () -> access.ordered("File.readOrderedBegin", false, buf, bufOffset, count, type));
    }

    /** MPI_File_read_ordered_end. */
    public Status readOrderedEnd(final Object buf)
    {
        return end("File.readOrderedEnd", "readOrdered");
    }

    /** MPI_File_write_ordered_begin. */
    public void writeOrderedBegin(final Object buf, final int bufOffset, final int count, final Datatype type)
    {
        begin("File.writeOrderedBegin", "writeOrdered", () -> access.ordered("File.writeOrderedBegin", true, buf, bufOffset, count, type));
    }

    /** MPI_File_write_ordered_end. */
    public Status writeOrderedEnd(final Object buf)
    {
        return end("File.writeOrderedEnd", "writeOrdered");
    }

    private void begin(final String call, final String kind, final Supplier<Status> body)
    {
        call(call, () ->
        {
            synchronized (splitLock)
            {
                if (split != null)
                {
                    throw new MpiException(ErrorClass.ERR_IO, call + ": a split collective (" + split.kind() + "Begin) is active on " +
                        "this file; end it first");
                }
                split = new Split(kind, null);
            }
            Status status = null;
            try
            {
                status = body.get();
            }
            finally
            {
                synchronized (splitLock)
                {
                    split = status == null ? null : new Split(kind, status);
                }
            }
        });
    }

    private Status end(final String call, final String kind)
    {
        return call(call, () ->
        {
            synchronized (splitLock)
            {
                if (split == null || !split.kind().equals(kind))
                {
                    throw new MpiException(ErrorClass.ERR_IO, call + ": no " + kind + "Begin is active on this file" +
                        (split == null ? "" : " (" + split.kind() + "Begin is)"));
                }
                final Status status = split.status();
                split = null;
                return status;
            }
        });
    }

    // ------------------------------------------------------------------------------------------ consistency

    /** MPI_File_set_atomicity: collective, same value at every rank (ERR_NOT_SAME). In atomic mode each access locks its file range. */
    public void setAtomicity(final boolean atomic)
    {
        call("File.setAtomicity", () -> access.setAtomicity("File.setAtomicity", atomic));
    }

    /** MPI_File_get_atomicity. */
    public boolean atomicity()
    {
        return call("File.atomicity", access::atomic);
    }

    /** MPI_File_sync: forces this rank's writes to the storage device, then waits for every rank. Collective. */
    public void sync()
    {
        call("File.sync", () -> access.sync("File.sync"));
    }

    // ------------------------------------------------------------------------------------------ errors

    /** MPI_File_get_errhandler. */
    public ErrorHandler errorHandler()
    {
        return call("File.errorHandler", comm::errorHandler);
    }

    /** MPI_File_set_errhandler. */
    public void setErrorHandler(final ErrorHandler handler)
    {
        call("File.setErrorHandler", () -> comm.setErrorHandler(handler));
    }

    /**
     * MPI_File_call_errhandler: raises {@code errorClass} through the file's error handler (ERRORS_RETURN: throws it;
     * otherwise the job aborts).
     */
    public void callErrorHandler(final ErrorClass errorClass, final String message)
    {
        final Runnable raise = () ->
        {
            throw new MpiException(errorClass == null ? ErrorClass.ERR_OTHER : errorClass, "File.callErrorHandler on " + access.path() +
                ": " + message);
        };
        call("File.callErrorHandler", raise);
    }

    private Request request(final String call, final Supplier<Status> body)
    {
        return call(call, () ->
        {
            Status status = null;
            MpiException failure = null;
            try
            {
                status = body.get();
            }
            catch (final MpiException ex)
            {
                failure = ex;
                status = new Status(Comm.ANY_SOURCE, Comm.ANY_TAG, ex.errorClass(), false, 0);
            }
            return new IoRequest(comm.state.engine(), comm.state::handle, status, failure);
        });
    }

    private <T> T call(final String call, final Supplier<T> body)
    {
        if (closed)
        {
            comm.state.services().checkLive(call);
            throw new MpiException(ErrorClass.ERR_FILE, call + ": the file " + access.path() + " was closed");
        }
        return comm.call(call, body);
    }

    private void call(final String call, final Runnable body)
    {
        call(call, () ->
        {
            body.run();
            return null;
        });
    }

    @Override
    public String toString()
    {
        return "File[" + access.path() + ", amode " + access.amode() + ", rank " + comm.rank() + " of " + comm.size() + "]";
    }
}
