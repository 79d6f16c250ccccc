package org.jmpi.transport.shm;

import org.agrona.concurrent.UnsafeBuffer;
import org.jmpi.ErrorClass;
import org.jmpi.MpiException;
import org.jmpi.spi.NodeFile;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

import static org.jmpi.transport.shm.ShmFileDescriptor.BYTE_ORDER;

/**
 * The node's shared-memory file as one rank sees it: the file (while it exists) and this rank's
 * mappings of the regions it uses. Each region is mapped on its own, so the file may exceed 2 GiB. Creating,
 * attaching, mapping and removing it is {@link NodeFile}'s (shared with the arena transport); the header is this
 * class's.
 *
 * <p>Threading: the owning rank's thread. Owns its mappings; {@link #close} unmaps them.
 */
final class ShmSegment implements AutoCloseable
{
    /** Owner read and write only (0600). */
    static final java.util.Set<java.nio.file.attribute.PosixFilePermission> OWNER_ONLY = NodeFile.OWNER_ONLY;
    private static final String OWNER = "shm";

    private final NodeFile file;

    private ShmSegment(final NodeFile file)
    {
        this.file = file;
    }

    /** {@code jmpi-<jobId>-<first 8 hex digits of SHA-256(nodeId)>}. */
    static String fileName(final String jobId, final String nodeId)
    {
        try
        {
            final byte[] digest = MessageDigest.getInstance("SHA-256").digest(nodeId.getBytes(StandardCharsets.UTF_8));
            return "jmpi-" + jobId + "-" + HexFormat.of().formatHex(digest, 0, 4);
        }
        catch (final NoSuchAlgorithmException ex)
        {
            throw new IllegalStateException("SHA-256 is required of every JDK", ex);
        }
    }

    /**
     * Creates the file exclusively with owner-only permissions and {@code lengthBytes} of zeros (sparse).
     *
     * @throws MpiException ERR_OTHER when it exists already or cannot be created.
     */
    static ShmSegment create(final Path path, final long lengthBytes)
    {
        return new ShmSegment(NodeFile.create(OWNER, path, lengthBytes));
    }

    /**
     * Opens a file another rank created; it must be a regular file with owner-only permissions.
     *
     * @throws MpiException ERR_OTHER when it is missing, not private, or cannot be opened.
     */
    static ShmSegment attach(final Path path)
    {
        return new ShmSegment(NodeFile.attach(OWNER, path));
    }

    Path path()
    {
        return file.path();
    }

    boolean creator()
    {
        return file.creator();
    }

    /** Maps {@code [offset, offset + lengthBytes)} of the file; unmapped by {@link #close}. */
    UnsafeBuffer map(final long offset, final int lengthBytes)
    {
        return new UnsafeBuffer(file.map(offset, lengthBytes));
    }

    /** The file's current length in bytes. */
    long fileLength()
    {
        return file.length();
    }

    /** Writes the header (magic last, ordered) of a file this rank created. */
    static void writeHeader(
        final UnsafeBuffer header,
        final long fileLength,
        final long instanceId,
        final ShmConfig config,
        final int[] localRanks)
    {
        header.putInt(ShmFileDescriptor.VERSION_OFFSET, ShmFileDescriptor.VERSION, BYTE_ORDER);
        header.putInt(ShmFileDescriptor.HEADER_LENGTH_OFFSET, ShmFileDescriptor.headerLength(localRanks.length), BYTE_ORDER);
        header.putLong(ShmFileDescriptor.FILE_LENGTH_OFFSET, fileLength, BYTE_ORDER);
        header.putLong(ShmFileDescriptor.INSTANCE_ID_OFFSET, instanceId, BYTE_ORDER);
        header.putInt(ShmFileDescriptor.LOCAL_RANK_COUNT_OFFSET, localRanks.length, BYTE_ORDER);
        header.putInt(ShmFileDescriptor.RING_CAPACITY_OFFSET, config.ringCapacity(), BYTE_ORDER);
        header.putInt(ShmFileDescriptor.POOL_SLOT_COUNT_OFFSET, config.slotCount(), BYTE_ORDER);
        header.putInt(ShmFileDescriptor.SLOT_LENGTH_OFFSET, config.slotLength(), BYTE_ORDER);
        header.putInt(ShmFileDescriptor.POOL_VERSION_OFFSET, FragmentPoolDescriptor.VERSION, BYTE_ORDER);
        header.putInt(ShmFileDescriptor.MESSAGE_VERSION_OFFSET, ShmMessageDescriptor.VERSION, BYTE_ORDER);
        header.putInt(ShmFileDescriptor.FLAGS_OFFSET, config.flags(), BYTE_ORDER);
        header.putInt(ShmFileDescriptor.RESERVED_OFFSET, 0, BYTE_ORDER);
        for (int i = 0; i < localRanks.length; i++)
        {
            header.putInt(ShmFileDescriptor.rankTableEntryOffset(i), localRanks[i], BYTE_ORDER);
        }
        header.putLongRelease(ShmFileDescriptor.MAGIC_OFFSET, ShmFileDescriptor.MAGIC);
    }

