package org.jmpi.internal.io;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.EnumSet;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;

import org.jmpi.Datatype;
import org.jmpi.ErrorClass;
import org.jmpi.Intracomm;
import org.jmpi.MpiException;

/**
 * MPI_File_open's steps and MPI_File_delete, with the access-mode bits (MPI 4.1 §14.2.1; values as Open MPI's).
 * <ol>
 *   <li>The ranks check that they gave the same access mode and file name (ERR_NOT_SAME) and a valid name
 *       (ERR_BAD_FILE), then the mode itself (ERR_AMODE).</li>
 *   <li>With MODE_CREATE rank 0 alone creates the file (with MODE_EXCL: ERR_FILE_EXISTS if it is there), so that
 *       exactly one rank is the creator.</li>
 *   <li>Every rank opens its own channel (read and/or write as the mode says); if any rank failed, every rank closes
 *       its channel and throws.</li>
 *   <li>Rank 0 draws the shared pointer's token and, with MODE_APPEND, reads the size both pointers start at.</li>
 * </ol>
 * Stateless apart from the registry of open files ({@link #register}), which is per class loader: File.delete sees
 * the files opened by ranks that share jmpi's classes with it (threads of one JVM), not other JVMs'.
 */
public final class Opener
{
    public static final int MODE_CREATE = 1;
    public static final int MODE_RDONLY = 2;
    public static final int MODE_WRONLY = 4;
    public static final int MODE_RDWR = 8;
    public static final int MODE_DELETE_ON_CLOSE = 16;
    public static final int MODE_UNIQUE_OPEN = 32;
    public static final int MODE_EXCL = 64;
    public static final int MODE_APPEND = 128;
    public static final int MODE_SEQUENTIAL = 256;
    private static final int ALL_MODES = 511;

    /** Files open in this class loader, by absolute path, with how many handles hold them. */
    private static final ConcurrentHashMap<Path, Integer> OPEN = new ConcurrentHashMap<>();

    /** An opened file: this rank's channel, the agreed shared pointer token, where both pointers start. */
    public record Opened(Path path, FileChannel channel, long token, long start)
    {
    }

    private Opener()
    {
    }

    /** The steps above; collective over {@code comm}. */
    public static Opened open(final Intracomm comm, final String filename, final int amode)
    {
        final String call = "File.open";
        Path path = null;
        MpiException local = null;
        try
        {
            path = pathOf(call, filename);
        }
        catch (final MpiException ex)
        {
            local = ex;
        }
        final long nameHash = path == null ? 0 : path.toString().hashCode();
        final long[] same = Agreement.allMax(comm, amode, -amode, nameHash, -nameHash);
        if (same[0] != -same[1])
        {
            throw new MpiException(ErrorClass.ERR_NOT_SAME, call + ": the ranks gave different access modes (from " + -same[1] + " to " +
                same[0] + "); this rank gave " + amode);
        }
        if (same[2] != -same[3])
        {
            throw new MpiException(ErrorClass.ERR_NOT_SAME, call + ": the ranks named different files; this rank named " + filename);
        }
        Agreement.agree(comm, call, local);
        checkAmode(call, amode);
        final Path file = path;
        if ((amode & MODE_CREATE) != 0)
        {
            Agreement.rootValue(comm, call, () -> create(call, file, (amode & MODE_EXCL) != 0));
        }
        FileChannel channel = null;
        local = null;
        try
        {
            channel = channel(call, file, amode);
        }
        catch (final MpiException ex)
        {
            local = ex;
        }
        try
        {
            Agreement.agree(comm, call, local);
        }
        catch (final MpiException ex)
        {
            closeQuietly(channel);
            throw ex;
        }
        final FileChannel opened = channel;
        final long[] start = new long[2];
        if (comm.rank() == 0)
        {
            start[0] = ThreadLocalRandom.current().nextLong();
            try
            {
                start[1] = (amode & MODE_APPEND) != 0 ? opened.size() : 0;
            }
            catch (final IOException ex)
            {
                start[1] = 0;
            }
        }
        comm.bcast(start, 0, 2, Datatype.LONG, 0);
        return new Opened(file, opened, start[0], start[1]);
    }

