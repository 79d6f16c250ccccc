package mpi;

import java.nio.Buffer;

import org.jmpi.ErrorClass;
import org.jmpi.MpiException;

/**
 * MPI_File, as Open MPI's Java bindings publish it, over jmpi's {@link org.jmpi.File} (docs/io.md). Offsets count
 * etypes of the view; a buffer (a primitive array, or a java.nio buffer, heap or direct) is used from its element 0,
 * position and limit untouched. Unlike Open MPI, the nonblocking forms also take heap buffers, and arrays through the
 * split collectives. Nonblocking forms are complete when they return.
 *
 * <p>Threading: as the file's communicator.
 */
public final class File
{
    private final org.jmpi.File file;
    private volatile FileView view = new FileView(0, MPI.BYTE, MPI.BYTE, "native");

    /** MPI_File_open with no hints. Collective over {@code comm}. */
    public File(final Comm comm, final String filename, final int amode) throws MPIException
    {
        this(comm, filename, amode, null);
    }

    /** MPI_File_open. Collective over {@code comm}. */
    public File(final Comm comm, final String filename, final int amode, final Info info) throws MPIException
    {
        MPI.check();
        if (!(comm instanceof Intracomm ic))
        {
            throw MPIException.of(ErrorClass.ERR_COMM, "File: an intracommunicator is needed, not " + comm);
        }
        final org.jmpi.Intracomm c = ic.intra();
        file = convert(() -> org.jmpi.File.open(c, filename, amode, Info.core(info)));
    }

    /** MPI_File_close (collective). A closed file raises ERR_FILE. */
    public void close() throws MPIException
    {
        run(org.jmpi.File::close);
    }

    /** MPI_File_delete with no hints. */
    public static void delete(final String filename) throws MPIException
    {
        delete(filename, null);
    }

    /** MPI_File_delete. */
    public static void delete(final String filename, final Info info) throws MPIException
    {
        MPI.check();
        convert(() ->
        {
            org.jmpi.File.delete(filename, Info.core(info));
            return null;
        });
    }

    /** MPI_File_set_size (collective). */
    public void setSize(final long size) throws MPIException
    {
        run(f -> f.setSize(size));
    }

    /** MPI_File_preallocate (collective). */
    public void preallocate(final long size) throws MPIException
    {
        run(f -> f.preallocate(size));
    }

    /** MPI_File_get_size, in bytes. */
    public long getSize() throws MPIException
    {
        return call(org.jmpi.File::size);
    }

    /** MPI_File_get_group. */
    public Group getGroup() throws MPIException
    {
        return new Group(call(org.jmpi.File::group));
    }

    /** MPI_File_get_amode. */
    public int getAMode() throws MPIException
    {
        return call(org.jmpi.File::amode);
    }

    /** MPI_File_set_info. */
    public void setInfo(final Info info) throws MPIException
    {
        final org.jmpi.Info i = Info.core(info);
        run(f -> f.setInfo(i));
    }

    /** MPI_File_get_info: a new info holding the file's hints. */
    public Info getInfo() throws MPIException
    {
        return new Info(call(org.jmpi.File::getInfo));
    }

    /** MPI_File_set_view with no hints (collective). */
    public void setView(final long disp, final Datatype etype, final Datatype filetype, final String datarep) throws MPIException
    {
        setView(disp, etype, filetype, datarep, null);
    }

    /** MPI_File_set_view (collective); {@code disp} may be {@link MPI#DISPLACEMENT_CURRENT}. */
    public void setView(final long disp, final Datatype etype, final Datatype filetype, final String datarep, final Info info)
        throws MPIException
    {
        final org.jmpi.Datatype e = Datatype.core(etype);
        final org.jmpi.Datatype t = Datatype.core(filetype);
        final org.jmpi.Info i = Info.core(info);
        final long d = disp == MPI.DISPLACEMENT_CURRENT ? org.jmpi.File.DISPLACEMENT_CURRENT : disp;
        run(f -> f.setView(d, e, t, datarep, i));
        view = new FileView(disp == MPI.DISPLACEMENT_CURRENT ? call(f -> f.view().disp()) : disp, etype, filetype, datarep);
    }

    /** MPI_File_get_view: the view last set (the datatypes as given). */
    public FileView getView()
    {
        return view;
    }

    // ------------------------------------------------------------------------------------------ explicit offsets

    /** MPI_File_read_at. */
    public Status readAt(final long offset, final Object buf, final int count, final Datatype type) throws MPIException
    {
        final org.jmpi.Datatype t = Datatype.core(type);
        return status(f -> f.readAt(offset, buf, 0, count, t));
    }