    /**
     * Checks every header field against what this rank expects.
     *
     * @throws MpiException ERR_OTHER naming the first field that differs, with both values.
     */
    void verifyHeader(
        final UnsafeBuffer header,
        final long fileLength,
        final long instanceId,
        final ShmConfig config,
        final int[] localRanks)
    {
        check("magic", ShmFileDescriptor.MAGIC, header.getLongVolatile(ShmFileDescriptor.MAGIC_OFFSET));
        check("version", ShmFileDescriptor.VERSION, header.getInt(ShmFileDescriptor.VERSION_OFFSET, BYTE_ORDER));
        check("pool layout version", FragmentPoolDescriptor.VERSION, header.getInt(ShmFileDescriptor.POOL_VERSION_OFFSET, BYTE_ORDER));
        check("message layout version", ShmMessageDescriptor.VERSION, header.getInt(ShmFileDescriptor.MESSAGE_VERSION_OFFSET, BYTE_ORDER));
        check("header length", ShmFileDescriptor.headerLength(localRanks.length), header.getInt(ShmFileDescriptor.HEADER_LENGTH_OFFSET, BYTE_ORDER));
        check("instance id", instanceId, header.getLong(ShmFileDescriptor.INSTANCE_ID_OFFSET, BYTE_ORDER));
        check("file length", fileLength, header.getLong(ShmFileDescriptor.FILE_LENGTH_OFFSET, BYTE_ORDER));
        check("actual file length", fileLength, fileLength());
        check("local rank count", localRanks.length, header.getInt(ShmFileDescriptor.LOCAL_RANK_COUNT_OFFSET, BYTE_ORDER));
        check(ShmParams.RING_SIZE.name(), config.ringCapacity(), header.getInt(ShmFileDescriptor.RING_CAPACITY_OFFSET, BYTE_ORDER));
        check(ShmParams.POOL_SLOTS.name(), config.slotCount(), header.getInt(ShmFileDescriptor.POOL_SLOT_COUNT_OFFSET, BYTE_ORDER));
        check(ShmParams.SLOT_SIZE.name(), config.slotLength(), header.getInt(ShmFileDescriptor.SLOT_LENGTH_OFFSET, BYTE_ORDER));
        check("flags (" + ShmParams.CHECKSUM.name() + " is bit 0)", config.flags(), header.getInt(ShmFileDescriptor.FLAGS_OFFSET, BYTE_ORDER));
        for (int i = 0; i < localRanks.length; i++)
        {
            check("world rank of local rank " + i, localRanks[i], header.getInt(ShmFileDescriptor.rankTableEntryOffset(i), BYTE_ORDER));
        }
    }

    private void check(final String field, final long expected, final long found)
    {
        if (expected != found)
        {
            throw new MpiException(ErrorClass.ERR_OTHER, "shm: " + file.path() + " does not match this rank: " + field +
                " expected=" + expected + ", found=" + found);
        }
    }

    /** Removes the file; the mappings stay valid. Idempotent. */
    void deleteFile()
    {
        file.deleteFile();
    }

    /** Closes the channel (mappings stay valid). Idempotent. */
    void closeChannel()
    {
        file.closeChannel();
    }

    /** Unmaps every region, closes the channel and, if this rank created the file, deletes it if still there. */
    @Override
    public void close()
    {
        file.close();
    }
}