    private static Path pathOf(final String call, final String filename)
    {
        if (filename == null || filename.isEmpty())
        {
            throw new MpiException(ErrorClass.ERR_BAD_FILE, call + ": file name is " + (filename == null ? "null" : "empty"));
        }
        try
        {
            return Path.of(filename).toAbsolutePath().normalize();
        }
        catch (final InvalidPathException ex)
        {
            throw new MpiException(ErrorClass.ERR_BAD_FILE, call + ": invalid file name \"" + filename + "\": " + ex.getReason(), ex);
        }
    }

    /** ERR_AMODE unless exactly one of RDONLY/WRONLY/RDWR, no CREATE or EXCL with RDONLY, no SEQUENTIAL with RDWR. */
    public static void checkAmode(final String call, final int amode)
    {
        final int access = amode & (MODE_RDONLY | MODE_WRONLY | MODE_RDWR);
        final String problem = (amode & ~ALL_MODES) != 0 ? "has unknown bits " + (amode & ~ALL_MODES)
            : Integer.bitCount(access) != 1 ? "needs exactly one of MODE_RDONLY, MODE_WRONLY, MODE_RDWR"
            : access == MODE_RDONLY && (amode & (MODE_CREATE | MODE_EXCL)) != 0 ? "MODE_RDONLY cannot go with MODE_CREATE or MODE_EXCL"
            : access == MODE_RDWR && (amode & MODE_SEQUENTIAL) != 0 ? "MODE_RDWR cannot go with MODE_SEQUENTIAL"
            : null;
        if (problem != null)
        {
            throw new MpiException(ErrorClass.ERR_AMODE, call + ": access mode " + amode + " " + problem);
        }
    }

    private static long create(final String call, final Path file, final boolean exclusive)
    {
        try
        {
            if (exclusive)
            {
                Files.createFile(file);
            }
            else if (!Files.exists(file))
            {
                FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE).close();
            }
            return 0;
        }
        catch (final IOException ex)
        {
            throw IoErrors.of(call, file.toString(), ex);
        }
    }

    private static FileChannel channel(final String call, final Path file, final int amode)
    {
        if (Files.isDirectory(file))
        {
            throw new MpiException(ErrorClass.ERR_BAD_FILE, call + ": " + file + " is a directory");
        }
        final Set<StandardOpenOption> options = EnumSet.noneOf(StandardOpenOption.class);
        if ((amode & (MODE_RDONLY | MODE_RDWR)) != 0)
        {
            options.add(StandardOpenOption.READ);
        }
        if ((amode & (MODE_WRONLY | MODE_RDWR)) != 0)
        {
            options.add(StandardOpenOption.WRITE);
        }
        try
        {
            return FileChannel.open(file, options);
        }
        catch (final IOException ex)
        {
            throw IoErrors.of(call, file.toString(), ex);
        }
    }

    /** Counts one more open handle of {@code path}. */
    public static void register(final Path path)
    {
        OPEN.merge(path, 1, Integer::sum);
    }

    /** Counts one handle of {@code path} less. */
    public static void unregister(final Path path)
    {
        OPEN.computeIfPresent(path, (p, n) -> n == 1 ? null : n - 1);
    }

    /**
     * MPI_File_delete.
     *
     * @throws MpiException ERR_NO_SUCH_FILE; ERR_FILE_IN_USE while a handle in this class loader has it open;
     *                      ERR_BAD_FILE for a directory or a bad name; ERR_ACCESS, ERR_IO.
     */
    public static void delete(final String call, final String filename)
    {
        final Path path = pathOf(call, filename);
        final Integer handles = OPEN.get(path);
        if (handles != null)
        {
            throw new MpiException(ErrorClass.ERR_FILE_IN_USE, call + ": " + filename + " is open (" + handles + " handles in this JVM)");
        }
        deletePath(call, path);
    }

    /** Deletes {@code path} (MODE_DELETE_ON_CLOSE, once every handle is closed). */
    public static void deletePath(final String call, final Path path)
    {
        if (Files.isDirectory(path))
        {
            throw new MpiException(ErrorClass.ERR_BAD_FILE, call + ": " + path + " is a directory");
        }
        try
        {
            Files.delete(path);
        }
        catch (final IOException ex)
        {
            throw IoErrors.of(call, path.toString(), ex);
        }
    }

    /** Closes a channel whose open failed at another rank; that failure is the one reported. */
    public static void closeQuietly(final FileChannel channel)
    {
        try
        {
            if (channel != null)
            {
                channel.close();
            }
        }
        catch (final IOException ignored)
        {
            // the open failed elsewhere; that error is the one reported
        }
    }
}