    /** MPI_File_read_at_all. */
    public Status readAtAll(final long offset, final Object buf, final int count, final Datatype type) throws MPIException
    {
        final org.jmpi.Datatype t = Datatype.core(type);
        return status(f -> f.readAtAll(offset, buf, 0, count, t));
    }

    /** MPI_File_write_at. */
    public Status writeAt(final long offset, final Object buf, final int count, final Datatype type) throws MPIException
    {
        final org.jmpi.Datatype t = Datatype.core(type);
        return status(f -> f.writeAt(offset, buf, 0, count, t));
    }

    /** MPI_File_write_at_all. */
    public Status writeAtAll(final long offset, final Object buf, final int count, final Datatype type) throws MPIException
    {
        final org.jmpi.Datatype t = Datatype.core(type);
        return status(f -> f.writeAtAll(offset, buf, 0, count, t));
    }

    /** MPI_File_iread_at. */
    public Request iReadAt(final long offset, final Buffer buf, final int count, final Datatype type) throws MPIException
    {
        final org.jmpi.Datatype t = Datatype.core(type);
        return request(f -> f.ireadAt(offset, buf, 0, count, t));
    }

    /** MPI_File_iread_at_all. */
    public Request iReadAtAll(final long offset, final Buffer buf, final int count, final Datatype type) throws MPIException
    {
        final org.jmpi.Datatype t = Datatype.core(type);
        return request(f -> f.ireadAtAll(offset, buf, 0, count, t));
    }

    /** MPI_File_iwrite_at. */
    public Request iWriteAt(final long offset, final Buffer buf, final int count, final Datatype type) throws MPIException
    {
        final org.jmpi.Datatype t = Datatype.core(type);
        return request(f -> f.iwriteAt(offset, buf, 0, count, t));
    }

    /** MPI_File_iwrite_at_all. */
    public Request iWriteAtAll(final long offset, final Buffer buf, final int count, final Datatype type) throws MPIException
    {
        final org.jmpi.Datatype t = Datatype.core(type);
        return request(f -> f.iwriteAtAll(offset, buf, 0, count, t));
    }

    // ------------------------------------------------------------------------------------------ individual file pointer

    /** MPI_File_read. */
    public Status read(final Object buf, final int count, final Datatype type) throws MPIException
    {
        final org.jmpi.Datatype t = Datatype.core(type);
        return status(f -> f.read(buf, 0, count, t));
    }

    /** MPI_File_read_all. */
    public Status readAll(final Object buf, final int count, final Datatype type) throws MPIException
    {
        final org.jmpi.Datatype t = Datatype.core(type);
        return status(f -> f.readAll(buf, 0, count, t));
    }

    /** MPI_File_write. */
    public Status write(final Object buf, final int count, final Datatype type) throws MPIException
    {
        final org.jmpi.Datatype t = Datatype.core(type);
        return status(f -> f.write(buf, 0, count, t));
    }

    /** MPI_File_write_all. */
    public Status writeAll(final Object buf, final int count, final Datatype type) throws MPIException
    {
        final org.jmpi.Datatype t = Datatype.core(type);
        return status(f -> f.writeAll(buf, 0, count, t));
    }

    /** MPI_File_iread. */
    public Request iRead(final Buffer buf, final int count, final Datatype type) throws MPIException
    {
        final org.jmpi.Datatype t = Datatype.core(type);
        return request(f -> f.iread(buf, 0, count, t));
    }

    /** MPI_File_iread_all. */
    public Request iReadAll(final Buffer buf, final int count, final Datatype type) throws MPIException
    {
        final org.jmpi.Datatype t = Datatype.core(type);
        return request(f -> f.ireadAll(buf, 0, count, t));
    }

    /** MPI_File_iwrite. */
    public Request iWrite(final Buffer buf, final int count, final Datatype type) throws MPIException
    {
        final org.jmpi.Datatype t = Datatype.core(type);
        return request(f -> f.iwrite(buf, 0, count, t));
    }

    /** MPI_File_iwrite_all. */
    public Request iWriteAll(final Buffer buf, final int count, final Datatype type) throws MPIException
    {
        final org.jmpi.Datatype t = Datatype.core(type);
        return request(f -> f.iwriteAll(buf, 0, count, t));
    }

    /** MPI_File_seek; {@code whence} is {@link MPI#SEEK_SET}, {@link MPI#SEEK_CUR} or {@link MPI#SEEK_END}. */
    public void seek(final long offset, final int whence) throws MPIException
    {
        final org.jmpi.File.Whence w = whence(whence);
        run(f -> f.seek(offset, w));
    }

