package org.jmpi.transport.pvas;

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
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;

/**
 * The node's arena file as one rank sees it: the file (while it exists) and this rank's mappings. Each
 * mapping covers one region (a header, an exposure table, a data segment), so the file may exceed 2 GiB.
 *
 * <p>Threading: the owning rank's initialising thread, then {@link #close} at finalize. Owns its mappings.
 */
final class ArenaFile implements AutoCloseable
{
    /** Owner read and write only (0600). */
    static final Set<PosixFilePermission> OWNER_ONLY =
        Set.copyOf(EnumSet.of(PosixFilePermission.OWNER_READ, PosixFilePermission.OWNER_WRITE));
    private static final String PREFIX = "jmpi-pvas-";

    private final Path path;
    private final FileChannel channel;
    private final boolean creator;
    private final List<MappedByteBuffer> mappings = new ArrayList<>();
    private boolean fileDeleted;

    private ArenaFile(final Path path, final FileChannel channel, final boolean creator)
    {
        this.path = path;
        this.channel = channel;
        this.creator = creator;
    }

    /** {@code jmpi-pvas-<jobId>-<16 random hex digits>}: not guessable before the job publishes it. */
    static String newFileName(final String jobId)
    {
        final byte[] random = new byte[8];
        new SecureRandom().nextBytes(random);
        return PREFIX + jobId + "-" + HexFormat.of().formatHex(random);
    }

    /**
     * Creates the file exclusively with owner-only permissions and {@code lengthBytes} of zeros (sparse).
     *
     * @throws MpiException ERR_NO_MEM when the directory has less room than that; ERR_OTHER when the file
     *                      exists already or cannot be created.
     */
    static ArenaFile create(final Path path, final long lengthBytes)
    {
        try
        {
            final long usable = Files.getFileStore(path.getParent()).getUsableSpace();
            if (usable < lengthBytes)
            {
                throw new MpiException(ErrorClass.ERR_NO_MEM, "pvas: " + path.getParent() + " has " + usable +
                    " bytes free, the node's arena needs " + lengthBytes + " (lower " + PvasParams.PARTITION_SIZE.name() + ")");
            }
        }
        catch (final IOException ex)
        {
            throw new MpiException(ErrorClass.ERR_OTHER, "pvas: cannot stat " + path.getParent() + ": " + ex, ex);
        }
        final FileChannel channel;
        try
        {
            channel = FileChannel.open(path, EnumSet.of(StandardOpenOption.CREATE_NEW, StandardOpenOption.READ, StandardOpenOption.WRITE),
                PosixFilePermissions.asFileAttribute(OWNER_ONLY));
        }
        catch (final IOException | UnsupportedOperationException ex)
        {
            throw new MpiException(ErrorClass.ERR_OTHER, "pvas: cannot create " + path + ": " + ex, ex);
        }
        final ArenaFile file = new ArenaFile(path, channel, true);
        try
        {
            channel.write(ByteBuffer.allocate(1), lengthBytes - 1);
        }
        catch (final IOException ex)
        {
            file.close();
            throw new MpiException(ErrorClass.ERR_OTHER, "pvas: cannot size " + path + " to " + lengthBytes + " bytes: " + ex, ex);
        }
        return file;
    }

    /**
     * Opens a file another rank created; it must be a regular file with owner-only permissions.
     *
     * @throws MpiException ERR_OTHER when it is missing, not private, or cannot be opened.
     */
    static ArenaFile attach(final Path path)
    {
        try
        {
            final Set<PosixFilePermission> permissions = Files.getPosixFilePermissions(path, LinkOption.NOFOLLOW_LINKS);
            if (!Files.isRegularFile(path, LinkOption.NOFOLLOW_LINKS) || !permissions.equals(OWNER_ONLY))
            {
                throw new MpiException(ErrorClass.ERR_OTHER, "pvas: " + path + " is not a private regular file: permissions=" +
                    PosixFilePermissions.toString(permissions));
            }
            return new ArenaFile(path, FileChannel.open(path, StandardOpenOption.READ, StandardOpenOption.WRITE, LinkOption.NOFOLLOW_LINKS), false);
        }
        catch (final IOException | UnsupportedOperationException ex)
        {
            throw new MpiException(ErrorClass.ERR_OTHER, "pvas: cannot open " + path + ": " + ex, ex);
        }
    }

    Path path()
    {
        return path;
    }

    long length()
    {
        try
        {
            return channel.size();
        }
        catch (final IOException ex)
        {
            throw new MpiException(ErrorClass.ERR_OTHER, "pvas: cannot stat " + path + ": " + ex, ex);
        }
    }

    /** Maps {@code [offset, offset + lengthBytes)}, native order; unmapped by {@link #close}. */
    ByteBuffer map(final long offset, final long lengthBytes)
    {
        try
        {
            final MappedByteBuffer mapping = channel.map(FileChannel.MapMode.READ_WRITE, offset, lengthBytes);
            mappings.add(mapping);
            return mapping.order(ArenaFileDescriptor.BYTE_ORDER);
        }
        catch (final IOException ex)
        {
            throw new MpiException(ErrorClass.ERR_OTHER, "pvas: cannot map " + path + " at offset=" + offset + ", length=" + lengthBytes + ": " + ex, ex);
        }
    }

    /** Removes the file; the mappings stay valid. Idempotent. */
    void deleteFile()
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
                throw new MpiException(ErrorClass.ERR_OTHER, "pvas: cannot delete " + path + ": " + ex, ex);
            }
        }
    }

    /** Closes the channel; the mappings stay valid. Idempotent. */
    void closeChannel()
    {
        try
        {
            channel.close();
        }
        catch (final IOException ex)
        {
            throw new MpiException(ErrorClass.ERR_OTHER, "pvas: cannot close " + path + ": " + ex, ex);
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

    /** Deletes {@code dir/jmpi-pvas-<jobId>-*}; returns the files deleted. Never throws. */
    static List<Path> deleteJobFiles(final Path dir, final String jobId)
    {
        final List<Path> deleted = new ArrayList<>();
        if (jobId == null || jobId.isEmpty() || !Files.isDirectory(dir))
        {
            return deleted;
        }
        final String prefix = PREFIX + jobId + "-";
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
                    System.err.println("jmpi: pvas: could not remove " + file + ": " + ex.getMessage());
                }
            }
        }
        catch (final IOException ex)
        {
            System.err.println("jmpi: pvas: could not list " + dir + ": " + ex.getMessage());
        }
        return deleted;
    }
}
