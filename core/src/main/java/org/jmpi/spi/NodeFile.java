package org.jmpi.spi;

import org.agrona.IoUtil;
import org.jmpi.ErrorClass;
import org.jmpi.MpiException;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * A node-local file that the ranks of one job map together (a transport's shared memory): created exclusively by
 * one rank with owner-only permissions and a sparse length, attached by the others after checking it is a private
 * regular file, mapped region by region (so it may exceed 2 GiB), and deleted by its creator once every rank has
 * mapped it (the mappings stay valid), or by the transport's {@code cleanup} after a job that ended earlier.
 * Errors name the transport ({@code owner}), the file and the cause.
 *
 * <p>Threading: the owning rank's initialising thread, then {@link #close} at finalize. Owns its mappings:
 * {@link #close} unmaps them, so nothing mapped may be used afterwards.
 */
public final class NodeFile implements AutoCloseable
{
    /** Owner read and write only (0600). */
    public static final Set<PosixFilePermission> OWNER_ONLY =
        Set.copyOf(EnumSet.of(PosixFilePermission.OWNER_READ, PosixFilePermission.OWNER_WRITE));

    private final String owner;
    private final Path path;
    private final FileChannel channel;
    private final boolean creator;
    private final List<MappedByteBuffer> mappings = new ArrayList<>();
    private boolean fileDeleted;

    private NodeFile(final String owner, final Path path, final FileChannel channel, final boolean creator)
    {
        this.owner = owner;
        this.path = path;
        this.channel = channel;
        this.creator = creator;
    }

    /**
     * Creates the file exclusively with owner-only permissions and {@code lengthBytes} of zeros (sparse).
     *
     * @param owner the transport, for messages ("shm").
     * @throws MpiException ERR_OTHER when it exists already or cannot be created.
     */
    public static NodeFile create(final String owner, final Path path, final long lengthBytes)
    {
        final FileChannel channel;
        try
        {
            channel = FileChannel.open(path, EnumSet.of(StandardOpenOption.CREATE_NEW, StandardOpenOption.READ, StandardOpenOption.WRITE),
                PosixFilePermissions.asFileAttribute(OWNER_ONLY));
        }
        catch (final IOException | UnsupportedOperationException ex)
        {
            throw new MpiException(ErrorClass.ERR_OTHER, owner + ": cannot create " + path + ": " + ex, ex);
        }
        final NodeFile file = new NodeFile(owner, path, channel, true);
        try
        {
            channel.write(ByteBuffer.allocate(1), lengthBytes - 1);
        }
        catch (final IOException ex)
        {
            file.close();
            throw new MpiException(ErrorClass.ERR_OTHER, owner + ": cannot size " + path + " to " + lengthBytes + " bytes: " + ex, ex);
        }
        return file;
    }

    /**
     * Opens a file another rank created; it must be a regular file with owner-only permissions.
     *
     * @param owner the transport, for messages ("shm").
     * @throws MpiException ERR_OTHER when it is missing, not private, or cannot be opened.
     */
    public static NodeFile attach(final String owner, final Path path)
    {
        try
        {
            final Set<PosixFilePermission> permissions = Files.getPosixFilePermissions(path, LinkOption.NOFOLLOW_LINKS);
            if (!Files.isRegularFile(path, LinkOption.NOFOLLOW_LINKS) || !permissions.equals(OWNER_ONLY))
            {
                throw new MpiException(ErrorClass.ERR_OTHER, owner + ": " + path + " is not a private regular file: permissions=" +
                    PosixFilePermissions.toString(permissions));
            }
            return new NodeFile(owner, path, FileChannel.open(path, StandardOpenOption.READ, StandardOpenOption.WRITE, LinkOption.NOFOLLOW_LINKS),
                false);
        }
        catch (final IOException | UnsupportedOperationException ex)
        {
            throw new MpiException(ErrorClass.ERR_OTHER, owner + ": cannot open " + path + ": " + ex, ex);
        }
    }

    public Path path()
    {
        return path;
    }

    /** The file's current length in bytes. */
    public long length()
    {
        try
        {
            return channel.size();
        }
        catch (final IOException ex)
        {
            throw new MpiException(ErrorClass.ERR_OTHER, owner + ": cannot stat " + path + ": " + ex, ex);
        }
    }

    /** Whether this rank created the file. */
    public boolean creator()
    {
        return creator;
    }

    /** Maps {@code [offset, offset + lengthBytes)} (below 2 GiB), native byte order; unmapped by {@link #close}. */
    public MappedByteBuffer map(final long offset, final long lengthBytes)
    {
        try
        {
            final MappedByteBuffer mapping = channel.map(FileChannel.MapMode.READ_WRITE, offset, lengthBytes);
            mappings.add(mapping);
            mapping.order(java.nio.ByteOrder.nativeOrder());
            return mapping;
        }
        catch (final IOException ex)
        {
            throw new MpiException(ErrorClass.ERR_OTHER, owner + ": cannot map " + path + " at offset=" + offset + ", length=" + lengthBytes + ": " + ex, ex);
        }
    }

    /** Removes the file; the mappings stay valid. Idempotent. */
    public void deleteFile()
    {
        if (!fileDeleted)
        {
            try
            {
                Files.deleteIfExists(path);
                fileDeleted = true;
            }
            catch (final IOException ex)
            {
                throw new MpiException(ErrorClass.ERR_OTHER, owner + ": cannot delete " + path + ": " + ex, ex);
            }
        }
    }

    /** Closes the channel; the mappings stay valid. Idempotent. */
    public void closeChannel()
    {
        try
        {
            channel.close();
        }
        catch (final IOException ex)
        {
            throw new MpiException(ErrorClass.ERR_OTHER, owner + ": cannot close " + path + ": " + ex, ex);
        }
    }

    /** Unmaps every region, closes the channel and, if this rank created the file, deletes it if still there. */
    @Override
    public void close()
    {
        for (final MappedByteBuffer mapping : mappings)
        {
            IoUtil.unmap(mapping);
        }
        mappings.clear();
        try
        {
            closeChannel();
        }
        finally
        {
            if (creator)
            {
                deleteFile();
            }
        }
    }

    /**
     * Deletes the files of {@code dir} whose names start with {@code prefix} (a job's files, for a provider's
     * cleanup); returns the files deleted. Never throws: what it cannot remove it reports on standard error.
     */
    public static List<Path> deleteMatching(final String owner, final Path dir, final String prefix)
    {
        final List<Path> deleted = new ArrayList<>();
        if (prefix == null || prefix.isEmpty() || !Files.isDirectory(dir))
        {
            return deleted;
        }
        try (DirectoryStream<Path> files = Files.newDirectoryStream(dir, entry -> entry.getFileName().toString().startsWith(prefix)))
        {
            for (final Path file : files)
            {
                try
                {
                    if (Files.deleteIfExists(file))
                    {
                        deleted.add(file);
                    }
                }
                catch (final IOException ex)
                {
                    System.err.println("jmpi: " + owner + ": could not remove " + file + ": " + ex.getMessage());
                }
            }
        }
        catch (final IOException ex)
        {
            System.err.println("jmpi: " + owner + ": could not list " + dir + ": " + ex.getMessage());
        }
        return deleted;
    }
}