    /** MPI_File_get_position: the individual file pointer, in etypes. */
    public long getPosition() throws MPIException
    {
        return call(org.jmpi.File::position);
    }

    /** MPI_File_get_byte_offset: the file byte of view offset {@code offset}. */
    public long getByteOffset(final long offset) throws MPIException
    {
        return call(f -> f.byteOffset(offset));
    }

    // ------------------------------------------------------------------------------------------ shared file pointer

    /** MPI_File_read_shared. */
    public Status readShared(final Object buf, final int count, final Datatype type) throws MPIException
    {
        final org.jmpi.Datatype t = Datatype.core(type);
        return status(f -> f.readShared(buf, 0, count, t));
    }

    /** MPI_File_write_shared. */
    public Status writeShared(final Object buf, final int count, final Datatype type) throws MPIException
    {
        final org.jmpi.Datatype t = Datatype.core(type);
        return status(f -> f.writeShared(buf, 0, count, t));
    }

    /** MPI_File_iread_shared. */
    public Request iReadShared(final Buffer buf, final int count, final Datatype type) throws MPIException
    {
        final org.jmpi.Datatype t = Datatype.core(type);
        return request(f -> f.ireadShared(buf, 0, count, t));
    }

    /** MPI_File_iwrite_shared. */
    public Request iWriteShared(final Buffer buf, final int count, final Datatype type) throws MPIException
    {
        final org.jmpi.Datatype t = Datatype.core(type);
        return request(f -> f.iwriteShared(buf, 0, count, t));
    }

    /** MPI_File_read_ordered (collective). */
    public Status readOrdered(final Object buf, final int count, final Datatype type) throws MPIException
    {
        final org.jmpi.Datatype t = Datatype.core(type);
        return status(f -> f.readOrdered(buf, 0, count, t));
    }

    /** MPI_File_write_ordered (collective). */
    public Status writeOrdered(final Object buf, final int count, final Datatype type) throws MPIException
    {
        final org.jmpi.Datatype t = Datatype.core(type);
        return status(f -> f.writeOrdered(buf, 0, count, t));
    }

    /** MPI_File_seek_shared (collective). */
    public void seekShared(final long offset, final int whence) throws MPIException
    {
        final org.jmpi.File.Whence w = whence(whence);
        run(f -> f.seekShared(offset, w));
    }

    /** MPI_File_get_position_shared: the shared file pointer, in etypes. */
    public long getPositionShared() throws MPIException
    {
        return call(org.jmpi.File::positionShared);
    }

    // ------------------------------------------------------------------------------------------ split collectives

    /** MPI_File_read_at_all_begin. */
    public void readAtAllBegin(final long offset, final Object buf, final int count, final Datatype type) throws MPIException
    {
        final org.jmpi.Datatype t = Datatype.core(type);
        run(f -> f.readAtAllBegin(offset, buf, 0, count, t));
    }

    /** MPI_File_read_at_all_end. */
    public Status readAtAllEnd(final Object buf) throws MPIException
    {
        return status(f -> f.readAtAllEnd(buf));
    }

    /** MPI_File_write_at_all_begin. */
    public void writeAtAllBegin(final long offset, final Object buf, final int count, final Datatype type) throws MPIException
    {
        final org.jmpi.Datatype t = Datatype.core(type);
        run(f -> f.writeAtAllBegin(offset, buf, 0, count, t));
    }

    /** MPI_File_write_at_all_end. */
    public Status writeAtAllEnd(final Object buf) throws MPIException
    {
        return status(f -> f.writeAtAllEnd(buf));
    }

    /** MPI_File_read_all_begin. */
    public void readAllBegin(final Object buf, final int count, final Datatype type) throws MPIException
    {
        final org.jmpi.Datatype t = Datatype.core(type);
        run(f -> f.readAllBegin(buf, 0, count, t));
    }

    /** MPI_File_read_all_end. */
    public Status readAllEnd(final Object buf) throws MPIException
    {
        return status(f -> f.readAllEnd(buf));
    }

    /** MPI_File_write_all_begin. */
    public void writeAllBegin(final Object buf, final int count, final Datatype type) throws MPIException
    {
        final org.jmpi.Datatype t = Datatype.core(type);
        run(f -> f.writeAllBegin(buf, 0, count, t));
    }

    /** MPI_File_write_all_end. */
    public Status writeAllEnd(final Object buf) throws MPIException
    {
        return status(f -> f.writeAllEnd(buf));
    }

    /** MPI_File_read_ordered_begin. */
    public void readOrderedBegin(final Object buf, final int count, final Datatype type) throws MPIException
    {
        final org.jmpi.Datatype t = Datatype.core(type);
        run(f -> f.readOrderedBegin(buf, 0, count, t));
    }

    /** MPI_File_read_ordered_end. */
    public Status readOrderedEnd(final Object buf) throws MPIException
    {
        return status(f -> f.readOrderedEnd(buf));
    }

    /** MPI_File_write_ordered_begin. */
    public void writeOrderedBegin(final Object buf, final int count, final Datatype type) throws MPIException
    {
        final org.jmpi.Datatype t = Datatype.core(type);
        run(f -> f.writeOrderedBegin(buf, 0, count, t));
    }

    /** MPI_File_write_ordered_end. */
    public Status writeOrderedEnd(final Object buf) throws MPIException
    {
        return status(f -> f.writeOrderedEnd(buf));
    }

    // ------------------------------------------------------------------------------------------ consistency, errors

    /** MPI_File_get_type_extent, in units of the type's base type (as Open MPI's datatype queries). */
    public int getTypeExtent(final Datatype type) throws MPIException
    {
        final org.jmpi.Datatype t = Datatype.core(type);
        final long bytes = call(f -> f.typeExtent(t));
        return Math.toIntExact(type.baseSize == 0 ? bytes : bytes / type.baseSize);
    }

    /** MPI_File_set_atomicity (collective). */
    public void setAtomicity(final boolean atomicity) throws MPIException
    {
        run(f -> f.setAtomicity(atomicity));
    }

    /** MPI_File_get_atomicity. */
    public boolean getAtomicity() throws MPIException
    {
        return call(org.jmpi.File::atomicity);
    }

    /** MPI_File_sync (collective). */
    public void sync() throws MPIException
    {
        run(org.jmpi.File::sync);
    }

    /** MPI_File_set_errhandler. A file's handler starts as {@link MPI#ERRORS_RETURN}, as MPI says. */
    public void setErrhandler(final Errhandler errhandler) throws MPIException
    {
        if (errhandler == null)
        {
            throw MPIException.of(ErrorClass.ERR_ARG, "setErrhandler: the handler is null");
        }
        run(f -> f.setErrorHandler(errhandler.handler));
    }

    /** MPI_File_get_errhandler. */
    public Errhandler getErrhandler() throws MPIException
    {
        return Errhandler.of(call(org.jmpi.File::errorHandler));
    }

    /** MPI_File_call_errhandler: raises error class {@code errorCode} through the file's handler. */
    public void callErrhandler(final int errorCode) throws MPIException
    {
        final ErrorClass ec = ErrorClass.of(errorCode);
        run(f -> f.callErrorHandler(ec, "callErrhandler: error " + errorCode));
    }

    // ------------------------------------------------------------------------------------------ helpers

    @FunctionalInterface
    private interface Body<T>
    {
        T apply(org.jmpi.File file);
    }

    @FunctionalInterface
    private interface Action
    {
        void apply(org.jmpi.File file);
    }

    @FunctionalInterface
    private interface Opening<T>
    {
        T get();
    }

    private static <T> T convert(final Opening<T> body) throws MPIException
    {
        try
        {
            return body.get();
        }
        catch (final MpiException ex)
        {
            throw MPIException.of(ex);
        }
    }

    private <T> T call(final Body<T> body) throws MPIException
    {
        MPI.check();
        final org.jmpi.File f = file;
        return convert(() -> body.apply(f));
    }

    private void run(final Action action) throws MPIException
    {
        call(f ->
        {
            action.apply(f);
            return null;
        });
    }

    private Status status(final Body<org.jmpi.Status> body) throws MPIException
    {
        return Status.of(call(body));
    }

    private Request request(final Body<org.jmpi.Request> body) throws MPIException
    {
        return new Request(call(body));
    }

    private static org.jmpi.File.Whence whence(final int whence) throws MPIException
    {
        return switch (whence)
        {
            case MPI.SEEK_SET -> org.jmpi.File.Whence.SET;
            case MPI.SEEK_CUR -> org.jmpi.File.Whence.CUR;
            case MPI.SEEK_END -> org.jmpi.File.Whence.END;
            default -> throw MPIException.of(ErrorClass.ERR_ARG, "seek: whence " + whence + " is not SEEK_SET, SEEK_CUR or SEEK_END");
        };
    }
}
